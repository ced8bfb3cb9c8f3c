/* The integer functions symbolic extents use on the host (fuserc_floordiv,
   ..., and their checked forms fuserc_cadd, ...), guarded by versioned macros so that several fuserc headers in one
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

#ifndef FUSERC_CHECKED_INT64_HELPERS_V1
#define FUSERC_CHECKED_INT64_HELPERS_V1
/* Checked forms of the extent arithmetic, for the sizes the header computes
   from user-supplied extents and strides: a result that overflows int64 is
   FUSERC_OVERFLOW (INT64_MIN, which no extent, stride or size is), and
   every operation on FUSERC_OVERFLOW gives FUSERC_OVERFLOW. */
#define FUSERC_OVERFLOW (-9223372036854775807LL - 1)
static inline int64_t fuserc_cadd(int64_t a, int64_t b) {
  if (a == FUSERC_OVERFLOW || b == FUSERC_OVERFLOW)
    return FUSERC_OVERFLOW;
  if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN + 1 - b))
    return FUSERC_OVERFLOW;
  return a + b;
}
static inline int64_t fuserc_cmul(int64_t a, int64_t b) {
  uint64_t ua, ub;
  if (a == FUSERC_OVERFLOW || b == FUSERC_OVERFLOW)
    return FUSERC_OVERFLOW;
  if (a == 0 || b == 0)
    return 0;
  ua = a < 0 ? (uint64_t)-a : (uint64_t)a;
  ub = b < 0 ? (uint64_t)-b : (uint64_t)b;
  if (ua > (uint64_t)INT64_MAX / ub)
    return FUSERC_OVERFLOW;
  return a * b;
}
static inline int64_t fuserc_cfloordiv(int64_t a, int64_t b) {
  return a == FUSERC_OVERFLOW || b == FUSERC_OVERFLOW ? FUSERC_OVERFLOW : fuserc_floordiv(a, b);
}
static inline int64_t fuserc_cceildiv(int64_t a, int64_t b) {
  return a == FUSERC_OVERFLOW || b == FUSERC_OVERFLOW ? FUSERC_OVERFLOW : fuserc_ceildiv(a, b);
}
static inline int64_t fuserc_cmod(int64_t a, int64_t b) {
  return a == FUSERC_OVERFLOW || b == FUSERC_OVERFLOW ? FUSERC_OVERFLOW : fuserc_mod(a, b);
}
static inline int64_t fuserc_cmin(int64_t a, int64_t b) {
  return a == FUSERC_OVERFLOW || b == FUSERC_OVERFLOW ? FUSERC_OVERFLOW : fuserc_min(a, b);
}
static inline int64_t fuserc_cmax(int64_t a, int64_t b) {
  return a == FUSERC_OVERFLOW || b == FUSERC_OVERFLOW ? FUSERC_OVERFLOW : fuserc_max(a, b);
}
#endif
