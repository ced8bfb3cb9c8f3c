// Unit tests for the reference interpreter's composite ops, evaluated
// directly in double: softmax, log_softmax, layer_norm and rms_norm.
#include "InterpreterTestUtil.h"

#include <cmath>

using namespace fuserc;
using namespace fuserc::testutil;

TEST(InterpreterComposite, SoftmaxIsNormalizedAndShiftInvariant) {
  Tensor x = floats(DType::F64, {2, 2}, {0, 1, 1000, 1001});
  Tensor out = runOp(OpKind::Softmax, {x}, DType::F64, {2, 2}, makeAttrs({{"dim", int64_t{1}}}));
  std::vector<double> v = floatValues(out);
  const double e = std::exp(1.0);
  EXPECT_DOUBLE_EQ(v[0], 1 / (1 + e));
  EXPECT_DOUBLE_EQ(v[1], e / (1 + e));
  EXPECT_DOUBLE_EQ(v[2], 1 / (1 + e)); // no overflow for large inputs
  EXPECT_DOUBLE_EQ(v[3], e / (1 + e));
  Tensor cols = runOp(OpKind::Softmax, {floats(DType::F32, {2, 1}, {1, 1})}, DType::F32, {2, 1},
                      makeAttrs({{"dim", int64_t{0}}}));
  EXPECT_EQ(floatValues(cols), (std::vector<double>{0.5, 0.5}));
}

TEST(InterpreterComposite, LogSoftmaxSubtractsTheLogSumExp) {
  Tensor x = floats(DType::F64, {3}, {1000, 1000, 1000});
  std::vector<double> v = floatValues(
      runOp(OpKind::LogSoftmax, {x}, DType::F64, {3}, makeAttrs({{"dim", int64_t{0}}})));
  for (double e : v)
    EXPECT_DOUBLE_EQ(e, -std::log(3.0));
}

TEST(InterpreterComposite, LayerNormNormalizesOverAxesThenScalesAndShifts) {
  Tensor x = floats(DType::F64, {2, 2}, {1, 3, 10, 10});
  Tensor w = floats(DType::F64, {2}, {2, 1});
  Tensor bias = floats(DType::F64, {2}, {0, 5});
  Tensor out =
      runOp(OpKind::LayerNorm, {x, w, bias}, DType::F64, {2, 2},
            makeAttrs({{"axes", std::vector<int64_t>{1}}, {"eps", Number::floating(0.0)}}));
  // Row 0: mean 2, biased variance 1. Row 1: variance 0 with eps 0 -> NaN.
  std::vector<double> v = floatValues(out);
  EXPECT_DOUBLE_EQ(v[0], -2.0);
  EXPECT_DOUBLE_EQ(v[1], 6.0);
  EXPECT_TRUE(std::isnan(v[2]));
  Tensor eps =
      runOp(OpKind::LayerNorm, {x, w, bias}, DType::F64, {2, 2},
            makeAttrs({{"axes", std::vector<int64_t>{1}}, {"eps", Number::floating(3.0)}}));
  EXPECT_DOUBLE_EQ(floatValues(eps)[0], -1.0); // (1 - 2) / sqrt(1 + 3) * 2
}

TEST(InterpreterComposite, LayerNormOverSeveralAxesIndexesParametersRowMajor) {
  Tensor x = floats(DType::F32, {1, 2, 2}, {1, 2, 3, 4});
  Tensor w = floats(DType::F32, {2, 2}, {1, 1, 1, 1});
  Tensor bias = floats(DType::F32, {2, 2}, {0, 10, 20, 30});
  std::vector<double> v = floatValues(
      runOp(OpKind::LayerNorm, {x, w, bias}, DType::F32, {1, 2, 2},
            makeAttrs({{"axes", std::vector<int64_t>{1, 2}}, {"eps", Number::floating(0.0)}})));
  const double s = std::sqrt(1.25);
  EXPECT_EQ(v, (std::vector<double>{f32(-1.5 / s), f32(-0.5 / s + 10), f32(0.5 / s + 20),
                                    f32(1.5 / s + 30)}));
}

TEST(InterpreterComposite, RmsNormDividesByTheRootMeanSquare) {
  Tensor x = floats(DType::F64, {2}, {3, 4});
  Tensor w = floats(DType::F64, {2}, {1, 2});
  std::vector<double> v = floatValues(
      runOp(OpKind::RmsNorm, {x, w}, DType::F64, {2},
            makeAttrs({{"axes", std::vector<int64_t>{0}}, {"eps", Number::floating(0.0)}})));
  const double rms = std::sqrt(12.5);
  EXPECT_DOUBLE_EQ(v[0], 3 / rms);
  EXPECT_DOUBLE_EQ(v[1], 4 / rms * 2);
}

TEST(InterpreterComposite, HalfResultsRoundToTheirDTypeAsTheDecompositionDoes) {
  // softmax of [0, 1, 2] is not an f16 value; the composite's result is,
  // also where it is read at f32 (an f16 op result would be carried at f32).
  FusionBuilder b;
  Value *x = b.input("x", DType::F16, Shape{3});
  Value *s = b.op(OpKind::Softmax, {x}, DType::F16, Shape{3}, makeAttrs({{"dim", int64_t{0}}}));
  b.output(b.op(OpKind::Cast, {s}, DType::F32, Shape{3}, makeAttrs({{"dtype", DType::F32}})));
  auto outputs = run(b.fusion(), {{"x", floats(DType::F16, {3}, {0, 1, 2})}});
  ASSERT_EQ(outputs.size(), 1u);
  const double e1 = std::exp(1.0), e2 = std::exp(2.0), sum = 1 + e1 + e2;
  const std::vector<double> v = floatValues(outputs[0]);
  EXPECT_EQ(v[2], roundToFloatType(e2 / sum, DType::F16));
  EXPECT_NE(v[2], f32(e2 / sum));
}
