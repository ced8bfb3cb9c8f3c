// Unit tests of CUDA literals (codegen/core/CudaTypes.h): what the generated code
// writes for attribute values such as full's `value` and pad's `value`.
#include "codegen/core/CudaTypes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace fuserc {
namespace {

// Found by fuzz_pipeline: `full(shape=[], value=1e+30, dtype=i32)` cast the
// double to int64_t directly, which is undefined behaviour out of range.
// The literal is the value the reference interpreter computes.
TEST(CudaLiteral, FloatOutOfIntegerRangeSaturatesLikeTheInterpreter) {
  EXPECT_EQ(cudaLiteral(Number::floating(1e30), DType::I32), "((int)2147483647LL)");
  EXPECT_EQ(cudaLiteral(Number::floating(-1e30), DType::I32), "((int)-2147483648LL)");
  EXPECT_EQ(cudaLiteral(Number::floating(1e30), DType::I64), "((long long)9223372036854775807LL)");
  EXPECT_EQ(cudaLiteral(Number::floating(-std::numeric_limits<double>::infinity()), DType::I64),
            "((long long)(-9223372036854775807LL - 1))");
}

// Inference refuses pad and full values past their dtype's range; should
// one reach code generation another way, it is f32's infinity, not "inff".
TEST(CudaLiteral, AFiniteDoublePastF32IsF32Infinity) {
  EXPECT_EQ(cudaLiteral(Number::floating(1e300), DType::F32), "__int_as_float(0x7f800000)");
  EXPECT_EQ(cudaLiteral(Number::floating(-1e39), DType::F32), "-__int_as_float(0x7f800000)");
  EXPECT_EQ(cudaLiteral(Number::floating(1e300), DType::F64), "(1.0000000000000001e+300)");
}

TEST(CudaLiteral, NanToIntegerIsZero) {
  EXPECT_EQ(cudaLiteral(Number::floating(std::nan("")), DType::I32), "((int)0LL)");
}

TEST(CudaLiteral, FloatToIntegerTruncatesTowardZero) {
  EXPECT_EQ(cudaLiteral(Number::floating(-2.75), DType::I64), "((long long)-2LL)");
  EXPECT_EQ(cudaLiteral(Number::floating(0.5), DType::Bool), "true");
}

// A value converted to f16 / bf16 just before its store is rounded once:
// the store's conversion rounds to nearest the same way.
TEST(CudaToStorage, StoreDoesNotRoundAValueTwice) {
  EXPECT_EQ(cudaToStorage(cudaConvert("v3", DType::F32, DType::BF16), DType::BF16),
            "__float2bfloat16_rn(v3)");
  EXPECT_EQ(cudaToStorage(cudaConvert("(a * b)", DType::F32, DType::F16), DType::F16),
            "__float2half_rn((a * b))");
}

TEST(CudaToStorage, KeepsRoundingThatIsOnlyPartOfTheValue) {
  const std::string sum = "fuserc_round_f16((float)(a)) + fuserc_round_f16((float)(b))";
  EXPECT_EQ(cudaToStorage(sum, DType::F16), "__float2half_rn(" + sum + ")");
  EXPECT_EQ(cudaToStorage("fuserc_round_f16((float)(v1))", DType::BF16),
            "__float2bfloat16_rn(fuserc_round_f16((float)(v1)))");
}

} // namespace
} // namespace fuserc
