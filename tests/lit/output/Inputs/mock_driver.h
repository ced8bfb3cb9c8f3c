/* A mock CUDA driver for launch tests without a GPU (the lit tests' host
   programs include it once each): every call succeeds on a device like an
   H100, a kernel's handle is its name, and each launch records the kernel
   and its grid in mock_launched and mock_grid_x / _y. */
#include <cuda.h>
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

char mock_launched[128];
unsigned mock_grid_x, mock_grid_y;
int mock_cooperative_too_large;
int mock_context, mock_library;


CUresult cuInit(unsigned int flags) {
  (void)flags;
  return CUDA_SUCCESS;
}
CUresult cuLibraryLoadData(CUlibrary *lib, const void *code, CUjit_option *jit_options,
                           void **jit_values, unsigned int num_jit_options,
                           CUlibraryOption *options, void **values, unsigned int num_options) {
  (void)code, (void)jit_options, (void)jit_values, (void)num_jit_options, (void)options;
  (void)values, (void)num_options;
  *lib = (CUlibrary)&mock_library;
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
  (void)grid_z, (void)block_x, (void)block_y, (void)block_z, (void)shared_bytes;
  (void)stream, (void)params, (void)extra;
  snprintf(mock_launched, sizeof mock_launched, "%s", (const char *)(uintptr_t)f);
  mock_grid_x = grid_x;
  mock_grid_y = grid_y;
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
  *ctx = (CUcontext)&mock_context;
  return CUDA_SUCCESS;
}
CUresult cuCtxGetDevice(CUdevice *device) {
  *device = 0;
  return CUDA_SUCCESS;
}
CUresult cuStreamGetCtx(CUstream stream, CUcontext *ctx) {
  (void)stream;
  *ctx = (CUcontext)&mock_context;
  return CUDA_SUCCESS;
}
CUresult cuCtxPushCurrent(CUcontext ctx) {
  (void)ctx;
  return CUDA_SUCCESS;
}
CUresult cuCtxPopCurrent(CUcontext *ctx) {
  if (ctx)
    *ctx = (CUcontext)&mock_context;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  *device = ordinal;
  return CUDA_SUCCESS;
}
/* An H100's: compute capability 9.0, 132 multiprocessors, cooperative
   launches, 227 KiB of shared memory a block may opt in to, 228 KiB a
   multiprocessor. */
CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attribute, CUdevice device) {
  (void)device;
  switch (attribute) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *value = 9;
    break;
  case CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH:
    *value = 1;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    *value = 232448;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR:
    *value = 233472;
    break;
  default:
    *value = 132;
  }
  return CUDA_SUCCESS;
}
/* Kernels compiled to PTX 9.0, two blocks a multiprocessor. */
CUresult cuKernelGetAttribute(int *value, CUfunction_attribute attribute, CUkernel kernel,
                              CUdevice device) {
  (void)kernel, (void)device;
  *value = attribute == CU_FUNC_ATTRIBUTE_PTX_VERSION ? 90 : 0;
  return CUDA_SUCCESS;
}
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, CUfunction f, int block_size,
                                                     size_t shared_bytes) {
  (void)f, (void)block_size, (void)shared_bytes;
  *blocks = 2;
  return CUDA_SUCCESS;
}
/* Records the launch as cuLaunchKernel does; a cooperative grid fails as
   too large where mock_cooperative_too_large is set (an MPS client's share
   of the multiprocessors). */
CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **params, void **extra) {
  unsigned i;
  (void)params, (void)extra;
  for (i = 0; i < config->numAttrs; ++i)
    if (config->attrs[i].id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE && mock_cooperative_too_large)
      return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
  snprintf(mock_launched, sizeof mock_launched, "%s", (const char *)(uintptr_t)f);
  mock_grid_x = config->gridDimX;
  mock_grid_y = config->gridDimY;
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

/* A contiguous DLTensor of device memory at `data`. */
static DLTensor mock_tensor(void *data, uint8_t code, uint8_t bits, int ndim, int64_t *shape) {
  DLTensor t;
  memset(&t, 0, sizeof t);
  t.data = data;
  t.device.device_type = kDLCUDA;
  t.ndim = ndim;
  t.dtype.code = code;
  t.dtype.bits = bits;
  t.dtype.lanes = 1;
  t.shape = shape;
  return t;
}
