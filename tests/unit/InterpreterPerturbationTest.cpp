// Unit tests for the interpreter's perturbed evaluation (InterpreterOptions):
// the reference the GPU fuzzer uses to tell ill-conditioned elements.
#include "InterpreterPerturbationTestUtil.h"

#include <algorithm>
#include <cmath>

using namespace fuserc;
using namespace fuserc::testutil;

namespace {

// Whether `moved` is within [1/2, 3/2] of `size` (the draw of a move's size), give
// or take the rounding of the result to f32.
bool movedBy(double moved, double size) { return moved >= 0.45 * size && moved <= 1.55 * size; }

} // namespace

TEST(InterpreterPerturbation, MovesEveryComputedElementByAboutTheRelativeAmountEitherWay) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{64});
  b.output(b.op(OpKind::Mul, {x, b.floatLiteral(3.0)}, DType::F32, Shape{64}));
  std::vector<double> values(64);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = 1.0 + static_cast<double>(i);
  InterpreterResult r = perturbedRun(b.fusion(), {{"x", floats(DType::F32, {64}, values)}}, 7);
  ASSERT_TRUE(r.ok) << r.error;
  int up = 0, down = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    const double exact = 3.0 * values[i];
    const double got = floatValues(r.outputs[0])[i];
    EXPECT_TRUE(movedBy(std::fabs(got - exact) / exact, 0x1p-20)) << i << ": " << got;
    (got > exact ? up : down)++;
  }
  EXPECT_GT(up, 0);
  EXPECT_GT(down, 0);
}

TEST(InterpreterPerturbation, LeavesExactResultsZerosAndUnperturbedRunsAlone) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{2});
  b.output(b.op(OpKind::Cast, {x}, DType::F64, Shape{2}, makeAttrs({{"dtype", DType::F64}})));
  b.output(b.op(OpKind::Sub, {x, x}, DType::F32, Shape{2}));
  // A floor of a perturbed value moves by a whole unit or not at all.
  Value *tripled = b.op(OpKind::Mul, {x, b.floatLiteral(3.0)}, DType::F32, Shape{2});
  b.output(b.op(OpKind::Floor, {tripled}, DType::F32, Shape{2}));
  const std::map<std::string, Tensor> inputs{{"x", floats(DType::F32, {2}, {0.1, 2.5})}};
  InterpreterResult r = perturbedRun(b.fusion(), inputs, 1);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(floatValues(r.outputs[0]), (std::vector<double>{f32(0.1), 2.5}));
  EXPECT_EQ(floatValues(r.outputs[1]), (std::vector<double>{0.0, 0.0}));
  for (double v : floatValues(r.outputs[2]))
    EXPECT_EQ(v, std::floor(v));
  EXPECT_EQ(floatValues(run(b.fusion(), inputs)[0]), (std::vector<double>{f32(0.1), 2.5}));
}

TEST(InterpreterPerturbation, SameSeedSameValuesOtherSeedOtherSigns) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F64, Shape{32});
  b.output(b.op(OpKind::Exp, {x}, DType::F64, Shape{32}));
  const std::map<std::string, Tensor> inputs{
      {"x", floats(DType::F64, {32}, std::vector<double>(32, 0.5))}};
  const auto first = floatValues(perturbedRun(b.fusion(), inputs, 3).outputs[0]);
  EXPECT_EQ(first, floatValues(perturbedRun(b.fusion(), inputs, 3).outputs[0]));
  EXPECT_NE(first, floatValues(perturbedRun(b.fusion(), inputs, 4).outputs[0]));
  // f64 moves by the same number of ulps as f32: 2^-20 * 2^-29.
  EXPECT_TRUE(movedBy(std::fabs(first[0] - std::exp(0.5)) / std::exp(0.5), 0x1p-49));
}

TEST(InterpreterPerturbation, CancellingSumMovesByItsTermsMagnitudeNotItsValue) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F64, Shape{3});
  b.output(b.op(OpKind::Sum, {x}, DType::F64, Shape{},
                makeAttrs({{"axes", std::vector<int64_t>{0}}, {"keepdim", false}})));
  const std::map<std::string, Tensor> inputs{{"x", floats(DType::F64, {3}, {1e6, 1.0, -1e6})}};
  const double got = floatValues(perturbedRun(b.fusion(), inputs, 5).outputs[0])[0];
  // |x| sums to 2e6 + 1: the move is that many times 2^-49 (times log2 of
  // the 3 terms), not 1 * 2^-49.
  EXPECT_TRUE(movedBy(std::fabs(got - 1.0), (2e6 + 1) * std::log2(3.0) * 0x1p-49)) << got;
}

TEST(InterpreterPerturbation, LayerNormMovesByItsMeansErrorOverTheDeviation) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F64, Shape{4});
  Value *w = b.input("w", DType::F64, Shape{4});
  Value *bias = b.input("b", DType::F64, Shape{4});
  b.output(b.op(OpKind::LayerNorm, {x, w, bias}, DType::F64, Shape{4},
                makeAttrs({{"axes", std::vector<int64_t>{0}}, {"eps", Number::floating(0.0)}})));
  // Mean 1000, deviation 1, mean |x| 1000: each output (+-2) moves by
  // mean |x| / deviation * |w| * log2(4 elements) = 4000 times the relative
  // amount.
  const std::map<std::string, Tensor> inputs{{"x", floats(DType::F64, {4}, {999, 1001, 999, 1001})},
                                             {"w", floats(DType::F64, {4}, {2, 2, 2, 2})},
                                             {"b", floats(DType::F64, {4}, {0, 0, 0, 0})}};
  const std::vector<double> got = floatValues(perturbedRun(b.fusion(), inputs, 9).outputs[0]);
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_TRUE(movedBy(std::fabs(got[i] - (i % 2 ? 2.0 : -2.0)), 4000 * 0x1p-49)) << i;
}

TEST(InterpreterPerturbation, ReducesPairwiseInTheAccumulatorLikeAKernel) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{4});
  Value *y = b.input("y", DType::F32, Shape{2});
  b.output(b.op(OpKind::Prod, {x}, DType::F32, Shape{},
                makeAttrs({{"axes", std::vector<int64_t>{0}}, {"keepdim", false}})));
  b.output(b.op(
      OpKind::Var, {y}, DType::F32, Shape{},
      makeAttrs(
          {{"axes", std::vector<int64_t>{0}}, {"keepdim", false}, {"correction", int64_t{0}}})));
  const std::map<std::string, Tensor> inputs{{"x", floats(DType::F32, {4}, {1e30, 1e30, 0, -1e19})},
                                             {"y", floats(DType::F32, {2}, {1.5e19, -1.5e19})}};
  // In double the product meets the zero at 1e60, and the squared
  // deviations (2.25e38 each) add up to 4.5e38; in f32 pairs, 1e30 * 1e30
  // overflows before (0 * -1e19) is met, and so does the sum of squares.
  const std::vector<Tensor> exact = run(b.fusion(), inputs);
  EXPECT_EQ(floatValues(exact[0])[0], 0.0);
  EXPECT_NEAR(floatValues(exact[1])[0] / 2.25e38, 1.0, 1e-6);
  const InterpreterResult r = perturbedRun(b.fusion(), inputs, 2);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(std::isnan(floatValues(r.outputs[0])[0]));
  EXPECT_TRUE(std::isinf(floatValues(r.outputs[1])[0]));
}

TEST(InterpreterPerturbation, EachUseOfAValueMovesByItsOwnDrawAndSubnormalsByAnUlp) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{64});
  // A kernel may compute t in two kernels, each rounding its own way: t / t
  // is not exactly 1 in a perturbed run.
  Value *t = b.op(OpKind::Exp, {x}, DType::F32, Shape{64});
  b.output(b.op(OpKind::Div, {t, t}, DType::F32, Shape{64}));
  // exp(-103) is a subnormal f32 (about 1.4e-45 * 1.3): moved by an ulp.
  b.output(t);
  std::vector<double> values(64, 0.25);
  values[0] = -103.0;
  const InterpreterResult r =
      perturbedRun(b.fusion(), {{"x", floats(DType::F32, {64}, values)}}, 11);
  ASSERT_TRUE(r.ok) << r.error;
  int notOne = 0;
  for (double v : floatValues(r.outputs[0]))
    notOne += v != 1.0;
  EXPECT_GT(notOne, 32);
  const double exact = f32(std::exp(-103.0));
  ASSERT_GT(exact, 0.0);
  EXPECT_NE(floatValues(r.outputs[1])[0], exact);
}

TEST(InterpreterPerturbation, AProductOrderDecidesIsIllDefined) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F64, Shape{6});
  b.output(b.op(OpKind::Prod, {x}, DType::F64, Shape{},
                makeAttrs({{"axes", std::vector<int64_t>{0}}, {"keepdim", false}})));
  // In sequence the zero comes first: 0. Pairwise, the halves are
  // (0 * 2) * 1e200 = 0 and 1e200 * 1e200 = inf, and 0 * inf is NaN: the
  // order decides, so the perturbed run says NaN (ill-defined).
  const std::map<std::string, Tensor> inputs{
      {"x", floats(DType::F64, {6}, {0, 2, 1e200, 1e200, 1e200, 1})}};
  EXPECT_EQ(floatValues(run(b.fusion(), inputs)[0])[0], 0.0);
  const InterpreterResult r = perturbedRun(b.fusion(), inputs, 4);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(std::isnan(floatValues(r.outputs[0])[0]));
}

TEST(InterpreterPerturbation, NormalizationsAccumulateLikeAKernelAndRoundHalfResultsLast) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{2});
  Value *w = b.input("w", DType::F32, Shape{2});
  b.output(b.op(OpKind::RmsNorm, {x, w}, DType::F32, Shape{2},
                makeAttrs({{"axes", std::vector<int64_t>{0}}, {"eps", Number::floating(0.0)}})));
  Value *h = b.input("h", DType::F16, Shape{3});
  Value *hw = b.input("hw", DType::F16, Shape{3});
  Value *hb = b.input("hb", DType::F16, Shape{3});
  b.output(b.op(OpKind::LayerNorm, {h, hw, hb}, DType::F16, Shape{3},
                makeAttrs({{"axes", std::vector<int64_t>{0}}, {"eps", Number::floating(1e-5)}})));
  const std::map<std::string, Tensor> inputs{{"x", floats(DType::F32, {2}, {1e30, 1e30})},
                                             {"w", floats(DType::F32, {2}, {2, 2})},
                                             {"h", floats(DType::F16, {3}, {0.1, 0.7, 1.9})},
                                             {"hw", floats(DType::F16, {3}, {1, 1, 1})},
                                             {"hb", floats(DType::F16, {3}, {0, 0, 0})}};
  // 1e30 squared overflows f32: a kernel's rms is inf and the result 0; in
  // double it is 1e30 and the result 2.
  EXPECT_EQ(floatValues(run(b.fusion(), inputs)[0]), (std::vector<double>{2, 2}));
  const InterpreterResult r = perturbedRun(b.fusion(), inputs, 6);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(floatValues(r.outputs[0]), (std::vector<double>{0, 0}));
  for (double v : floatValues(r.outputs[1]))
    EXPECT_EQ(v, roundToFloatType(v, DType::F16)) << v;
}

TEST(InterpreterPerturbation, ASumWithinItsErrorOfZeroIsZeroInOneOfTwoOppositeDraws) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F64, Shape{3});
  b.output(b.op(OpKind::Sum, {x}, DType::F64, Shape{},
                makeAttrs({{"axes", std::vector<int64_t>{0}}, {"keepdim", false}})));
  // 1e6 + 1e-9 - 1e6: the value (about 1e-9) is far below its error (1e6
  // times the relative move): one of the two opposite draws gives 0.
  const std::map<std::string, Tensor> inputs{
      {"x", floats(DType::F64, {3}, {1e6, 1.1641532182693481e-10, -1e6})}};
  std::vector<double> got;
  for (double direction : {1.0, -1.0}) {
    InterpreterOptions options;
    options.perturbation = direction * 0x1p-20;
    options.seed = 8;
    got.push_back(floatValues(interpret(b.fusion(), inputs, {}, options).outputs[0])[0]);
  }
  EXPECT_TRUE((got[0] == 0) != (got[1] == 0)) << got[0] << " " << got[1];
}

TEST(InterpreterPerturbation, AVarianceOfEqualValuesMovesOffZeroByItsMeansErrorSquared) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{16});
  b.output(b.op(
      OpKind::Var, {x}, DType::F32, Shape{},
      makeAttrs(
          {{"axes", std::vector<int64_t>{0}}, {"keepdim", false}, {"correction", int64_t{1}}})));
  const std::map<std::string, Tensor> inputs{
      {"x", floats(DType::F32, {16}, std::vector<double>(16, 3.0))}};
  EXPECT_EQ(floatValues(run(b.fusion(), inputs)[0])[0], 0.0);
  // The mean's error is 2^-20 * log2(16) * 3; its square is the move (or 0).
  const double meanError = 0x1p-20 * 4 * 3;
  int moved = 0;
  for (uint64_t seed : {1, 2, 3, 4}) {
    const double v = floatValues(perturbedRun(b.fusion(), inputs, seed).outputs[0])[0];
    EXPECT_LE(std::fabs(v), 1.6 * meanError * meanError) << seed;
    moved += v != 0;
  }
  EXPECT_GT(moved, 0);
}

TEST(InterpreterPerturbation, ExpMovesByTheKernelsBoundOfTwoPlusOnePointOneSevenThreeXUlps) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{2});
  b.output(b.op(OpKind::Exp, {x}, DType::F32, Shape{2}));
  // At x = 40 the bound is 48.9 ulps of f32, six times the plain move (2^-20
  // of the value); at x = 1 the plain move is the larger.
  const std::map<std::string, Tensor> inputs{{"x", floats(DType::F32, {2}, {40, 1})}};
  const double exact40 = floatValues(run(b.fusion(), inputs)[0])[0];
  const double exact1 = floatValues(run(b.fusion(), inputs)[0])[1];
  const InterpreterResult r = perturbedRun(b.fusion(), inputs, 9);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(movedBy(std::fabs(floatValues(r.outputs[0])[0] - exact40),
                      exact40 * (2 + 1.173 * 40) * 0x1p-23));
  EXPECT_TRUE(movedBy(std::fabs(floatValues(r.outputs[0])[1] - exact1), exact1 * 0x1p-20));
}

namespace {

// The product over 4 f64 values, perturbed.
double perturbedProduct(const std::vector<double> &values) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F64, Shape{4});
  b.output(b.op(OpKind::Prod, {x}, DType::F64, Shape{},
                makeAttrs({{"axes", std::vector<int64_t>{0}}, {"keepdim", false}})));
  const std::map<std::string, Tensor> inputs{{"x", floats(DType::F64, {4}, values)}};
  const InterpreterResult r = perturbedRun(b.fusion(), inputs, 11);
  EXPECT_TRUE(r.ok) << r.error;
  return r.ok ? floatValues(r.outputs[0])[0] : 0;
}

} // namespace

TEST(InterpreterPerturbation, AProductThatOrderLeavesAtZeroOrAtASubnormalIsIllDefined) {
  // 0.75^3 first, then the smallest subnormal: 0; the subnormal first:
  // each 0.75 rounds it back up to itself.
  EXPECT_TRUE(std::isnan(perturbedProduct({0x1p-1074, 0.75, 0.75, 0.75})));
}

TEST(InterpreterPerturbation, AProductOfSmallFactorsFarBelowTheSubnormalsIsZero) {
  // 2^-1600 from factors of at most 1/4: 0 in every order (seed 41999: the
  // product of 64 variances of 4e-8 in f32).
  EXPECT_EQ(perturbedProduct({0x1p-400, 0x1p-400, 0x1p-400, 0x1p-400}), 0.0);
}

TEST(InterpreterPerturbation, EachUseOfAnExactOpOfAComputedValueMovesByItsOwnDraw) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{16});
  // abs(x * 3) is recomputed by each kernel that uses it: the difference of
  // two uses is 0 only where both rounded alike.
  Value *a = b.op(OpKind::Abs, {b.op(OpKind::Mul, {x, b.floatLiteral(3.0)}, DType::F32, Shape{16})},
                  DType::F32, Shape{16});
  b.output(b.op(OpKind::Sub,
                {a, b.op(OpKind::Neg, {b.op(OpKind::Neg, {a}, DType::F32, Shape{16})}, DType::F32,
                         Shape{16})},
                DType::F32, Shape{16}));
  const std::map<std::string, Tensor> inputs{
      {"x", floats(DType::F32, {16}, std::vector<double>(16, 1.5))}};
  EXPECT_EQ(floatValues(run(b.fusion(), inputs)[0]), std::vector<double>(16, 0.0));
  const InterpreterResult r = perturbedRun(b.fusion(), inputs, 5);
  ASSERT_TRUE(r.ok) << r.error;
  int moved = 0;
  for (double v : floatValues(r.outputs[0]))
    moved += v != 0;
  EXPECT_GT(moved, 8);
}

TEST(InterpreterPerturbation, AProductOfAnInfinityAndFactorsThatMayUnderflowIsIllDefined) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{2, 4});
  b.output(b.op(OpKind::Prod, {x}, DType::F32, Shape{2},
                makeAttrs({{"axes", std::vector<int64_t>{1}}, {"keepdim", false}})));
  // Row 0: a partial product of the tiny factors underflows to 0 in one
  // order (0 * inf: NaN) and meets the infinity first in another (inf).
  // Row 1: nothing underflows.
  const std::map<std::string, Tensor> inputs{
      {"x", floats(DType::F32, {2, 4}, {INFINITY, 1e-30, 1e-30, 1e-30, INFINITY, 0.5, 0.25, 2.0})}};
  const InterpreterResult r = perturbedRun(b.fusion(), inputs, 11);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(std::isnan(floatValues(r.outputs[0])[0]));
  EXPECT_EQ(floatValues(r.outputs[0])[1], INFINITY);
}

TEST(InterpreterPerturbation, AResultAKernelsExpMayFlushIsZeroInOneOfTwoOppositeDraws) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{2});
  // exp(-87.5) is 9.9e-39, below 2^-125: a kernel's ex2.approx.ftz may give
  // 0, and its ceil 0. exp(-80) is far above.
  Value *e = b.op(OpKind::Exp, {x}, DType::F32, Shape{2});
  b.output(e);
  b.output(b.op(OpKind::Ceil, {e}, DType::F32, Shape{2}));
  const std::map<std::string, Tensor> inputs{{"x", floats(DType::F32, {2}, {-87.5, -80})}};
  const std::vector<InterpreterResult> runs = oppositeDraws(b.fusion(), inputs, 8);
  for (const InterpreterResult &r : runs)
    ASSERT_TRUE(r.ok) << r.error;
  const std::vector<double> e0 = floatValues(runs[0].outputs[0]),
                            e1 = floatValues(runs[1].outputs[0]);
  EXPECT_TRUE((e0[0] == 0) != (e1[0] == 0)) << e0[0] << " " << e1[0];
  EXPECT_TRUE(e0[1] > 0 && e1[1] > 0);
  const std::vector<double> c0 = floatValues(runs[0].outputs[1]),
                            c1 = floatValues(runs[1].outputs[1]);
  EXPECT_EQ(std::min(c0[0], c1[0]), 0.0);
  EXPECT_EQ(std::max(c0[0], c1[0]), 1.0);
  EXPECT_EQ(c0[1], 1.0);
  EXPECT_EQ(c1[1], 1.0);
}

TEST(InterpreterPerturbation, LogSoftmaxMovesByItsSumsRoundingAbsolutely) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{3});
  b.output(b.op(OpKind::LogSoftmax, {x}, DType::F32, Shape{3}, makeAttrs({{"dim", int64_t{0}}})));
  // The largest element's log_softmax is -log(1 + 1.08e-4): a kernel's
  // log of the rounded sum keeps no relative accuracy there.
  const std::map<std::string, Tensor> inputs{
      {"x", floats(DType::F32, {3}, {1.4167337, 5.7934175, 14.936528})}};
  const double exact = floatValues(run(b.fusion(), inputs)[0])[2];
  const InterpreterResult r = perturbedRun(b.fusion(), inputs, 2);
  ASSERT_TRUE(r.ok) << r.error;
  const double moved = std::fabs(floatValues(r.outputs[0])[2] - exact);
  EXPECT_GT(moved, 0.4 * 0x1p-20) << exact;
  EXPECT_LT(moved, 1.6 * 0x1p-20 * 2) << exact;
}

TEST(InterpreterPerturbation, ACancellingDifferenceIsExactlyZeroWhereOperandsRoundAlike) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{16});
  Value *a = b.op(OpKind::Mul, {x, b.floatLiteral(3.0)}, DType::F32, Shape{16});
  b.output(
      b.op(OpKind::Sub, {a, b.op(OpKind::Abs, {a}, DType::F32, Shape{16})}, DType::F32, Shape{16}));
  const std::map<std::string, Tensor> inputs{
      {"x", floats(DType::F32, {16}, std::vector<double>(16, 1000.0))}};
  const InterpreterResult r = cancellingRun(b.fusion(), inputs, 3);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(floatValues(r.outputs[0]), std::vector<double>(16, 0.0));
}

TEST(InterpreterPerturbation, AProductWithAZeroFactorIsZeroAndMovesByItsFactorsRoundings) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F64, Shape{2, 64});
  b.output(b.op(OpKind::Prod, {x}, DType::F64, Shape{2},
                makeAttrs({{"axes", std::vector<int64_t>{1}}, {"keepdim", false}})));
  // Row 0: 63 factors of 1e10 and a 0 (double overflows before the 0 in
  // order); row 1: 64 factors of 1.5.
  std::vector<double> values(128, 1.5);
  for (size_t i = 0; i < 63; ++i)
    values[i] = 1e10;
  values[63] = 0;
  const std::map<std::string, Tensor> inputs{{"x", floats(DType::F64, {2, 64}, values)}};
  const std::vector<double> exact = floatValues(run(b.fusion(), inputs)[0]);
  EXPECT_EQ(exact[0], 0.0);
  const InterpreterResult r = perturbedRun(b.fusion(), inputs, 9);
  ASSERT_TRUE(r.ok) << r.error;
  // f64: moves of 2^-49 relative, times log2(64) roundings.
  const double moved = std::fabs(floatValues(r.outputs[0])[1] - exact[1]) / exact[1];
  EXPECT_GT(moved, 0.4 * 6 * 0x1p-49);
  EXPECT_LT(moved, 1.6 * 6 * 0x1p-49);
}

TEST(InterpreterPerturbation, AnApproximatedZeroIsTheSmallestSubnormalOfItsSignInOneDraw) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{1});
  // gelu(-20) is -0 in f32 here, an ulp below it in a kernel whose erfc
  // rounds the other way; its sqrt is then NaN.
  b.output(b.op(OpKind::Sqrt,
                {b.op(OpKind::Gelu, {x}, DType::F32, Shape{1},
                      makeAttrs({{"approximate", std::string("none")}}))},
                DType::F32, Shape{1}));
  const std::map<std::string, Tensor> inputs{{"x", floats(DType::F32, {1}, {-20})}};
  const double exact = floatValues(run(b.fusion(), inputs)[0])[0];
  EXPECT_TRUE(exact == 0 && std::signbit(exact));
  const std::vector<InterpreterResult> runs = oppositeDraws(b.fusion(), inputs, 1);
  for (const InterpreterResult &r : runs)
    ASSERT_TRUE(r.ok) << r.error;
  const double r0 = floatValues(runs[0].outputs[0])[0], r1 = floatValues(runs[1].outputs[0])[0];
  EXPECT_NE(std::isnan(r0), std::isnan(r1)) << r0 << " " << r1;
}

TEST(InterpreterPerturbation, AUseNeverCancelsTheMovesOfItsValue) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{4096});
  // cosh(23) is 4.9e9, 512 apart from its f32 neighbours, which a kernel's
  // coshf may return: the cast sees the use of cosh's result, and its own
  // draw of the other sign must not bring it back to the exact value.
  Value *t = b.op(OpKind::Cosh, {x}, DType::F32, Shape{4096});
  b.output(b.op(OpKind::Cast, {t}, DType::I64, Shape{4096}, makeAttrs({{"dtype", DType::I64}})));
  const std::map<std::string, Tensor> inputs{
      {"x", floats(DType::F32, {4096}, std::vector<double>(4096, -23.0))}};
  const double exact = floatValues(run(b.fusion(), inputs)[0])[0];
  const InterpreterResult r = perturbedRun(b.fusion(), inputs, 3);
  ASSERT_TRUE(r.ok) << r.error;
  for (double v : floatValues(r.outputs[0]))
    ASSERT_GE(std::fabs(v - exact), 0.45 * 0x1p-20 * exact) << v;
}

TEST(InterpreterPerturbation, OneDrawOfAPairPutsAllResultsNearZeroOnZeroTheOtherNone) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{64, 17});
  // The std of each row of equal values is 0 here, 0 or a rounding in a
  // kernel, in every row alike: the sum of the reciprocals is inf in one
  // draw and finite in the other (seed 39151), not inf in both.
  Value *c = b.op(OpKind::Cos, {x}, DType::F32, Shape{64, 17});
  Value *s = b.op(
      OpKind::Std, {c}, DType::F32, Shape{64},
      makeAttrs(
          {{"axes", std::vector<int64_t>{1}}, {"keepdim", false}, {"correction", int64_t{1}}}));
  b.output(b.op(OpKind::Sum, {b.op(OpKind::Reciprocal, {s}, DType::F32, Shape{64})}, DType::F32,
                Shape{}, makeAttrs({{"axes", std::vector<int64_t>{0}}, {"keepdim", false}})));
  std::vector<double> rows(64 * 17);
  for (size_t i = 0; i < rows.size(); ++i)
    rows[i] = 0.3 + 0.1 * static_cast<double>(i / 17);
  const std::map<std::string, Tensor> inputs{{"x", floats(DType::F32, {64, 17}, rows)}};
  std::vector<double> sums;
  for (const InterpreterResult &r : oppositeDraws(b.fusion(), inputs, 12)) {
    ASSERT_TRUE(r.ok) << r.error;
    sums.push_back(floatValues(r.outputs[0])[0]);
  }
  EXPECT_NE(std::isinf(sums[0]), std::isinf(sums[1])) << sums[0] << " " << sums[1];
}

TEST(InterpreterPerturbation, EveryUseOfAValueLandsOnTheSideItsMovesTookIt) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{4096});
  // Two casts of cosh(23) (4.9e9, 512 apart from its f32 neighbours): a
  // kernel's uses of one value see its one rounding, so both land on one
  // side of the exact value; on opposite sides, `t + t` would cancel the
  // value's moves (seed 38074: sin of a value uncertain by 0.4 rad).
  Value *t = b.op(OpKind::Cosh, {x}, DType::F32, Shape{4096});
  b.output(b.op(OpKind::Cast, {t}, DType::I64, Shape{4096}, makeAttrs({{"dtype", DType::I64}})));
  b.output(b.op(OpKind::Cast, {t}, DType::I64, Shape{4096}, makeAttrs({{"dtype", DType::I64}})));
  const std::map<std::string, Tensor> inputs{
      {"x", floats(DType::F32, {4096}, std::vector<double>(4096, -23.0))}};
  const double exact = floatValues(run(b.fusion(), inputs)[0])[0];
  for (const InterpreterResult &r : oppositeDraws(b.fusion(), inputs, 11)) {
    ASSERT_TRUE(r.ok) << r.error;
    const std::vector<double> first = floatValues(r.outputs[0]), second = floatValues(r.outputs[1]);
    for (size_t i = 0; i < first.size(); ++i)
      ASSERT_EQ(first[i] > exact, second[i] > exact) << i << ": " << first[i] << " " << second[i];
  }
}

TEST(InterpreterPerturbation, AResultMovesOnFromItsOperandsMovesNeverBack) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{4096});
  // (3x) * 1.5: the product's own move goes the way its operand's moves
  // took it, so every element stays at least its own move off the exact
  // value in both draws; drawn apart, some would cancel back to it and
  // excuse no kernel error there (seed 49180).
  Value *a = b.op(OpKind::Mul, {x, b.floatLiteral(3.0)}, DType::F32, Shape{4096});
  b.output(b.op(OpKind::Mul, {a, b.floatLiteral(1.5)}, DType::F32, Shape{4096}));
  std::vector<double> values(4096);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = 1.0 + 0.01 * static_cast<double>(i);
  const std::map<std::string, Tensor> inputs{{"x", floats(DType::F32, {4096}, values)}};
  const std::vector<double> exact = floatValues(run(b.fusion(), inputs)[0]);
  for (const InterpreterResult &r : oppositeDraws(b.fusion(), inputs, 21)) {
    ASSERT_TRUE(r.ok) << r.error;
    const std::vector<double> got = floatValues(r.outputs[0]);
    for (size_t i = 0; i < got.size(); ++i)
      ASSERT_GE(std::fabs(got[i] - exact[i]), 0.45 * 0x1p-20 * exact[i]) << i << ": " << got[i];
  }
}

TEST(InterpreterPerturbation, AMeanNearZeroOnlyWithoutItsOperandsMovesIsZeroInOneDraw) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F64, Shape{4});
  // d = x - mean(x); the mean of mean(d) - d is 1e-17 here and 0 in a
  // kernel, where its operands' moves take it 1e-14 off zero, further than
  // its own move: one draw of the pair still puts it on 0, and the
  // quotient by itself is NaN there (seed 52192).
  auto mean = [&](Value *v) {
    return b.op(OpKind::Mean, {v}, DType::F64, Shape{},
                makeAttrs({{"axes", std::vector<int64_t>{0}}, {"keepdim", false}}));
  };
  Value *d = b.op(OpKind::Sub, {x, mean(x)}, DType::F64, Shape{4});
  Value *m = mean(b.op(OpKind::Sub, {mean(d), d}, DType::F64, Shape{4}));
  b.output(b.op(OpKind::Div, {m, m}, DType::F64, Shape{}));
  const std::map<std::string, Tensor> inputs{
      {"x", floats(DType::F64, {4}, {0.74359741, -1.58722868, 0.45301148, 2.00594882})}};
  ASSERT_EQ(floatValues(run(b.fusion(), inputs)[0])[0], 1.0);
  std::vector<double> got;
  for (const InterpreterResult &r : oppositeDraws(b.fusion(), inputs, 4)) {
    ASSERT_TRUE(r.ok) << r.error;
    got.push_back(floatValues(r.outputs[0])[0]);
  }
  EXPECT_NE(std::isnan(got[0]), std::isnan(got[1])) << got[0] << " " << got[1];
}

TEST(InterpreterPerturbation, AQuotientOfAVarianceOfEqualValuesKeepsItsMoveOffZero) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{64});
  // var(c) of 64 equal computed values is 0 here, a rounding above it in a
  // kernel: one draw of the pair moves it off 0, and its quotient by c
  // keeps that move, though the quotient without moves is 0 (seed 53300).
  Value *c = b.op(OpKind::Cos, {x}, DType::F32, Shape{64});
  Value *v = b.op(
      OpKind::Var, {c}, DType::F32, Shape{},
      makeAttrs(
          {{"axes", std::vector<int64_t>{0}}, {"keepdim", false}, {"correction", int64_t{0}}}));
  b.output(b.op(OpKind::Div, {v, c}, DType::F32, Shape{64}));
  const std::map<std::string, Tensor> inputs{
      {"x", floats(DType::F32, {64}, std::vector<double>(64, 0.3))}};
  for (uint64_t seed : {1, 2, 3, 4, 5, 6, 7, 8}) {
    int nonzero = 0;
    for (const InterpreterResult &r : oppositeDraws(b.fusion(), inputs, seed)) {
      ASSERT_TRUE(r.ok) << r.error;
      const std::vector<double> q = floatValues(r.outputs[0]);
      nonzero += std::all_of(q.begin(), q.end(), [](double e) { return e > 0; });
    }
    EXPECT_EQ(nonzero, 1) << "seed " << seed;
  }
}
