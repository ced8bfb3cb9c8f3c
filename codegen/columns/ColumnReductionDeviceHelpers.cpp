// The CUDA device functions every column-reduction kernel uses (see
// ColumnReductionPlan.h): Welford pushes and merges of partials, and the
// rows a thread and a split take. The text is guarded so that every kernel
// of a module may include it.
#include "codegen/columns/ColumnReductionPlan.h"

namespace fuserc {

const std::string &columnDeviceHelpers() {
  static const std::string text = R"CUDA(#ifndef FUSERC_COL_REDUCE_HELPERS
#define FUSERC_COL_REDUCE_HELPERS
// x - mean, rounded on its own: the compiler must not fuse the product that
// made x into the subtraction (an FMA sees x unrounded, and a column of one
// value got m2 > 0, so inf for var's 0/0).
__device__ __forceinline__ float fuserc_col_sub(float a, float b) { return __fsub_rn(a, b); }
__device__ __forceinline__ double fuserc_col_sub(double a, double b) { return __dsub_rn(a, b); }
// 1 / n, correctly rounded: what (T)1 / (T)n gives, without a division's
// checks and slow path once per row.
__device__ __forceinline__ float fuserc_col_inverse(float n) { return __frcp_rn(n); }
__device__ __forceinline__ double fuserc_col_inverse(double n) { return __drcp_rn(n); }
// Welford: x joins a running (mean, m2); inv_n is 1 / (the count with x).
template <typename T>
__device__ __forceinline__ void fuserc_welford_push(T &mean, T &m2, T x, T inv_n) {
  const T d = fuserc_col_sub(x, mean);
  mean += d * inv_n;
  m2 += d * fuserc_col_sub(x, mean);
}
// Merges (mean_b, m2_b) of n_b values into (mean, m2) of n values. The
// cross term d^2 n n_b / (n + n_b) is at most the merged m2: d * (d * (n f))
// stays in range where it does, (d * d) * n could overflow first.
template <typename T>
__device__ __forceinline__ void fuserc_welford_merge(T &mean, T &m2, long long &n, T mean_b,
                                                     T m2_b, long long n_b) {
  if (n_b == 0)
    return;
  const long long total = n + n_b;
  const T d = mean_b - mean;
  const T f = (T)n_b / (T)total;
  mean += d * f;
  m2 += m2_b + d * (d * ((T)n * f));
  n = total;
}
// Rows of [begin, end) that `lanes` row lanes from `first` take when a
// block steps by `step` rows: those r with (r - begin) % step in
// [first, first + lanes).
__device__ __forceinline__ long long fuserc_col_rows(long long begin, long long end, int first,
                                                     int lanes, int step) {
  const long long span = end > begin ? end - begin : 0, rest = span % step - first;
  return span / step * lanes + (rest <= 0 ? 0 : rest < lanes ? rest : lanes);
}
// Rows of split s, `chunk` rows each, out of len.
__device__ __forceinline__ long long fuserc_col_split_rows(long long len, long long chunk,
                                                           long long s) {
  const long long left = len - s * chunk;
  return left <= 0 ? 0 : left < chunk ? left : chunk;
}
#endif // FUSERC_COL_REDUCE_HELPERS

)CUDA";
  return text;
}

} // namespace fuserc
