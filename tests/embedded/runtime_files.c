/* The C files of packaging/runtime/ compiled on their own, in the order the
   header writer (packaging/HeaderRuntime.cpp) emits them: FUSERC_NAME, the
   placeholder it replaces with the header's name, is an identifier prefix,
   so the files compile as they are. What the writer emits between them
   (the includes, the images, their offsets and the kernels' names and images) has stand-ins here.
   tests/embedded/CMakeLists.txt builds this as C99 and as C++17. */
#include <cuda.h>
#include <dlpack/dlpack.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "api.h"

#ifdef __cplusplus
} /* extern "C" */
#endif

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "macros.h"
#include "extent_helpers.h"
#include "errors.c"
#include "argument_checks.c"

static const union {
  unsigned char bytes[1];
  uint64_t align;
} FUSERC_NAME_fatbin = {{0}};
#define FUSERC_NAME_NUM_IMAGES 1
static const size_t FUSERC_NAME_image_offsets[FUSERC_NAME_NUM_IMAGES] = {0};
#define FUSERC_NAME_NUM_KERNELS 1
static const char *const FUSERC_NAME_kernel_names[] = {"FUSERC_NAME_k0", NULL};
static const unsigned FUSERC_NAME_kernel_images[] = {0, 0};

#include "loader.c"
#include "launch_ex.c"

#ifdef __cplusplus
} /* extern "C" */
#endif
