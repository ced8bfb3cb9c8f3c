/* Launches of gpu/cases/straddle.fus's logits_bias (bf16 x [M, N] + b [N])
   against a mock CUDA driver, no GPU: prints the kernel each launch picks
   and its grid, for inner extents that are and are not multiples of 8 and
   for a misaligned x. Built and run by straddle-vectors.test. */
#include "straddle.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static char launched[128];
static unsigned launched_grid;
static int context, library;

CUresult cuInit(unsigned int flags) {
  (void)flags;
  return CUDA_SUCCESS;
}
CUresult cuLibraryLoadData(CUlibrary *lib, const void *code, CUjit_option *jit_options,
                           void **jit_values, unsigned int num_jit_options,
                           CUlibraryOption *options, void **values, unsigned int num_options) {
  (void)code, (void)jit_options, (void)jit_values, (void)num_jit_options, (void)options;
  (void)values, (void)num_options;
  *lib = (CUlibrary)&library;
  return CUDA_SUCCESS;
}
/* The kernel handle is its name, so the launch can say what it launched. */
CUresult cuLibraryGetKernel(CUkernel *kernel, CUlibrary lib, const char *name) {
  (void)lib;
  *kernel = (CUkernel)(uintptr_t)name;
  return CUDA_SUCCESS;
}
CUresult cuLibraryUnload(CUlibrary lib) {
  (void)lib;
  return CUDA_SUCCESS;
}
CUresult cuLaunchKernel(CUfunction f, unsigned int grid_x, unsigned int grid_y, unsigned int grid_z,
                        unsigned int block_x, unsigned int block_y, unsigned int block_z,
                        unsigned int shared_bytes, CUstream stream, void **params, void **extra) {
  (void)grid_y, (void)grid_z, (void)block_x, (void)block_y, (void)block_z, (void)shared_bytes;
  (void)stream, (void)params, (void)extra;
  snprintf(launched, sizeof launched, "%s", (const char *)(uintptr_t)f);
  launched_grid = grid_x;
  return CUDA_SUCCESS;
}
CUresult cuGetErrorName(CUresult error, const char **name) {
  (void)error;
  *name = "CUDA_ERROR_UNKNOWN";
  return CUDA_SUCCESS;
}
CUresult cuGetErrorString(CUresult error, const char **text) {
  (void)error;
  *text = "mock error";
  return CUDA_SUCCESS;
}
CUresult cuCtxGetCurrent(CUcontext *ctx) {
  *ctx = (CUcontext)&context;
  return CUDA_SUCCESS;
}
CUresult cuCtxGetDevice(CUdevice *device) {
  *device = 0;
  return CUDA_SUCCESS;
}
CUresult cuStreamGetCtx(CUstream stream, CUcontext *ctx) {
  (void)stream;
  *ctx = (CUcontext)&context;
  return CUDA_SUCCESS;
}
CUresult cuCtxPushCurrent(CUcontext ctx) {
  (void)ctx;
  return CUDA_SUCCESS;
}
CUresult cuCtxPopCurrent(CUcontext *ctx) {
  if (ctx)
    *ctx = (CUcontext)&context;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  *device = ordinal;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attribute, CUdevice device) {
  (void)attribute, (void)device;
  *value = 132;
  return CUDA_SUCCESS;
}
/* Every pointer is memory of device 0. */
CUresult cuPointerGetAttributes(unsigned int count, CUpointer_attribute *attributes, void **data,
                                CUdeviceptr ptr) {
  unsigned i;
  (void)ptr;
  for (i = 0; i < count; ++i) {
    if (attributes[i] == CU_POINTER_ATTRIBUTE_MEMORY_TYPE)
      *(unsigned *)data[i] = CU_MEMORYTYPE_DEVICE;
    else if (attributes[i] == CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL)
      *(int *)data[i] = 0;
  }
  return CUDA_SUCCESS;
}
CUresult cuKernelSetAttribute(CUfunction_attribute attribute, int value, CUkernel kernel,
                              CUdevice device) {
  (void)attribute, (void)value, (void)kernel, (void)device;
  return CUDA_SUCCESS;
}
CUresult cuStreamIsCapturing(CUstream stream, CUstreamCaptureStatus *status) {
  (void)stream;
  *status = CU_STREAM_CAPTURE_STATUS_NONE;
  return CUDA_SUCCESS;
}
CUresult cuStreamSynchronize(CUstream stream) {
  (void)stream;
  return CUDA_SUCCESS;
}
CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned int value, size_t count, CUstream stream) {
  (void)dst, (void)value, (void)count, (void)stream;
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t bytes, CUstream stream) {
  (void)src, (void)stream;
  memset(dst, 0, bytes);
  return CUDA_SUCCESS;
}

static DLTensor bf16(void *data, int ndim, int64_t *shape) {
  DLTensor t;
  memset(&t, 0, sizeof t);
  t.data = data;
  t.device.device_type = kDLCUDA;
  t.ndim = ndim;
  t.dtype.code = kDLBfloat;
  t.dtype.bits = 16;
  t.dtype.lanes = 1;
  t.shape = shape;
  return t;
}

/* x at `x_address`, b and y aligned; prints what the launch ran. */
static void launch(int64_t m, int64_t n, uintptr_t x_address) {
  int64_t xs[2] = {m, n}, bs[1] = {n}, ys[2] = {m, n};
  DLTensor x = bf16((void *)x_address, 2, xs), b = bf16((void *)0x40000000, 1, bs),
           y = bf16((void *)0x80000000, 2, ys);
  straddle_status st = straddle__logits_bias_launch(&x, &b, &y, NULL, 0, NULL);
  printf("M=%lld N=%lld x%%16=%u: status %d, %s, grid %u\n", (long long)m, (long long)n,
         (unsigned)(x_address % 16), (int)st, launched, launched_grid);
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
