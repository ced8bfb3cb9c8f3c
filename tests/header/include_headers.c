/* Includes two generated headers, declarations first, then with
   WITH_IMPLEMENTATION their implementations: kernels.c (the split form) and
   other.h again with other_IMPLEMENTATION (the single-header form). So the
   compile tests check every part, in C99 and in C++, and that two fuserc
   outputs coexist in one translation unit. */
#include "kernels.h"
#include "other.h"

#ifdef WITH_IMPLEMENTATION
#include "kernels.c"
#define other_IMPLEMENTATION
#include "other.h"
#endif

/* Something to compile when the headers only declare. */
int fuserc_header_test_symbol(void);
int fuserc_header_test_symbol(void) { return kernels__views_NUM_OUTPUTS + other__mask_NUM_INPUTS; }
