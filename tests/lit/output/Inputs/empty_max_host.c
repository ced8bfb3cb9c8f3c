/* Calls empty_max's wrappers at bindings where the max reduces no element
   (refused unless its result is empty too), linked with the CUDA driver
   stub: the check runs before any driver call. */
#include "empty_max.h"

#include <stdio.h>
#include <string.h>

/* x: an f32 [n, k] input on the device (never dereferenced). */
static void input(DLTensor *x, int64_t *shape) {
  memset(x, 0, sizeof *x);
  x->data = (void *)(uintptr_t)0x10000;
  x->device.device_type = kDLCUDA;
  x->ndim = 2;
  x->dtype.code = kDLFloat;
  x->dtype.bits = 32;
  x->dtype.lanes = 1;
  x->shape = shape;
}

static void describe(int64_t n, int64_t k) {
  int64_t xs[2] = {n, k}, ms[1], mst[1];
  DLTensor x, m;
  input(&x, xs);
  memset(&m, 0, sizeof m);
  m.shape = ms;
  m.strides = mst;
  int status = empty_max__empty_max_describe_outputs(&x, &m);
  printf("N=%lld K=%lld: status %d %s\n", (long long)n, (long long)k, status,
         status ? empty_max_last_error() : "");
}

static void describeSoftmax(int64_t n, int64_t k) {
  int64_t xs[2] = {n, k}, ss[2], sst[2], ls[1], lst[1];
  DLTensor x, s, l;
  input(&x, xs);
  memset(&s, 0, sizeof s);
  memset(&l, 0, sizeof l);
  s.shape = ss;
  s.strides = sst;
  l.shape = ls;
  l.strides = lst;
  int status = empty_max__empty_softmax_describe_outputs(&x, &s, &l);
  printf("softmax N=%lld K=%lld: status %d %s\n", (long long)n, (long long)k, status,
         status ? empty_max_last_error() : "");
}

int main(void) {
  describe(3, 0);
  describe(0, 0);
  describe(3, 2);
  describeSoftmax(3, 0);
  return 0;
}
