// Row-reduction combine code (see BlockReduce.h).
#include "codegen/core/BlockReduce.h"

#include "schedulers/KernelGenerator.h"

namespace fuserc {

DType reductionAccumulator(DType result) {
  if (result == DType::F64)
    return DType::F64;
  return isFloating(result) ? DType::F32 : DType::I64;
}

std::string reductionCombiner(OpKind kind) {
  switch (kind) {
  case OpKind::Sum:
  case OpKind::Mean:
  case OpKind::Var:
    return "fuserc_red_add";
  case OpKind::Prod:
    return "fuserc_red_mul";
  case OpKind::Max:
    return "fuserc_red_max";
  case OpKind::Min:
    return "fuserc_red_min";
  default:
    throw CodegenError("internal: no combiner for a non-reduction op");
  }
}

namespace {

std::string rounded(DType acc, const char *op, const char *sign, const std::string &a,
                    const std::string &b) {
  if (acc == DType::F32 || acc == DType::F64)
    return std::string(acc == DType::F32 ? "__f" : "__d") + op + "_rn(" + a + ", " + b + ")";
  return "(" + a + " " + sign + " " + b + ")";
}

} // namespace

std::string roundedAdd(DType acc, const std::string &a, const std::string &b) {
  return rounded(acc, "add", "+", a, b);
}

std::string roundedSub(DType acc, const std::string &a, const std::string &b) {
  return rounded(acc, "sub", "-", a, b);
}

std::string reductionIdentity(OpKind kind, DType acc) {
  const bool f32 = acc == DType::F32, f64 = acc == DType::F64;
  switch (kind) {
  case OpKind::Prod:
    return f32 ? "1.0f" : f64 ? "1.0" : "1LL";
  case OpKind::Max:
    return f32   ? "(-__int_as_float(0x7f800000))"
           : f64 ? "(-__longlong_as_double(0x7ff0000000000000LL))"
                 : "(-9223372036854775807LL - 1)";
  case OpKind::Min:
    return f32   ? "__int_as_float(0x7f800000)"
           : f64 ? "__longlong_as_double(0x7ff0000000000000LL)"
                 : "9223372036854775807LL";
  default:
    return f32 ? "0.0f" : f64 ? "0.0" : "0LL";
  }
}

std::string combinerIdentity(const std::string &combiner, DType acc) {
  for (OpKind kind : {OpKind::Sum, OpKind::Prod, OpKind::Max, OpKind::Min})
    if (reductionCombiner(kind) == combiner)
      return reductionIdentity(kind, acc);
  throw CodegenError("internal: no identity for combiner " + combiner);
}

const std::string &blockReduceCuda() {
  static const std::string text = R"CUDA(#ifndef FUSERC_ROW_REDUCE_HELPERS
#define FUSERC_ROW_REDUCE_HELPERS
// Row-reduction combiners. Integer sums and products wrap (through unsigned
// arithmetic); max and min propagate NaN like the reference interpreter.
struct fuserc_red_add {
  __device__ __forceinline__ float operator()(float a, float b) const { return a + b; }
  __device__ __forceinline__ double operator()(double a, double b) const { return a + b; }
  __device__ __forceinline__ long long operator()(long long a, long long b) const {
    return (long long)((unsigned long long)a + (unsigned long long)b);
  }
};
struct fuserc_red_mul {
  __device__ __forceinline__ float operator()(float a, float b) const { return a * b; }
  __device__ __forceinline__ double operator()(double a, double b) const { return a * b; }
  __device__ __forceinline__ long long operator()(long long a, long long b) const {
    return (long long)((unsigned long long)a * (unsigned long long)b);
  }
};
struct fuserc_red_max {
  template <typename T> __device__ __forceinline__ T operator()(T a, T b) const {
    return fuserc_maximum(a, b);
  }
};
struct fuserc_red_min {
  template <typename T> __device__ __forceinline__ T operator()(T a, T b) const {
    return fuserc_minimum(a, b);
  }
};

// Combines `v` over each aligned group of W lanes (W a power of two up to
// 32); every lane of the group gets the result. All 32 lanes must call it.
template <int W, typename T, typename C> __device__ __forceinline__ T fuserc_group_reduce(T v, C c) {
#pragma unroll
  for (int offset = W / 2; offset > 0; offset >>= 1)
    v = c(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

// Combines `v` over a block of NW warps through `smem` (NW slots); every
// thread gets the result, combined in the same order everywhere. The first
// barrier lets the block reuse `smem` from one reduction to the next.
template <int NW, typename T, typename C>
__device__ __forceinline__ T fuserc_block_reduce(T v, C c, T *smem) {
  v = fuserc_group_reduce<32>(v, c);
  if (NW == 1)
    return v;
  __syncthreads();
  if ((threadIdx.x & 31) == 0)
    smem[threadIdx.x >> 5] = v;
  __syncthreads();
  v = smem[0];
#pragma unroll
  for (int w = 1; w < NW; ++w)
    v = c(v, smem[w]);
  return v;
}

// fuserc_block_reduce for a block of `nw` warps known only at launch: the
// same combines in the same order, so the same result.
template <typename T, typename C>
__device__ __forceinline__ T fuserc_block_reduce_warps(T v, C c, T *smem, int nw) {
  v = fuserc_group_reduce<32>(v, c);
  __syncthreads();
  if ((threadIdx.x & 31) == 0)
    smem[threadIdx.x >> 5] = v;
  __syncthreads();
  v = smem[0];
  for (int w = 1; w < nw; ++w)
    v = c(v, smem[w]);
  return v;
}

// nb / total for a Welford join: in f32 a reciprocal and a product (within 2
// ulp; a join per vector makes a correctly rounded division the row split
// variant's bottleneck), in f64 a division.
template <typename T> __device__ __forceinline__ T fuserc_welford_ratio(int nb, int total) {
  return (T)nb / (T)total;
}
template <> __device__ __forceinline__ float fuserc_welford_ratio<float>(int nb, int total) {
  return __fdividef((float)nb, (float)total);
}
// Welford: (mb, qb), the mean and the sum of squared deviations of nb
// values, join (m, q) of n values; nothing when nb is 0. The cross term d^2
// n nb / (n + nb) is at most the joined q: d * (d * (n f)) stays in range
// where it does, (d * d) * n could overflow first.
template <typename T>
__device__ __forceinline__ void fuserc_welford_join(T &m, T &q, int &n, T mb, T qb, int nb) {
  if (nb == 0)
    return;
  const int total = n + nb;
  const T d = mb - m;
  const T f = fuserc_welford_ratio<T>(nb, total);
  m += d * f;
  q += qb + d * (d * ((T)n * f));
  n = total;
}

// Joins every thread's (m, q, n) over a block of NW warps through `sm`,
// `sq` and `sn` (NW slots each); every thread gets the result, joined in
// the same fixed tree everywhere (lane i takes lane i + offset's, warps in
// order).
template <int NW, typename T>
__device__ __forceinline__ void fuserc_welford_block(T &m, T &q, int &n, T *sm, T *sq, int *sn) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) {
    const T mb = __shfl_down_sync(0xffffffffu, m, offset), qb = __shfl_down_sync(0xffffffffu, q, offset);
    const int nb = __shfl_down_sync(0xffffffffu, n, offset);
    fuserc_welford_join(m, q, n, mb, qb, nb);
  }
  __syncthreads();
  if ((threadIdx.x & 31) == 0) {
    sm[threadIdx.x >> 5] = m;
    sq[threadIdx.x >> 5] = q;
    sn[threadIdx.x >> 5] = n;
  }
  __syncthreads();
  m = sm[0];
  q = sq[0];
  n = sn[0];
#pragma unroll
  for (int w = 1; w < NW; ++w)
    fuserc_welford_join(m, q, n, sm[w], sq[w], sn[w]);
}
#endif // FUSERC_ROW_REDUCE_HELPERS

)CUDA";
  return text;
}

const std::string &clusterReduceCuda() {
  static const std::string text =
      R"CUDA(#if !defined(FUSERC_CLUSTER_HELPERS) && __CUDA_ARCH__ >= 900
#define FUSERC_CLUSTER_HELPERS
__device__ __forceinline__ unsigned fuserc_cluster_rank() {
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned fuserc_cluster_size() {
  unsigned n;
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
  return n;
}
// A barrier of every thread of the cluster (each warp converged): what a
// CTA wrote to shared memory before it is visible to the others after it.
__device__ __forceinline__ void fuserc_cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
  asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
}
// The same meeting point without ordering memory, before the CTAs exit: none
// leaves while another may still read its shared memory.
__device__ __forceinline__ void fuserc_cluster_exit_sync() {
  asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
  asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
}
// The address of `p` (this CTA's shared memory) in the CTA `rank`, and
// reads through it (the accumulator types).
__device__ __forceinline__ unsigned fuserc_cluster_map(const void *p, unsigned rank) {
  unsigned remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
               : "=r"(remote)
               : "r"((unsigned)__cvta_generic_to_shared(p)), "r"(rank));
  return remote;
}
__device__ __forceinline__ float fuserc_cluster_read(const float *p, unsigned rank) {
  float v;
  asm volatile("ld.shared::cluster.f32 %0, [%1];" : "=f"(v) : "r"(fuserc_cluster_map(p, rank)) : "memory");
  return v;
}
__device__ __forceinline__ double fuserc_cluster_read(const double *p, unsigned rank) {
  double v;
  asm volatile("ld.shared::cluster.f64 %0, [%1];" : "=d"(v) : "r"(fuserc_cluster_map(p, rank)) : "memory");
  return v;
}
__device__ __forceinline__ long long fuserc_cluster_read(const long long *p, unsigned rank) {
  long long v;
  asm volatile("ld.shared::cluster.s64 %0, [%1];" : "=l"(v) : "r"(fuserc_cluster_map(p, rank)) : "memory");
  return v;
}
// Combines `v` (the CTA's value, the same in each of its threads) over the
// CTAs of the cluster (a power of two up to 32 of them): thread 0 publishes
// it in `slot`, each lane reads one CTA's slot and a butterfly over each
// group of lanes combines them, the same tree in every CTA, so every thread
// of the cluster gets the same bits. A slot is free again once every CTA
// has passed the next call's barrier.
template <typename T, typename C>
__device__ __forceinline__ T fuserc_cluster_reduce(T v, C c, T *slot) {
  if (threadIdx.x == 0)
    *slot = v;
  fuserc_cluster_sync();
  const unsigned n = fuserc_cluster_size();
  T x = fuserc_cluster_read(slot, (threadIdx.x & 31u) & (n - 1u));
  for (unsigned offset = n >> 1; offset > 0; offset >>= 1)
    x = c(x, __shfl_xor_sync(0xffffffffu, x, offset));
  return x;
}
#endif // FUSERC_CLUSTER_HELPERS

)CUDA";
  return text;
}

const std::string &gridReduceCuda() {
  static const std::string text = R"CUDA(#ifndef FUSERC_GRID_HELPERS
#define FUSERC_GRID_HELPERS
// Combines `v` (the block's value, the same in each of its threads) over the
// `ctas` blocks splitting a row, all resident at once: thread 0 leaves it in
// slots[cta], counts the block in `*count` and waits until the count reaches
// `target` (every block of the row at this combine: each combine of a row
// has its own slots and raises the target by ctas); then each thread reads
// one block's slot (ctas <= the block's threads) and the block combines them
// in the same fixed tree as every other block of the row, so all get the
// same bits.
template <int NW, typename T, typename C>
__device__ __forceinline__ T fuserc_grid_reduce(T v, C c, T identity, T *slots, unsigned cta,
                                                unsigned ctas, int *count, int target, T *smem) {
  if (threadIdx.x == 0) {
    __stcg(slots + cta, v);
    __threadfence();
    atomicAdd(count, 1);
    int seen;
    do {
      asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(seen) : "l"(count) : "memory");
    } while (seen < target);
    __threadfence();
  }
  __syncthreads();
  const T x = threadIdx.x < ctas ? __ldcg(slots + threadIdx.x) : identity;
  return fuserc_block_reduce<NW>(x, c, smem);
}
#endif // FUSERC_GRID_HELPERS

)CUDA";
  return text;
}

} // namespace fuserc
