// Row-reduction combine code (see BlockReduce.h).
#include "codegen/BlockReduce.h"

#include "codegen/CodegenError.h"

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
#endif // FUSERC_ROW_REDUCE_HELPERS

)CUDA";
  return text;
}

} // namespace fuserc
