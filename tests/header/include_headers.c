/* Includes two generated headers the documented way — declarations first,
   then, with NAME_IMPLEMENTATION defined, again for the implementation —
   so the compile tests check both sections, in C99 and in C++, and that two
   fuserc headers coexist in one translation unit. */
#include "kernels.h"
#include "other.h"

#ifdef WITH_IMPLEMENTATION
#define kernels_IMPLEMENTATION
#define other_IMPLEMENTATION
#include "kernels.h"
#include "other.h"
#endif

/* Something to compile when the headers only declare. */
int fuserc_header_test_symbol(void);
int fuserc_header_test_symbol(void) { return kernels_views_NUM_OUTPUTS + other_mask_NUM_INPUTS; }
