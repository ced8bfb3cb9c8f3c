/* Launches of bench/cases/softmax.fus (bf16 [M, N]) against a mock CUDA
   driver, no GPU: a few long rows take the grid variant, launched
   cooperatively; where the driver refuses the grid as too large (an MPS
   client holds fewer multiprocessors than the device reports), the launch
   runs the cached variants instead and succeeds. Prints the kernel each
   launch ran, its grid and the status. Built and run by
   grid-launch-refused.test. */
#include "mock_driver.h"
#include "softmax.h"

static void launch(int64_t m, int64_t n, int refuse) {
  int64_t shape[2] = {m, n};
  DLTensor x = mock_tensor((void *)0x10000000, kDLBfloat, 16, 2, shape),
           y = mock_tensor((void *)0x80000000, kDLBfloat, 16, 2, shape);
  size_t bytes = 0;
  softmax_status st = softmax__softmax_workspace_size(&x, &bytes);
  mock_cooperative_too_large = refuse;
  mock_launched[0] = 0;
  if (st == softmax_OK)
    st = softmax__softmax_launch(&x, &y, (void *)0x20000000, bytes, NULL);
  printf("M=%lld N=%lld%s: status %d, %s, grid %u x %u\n", (long long)m, (long long)n,
         refuse ? " refused" : "", (int)st, mock_launched, mock_grid_x, mock_grid_y);
}

int main(void) {
  launch(1, 262144, 0); /* the grid variant: 64 slices */
  launch(1, 262144, 1); /* refused: the cluster variant */
  launch(4, 65536, 0);  /* 4 rows of 16 slices */
  launch(4, 65536, 1);  /* refused: m1024 */
  softmax_unload();
  return 0;
}
