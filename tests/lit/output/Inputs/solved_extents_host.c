/* Calls solved_extents' describe_outputs at bindings of G and K that the
   extents x: [N, 32*G] and w: [2*G, K + 2] fit or do not fit, linked with
   the CUDA driver stub: the checks run before any driver call. */
#include "solved_extents.h"

#include <stdio.h>
#include <string.h>

static void input(DLTensor *t, int64_t *shape) {
  memset(t, 0, sizeof *t);
  t->data = (void *)(uintptr_t)0x10000;
  t->device.device_type = kDLCUDA;
  t->ndim = 2;
  t->dtype.code = kDLFloat;
  t->dtype.bits = 32;
  t->dtype.lanes = 1;
  t->shape = shape;
}

static void describe(int64_t n, int64_t c, int64_t w0, int64_t w1) {
  int64_t xs[2] = {n, c}, ws[2] = {w0, w1}, ys[3], yst[3];
  DLTensor x, w, y;
  input(&x, xs);
  input(&w, ws);
  memset(&y, 0, sizeof y);
  y.shape = ys;
  y.strides = yst;
  int status = solved_extents_solved_describe_outputs(&x, &w, &y);
  if (status)
    printf("x [%lld, %lld], w [%lld, %lld]: status %d %s\n", (long long)n, (long long)c,
           (long long)w0, (long long)w1, status, solved_extents_last_error());
  else
    printf("x [%lld, %lld], w [%lld, %lld]: y [%lld, %lld, %lld]\n", (long long)n, (long long)c,
           (long long)w0, (long long)w1, (long long)ys[0], (long long)ys[1], (long long)ys[2]);
}

int main(void) {
  describe(3, 64, 4, 7);
  describe(3, 0, 0, 2);
  describe(3, 63, 4, 7);
  describe(3, 64, 6, 7);
  describe(3, 64, 4, 1);
  return 0;
}
