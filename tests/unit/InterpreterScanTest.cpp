// Unit tests for the reference interpreter's scans (cumsum, cumprod):
// prefixes along a dim, result dtypes, integer wrapping, NaN and infinities
// carried along, and the moves of perturbed runs.
#include "InterpreterPerturbationTestUtil.h"

#include <cmath>
#include <limits>

using namespace fuserc;
using namespace fuserc::testutil;

namespace {

Attributes along(int64_t dim) { return makeAttrs({{"dim", dim}}); }

} // namespace

TEST(InterpreterScan, CumsumAddsEachPrefixAlongItsDimOnly) {
  Tensor x = floats(DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(floatValues(runOp(OpKind::Cumsum, {x}, DType::F32, {2, 3}, along(1))),
            (std::vector<double>{1, 3, 6, 4, 9, 15}));
  EXPECT_EQ(floatValues(runOp(OpKind::Cumsum, {x}, DType::F32, {2, 3}, along(0))),
            (std::vector<double>{1, 2, 3, 5, 7, 9}));
}

TEST(InterpreterScan, CumprodMultipliesEachPrefixAndCarriesNaNAndZeros) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  Tensor x = floats(DType::F64, {2, 4}, {2, 3, 0, inf, 1, nan, 4, 5});
  std::vector<double> got = floatValues(runOp(OpKind::Cumprod, {x}, DType::F64, {2, 4}, along(1)));
  EXPECT_EQ(got[0], 2);
  EXPECT_EQ(got[1], 6);
  EXPECT_EQ(got[2], 0);
  EXPECT_TRUE(std::isnan(got[3])); // 0 * inf
  EXPECT_EQ(got[4], 1);
  EXPECT_TRUE(std::isnan(got[5]) && std::isnan(got[6]) && std::isnan(got[7]));
}

TEST(InterpreterScan, IntegerAndBoolInputsAccumulateInTheResultTypeAndWrap) {
  const int64_t max32 = std::numeric_limits<int32_t>::max();
  Tensor x = ints(DType::I32, {3}, {max32, 1, 1});
  EXPECT_EQ(intValues(runOp(OpKind::Cumsum, {x}, DType::I64, {3}, along(0))),
            (std::vector<int64_t>{max32, max32 + 1, max32 + 2}));
  Attributes narrow = along(0);
  narrow.set("dtype", DType::I32);
  const int64_t min32 = std::numeric_limits<int32_t>::min();
  EXPECT_EQ(intValues(runOp(OpKind::Cumsum, {x}, DType::I32, {3}, narrow)),
            (std::vector<int64_t>{max32, min32, min32 + 1}));
  Tensor m = ints(DType::Bool, {4}, {1, 0, 1, 1});
  EXPECT_EQ(intValues(runOp(OpKind::Cumsum, {m}, DType::I64, {4}, along(0))),
            (std::vector<int64_t>{1, 1, 2, 3}));
}

TEST(InterpreterScan, AnEmptyDimOrNoLanesGiveAnEmptyResult) {
  EXPECT_EQ(
      runOp(OpKind::Cumsum, {floats(DType::F32, {3, 0}, {})}, DType::F32, {3, 0}, along(1)).numel(),
      0u);
  EXPECT_EQ(runOp(OpKind::Cumprod, {floats(DType::F32, {0, 3}, {})}, DType::F32, {0, 3}, along(1))
                .numel(),
            0u);
}

TEST(InterpreterScan, APerturbedPrefixSumMovesByItsTermsMagnitudeTimesTheLanesRounds) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F64, Shape{4});
  b.output(b.op(OpKind::Cumsum, {x}, DType::F64, Shape{4}, along(0)));
  const std::map<std::string, Tensor> inputs{{"x", floats(DType::F64, {4}, {1e6, -1e6, 1.0, 2.0})}};
  const std::vector<double> got = floatValues(perturbedRun(b.fusion(), inputs, 3).outputs[0]);
  // The third prefix is 1, but its terms' magnitudes add to 2e6 + 1: it
  // moves by about that times 2^-49, times log2 of the lane's 4 elements
  // (or lands on 0 in one of a pair of draws: a cancelling accumulation).
  const double move = std::fabs(got[2] - 1.0), size = (2e6 + 1) * 2 * 0x1p-49;
  EXPECT_TRUE(got[2] == 0 || (move >= 0.45 * size && move <= 1.55 * size)) << got[2];
}

TEST(InterpreterScan, APrefixWhoseOverflowDependsOnTheOrderIsIllDefinedWhereKernelsRound) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{4});
  b.output(b.op(OpKind::Cumsum, {x}, DType::F32, Shape{4}, along(0)));
  // 3e38 + 3e38 overflows f32 in one order and not in another (then - 3e38):
  // from the second prefix on, a perturbed run says NaN; the first is exact.
  const std::map<std::string, Tensor> inputs{
      {"x", floats(DType::F32, {4}, {3e38, 3e38, -3e38, 1})}};
  const InterpreterResult r = perturbedRun(b.fusion(), inputs, 1);
  ASSERT_TRUE(r.ok) << r.error;
  const std::vector<double> got = floatValues(r.outputs[0]);
  EXPECT_FALSE(std::isnan(got[0]));
  EXPECT_TRUE(std::isnan(got[2]) && std::isnan(got[3]));
}

TEST(InterpreterScan, APrefixProductLeavingTheRangeOnTheWayIsIllDefinedWhereKernelsRound) {
  // Fuzzer seed 78916: exp2 then cumprod. A kernel multiplying the two
  // large factors first overflows f32 and stays inf; the order 2^100 *
  // 2^-100 * 2^100 ends at 2^100. So the third prefix on is NaN in a
  // perturbed run; the second, 2^200, overflows in every order (inf). The
  // same for underflow to 0.
  for (const double scale : {1.0, -1.0}) {
    FusionBuilder b;
    Value *x = b.input("x", DType::F32, Shape{4});
    b.output(b.op(OpKind::Cumprod, {x}, DType::F32, Shape{4}, along(0)));
    const double big = std::ldexp(1.0, static_cast<int>(100 * scale));
    const std::map<std::string, Tensor> inputs{
        {"x", floats(DType::F32, {4}, {big, big, 1 / big, 2})}};
    const InterpreterResult r = perturbedRun(b.fusion(), inputs, 1);
    ASSERT_TRUE(r.ok) << r.error;
    const std::vector<double> got = floatValues(r.outputs[0]);
    EXPECT_FALSE(std::isnan(got[0])) << scale;
    EXPECT_EQ(got[1], scale > 0 ? std::numeric_limits<double>::infinity() : 0.0) << scale;
    EXPECT_TRUE(std::isnan(got[2]) && std::isnan(got[3])) << scale;
  }
}
