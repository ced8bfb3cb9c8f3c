// The C helpers every pointwise host launch block calls (see
// PointwiseKernel.h): collapsing dims and choosing the vector width at
// launch, the 32-bit check, magic numbers for division, the grid size. They
// are C99 text pasted once into every generated header.
#include "codegen/pointwise/PointwiseKernel.h"

namespace fuserc {

const std::string &pointwiseHostHelpers() {
  static const std::string text = R"C(#ifndef FUSERC_PW_HELPERS
#define FUSERC_PW_HELPERS
/* Pointwise launch planning, shared by every pointwise kernel of every
   fuserc header in this translation unit. Dims come in memory order,
   outermost first; st[t][d] is tensor t's element stride on dim d (0 where
   it is broadcast). */

/* Collapses the dims that are contiguous in every tensor (and drops
   extent-1 dims) into f_ext/f_st; when every tensor then has stride 0 or 1
   on the innermost dim (1 for written tensors), returns the vector width
   the vec variants can use (vmax when the innermost extent, every outer
   stride and every pointer allow it, else 1); 0 when they cannot run. */
static inline int fuserc_pw_plan(int nt, int rank, const long long *ext, long long (*st)[8],
                                 void *const *ptr, const int *esize, const int *written, int vmax,
                                 long long *f_ext, long long (*f_st)[8], long long *f_inner_st,
                                 long long *f_inner, int *f_nouter, long long *f_chunks) {
  int n = 0, t, d, k, v;
  long long rows = 1;
  for (d = 0; d < rank; ++d) {
    int merge = n > 0;
    if (ext[d] == 1)
      continue;
    for (t = 0; merge && t < nt; ++t)
      if (f_st[t][n - 1] != st[t][d] * ext[d])
        merge = 0;
    if (merge) {
      f_ext[n - 1] *= ext[d];
      for (t = 0; t < nt; ++t)
        f_st[t][n - 1] = st[t][d];
      continue;
    }
    f_ext[n] = ext[d];
    for (t = 0; t < nt; ++t)
      f_st[t][n] = st[t][d];
    ++n;
  }
  if (n == 0) {
    f_ext[0] = 1;
    for (t = 0; t < nt; ++t)
      f_st[t][0] = 1;
    n = 1;
  }
  *f_inner = f_ext[n - 1];
  for (t = 0; t < nt; ++t) {
    long long s = *f_inner == 1 ? 1 : f_st[t][n - 1];
    if (s != 0 && s != 1)
      return 0;
    if (written[t] && s != 1)
      return 0;
    f_inner_st[t] = s;
  }
  *f_nouter = n - 1;
  for (d = 0; d < n - 1; ++d)
    rows *= f_ext[d];
  v = vmax;
  if (*f_inner % v != 0)
    v = 1;
  for (t = 0; v > 1 && t < nt; ++t) {
    if (f_inner_st[t] == 0)
      continue;
    if ((unsigned long long)(uintptr_t)ptr[t] % (unsigned long long)(v * esize[t]) != 0)
      v = 1;
    for (k = 0; v > 1 && k < n - 1; ++k)
      if (f_st[t][k] % v != 0)
        v = 1;
  }
  *f_chunks = rows * (*f_inner / v);
  return v;
}

/* Whether every element index and every tensor offset fits in int32 (with
   room for the grid-stride loop's last step). */
static inline int fuserc_pw_fits32(int nt, int rank, const long long *size, long long (*st)[8],
                                   long long numel) {
  const long long limit = 2147483647LL - (1LL << 28);
  int t, d;
  if (numel >= limit)
    return 0;
  for (t = 0; t < nt; ++t) {
    long long reach = 0;
    for (d = 0; d < rank; ++d)
      reach += (size[d] - 1) * (st[t][d] < 0 ? -st[t][d] : st[t][d]);
    if (reach >= limit)
      return 0;
  }
  return 1;
}

/* Magic numbers for dividing n < 2^31 by d (1 <= d < 2^31) with one
   multiply-high: q = (umulhi(n, mul) + n) >> shift. Extents of 2^31 and
   more only occur in i64 variants, which divide plainly. */
static inline void fuserc_pw_magic(long long d, unsigned *mul, unsigned *shift) {
  unsigned s = 0;
  if (d < 1 || d >= 2147483648LL) {
    *mul = 0;
    *shift = 0;
    return;
  }
  while ((1ULL << s) < (unsigned long long)d)
    ++s;
  *mul = (unsigned)((4294967296ULL * ((1ULL << s) - (unsigned long long)d)) /
                    (unsigned long long)d + 1);
  *shift = s;
}

static inline unsigned fuserc_pw_blocks(unsigned long long work, unsigned block) {
  unsigned long long blocks = (work + block - 1) / block;
  if (blocks > 1048576ULL)
    blocks = 1048576ULL;
  return blocks ? (unsigned)blocks : 1u;
}
#endif /* FUSERC_PW_HELPERS */
)C";
  return text;
}

} // namespace fuserc
