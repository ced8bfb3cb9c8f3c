/* The checks the fusions' validation code (packaging/HeaderValidation.cpp)
   calls on DLPack tensors, extents, strides, addresses and the workspace,
   the checks that ask the driver where the memory is, and the index flag
   around a launch. Emitted by packaging/HeaderRuntime.cpp without this
   comment, FUSERC_NAME spelled as the header's name. */

/* ---- argument checks ---- */

static FUSERC_NAME_UNUSED int64_t FUSERC_NAME_numel(const DLTensor *t) {
  int64_t n = 1;
  int d;
  for (d = 0; d < t->ndim; ++d)
    n *= t->shape[d];
  return n;
}

/* `bytes` times the product of the extents, zero extents counted as 1 (so
   that an empty tensor's strides fit too), or FUSERC_OVERFLOW. */
static FUSERC_NAME_UNUSED int64_t FUSERC_NAME_checked_size(const int64_t *shape, int rank, int64_t bytes) {
  int64_t n = bytes;
  int d;
  for (d = 0; d < rank; ++d)
    n = fuserc_cmul(n, shape[d] > 1 ? shape[d] : 1);
  return n;
}

static FUSERC_NAME_UNUSED void FUSERC_NAME_dtype_text(char *buffer, size_t size, DLDataType dtype) {
  static const char *const codes[] = {
      "int", "uint", "float", "opaque", "bfloat", "complex", "bool"};
  const char *code = dtype.code < 7 ? codes[dtype.code] : "code";
  if (dtype.lanes == 1)
    snprintf(buffer, size, "%s%u", code, (unsigned)dtype.bits);
  else
    snprintf(buffer, size, "%s%ux%u", code, (unsigned)dtype.bits, (unsigned)dtype.lanes);
}

/* Pointer, rank, dtype (bool also as uint8), device (kDLCUDA, the device of
   the first tensor), shape present, extents not negative and their size in
   bytes within int64, data present. */
static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_check_tensor(
    const char *arg, const DLTensor *t, int32_t ndim, uint8_t code, uint8_t bits,
    int32_t *device_id, const char **device_from) {
  int d;
  if (!t)
    return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT, "%s is NULL", arg);
  if (t->ndim != ndim)
    return FUSERC_NAME_fail(
        FUSERC_NAME_ERROR_INVALID_ARGUMENT, "%s: rank is %d, expected %d", arg, (int)t->ndim, (int)ndim);
  if (t->dtype.lanes != 1 || t->dtype.bits != bits ||
      (t->dtype.code != code &&
       !(code == FUSERC_NAME_DL_BOOL && t->dtype.code == kDLUInt && bits == 8))) {
    char actual[32], expected[32];
    DLDataType want;
    want.code = code;
    want.bits = bits;
    want.lanes = 1;
    FUSERC_NAME_dtype_text(actual, sizeof actual, t->dtype);
    FUSERC_NAME_dtype_text(expected, sizeof expected, want);
    return FUSERC_NAME_fail(
        FUSERC_NAME_ERROR_INVALID_ARGUMENT, "%s: dtype is %s, expected %s", arg, actual, expected);
  }
  if (t->device.device_type != kDLCUDA)
    return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT, "%s: device type is %d, expected kDLCUDA (%d)",
        arg, (int)t->device.device_type, (int)kDLCUDA);
  if (!*device_from) {
    *device_id = t->device.device_id;
    *device_from = arg;
  } else if (t->device.device_id != *device_id) {
    return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT, "%s is on device %d but %s is on device %d",
        arg, (int)t->device.device_id, *device_from, (int)*device_id);
  }
  if (ndim > 0 && !t->shape)
    return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT, "%s: shape is NULL", arg);
  for (d = 0; d < ndim; ++d)
    if (t->shape[d] < 0)
      return FUSERC_NAME_fail(
          FUSERC_NAME_ERROR_INVALID_ARGUMENT, "%s: extent %d is %lld", arg, d, (long long)t->shape[d]);
  if (FUSERC_NAME_checked_size(t->shape, ndim, bits / 8) == FUSERC_OVERFLOW)
    return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT,
        "%s: the product of its extents times its %u-byte elements overflows int64", arg,
        (unsigned)(bits / 8u));
  if (!t->data && FUSERC_NAME_numel(t) != 0)
    return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT, "%s: data is NULL", arg);
  if (((uintptr_t)t->data + (uintptr_t)t->byte_offset) % (bits / 8u) != 0)
    return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT,
        "%s: data + byte_offset (%p + %llu) is not aligned to its %u-byte elements", arg,
        t->data, (unsigned long long)t->byte_offset, (unsigned)(bits / 8u));
  return FUSERC_NAME_OK;
}

/* `what` names the expected value ("the declared extent", "symbol N"),
   `from` says where it came from. */
static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_check_extent(
    const char *arg, const DLTensor *t, int dim, int64_t expected, const char *what,
    const char *from) {
  if (t->shape[dim] == expected)
    return FUSERC_NAME_OK;
  if (expected == FUSERC_OVERFLOW)
    return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT,
        "%s: extent %d should be %s, which overflows int64 for these inputs", arg, dim, what);
  return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT, "%s: extent %d is %lld but %s is %lld%s", arg,
      dim, (long long)t->shape[dim], what, (long long)expected, from);
}

/* Binds `symbol` from an extent declared `form`, a*symbol + rest (a > 0):
   the tensor's extent less `rest` must be a multiple of a, 0 or more. */
static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_solve_extent(
    const char *arg, const DLTensor *t, int dim, int64_t a, int64_t rest, const char *symbol,
    const char *form, int64_t *value) {
  int64_t n = t->shape[dim];
  if (rest != FUSERC_OVERFLOW && n >= rest && (n - rest) % a == 0) {
    *value = (n - rest) / a;
    return FUSERC_NAME_OK;
  }
  return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT,
      "%s: extent %d is %lld, which is not %s for any whole %s >= 0", arg, dim, (long long)n, form,
      symbol);
}

/* An exact division of extents (`C / 32`, a reshape's -1) at this binding:
   the dividend must be a multiple of the divisor. */
static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_check_exact_division(
    int64_t a, int64_t b, const char *dividend, const char *divisor) {
  if (a != FUSERC_OVERFLOW && b != FUSERC_OVERFLOW && b > 0 && a % b == 0)
    return FUSERC_NAME_OK;
  if (a == FUSERC_OVERFLOW || b == FUSERC_OVERFLOW)
    return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT,
        "%s / %s: an extent overflows int64 for these inputs", dividend, divisor);
  return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT,
      "%s is %lld, not a multiple of %s (%lld), which the exact division %s / %s needs", dividend,
      (long long)a, divisor, (long long)b, dividend, divisor);
}

/* The element strides: the tensor's own, or row-major when it has none. */
static FUSERC_NAME_UNUSED void FUSERC_NAME_strides(const DLTensor *t, int64_t *strides) {
  int64_t inner = 1;
  int d;
  for (d = t->ndim - 1; d >= 0; --d) {
    strides[d] = t->strides ? t->strides[d] : inner;
    inner *= t->shape[d];
  }
}

/* The bytes from the tensor's start to its last element, at any strides,
   fit int64, so that no offset a kernel computes wraps around. */
static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_check_span(
    const char *arg, const DLTensor *t, const int64_t *strides, int64_t bytes) {
  int64_t span = 0;
  int d;
  if (FUSERC_NAME_numel(t) == 0)
    return FUSERC_NAME_OK;
  for (d = 0; d < t->ndim; ++d)
    if (t->shape[d] > 1)
      span = fuserc_cadd(span, fuserc_cmul(t->shape[d] - 1,
                                   strides[d] < 0 ? fuserc_cmul(strides[d], -1) : strides[d]));
  span = fuserc_cmul(fuserc_cadd(span, 1), bytes);
  if (t->byte_offset > (uint64_t)INT64_MAX)
    span = FUSERC_OVERFLOW;
  if (fuserc_cadd(span, (int64_t)(t->byte_offset & (uint64_t)INT64_MAX)) == FUSERC_OVERFLOW)
    return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT,
        "%s: its strides and byte_offset reach past what int64 byte offsets hold", arg);
  return FUSERC_NAME_OK;
}

/* Dense in `layout` (outermost first). Dims of extent 1 may have any
   stride, and so may every dim of an empty tensor. */
static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_check_dense(
    const char *arg, const DLTensor *t, const int64_t *strides, const int *layout,
    const char *layout_text) {
  int64_t expected = 1;
  int k;
  if (FUSERC_NAME_numel(t) == 0)
    return FUSERC_NAME_OK;
  for (k = t->ndim - 1; k >= 0; --k) {
    int d = layout[k];
    if (t->shape[d] != 1 && strides[d] != expected)
      return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT,
          "%s: stride %d is %lld, expected %lld (dense in layout %s)", arg, d,
          (long long)strides[d], (long long)expected, layout_text);
    expected *= t->shape[d];
  }
  return FUSERC_NAME_OK;
}

/* An output's extents as the inputs give them: not negative, and their size
   in bytes within int64. */
static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_check_output_extents(
    const char *arg, const int64_t *shape, int rank, int64_t bytes) {
  int d;
  for (d = 0; d < rank; ++d)
    if (shape[d] == FUSERC_OVERFLOW)
      return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT,
          "%s: extent %d overflows int64 for these inputs", arg, d);
    else if (shape[d] < 0)
      return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT, "%s: extent %d would be %lld for these inputs",
          arg, d, (long long)shape[d]);
  if (FUSERC_NAME_checked_size(shape, rank, bytes) == FUSERC_OVERFLOW)
    return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT,
        "%s: the product of its extents times its %lld-byte elements overflows int64 for these "
        "inputs", arg, (long long)bytes);
  return FUSERC_NAME_OK;
}

/* A view output's strides and start, computed from its base's: none
   overflowed. `elements` is the start in elements past the base's. */
static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_check_view(
    const char *arg, const int64_t *strides, int rank, uint64_t base_offset, int64_t elements,
    int64_t bytes, uint64_t *byte_offset) {
  int64_t offset = fuserc_cmul(elements, bytes);
  int d;
  for (d = 0; d < rank; ++d)
    if (strides[d] == FUSERC_OVERFLOW)
      return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT,
          "%s: stride %d overflows int64 for these inputs", arg, d);
  if (base_offset > (uint64_t)INT64_MAX)
    offset = FUSERC_OVERFLOW;
  offset = fuserc_cadd(offset, (int64_t)(base_offset & (uint64_t)INT64_MAX));
  if (offset == FUSERC_OVERFLOW || offset < 0)
    return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT,
        "%s: its byte_offset overflows int64 for these inputs", arg);
  *byte_offset = (uint64_t)offset;
  return FUSERC_NAME_OK;
}

/* A value the fusion computes on the way (not an input or output), of
   `count` elements of `bytes` bytes each: its size fits int64. */
static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_check_count(
    const char *value, const char *count_text, int64_t count, int64_t bytes) {
  if (fuserc_cmul(count, bytes) != FUSERC_OVERFLOW)
    return FUSERC_NAME_OK;
  return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT,
      "value %s: %s elements of %lld bytes overflow int64 for these inputs", value, count_text,
      (long long)bytes);
}

/* describe_outputs writes through shape and strides: they must be there. */
static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_check_describable(const char *arg, const DLTensor *t, int rank) {
  if (!t)
    return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT, "%s is NULL", arg);
  if (rank > 0 && (!t->shape || !t->strides))
    return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT,
        "%s: shape and strides must point at arrays of %d int64_t", arg, rank);
  return FUSERC_NAME_OK;
}

static FUSERC_NAME_UNUSED void FUSERC_NAME_describe(
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
static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_check_layout(
    const char *arg, const DLTensor *t, const int64_t *shape, const int64_t *strides,
    const char *what) {
  int64_t actual[64];
  int d;
  for (d = 0; d < t->ndim; ++d)
    if (t->shape[d] != shape[d])
      return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT, "%s: extent %d is %lld, expected %lld", arg,
          d, (long long)t->shape[d], (long long)shape[d]);
  if (t->ndim > 64 || FUSERC_NAME_numel(t) == 0)
    return FUSERC_NAME_OK;
  FUSERC_NAME_strides(t, actual);
  for (d = 0; d < t->ndim; ++d)
    if (shape[d] != 1 && actual[d] != strides[d])
      return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT, "%s: stride %d is %lld, expected %lld (%s)",
          arg, d, (long long)actual[d], (long long)strides[d], what);
  return FUSERC_NAME_OK;
}

/* Views and in-place outputs: the memory the output must start at. */
static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_check_address(
    const char *arg, const DLTensor *t, const void *data, uint64_t byte_offset,
    const char *what) {
  if ((const char *)t->data + t->byte_offset != (const char *)data + byte_offset)
    return FUSERC_NAME_fail(
        FUSERC_NAME_ERROR_INVALID_ARGUMENT, "%s: data + byte_offset is not where %s starts", arg, what);
  return FUSERC_NAME_OK;
}

/* The checks that ask the driver, made after every other check passed:
   the current context is on the tensors' device, and each tensor's memory
   (and the workspace) is memory that device can use — its own, or host
   memory CUDA mapped (pinned or managed). Pageable host memory, or memory
   of another device, would fault in the kernel and leave the context
   unusable. One cuPointerGetAttributes per tensor; nothing synchronizes. */
static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_check_context(int32_t device_id, const char *device_from) {
  CUdevice current, wanted;
  CUresult result = cuCtxGetDevice(&current);
  if (result != CUDA_SUCCESS)
    return FUSERC_NAME_cuda_failure(result, "cuCtxGetDevice (is a context current?)", NULL);
  result = cuDeviceGet(&wanted, device_id);
  if (result != CUDA_SUCCESS)
    return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT, "%s: device %d does not exist", device_from,
        (int)device_id);
  if (current != wanted)
    return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT,
        "%s is on device %d but the current context is on device %d", device_from,
        (int)device_id, (int)current);
  return FUSERC_NAME_OK;
}

/* `stream` belongs to the current context (checked against the tensors'
   device by check_context): a stream of another context or device would
   run the kernels where the tensors are not. NULL and the special streams
   belong to the current context. */
static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_check_stream(
    CUstream stream, int32_t device_id, const char *device_from) {
  CUcontext current = NULL, owner = NULL;
  CUdevice device = -1;
  CUresult result = cuStreamGetCtx(stream, &owner);
  if (result != CUDA_SUCCESS)
    return FUSERC_NAME_cuda_failure(result, "cuStreamGetCtx (is stream a valid stream?)", NULL);
  result = cuCtxGetCurrent(&current);
  if (result != CUDA_SUCCESS)
    return FUSERC_NAME_cuda_failure(result, "cuCtxGetCurrent", NULL);
  if (owner == current)
    return FUSERC_NAME_OK;
  if (cuCtxPushCurrent(owner) == CUDA_SUCCESS) {
    if (cuCtxGetDevice(&device) != CUDA_SUCCESS)
      device = -1;
    cuCtxPopCurrent(&owner);
  }
  if (device >= 0 && device != (CUdevice)device_id)
    return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT,
        "stream is on device %d but %s is on device %d", (int)device, device_from,
        (int)device_id);
  return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT,
      "stream belongs to another context than the current one (%s is on device %d)", device_from,
      (int)device_id);
}

static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_check_memory(
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
    return FUSERC_NAME_cuda_failure(result, "cuPointerGetAttributes", NULL);
  if (memory_type == 0)
    return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT,
        "%s: %p is not memory CUDA allocated or registered (pageable host memory?)", arg,
        address);
  if (memory_type == CU_MEMORYTYPE_DEVICE && ordinal != device_id)
    return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT, "%s: %p is memory of device %d, not of device %d",
        arg, address, ordinal, (int)device_id);
  return FUSERC_NAME_OK;
}

static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_check_tensor_memory(
    const char *arg, const DLTensor *t, int32_t device_id) {
  if (!t || FUSERC_NAME_numel(t) == 0)
    return FUSERC_NAME_OK;
  return FUSERC_NAME_check_memory(arg, (const char *)t->data + t->byte_offset, device_id);
}

/* Zeroes `words` 32-bit words of device memory at p, in stream order. */
static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_zero_words(void *p, size_t words, CUstream stream) {
  CUresult result = cuMemsetD32Async((CUdeviceptr)(uintptr_t)p, 0, words, stream);
  return result == CUDA_SUCCESS ? FUSERC_NAME_OK : FUSERC_NAME_cuda_failure(result, "cuMemsetD32Async", NULL);
}

/* Whether `stream` is being captured into a CUDA graph. */
static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_stream_capturing(CUstream stream, int *capturing) {
  CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
  CUresult result = cuStreamIsCapturing(stream, &capture);
  *capturing = result == CUDA_SUCCESS && capture != CU_STREAM_CAPTURE_STATUS_NONE;
  return result == CUDA_SUCCESS ? FUSERC_NAME_OK : FUSERC_NAME_cuda_failure(result, "cuStreamIsCapturing", NULL);
}

/* The index flag (codegen/IndexChecks.h), the workspace's first word:
   zeroed before a launch's kernels, read back after them. Reading it waits
   for the kernels: a kernel that failed is reported as a CUDA error. A
   stream being captured into a CUDA graph cannot be waited for: there the
   flag is neither zeroed nor read (the captured kernels still clamp and
   never fault), so a replayed graph holds no node for it. */
static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_index_flag_clear(void *workspace, CUstream stream) {
  int capturing;
  FUSERC_NAME_status st = FUSERC_NAME_stream_capturing(stream, &capturing);
  if (st != FUSERC_NAME_OK || capturing)
    return st;
  return FUSERC_NAME_zero_words(workspace, 1, stream);
}

static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_index_flag_read(void *workspace, CUstream stream, int *flag) {
  const char *call = "cuMemcpyDtoHAsync";
  int capturing;
  CUresult result;
  FUSERC_NAME_status st = FUSERC_NAME_stream_capturing(stream, &capturing);
  *flag = 0;
  if (st != FUSERC_NAME_OK || capturing)
    return st;
  result = cuMemcpyDtoHAsync(flag, (CUdeviceptr)(uintptr_t)workspace, sizeof *flag, stream);
  if (result == CUDA_SUCCESS) {
    call = "cuStreamSynchronize";
    result = cuStreamSynchronize(stream);
  }
  return result == CUDA_SUCCESS ? FUSERC_NAME_OK : FUSERC_NAME_cuda_failure(result, call, NULL);
}

/* The workspace size as the inputs give it: within int64. */
static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_check_workspace_needed(int64_t needed) {
  if (needed == FUSERC_OVERFLOW)
    return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT,
        "the workspace size overflows int64 for these inputs");
  return FUSERC_NAME_OK;
}

static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_check_workspace(
    int64_t needed, const void *workspace, size_t workspace_bytes) {
  FUSERC_NAME_TRY(FUSERC_NAME_check_workspace_needed(needed));
  if (needed > 0 && (uint64_t)workspace_bytes < (uint64_t)needed)
    return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT,
        "workspace_bytes is %llu but these inputs need %lld (see workspace_size)",
        (unsigned long long)workspace_bytes, (long long)needed);
  if (needed > 0 && !workspace)
    return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT, "workspace is NULL but %lld bytes are needed",
        (long long)needed);
  return FUSERC_NAME_OK;
}
