/* A stand-in for the header fuserc writes for gpu/cases/example.fus (its
   implementation: example.c; its manifest: example.manifest.json), written
   by hand after docs/header.md, so that gpu/selftest.py can test the
   harness over the Python package (the manifest's signature, DLTensor
   layout, scalars, statuses and messages) on a machine without a GPU. Its
   "launch" computes on the host: it treats the data pointers of kDLCUDA
   tensors as host memory. */
#ifndef EXAMPLE_H
#define EXAMPLE_H

#include <cuda.h>
#include <dlpack/dlpack.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  example_OK = 0,
  example_ERROR_INVALID_ARGUMENT = 1,
  example_ERROR_CUDA = 2,
  example_ERROR_UNSUPPORTED = 3,
} example_status;

const char *example_last_error(void);
void example_unload(void);

#define example__scale_add_NUM_INPUTS 3
#define example__scale_add_NUM_OUTPUTS 1
#define example__scale_add_OUTPUT_0_RANK 1

/* Fills z's ndim, dtype, shape and strides. */
example_status example__scale_add_describe_outputs(const DLTensor *in_x, const DLTensor *in_y,
                                                  DLTensor *out_z);
example_status example__scale_add_workspace_size(const DLTensor *in_x, const DLTensor *in_y,
                                                size_t *bytes);
example_status example__scale_add_launch(const DLTensor *in_x, const DLTensor *in_y, float in_alpha,
                                        DLTensor *out_z, void *workspace, size_t workspace_bytes,
                                        CUstream stream);

#ifdef __cplusplus
}
#endif
#endif /* EXAMPLE_H */
