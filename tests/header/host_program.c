/* A C99 program using the generated headers (kernels.h: fusions `scale` and
   `views`; other.h: `mask`; see tests/unit/PackagingFixtures.h). No GPU is
   needed. It is built twice:

   - linked with the CUDA driver stub, it makes only calls whose validation
     fails: they must return NAME_ERROR_INVALID_ARGUMENT with the documented
     message before any driver call (a stub call would answer
     CUDA_ERROR_STUB_LIBRARY, and the status would be NAME_ERROR_CUDA);
   - with FUSERC_MOCK_DRIVER, it defines the driver functions the headers call
     and is linked without libcuda (so a driver function the headers call
     but the mock lacks fails the link). The mocks count calls: validation
     failures make none, and successful launches go through loading (once),
     kernel lookup (cached), launch with the right arguments, and unload.

   Prints each failed check and exits with 1 if any failed. Pointers are
   fake device addresses: nothing is dereferenced. */
#include "kernels.h"
#include "other.h"
/* The implementations: kernels.c (split form), other.h's own section. */
#include "kernels.c"
#define other_IMPLEMENTATION
#include "other.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static int failures;

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);                     \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

/* The call returned `status` with exactly `message` as the last error. */
#define CHECK_ERROR(call, status, message)                                                         \
  check_error((int)(call), (int)(status), message, __LINE__)

static void check_error(int actual, int expected, const char *message, int line) {
  const char *last = strncmp(message, "other_", 6) == 0 ? other_last_error() : kernels_last_error();
  if (actual != expected || strcmp(last, message) != 0) {
    fprintf(stderr, "%s:%d: expected status %d \"%s\"\n  got status %d \"%s\"\n", __FILE__, line,
            expected, message, actual, last);
    ++failures;
  }
}

/* ---- tensors ---- */

typedef struct {
  DLTensor t;
  int64_t shape[4];
  int64_t strides[4];
} Tensor;

/* A CUDA tensor on device 0 with the given extents and strides (NULL: none). */
static DLTensor *tensor(Tensor *x, uintptr_t data, uint8_t code, uint8_t bits, int ndim,
                        const int64_t *shape, const int64_t *strides) {
  int d;
  memset(x, 0, sizeof *x);
  x->t.data = (void *)data;
  x->t.device.device_type = kDLCUDA;
  x->t.device.device_id = 0;
  x->t.ndim = ndim;
  x->t.dtype.code = code;
  x->t.dtype.bits = bits;
  x->t.dtype.lanes = 1;
  x->t.shape = x->shape;
  x->t.strides = strides ? x->strides : NULL;
  for (d = 0; d < ndim; ++d) {
    x->shape[d] = shape[d];
    if (strides)
      x->strides[d] = strides[d];
  }
  return &x->t;
}

/* An output for describe_outputs to fill in. */
static DLTensor *empty_output(Tensor *x) {
  memset(x, 0, sizeof *x);
  x->t.shape = x->shape;
  x->t.strides = x->strides;
  return &x->t;
}

static int same(const int64_t *a, const int64_t *b, int n) {
  int i;
  for (i = 0; i < n; ++i)
    if (a[i] != b[i])
      return 0;
  return 1;
}

/* ---- the mock driver ---- */

#ifdef FUSERC_MOCK_DRIVER
static pthread_mutex_t mock_mutex = PTHREAD_MUTEX_INITIALIZER;
static int driver_calls, loads, unloads, lookups, launches;
static CUresult next_load_result = CUDA_SUCCESS, next_launch_result = CUDA_SUCCESS;
static char launched_kernel[64];
static unsigned launched_grid, launched_block;
static kernels_scale_k0_args launched_scale_args;
static int library_a, library_b;

static void count(int *counter) {
  pthread_mutex_lock(&mock_mutex);
  ++driver_calls;
  if (counter)
    ++*counter;
  pthread_mutex_unlock(&mock_mutex);
}

CUresult cuInit(unsigned int flags) {
  CHECK(flags == 0);
  count(NULL);
  return CUDA_SUCCESS;
}

CUresult cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jit_options,
                           void **jit_values, unsigned int num_jit_options,
                           CUlibraryOption *options, void **values, unsigned int num_options) {
  uint32_t magic;
  CUresult result = next_load_result;
  (void)jit_options, (void)jit_values, (void)options, (void)values;
  CHECK(num_jit_options == 0 && num_options == 0);
  CHECK((uintptr_t)code % 8 == 0);
  memcpy(&magic, code, sizeof magic);
  CHECK(magic == 0xBA55ED50u); /* a fatbin */
  count(&loads);
  next_load_result = CUDA_SUCCESS;
  *library = (CUlibrary)(loads % 2 ? (void *)&library_a : (void *)&library_b);
  return result;
}

/* The kernel handle is the name, so the launch can say what it launched. */
CUresult cuLibraryGetKernel(CUkernel *kernel, CUlibrary library, const char *name) {
  CHECK(library != NULL);
  count(&lookups);
  *kernel = (CUkernel)(uintptr_t)name;
  return CUDA_SUCCESS;
}

CUresult cuLibraryUnload(CUlibrary library) {
  CHECK(library != NULL);
  count(&unloads);
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction f, unsigned int grid_x, unsigned int grid_y, unsigned int grid_z,
                        unsigned int block_x, unsigned int block_y, unsigned int block_z,
                        unsigned int shared_bytes, CUstream stream, void **params, void **extra) {
  const char *name = (const char *)(uintptr_t)f;
  CUresult result = next_launch_result;
  (void)stream;
  CHECK(grid_y == 1 && grid_z == 1 && block_y == 1 && block_z == 1 && shared_bytes == 0);
  CHECK(params != NULL && extra == NULL);
  count(&launches);
  pthread_mutex_lock(&mock_mutex);
  snprintf(launched_kernel, sizeof launched_kernel, "%s", name);
  launched_grid = grid_x;
  launched_block = block_x;
  if (strncmp(name, "scale", 5) == 0)
    memcpy(&launched_scale_args, params[0], sizeof launched_scale_args);
  next_launch_result = CUDA_SUCCESS;
  pthread_mutex_unlock(&mock_mutex);
  return result;
}

CUresult cuGetErrorName(CUresult error, const char **name) {
  *name = error == CUDA_ERROR_NO_BINARY_FOR_GPU ? "CUDA_ERROR_NO_BINARY_FOR_GPU"
          : error == CUDA_ERROR_OUT_OF_MEMORY   ? "CUDA_ERROR_OUT_OF_MEMORY"
                                                : "CUDA_ERROR_UNKNOWN";
  return CUDA_SUCCESS;
}

CUresult cuGetErrorString(CUresult error, const char **text) {
  *text = error == CUDA_ERROR_NO_BINARY_FOR_GPU ? "no kernel image is available" : "mock error";
  return CUDA_SUCCESS;
}

static int current_device;
/* The index flag: what the mock "copies back", and the calls around it. */
static int next_index_flag, flag_clears, flag_reads, stream_syncs;
static CUdeviceptr cleared_at;

CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned int value, size_t count_, CUstream stream) {
  (void)stream;
  CHECK(value == 0 && count_ == 1);
  count(&flag_clears);
  cleared_at = dst;
  return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t bytes, CUstream stream) {
  (void)stream;
  CHECK(src == cleared_at && bytes == sizeof(int));
  count(&flag_reads);
  memcpy(dst, &next_index_flag, sizeof(int));
  next_index_flag = 0;
  return CUDA_SUCCESS;
}

static CUstreamCaptureStatus capture_status = CU_STREAM_CAPTURE_STATUS_NONE;

CUresult cuStreamIsCapturing(CUstream stream, CUstreamCaptureStatus *status) {
  (void)stream;
  count(NULL);
  *status = capture_status;
  return CUDA_SUCCESS;
}

CUresult cuStreamSynchronize(CUstream stream) {
  (void)stream;
  count(&stream_syncs);
  return CUDA_SUCCESS;
}

/* Contexts: the current one (on current_device), and two others a stream
   may belong to, one on device 0 and one on device 1. Streams are
   (CUstream)1 (the first) and (CUstream)2 (the second); any other stream
   belongs to the current context. */
static int context_current, context_other_0, context_other_1;
static CUcontext pushed_context;

static int context_device(CUcontext context) {
  return context == (CUcontext)&context_other_0   ? 0
         : context == (CUcontext)&context_other_1 ? 1
                                                   : current_device;
}

CUresult cuCtxGetDevice(CUdevice *device) {
  count(NULL);
  *device = pushed_context ? context_device(pushed_context) : current_device;
  return CUDA_SUCCESS;
}

CUresult cuCtxGetCurrent(CUcontext *context) {
  count(NULL);
  *context = pushed_context ? pushed_context : (CUcontext)&context_current;
  return CUDA_SUCCESS;
}

CUresult cuStreamGetCtx(CUstream stream, CUcontext *context) {
  count(NULL);
  *context = stream == (CUstream)1   ? (CUcontext)&context_other_0
             : stream == (CUstream)2 ? (CUcontext)&context_other_1
                                     : (CUcontext)&context_current;
  return CUDA_SUCCESS;
}

CUresult cuCtxPushCurrent(CUcontext context) {
  count(NULL);
  CHECK(pushed_context == NULL);
  pushed_context = context;
  return CUDA_SUCCESS;
}

CUresult cuCtxPopCurrent(CUcontext *context) {
  count(NULL);
  CHECK(pushed_context != NULL);
  if (context)
    *context = pushed_context;
  pushed_context = NULL;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  count(NULL);
  *device = ordinal;
  return ordinal < 2 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

/* The mock's address space: [0x10000, 0x100000) is memory of device 0,
   [0x100000, 0x200000) of device 1, [0x200000, 0x300000) pinned host
   memory; anything else is unknown to CUDA. */
CUresult cuPointerGetAttributes(unsigned int count_, CUpointer_attribute *attributes, void **data,
                                CUdeviceptr ptr) {
  unsigned memory_type = ptr >= 0x10000 && ptr < 0x200000    ? CU_MEMORYTYPE_DEVICE
                         : ptr >= 0x200000 && ptr < 0x300000 ? CU_MEMORYTYPE_HOST
                                                             : 0u;
  unsigned i;
  count(NULL);
  for (i = 0; i < count_; ++i) {
    if (attributes[i] == CU_POINTER_ATTRIBUTE_MEMORY_TYPE)
      *(unsigned *)data[i] = memory_type;
    else if (attributes[i] == CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL)
      *(int *)data[i] = memory_type == 0 ? -2 : ptr >= 0x100000 && ptr < 0x200000 ? 1 : 0;
    else
      CHECK(!"an attribute the mock does not know");
  }
  return CUDA_SUCCESS;
}

CUresult cuKernelSetAttribute(CUfunction_attribute attribute, int value, CUkernel kernel,
                              CUdevice device) {
  (void)attribute, (void)value, (void)kernel, (void)device;
  count(NULL);
  return CUDA_SUCCESS;
}

/* The shared memory of an H200 (per block opted into, per
   multiprocessor), for row kernels sizing their shared-memory cache. */
CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attribute, CUdevice device) {
  (void)device;
  count(NULL);
  CHECK(attribute == CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN ||
        attribute == CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
  *value = attribute == CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN ? 232448 : 233472;
  return CUDA_SUCCESS;
}
#endif

/* ---- validation: every failure is reported before any driver call ---- */

static const int64_t kScaleShape[2] = {3, 5};   /* N, C */
static const int64_t kScaleStrides[2] = {1, 3}; /* layout (1, 0) */
static const int64_t kRowMajor35[2] = {5, 1};

static void scale_validation(void) {
  Tensor x, y, bad;
  tensor(&x, 0x10000, kDLFloat, 32, 2, kScaleShape, kScaleStrides);

  CHECK_ERROR(kernels__scale_describe_outputs(NULL, empty_output(&y)),
              kernels_ERROR_INVALID_ARGUMENT, "kernels__scale_describe_outputs: x is NULL");
  CHECK_ERROR(kernels__scale_describe_outputs(&x.t, NULL), kernels_ERROR_INVALID_ARGUMENT,
              "kernels__scale_describe_outputs: y is NULL");
  empty_output(&y)->shape = NULL;
  CHECK_ERROR(kernels__scale_describe_outputs(&x.t, &y.t), kernels_ERROR_INVALID_ARGUMENT,
              "kernels__scale_describe_outputs: y: shape and strides must point at arrays of "
              "2 int64_t");
  CHECK_ERROR(kernels__scale_describe_outputs(
                  tensor(&bad, 0x10000, kDLFloat, 32, 1, kScaleShape, NULL), empty_output(&y)),
              kernels_ERROR_INVALID_ARGUMENT,
              "kernels__scale_describe_outputs: x: rank is 1, expected 2");
  CHECK_ERROR(
      kernels__scale_describe_outputs(
          tensor(&bad, 0x10000, kDLFloat, 16, 2, kScaleShape, kScaleStrides), empty_output(&y)),
      kernels_ERROR_INVALID_ARGUMENT,
      "kernels__scale_describe_outputs: x: dtype is float16, expected float32");
  tensor(&bad, 0x10000, kDLFloat, 32, 2, kScaleShape, kScaleStrides)->device.device_type = kDLCPU;
  CHECK_ERROR(kernels__scale_describe_outputs(&bad.t, empty_output(&y)),
              kernels_ERROR_INVALID_ARGUMENT,
              "kernels__scale_describe_outputs: x: device type is 1, expected kDLCUDA (2)");
  tensor(&bad, 0, kDLFloat, 32, 2, kScaleShape, kScaleStrides);
  CHECK_ERROR(kernels__scale_describe_outputs(&bad.t, empty_output(&y)),
              kernels_ERROR_INVALID_ARGUMENT, "kernels__scale_describe_outputs: x: data is NULL");
  /* A float32 tensor must start on a 4-byte boundary, whatever the vector
     variants need (those fall back to scalar code). */
  tensor(&bad, 0x10002, kDLFloat, 32, 2, kScaleShape, kScaleStrides);
  CHECK_ERROR(kernels__scale_describe_outputs(&bad.t, empty_output(&y)),
              kernels_ERROR_INVALID_ARGUMENT,
              "kernels__scale_describe_outputs: x: data + byte_offset (0x10002 + 0) is not aligned "
              "to its 4-byte elements");
  tensor(&bad, 0x10000, kDLFloat, 32, 2, kScaleShape, kScaleStrides)->byte_offset = 6;
  CHECK_ERROR(kernels__scale_describe_outputs(&bad.t, empty_output(&y)),
              kernels_ERROR_INVALID_ARGUMENT,
              "kernels__scale_describe_outputs: x: data + byte_offset (0x10000 + 6) is not aligned "
              "to its 4-byte elements");
  /* x is declared layout(1, 0): row-major strides, given or implied, are wrong. */
  CHECK_ERROR(
      kernels__scale_describe_outputs(
          tensor(&bad, 0x10000, kDLFloat, 32, 2, kScaleShape, kRowMajor35), empty_output(&y)),
      kernels_ERROR_INVALID_ARGUMENT,
      "kernels__scale_describe_outputs: x: stride 0 is 5, expected 1 (dense in layout "
      "(1, 0))");
  CHECK_ERROR(kernels__scale_describe_outputs(
                  tensor(&bad, 0x10000, kDLFloat, 32, 2, kScaleShape, NULL), empty_output(&y)),
              kernels_ERROR_INVALID_ARGUMENT,
              "kernels__scale_describe_outputs: x: stride 0 is 5, expected 1 (dense in layout "
              "(1, 0))");
  CHECK_ERROR(kernels__scale_workspace_size(&x.t, NULL), kernels_ERROR_INVALID_ARGUMENT,
              "kernels__scale_workspace_size: bytes is NULL");
  /* Extents whose product overflows int64 are refused, even with data NULL
     (the wrapped count was 0: an empty tensor). */
  {
    static const int64_t huge[2] = {(int64_t)1 << 62, 4}, strides[2] = {1, (int64_t)1 << 62};
    CHECK_ERROR(kernels__scale_describe_outputs(tensor(&bad, 0, kDLFloat, 32, 2, huge, strides),
                                               empty_output(&y)),
                kernels_ERROR_INVALID_ARGUMENT,
                "kernels__scale_describe_outputs: x: the product of its extents times its 4-byte "
                "elements overflows int64");
  }

  /* Launch checks the outputs against describe_outputs. */
  tensor(&y, 0x20000, kDLFloat, 32, 2, kScaleShape, kRowMajor35);
  CHECK_ERROR(kernels__scale_launch(&x.t, 2.0f, &y.t, NULL, 0, NULL), kernels_ERROR_INVALID_ARGUMENT,
              "kernels__scale_launch: y: stride 0 is 5, expected 1 (dense in layout (1, 0))");
  tensor(&y, 0x20000, kDLFloat, 32, 2, kScaleShape, NULL);
  CHECK_ERROR(kernels__scale_launch(&x.t, 2.0f, &y.t, NULL, 0, NULL), kernels_ERROR_INVALID_ARGUMENT,
              "kernels__scale_launch: y: stride 0 is 5, expected 1 (dense in layout (1, 0))");
  tensor(&y, 0x20000, kDLFloat, 32, 2, kScaleShape, kScaleStrides)->shape[0] = 4;
  CHECK_ERROR(kernels__scale_launch(&x.t, 2.0f, &y.t, NULL, 0, NULL), kernels_ERROR_INVALID_ARGUMENT,
              "kernels__scale_launch: y: extent 0 is 4, expected 3");
  tensor(&y, 0x20000, kDLFloat, 32, 2, kScaleShape, kScaleStrides)->device.device_id = 1;
  CHECK_ERROR(kernels__scale_launch(&x.t, 2.0f, &y.t, NULL, 0, NULL), kernels_ERROR_INVALID_ARGUMENT,
              "kernels__scale_launch: y is on device 1 but x is on device 0");
  tensor(&y, 0x20000, kDLFloat, 64, 2, kScaleShape, kScaleStrides);
  CHECK_ERROR(kernels__scale_launch(&x.t, 2.0f, &y.t, NULL, 0, NULL), kernels_ERROR_INVALID_ARGUMENT,
              "kernels__scale_launch: y: dtype is float64, expected float32");
}

static const int64_t kNchw[4] = {2, 3, 4, 5}; /* N, C, H, W */
static const int64_t kNhwcStrides[4] = {60, 1, 15, 3};
static const int64_t kZShape[2] = {4, 7};   /* M, K */
static const int64_t kZStrides[2] = {1, 4}; /* column-major: z is strided */

static void views_validation(void) {
  Tensor x, z, u, a, b, c;
  static const int64_t wrong_u[2] = {4, 6};
  size_t bytes = 0;
  tensor(&x, 0x10000, kDLFloat, 16, 4, kNchw, kNhwcStrides);
  tensor(&z, 0x20000, kDLFloat, 32, 2, kZShape, kZStrides);
  CHECK_ERROR(kernels__views_describe_outputs(&x.t, &z.t,
                                             tensor(&u, 0x30000, kDLFloat, 32, 2, wrong_u, NULL),
                                             empty_output(&a), empty_output(&b), empty_output(&c)),
              kernels_ERROR_INVALID_ARGUMENT,
              "kernels__views_describe_outputs: u: extent 1 is 6 but symbol K is 7 (from z)");
  tensor(&u, 0x30000, kDLFloat, 32, 2, kZShape, NULL);
  /* z takes any strides, but not ones whose byte offsets overflow int64. */
  {
    static const int64_t far[2] = {1, (int64_t)1 << 61};
    Tensor zf;
    CHECK_ERROR(kernels__views_describe_outputs(
                    &x.t, tensor(&zf, 0x20000, kDLFloat, 32, 2, kZShape, far), &u.t,
                    empty_output(&a), empty_output(&b), empty_output(&c)),
                kernels_ERROR_INVALID_ARGUMENT,
                "kernels__views_describe_outputs: z: its strides and byte_offset reach past what "
                "int64 byte offsets hold");
  }
  CHECK(kernels__views_workspace_size(&x.t, &z.t, &u.t, &bytes) == kernels_OK);
  CHECK(bytes == 4 * 4 * 7);

  tensor(&a, 0x10000, kDLFloat, 16, 4, kNchw, NULL);
  a.shape[1] = 4, a.shape[2] = 5, a.shape[3] = 3;
  tensor(&c, 0x30000, kDLFloat, 32, 2, kZShape, NULL);
  CHECK_ERROR(kernels__views_launch(&x.t, &z.t, &u.t, &a.t, NULL, &c.t, (void *)0x90000, 100, NULL),
              kernels_ERROR_INVALID_ARGUMENT,
              "kernels__views_launch: workspace_bytes is 100 but these inputs need 112 (see "
              "workspace_size)");
  CHECK_ERROR(kernels__views_launch(&x.t, &z.t, &u.t, &a.t, NULL, &c.t, NULL, 112, NULL),
              kernels_ERROR_INVALID_ARGUMENT,
              "kernels__views_launch: workspace is NULL but 112 bytes are needed");
  /* c updates u in place: it must be u's memory. */
  tensor(&c, 0x40000, kDLFloat, 32, 2, kZShape, NULL);
  CHECK_ERROR(kernels__views_launch(&x.t, &z.t, &u.t, &a.t, NULL, &c.t, (void *)0x90000, 112, NULL),
              kernels_ERROR_INVALID_ARGUMENT,
              "kernels__views_launch: c: data + byte_offset is not where u starts");
  /* A view passed to launch must be the view. */
  tensor(&c, 0x30000, kDLFloat, 32, 2, kZShape, NULL);
  a.t.byte_offset = 2;
  CHECK_ERROR(kernels__views_launch(&x.t, &z.t, &u.t, &a.t, NULL, &c.t, (void *)0x90000, 112, NULL),
              kernels_ERROR_INVALID_ARGUMENT,
              "kernels__views_launch: a: data + byte_offset is not where the view of x starts");
}

static void mask_validation(void) {
  static const int64_t shape[2] = {6, 8};
  Tensor x, keep, y;
  tensor(&x, 0x10000, kDLBfloat, 16, 2, shape, NULL);
  CHECK_ERROR(other__mask_describe_outputs(&x.t, tensor(&keep, 0x20000, kDLInt, 8, 2, shape, NULL),
                                          empty_output(&y)),
              other_ERROR_INVALID_ARGUMENT,
              "other__mask_describe_outputs: keep: dtype is int8, expected bool8");
  CHECK_ERROR(other__mask_describe_outputs(tensor(&x, 0x10000, kDLFloat, 16, 2, shape, NULL),
                                          tensor(&keep, 0x20000, kDLUInt, 8, 2, shape, NULL),
                                          empty_output(&y)),
              other_ERROR_INVALID_ARGUMENT,
              "other__mask_describe_outputs: x: dtype is float16, expected bfloat16");
}

static void *read_last_error(void *unused) {
  (void)unused;
  return (void *)kernels_last_error();
}

static void errors_are_per_thread(void) {
  pthread_t thread;
  void *other = NULL;
  CHECK(kernels__scale_describe_outputs(NULL, NULL) == kernels_ERROR_INVALID_ARGUMENT);
  CHECK(pthread_create(&thread, NULL, read_last_error, NULL) == 0);
  CHECK(pthread_join(thread, &other) == 0);
  CHECK(other != NULL && strcmp((const char *)other, "") == 0);
  CHECK(strcmp(kernels_last_error(), "kernels__scale_describe_outputs: x is NULL") == 0);
}

/* ---- what succeeds without the driver ---- */

static void describe_outputs(void) {
  Tensor x, z, u, y, a, b, c;
  static const int64_t row_vector[2] = {1, 5};
  static const int64_t odd_strides[2] = {77, 1};
  static const int64_t a_shape[4] = {2, 4, 5, 3}, a_strides[4] = {60, 15, 3, 1};
  static const int64_t b_shape[2] = {4, 6};
  static const int64_t u_strides[2] = {7, 1};

  tensor(&x, 0x10000, kDLFloat, 32, 2, kScaleShape, kScaleStrides);
  CHECK(kernels__scale_describe_outputs(&x.t, empty_output(&y)) == kernels_OK);
  CHECK(strcmp(kernels_last_error(), "") == 0);
  CHECK(y.t.ndim == 2 && y.t.dtype.code == kDLFloat && y.t.dtype.bits == 32);
  CHECK(same(y.shape, kScaleShape, 2) && same(y.strides, kScaleStrides, 2));
  /* Dims of extent 1 may have any stride. */
  CHECK(
      kernels__scale_describe_outputs(tensor(&x, 0x10000, kDLFloat, 32, 2, row_vector, odd_strides),
                                     empty_output(&y)) == kernels_OK);

  tensor(&x, 0x10000, kDLFloat, 16, 4, kNchw, kNhwcStrides);
  tensor(&z, 0x20000, kDLFloat, 32, 2, kZShape, kZStrides);
  z.t.byte_offset = 16;
  tensor(&u, 0x30000, kDLFloat, 32, 2, kZShape, NULL);
  CHECK(kernels__views_describe_outputs(&x.t, &z.t, &u.t, empty_output(&a), empty_output(&b),
                                       empty_output(&c)) == kernels_OK);
  CHECK(strcmp(kernels_last_error(), "") == 0);
  /* a = permute(x NHWC): row-major N, H, W, C over x's memory. */
  CHECK(a.t.data == x.t.data && a.t.byte_offset == 0 && a.t.device.device_type == kDLCUDA);
  CHECK(a.t.dtype.code == kDLFloat && a.t.dtype.bits == 16);
  CHECK(same(a.shape, a_shape, 4) && same(a.strides, a_strides, 4));
  /* b = slice(z, dim=1, start=1): z's strides, one z.stride1 in. */
  CHECK(b.t.data == z.t.data && b.t.byte_offset == 16 + 4 * 4);
  CHECK(same(b.shape, b_shape, 2) && same(b.strides, kZStrides, 2));
  /* c is u, updated in place. */
  CHECK(c.t.data == u.t.data && same(c.shape, kZShape, 2) && same(c.strides, u_strides, 2));

  /* bool may come as DLPack's bool or as uint8. */
  {
    static const int64_t shape[2] = {6, 8}, strides[2] = {8, 1};
    Tensor mx, keep, my;
    tensor(&mx, 0x10000, kDLBfloat, 16, 2, shape, NULL);
    CHECK(other__mask_describe_outputs(&mx.t, tensor(&keep, 0x20000, 6, 8, 2, shape, NULL),
                                      empty_output(&my)) == other_OK);
    CHECK(other__mask_describe_outputs(&mx.t, tensor(&keep, 0x20000, kDLUInt, 8, 2, shape, NULL),
                                      empty_output(&my)) == other_OK);
    CHECK(my.t.dtype.code == kDLBfloat && same(my.strides, strides, 2));
  }
}

#ifdef FUSERC_MOCK_DRIVER
/* ---- launches, through the mock driver ---- */

static void launches_through_the_driver(void) {
  Tensor x, y, x4, y4, x0, y0, z, u, c;
  int launches_before;
  static const int64_t shape4[2] = {4, 5}, strides4[2] = {1, 4};
  static const int64_t empty[2] = {0, 5}, empty_strides[2] = {1, 1};
  tensor(&x, 0x10000, kDLFloat, 32, 2, kScaleShape, kScaleStrides);
  tensor(&y, 0x20000, kDLFloat, 32, 2, kScaleShape, kScaleStrides);

  /* The first launch loads the library and looks the kernel up. */
  CHECK(kernels__scale_launch(&x.t, 2.5f, &y.t, NULL, 0, NULL) == kernels_OK);
  CHECK(loads == 1 && lookups == 1 && launches == 1);
  CHECK(strcmp(launched_kernel, "scale_k0") == 0); /* 15 elements: not vec4 */
  CHECK(launched_grid == 1 && launched_block == 256);
  CHECK(launched_scale_args.x == (const float *)0x10000 &&
        launched_scale_args.y == (float *)0x20000);
  CHECK(launched_scale_args.s == 2.5f && launched_scale_args.n == 15);

  /* 20 aligned elements pick the vec4 variant: a second lookup, no second load. */
  tensor(&x4, 0x10000, kDLFloat, 32, 2, shape4, strides4);
  tensor(&y4, 0x20000, kDLFloat, 32, 2, shape4, strides4);
  CHECK(kernels__scale_launch(&x4.t, 1.0f, &y4.t, NULL, 0, NULL) == kernels_OK);
  CHECK(loads == 1 && lookups == 2 && launches == 2);
  CHECK(strcmp(launched_kernel, "scale_k0_vec4") == 0 && launched_scale_args.n == 20);
  CHECK(kernels__scale_launch(&x4.t, 1.0f, &y4.t, NULL, 0, NULL) == kernels_OK);
  CHECK(loads == 1 && lookups == 2 && launches == 3);

  /* Empty tensors launch nothing (and need no data). */
  tensor(&x0, 0, kDLFloat, 32, 2, empty, empty_strides);
  tensor(&y0, 0, kDLFloat, 32, 2, empty, empty_strides);
  CHECK(kernels__scale_launch(&x0.t, 1.0f, &y0.t, NULL, 0, NULL) == kernels_OK);
  CHECK(launches == 3);

  /* Unload, and the next launch loads again. */
  kernels_unload();
  CHECK(unloads == 1);
  kernels_unload();
  CHECK(unloads == 1);
  CHECK(kernels__scale_launch(&x.t, 2.0f, &y.t, NULL, 0, NULL) == kernels_OK);
  CHECK(loads == 2 && lookups == 3 && launches == 4);

  /* Driver errors come back with the driver's name for them. */
  next_launch_result = CUDA_ERROR_NO_BINARY_FOR_GPU;
  CHECK_ERROR(kernels__scale_launch(&x.t, 2.0f, &y.t, NULL, 0, NULL), kernels_ERROR_UNSUPPORTED,
              "kernels__scale_launch: cuLaunchKernel failed for kernel scale_k0: "
              "CUDA_ERROR_NO_BINARY_FOR_GPU (209) no kernel image is available");
  /* A failed load leaves the library unloaded; the next launch retries. */
  kernels_unload();
  next_load_result = CUDA_ERROR_OUT_OF_MEMORY;
  CHECK_ERROR(kernels__scale_launch(&x.t, 2.0f, &y.t, NULL, 0, NULL), kernels_ERROR_CUDA,
              "kernels__scale_launch: cuLibraryLoadData failed for kernel scale_k0: "
              "CUDA_ERROR_OUT_OF_MEMORY (2) mock error");
  CHECK(kernels__scale_launch(&x.t, 2.0f, &y.t, NULL, 0, NULL) == kernels_OK);
  CHECK(loads == 4 && strcmp(kernels_last_error(), "") == 0);

  /* Memory the device cannot use, or a context on another device, is
     refused before anything is launched. */
  launches_before = launches;
  tensor(&x, 0x500000, kDLFloat, 32, 2, kScaleShape, kScaleStrides);
  CHECK_ERROR(kernels__scale_launch(&x.t, 2.0f, &y.t, NULL, 0, NULL), kernels_ERROR_INVALID_ARGUMENT,
              "kernels__scale_launch: x: 0x500000 is not memory CUDA allocated or registered "
              "(pageable host memory?)");
  tensor(&x, 0x10000, kDLFloat, 32, 2, kScaleShape, kScaleStrides);
  tensor(&y, 0x100000, kDLFloat, 32, 2, kScaleShape, kScaleStrides);
  CHECK_ERROR(kernels__scale_launch(&x.t, 2.0f, &y.t, NULL, 0, NULL), kernels_ERROR_INVALID_ARGUMENT,
              "kernels__scale_launch: y: 0x100000 is memory of device 1, not of device 0");
  tensor(&y, 0x20000, kDLFloat, 32, 2, kScaleShape, kScaleStrides);
  current_device = 1;
  CHECK_ERROR(kernels__scale_launch(&x.t, 2.0f, &y.t, NULL, 0, NULL), kernels_ERROR_INVALID_ARGUMENT,
              "kernels__scale_launch: x is on device 0 but the current context is on device 1");
  current_device = 0;
  /* The stream must belong to the current context: one of another device,
     or another context of the tensors' device, is refused. */
  CHECK_ERROR(kernels__scale_launch(&x.t, 2.0f, &y.t, NULL, 0, (CUstream)2),
              kernels_ERROR_INVALID_ARGUMENT,
              "kernels__scale_launch: stream is on device 1 but x is on device 0");
  CHECK_ERROR(kernels__scale_launch(&x.t, 2.0f, &y.t, NULL, 0, (CUstream)1),
              kernels_ERROR_INVALID_ARGUMENT,
              "kernels__scale_launch: stream belongs to another context than the current one "
              "(x is on device 0)");
  CHECK(pushed_context == NULL);
  CHECK(launches == launches_before);
  /* Pinned host memory is memory the device can use. */
  tensor(&x, 0x200000, kDLFloat, 32, 2, kScaleShape, kScaleStrides);
  CHECK(kernels__scale_launch(&x.t, 2.0f, &y.t, NULL, 0, NULL) == kernels_OK);
  CHECK(launches == launches_before + 1);
  tensor(&x, 0x10000, kDLFloat, 32, 2, kScaleShape, kScaleStrides);

  /* views: a and b are views, left out; c is written in place. */
  {
    Tensor vx;
    tensor(&vx, 0x10000, kDLFloat, 16, 4, kNchw, kNhwcStrides);
    tensor(&z, 0x20000, kDLFloat, 32, 2, kZShape, kZStrides);
    tensor(&u, 0x30000, kDLFloat, 32, 2, kZShape, NULL);
    tensor(&c, 0x30000, kDLFloat, 32, 2, kZShape, NULL);
    CHECK(kernels__views_launch(&vx.t, &z.t, &u.t, NULL, NULL, &c.t, (void *)0x90000, 112, NULL) ==
          kernels_OK);
    CHECK(strcmp(launched_kernel, "views_k0") == 0 && launched_block == 128);
    CHECK_ERROR(
        kernels__views_launch(&vx.t, &z.t, &u.t, NULL, NULL, &c.t, (void *)0x500000, 112, NULL),
        kernels_ERROR_INVALID_ARGUMENT,
        "kernels__views_launch: workspace: 0x500000 is not memory CUDA allocated or registered "
        "(pageable host memory?)");
  }
}

/* take's indices are checked: launch zeroes the workspace's flag, launches,
   reads the flag back (synchronizing) and reports an index out of range. */
static void index_checks(void) {
  static const int64_t n[1] = {10}, k[1] = {4};
  Tensor x, i, y;
  tensor(&x, 0x10000, kDLFloat, 32, 1, n, NULL);
  tensor(&i, 0x20000, kDLInt, 64, 1, k, NULL);
  tensor(&y, 0x30000, kDLFloat, 32, 1, k, NULL);
  CHECK_ERROR(other__take_launch(&x.t, &i.t, &y.t, NULL, 0, NULL), other_ERROR_INVALID_ARGUMENT,
              "other__take_launch: workspace_bytes is 0 but these inputs need 256 (see "
              "workspace_size)");
  CHECK(flag_clears == 0);
  CHECK(other__take_launch(&x.t, &i.t, &y.t, (void *)0x90000, 256, NULL) == other_OK);
  CHECK(flag_clears == 1 && flag_reads == 1 && stream_syncs == 1 && cleared_at == 0x90000);
  CHECK(strcmp(launched_kernel, "take_k0") == 0);
  next_index_flag = 3;
  CHECK_ERROR(other__take_launch(&x.t, &i.t, &y.t, (void *)0x90000, 256, NULL),
              other_ERROR_INDEX_OUT_OF_RANGE,
              "other__take_launch: 'y' (index_select): an index in 'i' is outside [0, "
              "x.shape[0])");
  next_index_flag = 9;
  CHECK_ERROR(other__take_launch(&x.t, &i.t, &y.t, (void *)0x90000, 256, NULL),
              other_ERROR_INDEX_OUT_OF_RANGE,
              "other__take_launch: an index is out of range (flag 9)");
  CHECK(flag_clears == 3 && flag_reads == 3 && stream_syncs == 3);
  /* A stream being captured into a graph is not waited for, and its flag
     is not zeroed: the graph holds the kernels alone. */
  capture_status = CU_STREAM_CAPTURE_STATUS_ACTIVE;
  next_index_flag = 3;
  CHECK(other__take_launch(&x.t, &i.t, &y.t, (void *)0x90000, 256, NULL) == other_OK);
  CHECK(flag_clears == 3 && flag_reads == 3 && stream_syncs == 3);
  capture_status = CU_STREAM_CAPTURE_STATUS_NONE;
  next_index_flag = 0;
}

/* Threads racing to the first launch load the library once. */
static void *launch_many(void *unused) {
  Tensor x, y;
  int i;
  (void)unused;
  tensor(&x, 0x10000, kDLFloat, 32, 2, kScaleShape, kScaleStrides);
  tensor(&y, 0x20000, kDLFloat, 32, 2, kScaleShape, kScaleStrides);
  for (i = 0; i < 200; ++i)
    CHECK(kernels__scale_launch(&x.t, 1.0f, &y.t, NULL, 0, NULL) == kernels_OK);
  return NULL;
}

static void concurrent_launches_load_once(void) {
  pthread_t threads[4];
  int i, loads_before, launches_before;
  kernels_unload();
  loads_before = loads;
  launches_before = launches;
  for (i = 0; i < 4; ++i)
    CHECK(pthread_create(&threads[i], NULL, launch_many, NULL) == 0);
  for (i = 0; i < 4; ++i)
    CHECK(pthread_join(threads[i], NULL) == 0);
  CHECK(loads == loads_before + 1);
  CHECK(launches == launches_before + 800);
}
#endif

int main(void) {
  scale_validation();
  views_validation();
  mask_validation();
  errors_are_per_thread();
  describe_outputs();
#ifdef FUSERC_MOCK_DRIVER
  CHECK(driver_calls == 0); /* nothing above may reach the driver */
  launches_through_the_driver();
  index_checks();
  concurrent_launches_load_once();
#endif
  if (failures) {
    fprintf(stderr, "%d checks failed\n", failures);
    return 1;
  }
  printf("all checks passed\n");
  return 0;
}
