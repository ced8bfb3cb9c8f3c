// Unit tests of CUDA literals (codegen/CudaTypes.h): what the generated code
// writes for attribute values such as full's `value` and pad's `value`.
#include "codegen/CudaTypes.h"

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

TEST(CudaLiteral, NanToIntegerIsZero) {
  EXPECT_EQ(cudaLiteral(Number::floating(std::nan("")), DType::I32), "((int)0LL)");
}

TEST(CudaLiteral, FloatToIntegerTruncatesTowardZero) {
  EXPECT_EQ(cudaLiteral(Number::floating(-2.75), DType::I64), "((long long)-2LL)");
  EXPECT_EQ(cudaLiteral(Number::floating(0.5), DType::Bool), "true");
}

} // namespace
} // namespace fuserc
