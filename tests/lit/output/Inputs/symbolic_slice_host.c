/* Calls symbolic_slice's wrappers at bindings where its slices do not fit
   (and one where they do), linked with the CUDA driver stub: the bounds are
   checked before any driver call, with the values in the message. */
#include "symbolic_slice.h"

#include <stdio.h>
#include <string.h>

static DLTensor tensor(int64_t *shape) {
  DLTensor t;
  memset(&t, 0, sizeof t);
  t.data = (void *)(uintptr_t)0x10000;
  t.device.device_type = kDLCUDA;
  t.ndim = 1;
  t.dtype.code = kDLFloat;
  t.dtype.bits = 32;
  t.dtype.lanes = 1;
  t.shape = shape;
  return t;
}

static void describe(int64_t n, int64_t m) {
  int64_t xs[1] = {n}, ys[1] = {m}, hs[1], hst[1], zs[1], zst[1];
  DLTensor x = tensor(xs), y = tensor(ys), head, z;
  memset(&head, 0, sizeof head);
  memset(&z, 0, sizeof z);
  head.shape = hs;
  head.strides = hst;
  z.shape = zs;
  z.strides = zst;
  int status = symbolic_slice__symbolic_slice_describe_outputs(&x, &y, &head, &z);
  printf("N=%lld M=%lld: status %d %s\n", (long long)n, (long long)m, status,
         status ? symbolic_slice_last_error() : "");
}

int main(void) {
  describe(1, 9);
  describe(5, 2);
  describe(5, 3);
  describe(2, 4);
  return 0;
}
