/* The runtime's error reporting: the per-thread message NAME_last_error
   returns, NAME_fail, which writes it and returns a status, and the message
   for a failed driver call. Emitted by packaging/HeaderRuntime.cpp without
   this comment, FUSERC_NAME spelled as the header's name. */

/* ---- errors ---- */

static FUSERC_NAME_THREAD_LOCAL char FUSERC_NAME_error_message[512];
/* The public function running on this thread: every message starts with it. */
static FUSERC_NAME_THREAD_LOCAL const char *FUSERC_NAME_caller;

const char *FUSERC_NAME_last_error(void) { return FUSERC_NAME_error_message; }

static FUSERC_NAME_status FUSERC_NAME_fail(FUSERC_NAME_status status, const char *format, ...) FUSERC_NAME_PRINTF_LIKE;
static FUSERC_NAME_status FUSERC_NAME_fail(FUSERC_NAME_status status, const char *format, ...) {
  va_list args;
  const char *caller = FUSERC_NAME_caller ? FUSERC_NAME_caller : "FUSERC_NAME";
  int used = snprintf(FUSERC_NAME_error_message, sizeof FUSERC_NAME_error_message, "%s: ", caller);
  if (used < 0 || (size_t)used >= sizeof FUSERC_NAME_error_message)
    used = 0;
  va_start(args, format);
  vsnprintf(FUSERC_NAME_error_message + used, sizeof FUSERC_NAME_error_message - (size_t)used, format, args);
  va_end(args);
  return status;
}

static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_succeed(void) {
  FUSERC_NAME_error_message[0] = '\0';
  return FUSERC_NAME_OK;
}

/* A failed driver call (made for `kernel`, or NULL); no image for the
   device is "unsupported". */
static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_cuda_failure(
    CUresult result, const char *call, const char *kernel) {
  const char *name = NULL;
  const char *text = NULL;
  FUSERC_NAME_status status = FUSERC_NAME_ERROR_CUDA;
  if (result == CUDA_ERROR_NO_BINARY_FOR_GPU || result == CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
    status = FUSERC_NAME_ERROR_UNSUPPORTED;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    name = "unknown CUDA error";
  if (cuGetErrorString(result, &text) != CUDA_SUCCESS || !text)
    text = "";
  if (!kernel)
    return FUSERC_NAME_fail(status, "%s failed: %s (%d) %s", call, name, (int)result, text);
  return FUSERC_NAME_fail(
      status, "%s failed for kernel %s: %s (%d) %s", call, kernel, name, (int)result, text);
}
