// Unit tests for the interpreter's perturbed evaluation (InterpreterOptions):
// the reference the GPU fuzzer uses to tell ill-conditioned elements.
#include "InterpreterTestUtil.h"

#include <cmath>

using namespace fuserc;
using namespace fuserc::testutil;

namespace {

InterpreterResult perturbedRun(const Fusion &fusion, const std::map<std::string, Tensor> &inputs,
                               uint64_t seed) {
  InterpreterOptions options;
  options.perturbation = 0x1p-20;
  options.seed = seed;
  return interpret(fusion, inputs, {}, options);
}

} // namespace

TEST(InterpreterPerturbation, MovesEveryComputedElementByTheRelativeAmountEitherWay) {
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
    EXPECT_NEAR(std::fabs(got - exact) / exact, 0x1p-20, 0x1p-23) << i;
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
  EXPECT_NEAR(std::fabs(first[0] - std::exp(0.5)) / std::exp(0.5), 0x1p-49, 0x1p-52);
}

TEST(InterpreterPerturbation, CancellingSumMovesByItsTermsMagnitudeNotItsValue) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F64, Shape{3});
  b.output(b.op(OpKind::Sum, {x}, DType::F64, Shape{},
                makeAttrs({{"axes", std::vector<int64_t>{0}}, {"keepdim", false}})));
  const std::map<std::string, Tensor> inputs{{"x", floats(DType::F64, {3}, {1e6, 1.0, -1e6})}};
  const double got = floatValues(perturbedRun(b.fusion(), inputs, 5).outputs[0])[0];
  // |x| sums to 2e6 + 1: the move is that many times 2^-49, not 1 * 2^-49.
  EXPECT_NEAR(std::fabs(got - 1.0), (2e6 + 1) * 0x1p-49, 1e-3 * (2e6 + 1) * 0x1p-49);
}

TEST(InterpreterPerturbation, LayerNormMovesByItsMeansErrorOverTheDeviation) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F64, Shape{4});
  Value *w = b.input("w", DType::F64, Shape{4});
  Value *bias = b.input("b", DType::F64, Shape{4});
  b.output(b.op(OpKind::LayerNorm, {x, w, bias}, DType::F64, Shape{4},
                makeAttrs({{"axes", std::vector<int64_t>{0}}, {"eps", Number::floating(0.0)}})));
  // Mean 1000, deviation 1, mean |x| 1000: each output (+-2) moves by
  // mean |x| / deviation * |w| = 2000 times the relative amount.
  const std::map<std::string, Tensor> inputs{{"x", floats(DType::F64, {4}, {999, 1001, 999, 1001})},
                                             {"w", floats(DType::F64, {4}, {2, 2, 2, 2})},
                                             {"b", floats(DType::F64, {4}, {0, 0, 0, 0})}};
  const std::vector<double> got = floatValues(perturbedRun(b.fusion(), inputs, 9).outputs[0]);
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(std::fabs(got[i] - (i % 2 ? 2.0 : -2.0)), 2000 * 0x1p-49, 1e-6 * 2000 * 0x1p-49)
        << i;
}
