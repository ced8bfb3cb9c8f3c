/* The runtime's macros: thread-local storage and attributes for C99 and
   C++, the DLPack bool code, and NAME_TRY, which returns a failed status.
   First part of the implementation the header writer
   (packaging/HeaderRuntime.cpp) emits, without this comment, FUSERC_NAME
   spelled as the header's name. */

#if defined(__cplusplus)
#define FUSERC_NAME_THREAD_LOCAL thread_local
#else
#define FUSERC_NAME_THREAD_LOCAL __thread
#endif
#if defined(__GNUC__)
#define FUSERC_NAME_PRINTF_LIKE __attribute__((format(printf, 2, 3)))
#define FUSERC_NAME_UNUSED __attribute__((unused))
#else
#define FUSERC_NAME_PRINTF_LIKE
#define FUSERC_NAME_UNUSED
#endif
/* kDLBool is DLPack 0.8; older dlpack.h has no name for the code. */
#define FUSERC_NAME_DL_BOOL 6
/* Returns from the calling function when `call` fails. */
#define FUSERC_NAME_TRY(call) \
  do { \
    FUSERC_NAME_status try_status_ = (call); \
    if (try_status_ != FUSERC_NAME_OK) \
      return try_status_; \
  } while (0)
#ifdef FUSERC_TEST_VARIANTS
/* Testing only (docs/header.md, "Testing hook"): defined by the harness. A
   launch block asks which of its kernel's alternatives to force (negative:
   its own choice) and reports each kernel it launches. */
int fuserc_test_variant(const char *kernel, int alternatives);
void fuserc_test_launched(const char *kernel);
#endif
