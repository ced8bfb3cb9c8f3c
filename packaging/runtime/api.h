/* The public declarations of every generated header's runtime: the status
   codes and the two functions that are not per fusion, NAME_last_error and
   NAME_unload. The header writer (packaging/HeaderRuntime.cpp) emits this
   file without this comment, FUSERC_NAME spelled as the header's name. */

typedef enum {
  FUSERC_NAME_OK = 0,
  FUSERC_NAME_ERROR_INVALID_ARGUMENT = 1, /* an argument failed validation; nothing ran */
  FUSERC_NAME_ERROR_CUDA = 2,             /* a CUDA driver call failed */
  FUSERC_NAME_ERROR_UNSUPPORTED = 3,      /* e.g. no kernel image for this device */
  FUSERC_NAME_ERROR_INDEX_OUT_OF_RANGE = 4 /* an index tensor held a value out of range: the kernels
                                      ran (clamping reads, skipping such scatter positions)
                                      but the outputs are not what the fusion says */
} FUSERC_NAME_status;

/* This thread's message for its last call that failed; "" when that call
   succeeded (every call sets it). */
const char *FUSERC_NAME_last_error(void);
/* Unloads the kernels of every device; the next launch loads them again.
   Waits for launches other threads are enqueueing; kernels already on a
   stream must have finished (synchronize first). */
void FUSERC_NAME_unload(void);
