/* Launches of gpu/cases/straddle.fus's logits_bias (bf16 x [M, N] + b [N])
   against a mock CUDA driver, no GPU: prints the kernel each launch picks
   and its grid, for inner extents that are and are not multiples of 8 and
   for a misaligned x. Built and run by straddle-vectors.test. */
#include "straddle.h"
#include "mock_driver.h"

/* x at `x_address`, b and y aligned; prints what the launch ran. */
static void launch(int64_t m, int64_t n, uintptr_t x_address) {
  int64_t xs[2] = {m, n}, bs[1] = {n}, ys[2] = {m, n};
  DLTensor x = mock_tensor((void *)x_address, kDLBfloat, 16, 2, xs),
           b = mock_tensor((void *)0x40000000, kDLBfloat, 16, 1, bs),
           y = mock_tensor((void *)0x80000000, kDLBfloat, 16, 2, ys);
  straddle_status st = straddle__logits_bias_launch(&x, &b, &y, NULL, 0, NULL);
  printf("M=%lld N=%lld x%%16=%u: status %d, %s, grid %u\n", (long long)m, (long long)n,
         (unsigned)(x_address % 16), (int)st, mock_launched, mock_grid_x);
}

int main(void) {
  launch(4, 4096, 0x10000000);    /* a multiple of 8: vec8 */
  launch(4096, 4093, 0x10000000); /* odd: svec8 */
  launch(1, 50257, 0x10000000);   /* one row, a tail of 1 */
  launch(1, 3, 0x10000000);       /* fewer elements than a vector: the tail alone */
  launch(4, 4096, 0x10000002);    /* x misaligned: neither vector variant */
  straddle_unload();
  return 0;
}
