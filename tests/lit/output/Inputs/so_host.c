/* Links against libsgd_update.so (fuserc --emit so) and calls it without a
   GPU: an argument that fails validation returns the status and message of
   docs/header.md, and a valid call reaches the driver (here the toolkit's
   stub, which reports no driver). */
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <stdio.h>

typedef int status_t;
status_t sgd_update__sgd_update_workspace_size(const DLTensor *w, const DLTensor *m,
                                              const DLTensor *g, size_t *bytes);
status_t sgd_update__sgd_update_launch(const DLTensor *w, const DLTensor *m, const DLTensor *g,
                                      float lr, DLTensor *m2, DLTensor *w2, void *workspace,
                                      size_t workspace_bytes, void *stream);
const char *sgd_update_last_error(void);

int main(void) {
  int64_t shape[2] = {4, 8};
  DLTensor t = {(void *)0x10000, {kDLCUDA, 0}, 2, {kDLFloat, 32, 1}, shape, NULL, 0};
  DLTensor bad = t;
  bad.dtype.bits = 64;
  size_t bytes = 1;
  int status = sgd_update__sgd_update_workspace_size(&t, &t, &t, &bytes);
  printf("workspace_size: %d %zu\n", status, bytes);
  printf("launch(bad): %d %s\n",
         sgd_update__sgd_update_launch(&t, &t, &bad, 0.1f, &t, &t, NULL, 0, NULL),
         sgd_update_last_error());
  printf("launch: %d %s\n", sgd_update__sgd_update_launch(&t, &t, &t, 0.1f, &t, &t, NULL, 0, NULL),
         sgd_update_last_error());
  return 0;
}
