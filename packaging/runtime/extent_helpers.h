/* The integer functions symbolic extents use on the host (fuserc_floordiv,
   ...), guarded by a versioned macro so that several fuserc headers in one
   translation unit define them once. They are not per header: nothing here
   says FUSERC_NAME. Emitted by packaging/HeaderRuntime.cpp without this
   comment. */

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
