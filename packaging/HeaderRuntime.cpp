// The runtime support every generated header carries (see HeaderParts.h):
// status codes, the per-thread error message, the argument checks the
// fusions' validation code calls, the embedded fatbin and its loader.
//
// Loading is a small state machine under one pthread mutex: the library is
// NULL (unloaded) or loaded; the first launch loads it, a failed load leaves
// it unloaded (the next launch retries), NAME_unload returns it to unloaded.
// pthread_once cannot be reset, hence the mutex. A launch holds the kernel
// handle only while cuLaunchKernel enqueues it: `launches_in_flight` counts
// those, and NAME_unload waits on a condition variable until it is zero.
#include "packaging/HeaderParts.h"

#include <cstdio>

namespace fuserc::header {
namespace {

const char *const kDeclarations = R"c(typedef enum {
  @P@_OK = 0,
  @P@_ERROR_INVALID_ARGUMENT = 1, /* an argument failed validation; nothing ran */
  @P@_ERROR_CUDA = 2,             /* a CUDA driver call failed */
  @P@_ERROR_UNSUPPORTED = 3,      /* e.g. no kernel image for this device */
  @P@_ERROR_INDEX_OUT_OF_RANGE = 4 /* an index tensor held a value out of range: the kernels
                                      ran (clamping reads, skipping such scatter positions)
                                      but the outputs are not what the fusion says */
} @P@_status;

/* This thread's message for its last call that failed; "" when that call
   succeeded (every call sets it). */
const char *@P@_last_error(void);
/* Unloads the kernels of every device; the next launch loads them again.
   Waits for launches other threads are enqueueing; kernels already on a
   stream must have finished (synchronize first). */
void @P@_unload(void);
)c";

const char *const kSupport = R"c(
#if defined(__cplusplus)
#define @P@_THREAD_LOCAL thread_local
#else
#define @P@_THREAD_LOCAL __thread
#endif
#if defined(__GNUC__)
#define @P@_PRINTF_LIKE __attribute__((format(printf, 2, 3)))
#define @P@_UNUSED __attribute__((unused))
#else
#define @P@_PRINTF_LIKE
#define @P@_UNUSED
#endif
/* kDLBool is DLPack 0.8; older dlpack.h has no name for the code. */
#define @P@_DL_BOOL 6
/* Returns from the calling function when `call` fails. */
#define @P@_TRY(call) \
  do { \
    @P@_status try_status_ = (call); \
    if (try_status_ != @P@_OK) \
      return try_status_; \
  } while (0)

#ifndef FUSERC_INT64_HELPERS_V1
#define FUSERC_INT64_HELPERS_V1
/* The integer functions of symbolic extents, with floor semantics as fuserc
   folds them; shared by every fuserc header in a translation unit. Extents
   divide by positive values; a zero divisor gives 0 rather than a trap. */
static inline int64_t fuserc_floordiv(int64_t a, int64_t b) {
  int64_t q;
  if (b == 0)
    return 0;
  if (b == -1)
    return (int64_t)(0u - (uint64_t)a);
  q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0)))
    --q;
  return q;
}
static inline int64_t fuserc_ceildiv(int64_t a, int64_t b) {
  int64_t q;
  if (b == 0)
    return 0;
  if (b == -1)
    return (int64_t)(0u - (uint64_t)a);
  q = a / b;
  if (a % b != 0 && ((a < 0) == (b < 0)))
    ++q;
  return q;
}
static inline int64_t fuserc_mod(int64_t a, int64_t b) {
  int64_t r;
  if (b == 0 || b == -1)
    return 0;
  r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}
static inline int64_t fuserc_min(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t fuserc_max(int64_t a, int64_t b) { return a > b ? a : b; }
#endif

/* ---- errors ---- */

static @P@_THREAD_LOCAL char @P@_error_message[512];
/* The public function running on this thread: every message starts with it. */
static @P@_THREAD_LOCAL const char *@P@_caller;

const char *@P@_last_error(void) { return @P@_error_message; }

static @P@_status @P@_fail(@P@_status status, const char *format, ...) @P@_PRINTF_LIKE;
static @P@_status @P@_fail(@P@_status status, const char *format, ...) {
  va_list args;
  const char *caller = @P@_caller ? @P@_caller : "@P@";
  int used = snprintf(@P@_error_message, sizeof @P@_error_message, "%s: ", caller);
  if (used < 0 || (size_t)used >= sizeof @P@_error_message)
    used = 0;
  va_start(args, format);
  vsnprintf(@P@_error_message + used, sizeof @P@_error_message - (size_t)used, format, args);
  va_end(args);
  return status;
}

static @P@_UNUSED @P@_status @P@_succeed(void) {
  @P@_error_message[0] = '\0';
  return @P@_OK;
}

/* A failed driver call (made for `kernel`, or NULL); no image for the
   device is "unsupported". */
static @P@_UNUSED @P@_status @P@_cuda_failure(
    CUresult result, const char *call, const char *kernel) {
  const char *name = NULL;
  const char *text = NULL;
  @P@_status status = @P@_ERROR_CUDA;
  if (result == CUDA_ERROR_NO_BINARY_FOR_GPU || result == CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
    status = @P@_ERROR_UNSUPPORTED;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    name = "unknown CUDA error";
  if (cuGetErrorString(result, &text) != CUDA_SUCCESS || !text)
    text = "";
  if (!kernel)
    return @P@_fail(status, "%s failed: %s (%d) %s", call, name, (int)result, text);
  return @P@_fail(
      status, "%s failed for kernel %s: %s (%d) %s", call, kernel, name, (int)result, text);
}

/* ---- argument checks ---- */

static @P@_UNUSED int64_t @P@_numel(const DLTensor *t) {
  int64_t n = 1;
  int d;
  for (d = 0; d < t->ndim; ++d)
    n *= t->shape[d];
  return n;
}

static @P@_UNUSED void @P@_dtype_text(char *buffer, size_t size, DLDataType dtype) {
  static const char *const codes[] = {
      "int", "uint", "float", "opaque", "bfloat", "complex", "bool"};
  const char *code = dtype.code < 7 ? codes[dtype.code] : "code";
  if (dtype.lanes == 1)
    snprintf(buffer, size, "%s%u", code, (unsigned)dtype.bits);
  else
    snprintf(buffer, size, "%s%ux%u", code, (unsigned)dtype.bits, (unsigned)dtype.lanes);
}

/* Pointer, rank, dtype (bool also as uint8), device (kDLCUDA, the device of
   the first tensor), shape present, extents not negative, data present. */
static @P@_UNUSED @P@_status @P@_check_tensor(
    const char *arg, const DLTensor *t, int32_t ndim, uint8_t code, uint8_t bits,
    int32_t *device_id, const char **device_from) {
  int d;
  if (!t)
    return @P@_fail(@P@_ERROR_INVALID_ARGUMENT, "%s is NULL", arg);
  if (t->ndim != ndim)
    return @P@_fail(
        @P@_ERROR_INVALID_ARGUMENT, "%s: rank is %d, expected %d", arg, (int)t->ndim, (int)ndim);
  if (t->dtype.lanes != 1 || t->dtype.bits != bits ||
      (t->dtype.code != code &&
       !(code == @P@_DL_BOOL && t->dtype.code == kDLUInt && bits == 8))) {
    char actual[32], expected[32];
    DLDataType want;
    want.code = code;
    want.bits = bits;
    want.lanes = 1;
    @P@_dtype_text(actual, sizeof actual, t->dtype);
    @P@_dtype_text(expected, sizeof expected, want);
    return @P@_fail(
        @P@_ERROR_INVALID_ARGUMENT, "%s: dtype is %s, expected %s", arg, actual, expected);
  }
  if (t->device.device_type != kDLCUDA)
    return @P@_fail(@P@_ERROR_INVALID_ARGUMENT, "%s: device type is %d, expected kDLCUDA (%d)",
        arg, (int)t->device.device_type, (int)kDLCUDA);
  if (!*device_from) {
    *device_id = t->device.device_id;
    *device_from = arg;
  } else if (t->device.device_id != *device_id) {
    return @P@_fail(@P@_ERROR_INVALID_ARGUMENT, "%s is on device %d but %s is on device %d",
        arg, (int)t->device.device_id, *device_from, (int)*device_id);
  }
  if (ndim > 0 && !t->shape)
    return @P@_fail(@P@_ERROR_INVALID_ARGUMENT, "%s: shape is NULL", arg);
  for (d = 0; d < ndim; ++d)
    if (t->shape[d] < 0)
      return @P@_fail(
          @P@_ERROR_INVALID_ARGUMENT, "%s: extent %d is %lld", arg, d, (long long)t->shape[d]);
  if (!t->data && @P@_numel(t) != 0)
    return @P@_fail(@P@_ERROR_INVALID_ARGUMENT, "%s: data is NULL", arg);
  if (((uintptr_t)t->data + (uintptr_t)t->byte_offset) % (bits / 8u) != 0)
    return @P@_fail(@P@_ERROR_INVALID_ARGUMENT,
        "%s: data + byte_offset (%p + %llu) is not aligned to its %u-byte elements", arg,
        t->data, (unsigned long long)t->byte_offset, (unsigned)(bits / 8u));
  return @P@_OK;
}

/* `what` names the expected value ("the declared extent", "symbol N"),
   `from` says where it came from. */
static @P@_UNUSED @P@_status @P@_check_extent(
    const char *arg, const DLTensor *t, int dim, int64_t expected, const char *what,
    const char *from) {
  if (t->shape[dim] == expected)
    return @P@_OK;
  return @P@_fail(@P@_ERROR_INVALID_ARGUMENT, "%s: extent %d is %lld but %s is %lld%s", arg,
      dim, (long long)t->shape[dim], what, (long long)expected, from);
}

/* The element strides: the tensor's own, or row-major when it has none. */
static @P@_UNUSED void @P@_strides(const DLTensor *t, int64_t *strides) {
  int64_t inner = 1;
  int d;
  for (d = t->ndim - 1; d >= 0; --d) {
    strides[d] = t->strides ? t->strides[d] : inner;
    inner *= t->shape[d];
  }
}

/* Dense in `layout` (outermost first). Dims of extent 1 may have any
   stride, and so may every dim of an empty tensor. */
static @P@_UNUSED @P@_status @P@_check_dense(
    const char *arg, const DLTensor *t, const int64_t *strides, const int *layout,
    const char *layout_text) {
  int64_t expected = 1;
  int k;
  if (@P@_numel(t) == 0)
    return @P@_OK;
  for (k = t->ndim - 1; k >= 0; --k) {
    int d = layout[k];
    if (t->shape[d] != 1 && strides[d] != expected)
      return @P@_fail(@P@_ERROR_INVALID_ARGUMENT,
          "%s: stride %d is %lld, expected %lld (dense in layout %s)", arg, d,
          (long long)strides[d], (long long)expected, layout_text);
    expected *= t->shape[d];
  }
  return @P@_OK;
}

static @P@_UNUSED @P@_status @P@_check_output_extents(
    const char *arg, const int64_t *shape, int rank) {
  int d;
  for (d = 0; d < rank; ++d)
    if (shape[d] < 0)
      return @P@_fail(@P@_ERROR_INVALID_ARGUMENT, "%s: extent %d would be %lld for these inputs",
          arg, d, (long long)shape[d]);
  return @P@_OK;
}

/* describe_outputs writes through shape and strides: they must be there. */
static @P@_UNUSED @P@_status @P@_check_describable(const char *arg, const DLTensor *t, int rank) {
  if (!t)
    return @P@_fail(@P@_ERROR_INVALID_ARGUMENT, "%s is NULL", arg);
  if (rank > 0 && (!t->shape || !t->strides))
    return @P@_fail(@P@_ERROR_INVALID_ARGUMENT,
        "%s: shape and strides must point at arrays of %d int64_t", arg, rank);
  return @P@_OK;
}

static @P@_UNUSED void @P@_describe(
    DLTensor *t, int rank, uint8_t code, uint8_t bits, const int64_t *shape,
    const int64_t *strides) {
  int d;
  t->ndim = rank;
  t->dtype.code = code;
  t->dtype.bits = bits;
  t->dtype.lanes = 1;
  for (d = 0; d < rank; ++d) {
    t->shape[d] = shape[d];
    t->strides[d] = strides[d];
  }
}

/* An output as describe_outputs gives it: the same extents, the same
   strides except on dims of extent 1 (and on empty tensors). */
static @P@_UNUSED @P@_status @P@_check_layout(
    const char *arg, const DLTensor *t, const int64_t *shape, const int64_t *strides,
    const char *what) {
  int64_t actual[64];
  int d;
  for (d = 0; d < t->ndim; ++d)
    if (t->shape[d] != shape[d])
      return @P@_fail(@P@_ERROR_INVALID_ARGUMENT, "%s: extent %d is %lld, expected %lld", arg,
          d, (long long)t->shape[d], (long long)shape[d]);
  if (t->ndim > 64 || @P@_numel(t) == 0)
    return @P@_OK;
  @P@_strides(t, actual);
  for (d = 0; d < t->ndim; ++d)
    if (shape[d] != 1 && actual[d] != strides[d])
      return @P@_fail(@P@_ERROR_INVALID_ARGUMENT, "%s: stride %d is %lld, expected %lld (%s)",
          arg, d, (long long)actual[d], (long long)strides[d], what);
  return @P@_OK;
}

/* Views and in-place outputs: the memory the output must start at. */
static @P@_UNUSED @P@_status @P@_check_address(
    const char *arg, const DLTensor *t, const void *data, uint64_t byte_offset,
    const char *what) {
  if ((const char *)t->data + t->byte_offset != (const char *)data + byte_offset)
    return @P@_fail(
        @P@_ERROR_INVALID_ARGUMENT, "%s: data + byte_offset is not where %s starts", arg, what);
  return @P@_OK;
}

/* The checks that ask the driver, made after every other check passed:
   the current context is on the tensors' device, and each tensor's memory
   (and the workspace) is memory that device can use — its own, or host
   memory CUDA mapped (pinned or managed). Pageable host memory, or memory
   of another device, would fault in the kernel and leave the context
   unusable. One cuPointerGetAttributes per tensor; nothing synchronizes. */
static @P@_UNUSED @P@_status @P@_check_context(int32_t device_id, const char *device_from) {
  CUdevice current, wanted;
  CUresult result = cuCtxGetDevice(&current);
  if (result != CUDA_SUCCESS)
    return @P@_cuda_failure(result, "cuCtxGetDevice (is a context current?)", NULL);
  result = cuDeviceGet(&wanted, device_id);
  if (result != CUDA_SUCCESS)
    return @P@_fail(@P@_ERROR_INVALID_ARGUMENT, "%s: device %d does not exist", device_from,
        (int)device_id);
  if (current != wanted)
    return @P@_fail(@P@_ERROR_INVALID_ARGUMENT,
        "%s is on device %d but the current context is on device %d", device_from,
        (int)device_id, (int)current);
  return @P@_OK;
}

static @P@_UNUSED @P@_status @P@_check_memory(
    const char *arg, const void *address, int32_t device_id) {
  CUpointer_attribute attributes[2];
  void *values[2];
  unsigned int memory_type = 0;
  int ordinal = -1;
  CUresult result;
  attributes[0] = CU_POINTER_ATTRIBUTE_MEMORY_TYPE;
  attributes[1] = CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL;
  values[0] = &memory_type;
  values[1] = &ordinal;
  /* Unlike cuPointerGetAttribute, this answers an unknown address with
     memory type 0 rather than an error. */
  result = cuPointerGetAttributes(2, attributes, values, (CUdeviceptr)(uintptr_t)address);
  if (result != CUDA_SUCCESS)
    return @P@_cuda_failure(result, "cuPointerGetAttributes", NULL);
  if (memory_type == 0)
    return @P@_fail(@P@_ERROR_INVALID_ARGUMENT,
        "%s: %p is not memory CUDA allocated or registered (pageable host memory?)", arg,
        address);
  if (memory_type == CU_MEMORYTYPE_DEVICE && ordinal != device_id)
    return @P@_fail(@P@_ERROR_INVALID_ARGUMENT, "%s: %p is memory of device %d, not of device %d",
        arg, address, ordinal, (int)device_id);
  return @P@_OK;
}

static @P@_UNUSED @P@_status @P@_check_tensor_memory(
    const char *arg, const DLTensor *t, int32_t device_id) {
  if (!t || @P@_numel(t) == 0)
    return @P@_OK;
  return @P@_check_memory(arg, (const char *)t->data + t->byte_offset, device_id);
}

/* Zeroes `words` 32-bit words of device memory at p, in stream order. */
static @P@_UNUSED @P@_status @P@_zero_words(void *p, size_t words, CUstream stream) {
  CUresult result = cuMemsetD32Async((CUdeviceptr)(uintptr_t)p, 0, words, stream);
  return result == CUDA_SUCCESS ? @P@_OK : @P@_cuda_failure(result, "cuMemsetD32Async", NULL);
}

/* The index flag (codegen/IndexChecks.h), the workspace's first word:
   zeroed before a launch's kernels, read back after them. Reading it waits
   for the kernels: a kernel that failed is reported as a CUDA error. A
   stream being captured into a CUDA graph cannot be waited for: there the
   flag is not read (the captured kernels still clamp and never fault). */
static @P@_UNUSED @P@_status @P@_index_flag_clear(void *workspace, CUstream stream) {
  return @P@_zero_words(workspace, 1, stream);
}

static @P@_UNUSED @P@_status @P@_index_flag_read(void *workspace, CUstream stream, int *flag) {
  const char *call = "cuStreamIsCapturing";
  CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
  CUresult result = cuStreamIsCapturing(stream, &capture);
  *flag = 0;
  if (result == CUDA_SUCCESS && capture != CU_STREAM_CAPTURE_STATUS_NONE)
    return @P@_OK;
  if (result == CUDA_SUCCESS) {
    call = "cuMemcpyDtoHAsync";
    result = cuMemcpyDtoHAsync(flag, (CUdeviceptr)(uintptr_t)workspace, sizeof *flag, stream);
  }
  if (result == CUDA_SUCCESS) {
    call = "cuStreamSynchronize";
    result = cuStreamSynchronize(stream);
  }
  return result == CUDA_SUCCESS ? @P@_OK : @P@_cuda_failure(result, call, NULL);
}

static @P@_UNUSED @P@_status @P@_check_workspace(
    int64_t needed, const void *workspace, size_t workspace_bytes) {
  if (needed > 0 && (uint64_t)workspace_bytes < (uint64_t)needed)
    return @P@_fail(@P@_ERROR_INVALID_ARGUMENT,
        "workspace_bytes is %llu but these inputs need %lld (see workspace_size)",
        (unsigned long long)workspace_bytes, (long long)needed);
  if (needed > 0 && !workspace)
    return @P@_fail(@P@_ERROR_INVALID_ARGUMENT, "workspace is NULL but %lld bytes are needed",
        (long long)needed);
  return @P@_OK;
}
)c";

const char *const kLoader = R"c(
/* ---- the library: loaded by the first launch, once per process ---- */

static pthread_mutex_t @P@_state_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t @P@_state_idle = PTHREAD_COND_INITIALIZER;
/* NULL: not loaded. */
static CUlibrary @P@_library;
/* Launches between acquire_kernel and release_kernel: unload waits for 0. */
static unsigned @P@_launches_in_flight;
/* By @P@_kernel_names; NULL until looked up. */
static CUkernel @P@_kernels[@P@_NUM_KERNELS + 1];
/* By kernel and device ordinal (the first @P@_OPTIN_DEVICES devices; on
   others every launch opts in): the dynamic shared memory the kernel was
   opted into, 0 until it took more than 48 KiB. */
#define @P@_OPTIN_DEVICES 16
static unsigned @P@_shared_opted[@P@_NUM_KERNELS + 1][@P@_OPTIN_DEVICES];

/* The kernel's handle, loading the library when needed; the caller must
   call @P@_release_kernel after using it. A kernel taking more than 48 KiB
   of dynamic shared memory is opted into `shared_bytes` on `device` once
   (per size it grows to). */
static @P@_UNUSED @P@_status @P@_acquire_kernel(
    const char *kernel, unsigned shared_bytes, CUdevice device, CUkernel *handle) {
  CUresult result = CUDA_SUCCESS;
  const char *call = "";
  int slot;
  for (slot = 0; @P@_kernel_names[slot]; ++slot)
    if (strcmp(@P@_kernel_names[slot], kernel) == 0)
      break;
  if (!@P@_kernel_names[slot])
    return @P@_fail(@P@_ERROR_UNSUPPORTED, "no kernel %s in the embedded fatbin", kernel);
  pthread_mutex_lock(&@P@_state_mutex);
  if (!@P@_library) {
    call = "cuInit";
    result = cuInit(0);
    if (result == CUDA_SUCCESS) {
      call = "cuLibraryLoadData";
      result = cuLibraryLoadData(&@P@_library, @P@_fatbin.bytes, NULL, NULL, 0, NULL, NULL, 0);
      if (result != CUDA_SUCCESS)
        @P@_library = NULL;
    }
  }
  if (result == CUDA_SUCCESS && !@P@_kernels[slot]) {
    call = "cuLibraryGetKernel";
    result = cuLibraryGetKernel(&@P@_kernels[slot], @P@_library, kernel);
    if (result != CUDA_SUCCESS)
      @P@_kernels[slot] = NULL;
  }
  if (result == CUDA_SUCCESS && shared_bytes > 48u * 1024u &&
      (device < 0 || device >= @P@_OPTIN_DEVICES ||
          @P@_shared_opted[slot][device] < shared_bytes)) {
    call = "cuKernelSetAttribute";
    result = cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
        (int)shared_bytes, @P@_kernels[slot], device);
    if (result == CUDA_SUCCESS && device >= 0 && device < @P@_OPTIN_DEVICES)
      @P@_shared_opted[slot][device] = shared_bytes;
  }
  if (result == CUDA_SUCCESS) {
    *handle = @P@_kernels[slot];
    ++@P@_launches_in_flight;
  }
  pthread_mutex_unlock(&@P@_state_mutex);
  return result == CUDA_SUCCESS ? @P@_OK : @P@_cuda_failure(result, call, kernel);
}

static @P@_UNUSED void @P@_release_kernel(void) {
  pthread_mutex_lock(&@P@_state_mutex);
  if (--@P@_launches_in_flight == 0)
    pthread_cond_broadcast(&@P@_state_idle);
  pthread_mutex_unlock(&@P@_state_mutex);
}

void @P@_unload(void) {
  int slot;
  pthread_mutex_lock(&@P@_state_mutex);
  while (@P@_launches_in_flight > 0)
    pthread_cond_wait(&@P@_state_idle, &@P@_state_mutex);
  if (@P@_library)
    cuLibraryUnload(@P@_library);
  @P@_library = NULL;
  for (slot = 0; slot < @P@_NUM_KERNELS; ++slot) {
    @P@_kernels[slot] = NULL;
    memset(@P@_shared_opted[slot], 0, sizeof @P@_shared_opted[slot]);
  }
  pthread_mutex_unlock(&@P@_state_mutex);
}

/* The shared memory of the current context's device: what one block may
   opt into, and what a multiprocessor holds (its blocks' together). */
static @P@_UNUSED @P@_status @P@_shared_memory_limits(int *per_block, int *per_multiprocessor) {
  CUdevice device;
  const char *call = "cuCtxGetDevice";
  CUresult result = cuCtxGetDevice(&device);
  if (result == CUDA_SUCCESS) {
    call = "cuDeviceGetAttribute";
    result = cuDeviceGetAttribute(
        per_block, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, device);
  }
  if (result == CUDA_SUCCESS)
    result = cuDeviceGetAttribute(
        per_multiprocessor, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, device);
  return result == CUDA_SUCCESS ? @P@_OK : @P@_cuda_failure(result, call, NULL);
}

/* Launches `kernel` with `args` (a struct) as its one by-value parameter
   (codegen/KernelPlan.h). An empty grid launches nothing: the tensors are
   empty. Dynamic shared memory over 48 KiB is opted into on the current
   context's device (once per kernel, device and size). */
static @P@_UNUSED @P@_status @P@_launch_kernel(
    const char *kernel, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,
    unsigned shared_bytes, void *args, CUstream stream) {
  CUkernel handle = NULL;
  CUdevice device = 0;
  CUresult result;
  void *params[1];
  if (grid_x == 0 || grid_y == 0 || grid_z == 0)
    return @P@_OK;
  if (shared_bytes > 48u * 1024u) {
    result = cuCtxGetDevice(&device);
    if (result != CUDA_SUCCESS)
      return @P@_cuda_failure(result, "cuCtxGetDevice", kernel);
  }
  @P@_TRY(@P@_acquire_kernel(kernel, shared_bytes, device, &handle));
  params[0] = args;
  result = cuLaunchKernel((CUfunction)handle, grid_x, grid_y, grid_z, block_x, 1, 1, shared_bytes,
      stream, params, NULL);
  @P@_release_kernel();
  return result == CUDA_SUCCESS ? @P@_OK : @P@_cuda_failure(result, "cuLaunchKernel", kernel);
}
)c";

// The fatbin as a byte array in a union with uint64_t, which aligns it to
// 8 bytes in C99 and C++ alike; 16 bytes per line.
std::string embedFatbin(const std::string &prefix, const std::string &fatbin) {
  std::string out = "/* The fatbin (" + std::to_string(fatbin.size()) +
                    " bytes): a cubin per architecture and PTX of the newest. */\n";
  size_t size = fatbin.empty() ? 1 : fatbin.size();
  out += "static const union {\n  unsigned char bytes[" + std::to_string(size) +
         "];\n  uint64_t align;\n} " + prefix + "_fatbin = {{\n";
  if (fatbin.empty())
    out += "  0\n";
  for (size_t i = 0; i < fatbin.size(); i += 16) {
    out += " ";
    for (size_t j = i; j < fatbin.size() && j < i + 16; ++j) {
      char byte[8];
      std::snprintf(byte, sizeof byte, " 0x%02x", static_cast<unsigned char>(fatbin[j]));
      out += byte;
      if (j + 1 < fatbin.size())
        out += ",";
    }
    out += "\n";
  }
  return out + "}};\n";
}

} // namespace

std::string substitutePrefix(std::string_view text, std::string_view prefix) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  size_t pos = 0;
  while (true) {
    size_t hit = text.find("@P@", pos);
    out.append(text.substr(pos, hit - pos));
    if (hit == std::string_view::npos)
      return out;
    out.append(prefix);
    pos = hit + 3;
  }
}

bool mentions(std::string_view code, std::string_view identifier) {
  auto isWordChar = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  for (size_t pos = code.find(identifier); pos != std::string_view::npos;
       pos = code.find(identifier, pos + 1)) {
    size_t end = pos + identifier.size();
    if ((pos == 0 || !isWordChar(code[pos - 1])) && (end == code.size() || !isWordChar(code[end])))
      return true;
  }
  return false;
}

std::string runtimeDeclarations(const std::string &prefix) {
  return substitutePrefix(kDeclarations, prefix);
}

std::string runtimeImplementation(const std::string &prefix,
                                  const std::vector<std::string> &kernels,
                                  const std::string &fatbin, bool clusters) {
  std::string out = substitutePrefix(kSupport, prefix);
  out += "\n/* ---- the embedded kernels ---- */\n\n";
  out += embedFatbin(prefix, fatbin);
  out += "\n#define " + prefix + "_NUM_KERNELS " + std::to_string(kernels.size()) + "\n";
  out += "static const char *const " + prefix + "_kernel_names[] = {";
  for (const std::string &k : kernels)
    out += "\n  \"" + k + "\",";
  out += kernels.empty() ? "NULL};\n" : "\n  NULL};\n";
  out += substitutePrefix(kLoader, prefix);
  if (clusters)
    out += clusterLaunchSupport(prefix);
  return out;
}

const std::vector<std::string> &runtimeIdentifiers() {
  static const std::vector<std::string> kIdentifiers = {"status",
                                                        "OK",
                                                        "ERROR_INVALID_ARGUMENT",
                                                        "ERROR_CUDA",
                                                        "ERROR_UNSUPPORTED",
                                                        "ERROR_INDEX_OUT_OF_RANGE",
                                                        "zero_words",
                                                        "index_flag_clear",
                                                        "index_flag_read",
                                                        "last_error",
                                                        "unload",
                                                        "THREAD_LOCAL",
                                                        "PRINTF_LIKE",
                                                        "UNUSED",
                                                        "DL_BOOL",
                                                        "TRY",
                                                        "error_message",
                                                        "caller",
                                                        "fail",
                                                        "succeed",
                                                        "cuda_failure",
                                                        "numel",
                                                        "dtype_text",
                                                        "check_tensor",
                                                        "check_extent",
                                                        "strides",
                                                        "check_dense",
                                                        "check_output_extents",
                                                        "check_describable",
                                                        "describe",
                                                        "check_layout",
                                                        "check_address",
                                                        "check_context",
                                                        "check_memory",
                                                        "check_tensor_memory",
                                                        "check_workspace",
                                                        "fatbin",
                                                        "NUM_KERNELS",
                                                        "kernel_names",
                                                        "state_mutex",
                                                        "state_idle",
                                                        "library",
                                                        "launches_in_flight",
                                                        "kernels",
                                                        "acquire_kernel",
                                                        "release_kernel",
                                                        "launch_kernel",
                                                        "clusters_supported",
                                                        "launch_cluster_kernel",
                                                        "OPTIN_DEVICES",
                                                        "shared_opted",
                                                        "shared_memory_limits",
                                                        "H_INCLUDED",
                                                        "IMPLEMENTATION",
                                                        "IMPLEMENTATION_DONE"};
  return kIdentifiers;
}

} // namespace fuserc::header
