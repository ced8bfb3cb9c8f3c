// Unit tests for the reference interpreter's reductions: axes and keepdim,
// accumulation dtypes, NaN propagation, variance correction, and errors.
#include "InterpreterTestUtil.h"

#include <limits>

using namespace fuserc;
using namespace fuserc::testutil;

namespace {
const double kNaN = std::numeric_limits<double>::quiet_NaN();

Attributes axes(std::vector<int64_t> list, bool keepdim = false) {
  return makeAttrs({{"axes", std::move(list)}, {"keepdim", keepdim}});
}
} // namespace

TEST(InterpreterReduction, SumOverAnAxisWithAndWithoutKeepdim) {
  Tensor x = floats(DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor rows = runOp(OpKind::Sum, {x}, DType::F32, {2}, axes({1}));
  EXPECT_EQ(rows.shape(), (Shape{2}));
  EXPECT_EQ(floatValues(rows), (std::vector<double>{6, 15}));
  Tensor cols = runOp(OpKind::Sum, {x}, DType::F32, {1, 3}, axes({0}, true));
  EXPECT_EQ(cols.shape(), (Shape{1, 3}));
  EXPECT_EQ(floatValues(cols), (std::vector<double>{5, 7, 9}));
}

TEST(InterpreterReduction, SumOverAllAxesGivesRankZero) {
  Tensor x = ints(DType::I32, {2, 2}, {1, 2, 3, 4});
  Tensor out = runOp(OpKind::Sum, {x}, DType::I64, {}, axes({0, 1}));
  EXPECT_EQ(out.rank(), 0u);
  EXPECT_EQ(intValues(out), (std::vector<int64_t>{10}));
}

TEST(InterpreterReduction, ReducesNonAdjacentAxesInRowMajorOrder) {
  Tensor x = floats(DType::F64, {2, 3, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  EXPECT_EQ(floatValues(runOp(OpKind::Sum, {x}, DType::F64, {3}, axes({0, 2}))),
            (std::vector<double>{1 + 2 + 7 + 8, 3 + 4 + 9 + 10, 5 + 6 + 11 + 12}));
}

TEST(InterpreterReduction, IntegerSumAccumulatesInI64) {
  const int64_t max32 = std::numeric_limits<int32_t>::max();
  Tensor x = ints(DType::I32, {2}, {max32, 1});
  EXPECT_EQ(intValues(runOp(OpKind::Sum, {x}, DType::I64, {}, axes({0}))),
            (std::vector<int64_t>{max32 + 1}));
  // With dtype=i32 the sum wraps in i32.
  Attributes attrs = axes({0});
  attrs.set("dtype", DType::I32);
  EXPECT_EQ(intValues(runOp(OpKind::Sum, {x}, DType::I32, {}, attrs)),
            (std::vector<int64_t>{std::numeric_limits<int32_t>::min()}));
}

TEST(InterpreterReduction, SumWithF64DtypeAccumulatesWithoutF32Rounding) {
  Tensor x = floats(DType::F32, {2}, {16777216.0, 1.0});
  Attributes attrs = axes({0});
  attrs.set("dtype", DType::F64);
  EXPECT_EQ(floatValues(runOp(OpKind::Sum, {x}, DType::F64, {}, attrs)),
            (std::vector<double>{16777217.0}));
  EXPECT_EQ(floatValues(runOp(OpKind::Sum, {x}, DType::F32, {}, axes({0}))),
            (std::vector<double>{16777216.0}));
}

TEST(InterpreterReduction, ProdOfBoolsGivesI64) {
  Tensor x = ints(DType::Bool, {2, 2}, {1, 1, 1, 0});
  Tensor out = runOp(OpKind::Prod, {x}, DType::I64, {2}, axes({1}));
  EXPECT_EQ(out.dtype(), DType::I64);
  EXPECT_EQ(intValues(out), (std::vector<int64_t>{1, 0}));
}

TEST(InterpreterReduction, MaxAndMinKeepTheDTypeAndPropagateNaN) {
  Tensor x = floats(DType::F32, {2, 2}, {1, kNaN, -3, 2});
  std::vector<double> m = floatValues(runOp(OpKind::Max, {x}, DType::F32, {2}, axes({1})));
  EXPECT_TRUE(std::isnan(m[0]));
  EXPECT_EQ(m[1], 2);
  Tensor i = ints(DType::I32, {3}, {4, -9, 7});
  Tensor lo = runOp(OpKind::Min, {i}, DType::I32, {}, axes({0}));
  EXPECT_EQ(lo.dtype(), DType::I32);
  EXPECT_EQ(intValues(lo), (std::vector<int64_t>{-9}));
}

TEST(InterpreterReduction, MaxOverAnEmptyAxisIsAnError) {
  Tensor x = floats(DType::F32, {2, 0}, {});
  std::string error = runOpError(OpKind::Max, {x}, DType::F32, {2}, axes({1}));
  EXPECT_NE(error.find("max"), std::string::npos) << error;
  EXPECT_NE(error.find("empty"), std::string::npos) << error;
}

TEST(InterpreterReduction, MeanDividesByTheCount) {
  Tensor x = floats(DType::F32, {2, 2}, {1, 2, 3, 5});
  EXPECT_EQ(floatValues(runOp(OpKind::Mean, {x}, DType::F32, {2}, axes({1}))),
            (std::vector<double>{1.5, 4}));
  Tensor third = floats(DType::F32, {3}, {1, 0, 0});
  EXPECT_EQ(floatValues(runOp(OpKind::Mean, {third}, DType::F32, {}, axes({0}))),
            (std::vector<double>{f32(1.0 / 3.0)}));
  // Integer input with a floating dtype.
  Attributes attrs = axes({0});
  attrs.set("dtype", DType::F64);
  EXPECT_EQ(
      floatValues(runOp(OpKind::Mean, {ints(DType::I64, {2}, {1, 2})}, DType::F64, {}, attrs)),
      (std::vector<double>{1.5}));
}

TEST(InterpreterReduction, VarUsesBesselsCorrection) {
  Tensor x = floats(DType::F64, {4}, {1, 2, 3, 4});
  Attributes unbiased = axes({0});
  unbiased.set("correction", int64_t{1});
  EXPECT_EQ(floatValues(runOp(OpKind::Var, {x}, DType::F64, {}, unbiased)),
            (std::vector<double>{5.0 / 3.0}));
  Attributes biased = axes({0});
  biased.set("correction", int64_t{0});
  EXPECT_EQ(floatValues(runOp(OpKind::Var, {x}, DType::F64, {}, biased)),
            (std::vector<double>{1.25}));
  Tensor one = floats(DType::F32, {1, 1}, {5});
  std::vector<double> v = floatValues(runOp(OpKind::Var, {one}, DType::F32, {1}, unbiased));
  EXPECT_TRUE(std::isnan(v[0]));
}

TEST(InterpreterReduction, F16ReductionRoundsOnlyAtTheOutput) {
  // 2048 + 1 + 1: each partial result is exact in f32, and only the final
  // f16 output rounds (2050 is representable; 2049 would not be).
  Tensor x = floats(DType::F16, {3}, {2048, 1, 1});
  Tensor out = runOp(OpKind::Sum, {x}, DType::F16, {}, axes({0}));
  EXPECT_EQ(out.dtype(), DType::F16);
  EXPECT_EQ(floatValues(out), (std::vector<double>{2050}));
}

// Max and min over zeros of both signs: +0 and -0 in any order of the
// values (-0 orders below +0), as a kernel's reduction tree gives them.
TEST(InterpreterReduction, MaxAndMinOverSignedZerosDoNotDependOnTheirOrder) {
  Tensor zeros = floats(DType::F64, {2, 3}, {-0.0, 0.0, -0.0, 0.0, -0.0, -0.0});
  for (double v : floatValues(runOp(OpKind::Max, {zeros}, DType::F64, {2}, axes({1}))))
    EXPECT_FALSE(std::signbit(v));
  for (double v : floatValues(runOp(OpKind::Min, {zeros}, DType::F64, {2}, axes({1}))))
    EXPECT_TRUE(std::signbit(v));
}
