/* Calls solved_extents' describe_outputs at bindings of G and K that the
   extents x: [N, 32*G] and w: [2*G, K + 2] fit or do not fit, and of M
   that M / 4 divides or does not, linked with the CUDA driver stub: the
   checks run before any driver call. */
#include "solved_extents.h"

#include <stdio.h>
#include <string.h>

static void input(DLTensor *t, int64_t *shape, int ndim) {
  memset(t, 0, sizeof *t);
  t->data = (void *)(uintptr_t)0x10000;
  t->device.device_type = kDLCUDA;
  t->ndim = ndim;
  t->dtype.code = kDLFloat;
  t->dtype.bits = 32;
  t->dtype.lanes = 1;
  t->shape = shape;
}

static void describe(int64_t n, int64_t c, int64_t w0, int64_t w1, int64_t m) {
  int64_t xs[2] = {n, c}, ws[2] = {w0, w1}, vs[1] = {m}, ys[3], yst[3], rs[2], rst[2];
  DLTensor x, w, v, y, r;
  input(&x, xs, 2);
  input(&w, ws, 2);
  input(&v, vs, 1);
  memset(&y, 0, sizeof y);
  y.shape = ys;
  y.strides = yst;
  memset(&r, 0, sizeof r);
  r.shape = rs;
  r.strides = rst;
  int status = solved_extents__solved_describe_outputs(&x, &w, &v, &y, &r);
  printf("x [%lld, %lld], w [%lld, %lld], v [%lld]: ", (long long)n, (long long)c, (long long)w0,
         (long long)w1, (long long)m);
  if (status)
    printf("status %d %s\n", status, solved_extents_last_error());
  else
    printf("y [%lld, %lld, %lld], r [%lld, %lld]\n", (long long)ys[0], (long long)ys[1],
           (long long)ys[2], (long long)rs[0], (long long)rs[1]);
}

int main(void) {
  describe(3, 64, 4, 7, 8);
  describe(3, 0, 0, 2, 0);
  describe(3, 63, 4, 7, 8);
  describe(3, 64, 6, 7, 8);
  describe(3, 64, 4, 1, 8);
  describe(3, 64, 4, 7, 10);
  return 0;
}
