/* Calls empty_max's wrappers at bindings where the max reduces no element
   (refused unless its result is empty too), linked with the CUDA driver
   stub: the check runs before any driver call. */
#include "empty_max.h"

#include <stdio.h>
#include <string.h>

static void describe(int64_t n, int64_t k) {
  int64_t xs[2] = {n, k}, ms[1], mst[1];
  DLTensor x, m;
  memset(&x, 0, sizeof x);
  memset(&m, 0, sizeof m);
  x.data = (void *)(uintptr_t)0x10000;
  x.device.device_type = kDLCUDA;
  x.ndim = 2;
  x.dtype.code = kDLFloat;
  x.dtype.bits = 32;
  x.dtype.lanes = 1;
  x.shape = xs;
  m.shape = ms;
  m.strides = mst;
  int status = empty_max_empty_max_describe_outputs(&x, &m);
  printf("N=%lld K=%lld: status %d %s\n", (long long)n, (long long)k, status,
         status ? empty_max_last_error() : "");
}

int main(void) {
  describe(3, 0);
  describe(0, 0);
  describe(3, 2);
  return 0;
}
