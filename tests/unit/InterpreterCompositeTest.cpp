// Unit tests for the reference interpreter's composite ops, evaluated
// directly in double: softmax, log_softmax, layer_norm, rms_norm, softplus,
// logsumexp, std, argmax and argmin.
#include "InterpreterTestUtil.h"

#include <cmath>
#include <limits>

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

namespace {
const double kInf = std::numeric_limits<double>::infinity();

Attributes softplusAttrs(double beta, double threshold) {
  return makeAttrs({{"beta", Number::floating(beta)}, {"threshold", Number::floating(threshold)}});
}
Attributes reductionAttrs(std::vector<int64_t> axes, bool keepdim, int64_t correction = -1) {
  Attributes attrs = makeAttrs({{"axes", std::move(axes)}, {"keepdim", keepdim}});
  if (correction >= 0)
    attrs.set("correction", correction);
  return attrs;
}
} // namespace

TEST(InterpreterComposite, SoftplusIsLinearAboveTheThresholdAsTorch) {
  Tensor x = floats(DType::F64, {5}, {0, 1, 20, 21, -kInf});
  std::vector<double> v =
      floatValues(runOp(OpKind::Softplus, {x}, DType::F64, {5}, softplusAttrs(1, 20)));
  EXPECT_DOUBLE_EQ(v[0], std::log(2.0));
  EXPECT_DOUBLE_EQ(v[1], std::log1p(std::exp(1.0)));
  EXPECT_DOUBLE_EQ(v[2], std::log1p(std::exp(20.0))); // beta * x == threshold: not linear
  EXPECT_EQ(v[3], 21.0);
  EXPECT_EQ(v[4], 0.0);
  // beta scales the input and divides the result; the threshold compares beta * x.
  std::vector<double> scaled =
      floatValues(runOp(OpKind::Softplus, {x}, DType::F64, {5}, softplusAttrs(-0.5, 3)));
  EXPECT_DOUBLE_EQ(scaled[1], std::log1p(std::exp(-0.5)) / -0.5);
  EXPECT_EQ(scaled[4], -kInf); // -0.5 * -inf = inf > 3: x itself
}

TEST(InterpreterComposite, LogSumExpShiftsByTheMaxAndKeepsInfinities) {
  // Rows: finite; all -inf (torch: -inf); a +inf (torch: +inf); -inf beside
  // finite values; NaN.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Tensor x =
      floats(DType::F64, {5, 3},
             {1000, 1000, 1000, -kInf, -kInf, -kInf, kInf, 1, -kInf, -kInf, 0, 1, nan, 0, 1});
  std::vector<double> v =
      floatValues(runOp(OpKind::LogSumExp, {x}, DType::F64, {5}, reductionAttrs({1}, false)));
  EXPECT_DOUBLE_EQ(v[0], 1000 + std::log(3.0)); // no overflow
  EXPECT_EQ(v[1], -kInf);
  EXPECT_EQ(v[2], kInf);
  EXPECT_DOUBLE_EQ(v[3], std::log(1 + std::exp(1.0)));
  EXPECT_TRUE(std::isnan(v[4]));
  // keepdim and an integer input (its result is f32).
  Tensor i = ints(DType::I32, {2, 2}, {0, 0, 1, 1});
  std::vector<double> k =
      floatValues(runOp(OpKind::LogSumExp, {i}, DType::F32, {1, 1}, reductionAttrs({0, 1}, true)));
  EXPECT_EQ(k, (std::vector<double>{f32(1 + std::log(2 + 2 * std::exp(-1.0)))}));
}

TEST(InterpreterComposite, StdIsTheSquareRootOfTheCorrectedVariance) {
  Tensor x = floats(DType::F64, {2, 4}, {1, 2, 3, 4, 5, 5, 5, 5});
  std::vector<double> v =
      floatValues(runOp(OpKind::Std, {x}, DType::F64, {2}, reductionAttrs({1}, false, 1)));
  EXPECT_DOUBLE_EQ(v[0], std::sqrt(5.0 / 3));
  EXPECT_EQ(v[1], 0.0);
  std::vector<double> biased =
      floatValues(runOp(OpKind::Std, {x}, DType::F64, {2, 1}, reductionAttrs({1}, true, 0)));
  EXPECT_DOUBLE_EQ(biased[0], std::sqrt(1.25));
  // A bf16 result is rounded, as torch.std's kernel rounds it.
  Tensor h = floats(DType::BF16, {3}, {0, 1, 3});
  std::vector<double> half =
      floatValues(runOp(OpKind::Std, {h}, DType::BF16, {}, reductionAttrs({0}, false, 1)));
  EXPECT_EQ(half[0], roundToFloatType(std::sqrt(7.0 / 3), DType::BF16));
}

TEST(InterpreterComposite, ArgMaxOfAnEmptyDimIsAnErrorAsInPyTorch) {
  Tensor x = floats(DType::F32, {2, 0}, {});
  const std::string message =
      runOpError(OpKind::ArgMax, {x}, DType::I64, {2}, makeAttrs({{"dim", int64_t{1}}}));
  EXPECT_NE(message.find("an empty dim has no largest value"), std::string::npos) << message;
  // No lanes (a [0, 3] tensor along its 3) is no error: an empty result.
  EXPECT_EQ(runOp(OpKind::ArgMin, {floats(DType::F32, {0, 3}, {})}, DType::I64, {0},
                  makeAttrs({{"dim", int64_t{1}}}))
                .numel(),
            0u);
}
