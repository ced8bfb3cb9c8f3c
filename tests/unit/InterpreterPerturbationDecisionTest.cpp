// Unit tests of the perturbed interpreter's decisions: where a step, a
// comparison, a remainder, a power of a negative base or a periodic
// function decides on a value within its uncertainty, opposite draws take
// each side (or say it carries no digits).
#include "InterpreterPerturbationTestUtil.h"

#include <algorithm>
#include <cmath>

using namespace fuserc;
using namespace fuserc::testutil;

TEST(InterpreterPerturbation, AComparisonOfValuesWithinTheirMovesTiesInOneOfTwoOppositeDraws) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{2});
  Value *c = b.op(OpKind::Cosh, {x}, DType::F32, Shape{2});
  b.output(b.op(OpKind::Eq, {c, b.floatLiteral(1.0)}, DType::Bool, Shape{2}));
  // cosh(4e-4) is 1 + 8e-8, which f32 rounds to the float after 1; a
  // kernel's coshf may give 1. cosh(0.1) is far from 1.
  const std::map<std::string, Tensor> inputs{{"x", floats(DType::F32, {2}, {4e-4, 0.1})}};
  std::vector<std::vector<double>> got;
  for (const InterpreterResult &r : oppositeDraws(b.fusion(), inputs, 10)) {
    ASSERT_TRUE(r.ok) << r.error;
    got.push_back(floatValues(r.outputs[0]));
  }
  EXPECT_NE(got[0][0], got[1][0]);
  EXPECT_EQ(got[0][1], 0.0);
  EXPECT_EQ(got[1][1], 0.0);
}

TEST(InterpreterPerturbation, AStepOfAValueWithinItsMovesOfAStepLandsOnEachSideInOppositeDraws) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{2});
  Value *s = b.op(OpKind::Sigmoid, {x}, DType::F32, Shape{2});
  b.output(b.op(OpKind::Floor, {s}, DType::F32, Shape{2}));
  b.output(b.op(OpKind::Cast, {s}, DType::I32, Shape{2}, makeAttrs({{"dtype", DType::I32}})));
  // sigmoid(17) is one f32 ulp below 1, which a kernel's sigmoid may round
  // up to 1; sigmoid(0.5) is far from a step.
  const std::map<std::string, Tensor> inputs{{"x", floats(DType::F32, {2}, {17.0, 0.5})}};
  EXPECT_EQ(floatValues(run(b.fusion(), inputs)[0]), (std::vector<double>{0.0, 0.0}));
  for (size_t out = 0; out < 2; ++out) {
    std::vector<std::vector<double>> got;
    for (const InterpreterResult &r : oppositeDraws(b.fusion(), inputs, 10)) {
      ASSERT_TRUE(r.ok) << r.error;
      if (out == 0) {
        got.push_back(floatValues(r.outputs[out]));
      } else {
        const std::vector<int64_t> ints = intValues(r.outputs[out]);
        got.emplace_back(ints.begin(), ints.end());
      }
    }
    EXPECT_NE(got[0][0], got[1][0]) << out;
    EXPECT_EQ(got[0][1], 0.0) << out;
    EXPECT_EQ(got[1][1], 0.0) << out;
  }
}

TEST(InterpreterPerturbation, APowerOfANegativeBaseWithAnExponentNearAnIntegerIsFiniteInOneDraw) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{2});
  Value *y = b.input("y", DType::F32, Shape{2});
  // y * 1 is 3 give or take its rounding: pow(-2, 3 - ulp) is NaN, pow(-2, 3) is -8.
  Value *e = b.op(OpKind::Add, {y, b.floatLiteral(1e-7)}, DType::F32, Shape{2});
  b.output(b.op(OpKind::Pow, {x, e}, DType::F32, Shape{2}));
  const std::map<std::string, Tensor> inputs{{"x", floats(DType::F32, {2}, {-2, -2})},
                                             {"y", floats(DType::F32, {2}, {3, 2.5})}};
  std::vector<std::vector<double>> got;
  for (const InterpreterResult &r : oppositeDraws(b.fusion(), inputs, 3)) {
    ASSERT_TRUE(r.ok) << r.error;
    got.push_back(floatValues(r.outputs[0]));
  }
  EXPECT_NE(std::isnan(got[0][0]), std::isnan(got[1][0]));
  EXPECT_EQ(std::isnan(got[0][0]) ? got[1][0] : got[0][0], -8.0);
  EXPECT_TRUE(std::isnan(got[0][1]) && std::isnan(got[1][1]));
}

TEST(InterpreterPerturbation, ADifferenceOfEqualComputedValuesMovesByTheirSizeAndItsStepTies) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{16});
  // (x * 3) - (x * 3) recomputed: 0 in the reference, a rounding of 3x either
  // side in a kernel, so its ceil is 0 or 1.
  Value *a = b.op(OpKind::Mul, {x, b.floatLiteral(3.0)}, DType::F32, Shape{16});
  Value *d =
      b.op(OpKind::Sub, {a, b.op(OpKind::Abs, {a}, DType::F32, Shape{16})}, DType::F32, Shape{16});
  b.output(d);
  b.output(b.op(OpKind::Ceil, {d}, DType::F32, Shape{16}));
  const std::map<std::string, Tensor> inputs{
      {"x", floats(DType::F32, {16}, std::vector<double>(16, 1000.0))}};
  EXPECT_EQ(floatValues(run(b.fusion(), inputs)[1]), std::vector<double>(16, 0.0));
  const std::vector<InterpreterResult> runs = oppositeDraws(b.fusion(), inputs, 21);
  for (const InterpreterResult &r : runs)
    ASSERT_TRUE(r.ok) << r.error;
  for (size_t i = 0; i < 16; ++i) {
    const double d0 = floatValues(runs[0].outputs[0])[i], d1 = floatValues(runs[1].outputs[0])[i];
    // Its own move and its operands' uses', which move away from the values
    // without moves: up to 9 draws of 3000's size.
    const double moved = std::max(std::fabs(d0), std::fabs(d1));
    EXPECT_TRUE(moved > 0 && moved <= 9 * 0x1p-20 * 3000) << i << ": " << d0 << " " << d1;
    const double c0 = floatValues(runs[0].outputs[1])[i], c1 = floatValues(runs[1].outputs[1])[i];
    EXPECT_EQ(std::max(c0, c1), 1.0) << i;
    EXPECT_EQ(std::min(c0, c1), 0.0) << i;
  }
}

TEST(InterpreterPerturbation, APowerWhoseExponentACancellingSumMovesNearAnIntegerTies) {
  FusionBuilder b;
  Value *base = b.input("b", DType::F32, Shape{9});
  Value *x = b.input("x", DType::F32, Shape{9});
  // x - sum(x): the sum of +-1000 terms is uncertain by ~0.02, so 997.99 may
  // be 998 in a kernel (3 of its own ulps would not reach it).
  Value *s = b.op(OpKind::Sum, {x}, DType::F32, Shape{},
                  makeAttrs({{"axes", std::vector<int64_t>{0}}, {"keepdim", false}}));
  b.output(b.op(OpKind::Pow, {base, b.op(OpKind::Sub, {x, s}, DType::F32, Shape{9})}, DType::F32,
                Shape{9}));
  const std::map<std::string, Tensor> inputs{
      {"b", floats(DType::F32, {9}, std::vector<double>(9, -1.0001))},
      {"x", floats(DType::F32, {9}, {1000, -1000, 1000, -1000, 1000, -1000, 1000, -1000, 2.01})}};
  EXPECT_TRUE(std::isnan(floatValues(run(b.fusion(), inputs)[0])[0]));
  const std::vector<InterpreterResult> runs = oppositeDraws(b.fusion(), inputs, 4);
  for (const InterpreterResult &r : runs)
    ASSERT_TRUE(r.ok) << r.error;
  for (size_t i = 0; i < 8; ++i)
    EXPECT_NE(std::isnan(floatValues(runs[0].outputs[0])[i]),
              std::isnan(floatValues(runs[1].outputs[0])[i]))
        << i;
}

TEST(InterpreterPerturbation, ARemainderOfAQuotientNearAnIntegerIsNearZeroOrTheDivisor) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{8});
  Value *w = b.input("w", DType::F32, Shape{8});
  // (x * 3) / w is exactly 1: remainder 0 in the reference, 0 or about w in
  // a kernel whose product rounds either way.
  Value *a = b.op(OpKind::Mul, {x, b.floatLiteral(3.0)}, DType::F32, Shape{8});
  b.output(b.op(OpKind::Remainder, {a, w}, DType::F32, Shape{8}));
  const std::map<std::string, Tensor> inputs{
      {"x", floats(DType::F32, {8}, std::vector<double>(8, 1.0))},
      {"w", floats(DType::F32, {8}, std::vector<double>(8, 3.0))}};
  EXPECT_EQ(floatValues(run(b.fusion(), inputs)[0]), std::vector<double>(8, 0.0));
  const std::vector<InterpreterResult> runs = oppositeDraws(b.fusion(), inputs, 6);
  for (const InterpreterResult &r : runs)
    ASSERT_TRUE(r.ok) << r.error;
  for (size_t i = 0; i < 8; ++i) {
    const double r0 = floatValues(runs[0].outputs[0])[i], r1 = floatValues(runs[1].outputs[0])[i];
    EXPECT_LT(std::min(r0, r1), 1e-4) << i;
    EXPECT_GT(std::max(r0, r1), 3.0 - 1e-4) << i;
  }
}

TEST(InterpreterPerturbation, EqualOperandsAKernelMayRoundApartAreUnequalInOneOfTwoOppositeDraws) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{4, 8});
  // The variance of equal values is 0 here and a rounding in a kernel.
  Value *v = b.op(
      OpKind::Var, {x}, DType::F32, Shape{4},
      makeAttrs(
          {{"axes", std::vector<int64_t>{1}}, {"keepdim", false}, {"correction", int64_t{1}}}));
  b.output(b.op(OpKind::Eq, {v, b.floatLiteral(0.0)}, DType::Bool, Shape{4}));
  const std::map<std::string, Tensor> inputs{
      {"x", floats(DType::F32, {4, 8}, std::vector<double>(32, 0.3))}};
  EXPECT_EQ(intValues(run(b.fusion(), inputs)[0]), (std::vector<int64_t>{1, 1, 1, 1}));
  const std::vector<InterpreterResult> runs = oppositeDraws(b.fusion(), inputs, 12);
  for (const InterpreterResult &r : runs)
    ASSERT_TRUE(r.ok) << r.error;
  for (size_t i = 0; i < 4; ++i)
    EXPECT_NE(intValues(runs[0].outputs[0])[i], intValues(runs[1].outputs[0])[i]) << i;
}

TEST(InterpreterPerturbation, APowerOfANegativeBaseToAVarianceOfEqualValuesIsOneOrNaN) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{4, 8});
  // var of equal values is 0 here (pow gives 1) and a rounding in a kernel
  // (NaN); it never moves below 0.
  Value *v = b.op(
      OpKind::Var, {x}, DType::F32, Shape{8},
      makeAttrs(
          {{"axes", std::vector<int64_t>{0}}, {"keepdim", false}, {"correction", int64_t{1}}}));
  b.output(v);
  b.output(b.op(OpKind::Pow, {b.floatLiteral(-2.0), v}, DType::F32, Shape{8}));
  const std::map<std::string, Tensor> inputs{
      {"x", floats(DType::F32, {4, 8}, std::vector<double>(32, -2.5))}};
  EXPECT_EQ(floatValues(run(b.fusion(), inputs)[1]), std::vector<double>(8, 1.0));
  const std::vector<InterpreterResult> runs = oppositeDraws(b.fusion(), inputs, 14);
  for (const InterpreterResult &r : runs)
    ASSERT_TRUE(r.ok) << r.error;
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_GE(floatValues(runs[0].outputs[0])[i], 0.0) << i;
    EXPECT_GE(floatValues(runs[1].outputs[0])[i], 0.0) << i;
    const double p0 = floatValues(runs[0].outputs[1])[i], p1 = floatValues(runs[1].outputs[1])[i];
    EXPECT_NE(std::isnan(p0), std::isnan(p1)) << i;
  }
}

TEST(InterpreterPerturbation,
     ARemainderOfAQuotientUncertainByASixthOfAPeriodSpansZeroToTheDivisor) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{3});
  // exp(12) is 162755, uncertain by a fraction of 1 after its moves: its
  // remainder by 1 carries no digits, and a kernel's may be anything from 0
  // to 1; exp(1)'s does carry them. 4601.1318359375 * 1024 is 4711559
  // exactly: fmod 0 in the reference, -0.5 in a kernel whose product
  // rounded the other way (seed 67917).
  Value *e = b.op(OpKind::Exp, {x}, DType::F32, Shape{3});
  b.output(b.op(OpKind::Remainder, {e, b.floatLiteral(1.0)}, DType::F32, Shape{3}));
  Value *m =
      b.op(OpKind::Mul, {b.op(OpKind::Neg, {x}, DType::F32, Shape{3}), b.floatLiteral(1024.0)},
           DType::F32, Shape{3});
  b.output(b.op(OpKind::Fmod, {m, b.floatLiteral(1.0)}, DType::F32, Shape{3}));
  const std::map<std::string, Tensor> inputs{
      {"x", floats(DType::F32, {3}, {12, 1, 4601.1318359375})}};
  EXPECT_EQ(floatValues(run(b.fusion(), inputs)[1])[2], 0.0);
  const std::vector<InterpreterResult> runs = oppositeDraws(b.fusion(), inputs, 6);
  for (const InterpreterResult &r : runs)
    ASSERT_TRUE(r.ok) << r.error;
  for (const auto &[output, element] : {std::pair{0, 0}, std::pair{1, 2}}) {
    const double first = floatValues(runs[0].outputs[output])[element],
                 second = floatValues(runs[1].outputs[output])[element];
    EXPECT_EQ(std::min(std::fabs(first), std::fabs(second)), 0.0) << first << " " << second;
    EXPECT_EQ(std::max(std::fabs(first), std::fabs(second)), 1.0) << first << " " << second;
  }
  const std::vector<double> first = floatValues(runs[0].outputs[0]),
                            second = floatValues(runs[1].outputs[0]);
  EXPECT_NEAR(first[1], std::exp(1.0) - 2, 1e-4);
  EXPECT_NEAR(second[1], std::exp(1.0) - 2, 1e-4);
}

TEST(InterpreterPerturbation, ACosineOfAnArgumentUncertainByARadianIsNaN) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{2});
  // exp(27) is 5.3e11, 65536 apart from its f32 neighbours: the cosine of
  // it computed carries no digits; the cosine of the input itself does.
  b.output(b.op(OpKind::Cos, {b.op(OpKind::Exp, {x}, DType::F32, Shape{2})}, DType::F32, Shape{2}));
  b.output(b.op(OpKind::Cos, {x}, DType::F32, Shape{2}));
  const std::map<std::string, Tensor> inputs{{"x", floats(DType::F32, {2}, {27, 2})}};
  for (const InterpreterResult &r : oppositeDraws(b.fusion(), inputs, 5)) {
    ASSERT_TRUE(r.ok) << r.error;
    const std::vector<double> computed = floatValues(r.outputs[0]),
                              input = floatValues(r.outputs[1]);
    EXPECT_TRUE(std::isnan(computed[0])) << computed[0];
    EXPECT_TRUE(std::isfinite(computed[1])) << computed[1];
    EXPECT_TRUE(std::isfinite(input[0]) && std::isfinite(input[1]));
  }
}

TEST(InterpreterPerturbation, AComparisonWithinItsUncertaintyTakesEachOrderInTheThreeDraws) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{1});
  Value *w = b.input("w", DType::F16, Shape{1});
  // A bf16 result (cosh(0.5), 1.125 in bf16) half a bf16 ulp above w, which sits
  // on the rounding boundary: a kernel may round it to either neighbour,
  // so ge(c, w) may be false where ours is true (seed 55260). The pair
  // ties them (true) and orders them c < w (false); the third draw c > w.
  Value *c = b.op(OpKind::Cosh, {x}, DType::BF16, Shape{1});
  b.output(b.op(OpKind::Ge, {c, w}, DType::Bool, Shape{1}));
  const std::map<std::string, Tensor> inputs{{"x", floats(DType::F32, {1}, {0.5})},
                                             {"w", floats(DType::F16, {1}, {1.12109375})}};
  ASSERT_EQ(intValues(run(b.fusion(), inputs)[0]), (std::vector<int64_t>{1}));
  std::vector<int64_t> got;
  for (const InterpreterResult &r : oppositeDraws(b.fusion(), inputs, 3)) {
    ASSERT_TRUE(r.ok) << r.error;
    got.push_back(intValues(r.outputs[0])[0]);
  }
  const InterpreterResult r = cancellingRun(b.fusion(), inputs, 4);
  ASSERT_TRUE(r.ok) << r.error;
  got.push_back(intValues(r.outputs[0])[0]);
  EXPECT_NE(got[0], got[1]);
  EXPECT_EQ(got[2], 1);
}

TEST(InterpreterPerturbation, AComparisonOfAValueWithoutDigitsTakesEachOrder) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{1});
  // tan of 6e6, which the draws move by radians: NaN in every draw (no
  // digits). lt(NaN, 0) would be false in each, as here, where a kernel's
  // tangent is as likely negative (seed 61052); the draws take each order.
  Value *t =
      b.op(OpKind::Tan, {b.op(OpKind::Add, {x, x}, DType::F32, Shape{1})}, DType::F32, Shape{1});
  b.output(b.op(OpKind::Lt, {t, b.floatLiteral(0.0)}, DType::Bool, Shape{1}));
  const std::map<std::string, Tensor> inputs{{"x", floats(DType::F32, {1}, {3.0e6})}};
  std::vector<int64_t> got;
  for (const InterpreterResult &r : oppositeDraws(b.fusion(), inputs, 5)) {
    ASSERT_TRUE(r.ok) << r.error;
    got.push_back(intValues(r.outputs[0])[0]);
  }
  EXPECT_NE(got[0], got[1]);
}

TEST(InterpreterPerturbation, AnArcCosineNearItsDomainsEdgeTakesTheEdgesValueInOneDraw) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{1});
  // cosh(4e-4) is 1 + 8e-8, an ulp above 1 in f32: acos of it is NaN here,
  // and logical_not false; a kernel's cosh may round to 1, where acos is 0
  // and logical_not true (seed 66352). One draw of the pair takes the edge.
  Value *a =
      b.op(OpKind::Acos, {b.op(OpKind::Cosh, {x}, DType::F32, Shape{1})}, DType::F32, Shape{1});
  b.output(b.op(OpKind::LogicalNot, {a}, DType::Bool, Shape{1}));
  const std::map<std::string, Tensor> inputs{{"x", floats(DType::F32, {1}, {4e-4})}};
  ASSERT_EQ(intValues(run(b.fusion(), inputs)[0]), (std::vector<int64_t>{0}));
  for (uint64_t seed : {1, 2, 3}) {
    std::vector<int64_t> got;
    for (const InterpreterResult &r : oppositeDraws(b.fusion(), inputs, seed)) {
      ASSERT_TRUE(r.ok) << r.error;
      got.push_back(intValues(r.outputs[0])[0]);
    }
    EXPECT_NE(got[0], got[1]) << "seed " << seed;
  }
}

TEST(InterpreterPerturbation, ASumOfStepsADrawFlippedKeepsTheFlip) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{4});
  // floor(sigmoid(17)): 0 here, 1 in one draw of the pair (sigmoid's f32
  // result is an ulp below 1). Their sum is 0 without moves; the draw's 1
  // is a decision, not a rounding, and stays (seed 57205).
  Value *s = b.op(OpKind::Sigmoid, {x}, DType::F32, Shape{4});
  b.output(b.op(OpKind::Sum, {b.op(OpKind::Floor, {s}, DType::F32, Shape{4})}, DType::F32, Shape{},
                makeAttrs({{"axes", std::vector<int64_t>{0}}, {"keepdim", false}})));
  const std::map<std::string, Tensor> inputs{
      {"x", floats(DType::F32, {4}, {17.0, -3.0, -3.0, -3.0})}};
  ASSERT_EQ(floatValues(run(b.fusion(), inputs)[0])[0], 0.0);
  for (uint64_t seed : {1, 2, 3, 4, 5, 6}) {
    double most = 0;
    for (const InterpreterResult &r : oppositeDraws(b.fusion(), inputs, seed)) {
      ASSERT_TRUE(r.ok) << r.error;
      most = std::max(most, floatValues(r.outputs[0])[0]);
    }
    EXPECT_GT(most, 0.5) << "seed " << seed;
  }
}

TEST(InterpreterPerturbation, ABoolCastOfAProductWhoseOrderDecidesUnderflowTakesEachSide) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{160});
  Value *p = b.op(OpKind::Cumprod, {x}, DType::F32, Shape{160}, makeAttrs({{"dim", int64_t{0}}}));
  Value *v = b.op(
      OpKind::Slice, {p}, DType::F32, Shape{150},
      makeAttrs(
          {{"dim", int64_t{0}}, {"start", Extent(0)}, {"end", Extent(150)}, {"step", int64_t{1}}}));
  b.output(b.op(OpKind::Cast, {v}, DType::Bool, Shape{150}, makeAttrs({{"dtype", DType::Bool}})));
  // Element k of the cumprod of halves is 2^-(k + 1): below f32's normal
  // range from k = 126 on, where a kernel's running product rounds coarsely
  // and may reach 0 first (seed 109295: through a view, then cast to bool).
  // The draws hold no digits there (NaN): the cast takes each side. 2^-101
  // stays true.
  const std::map<std::string, Tensor> inputs{
      {"x", floats(DType::F32, {160}, std::vector<double>(160, 0.5))}};
  std::vector<std::vector<int64_t>> got;
  for (const InterpreterResult &r : oppositeDraws(b.fusion(), inputs, 4)) {
    ASSERT_TRUE(r.ok) << r.error;
    got.push_back(intValues(r.outputs[0]));
  }
  for (size_t k : {130, 148})
    EXPECT_NE(got[0][k], got[1][k]) << k;
  EXPECT_EQ(got[0][100], 1);
  EXPECT_EQ(got[1][100], 1);
}

TEST(InterpreterPerturbation, ABoolCastOfANaNTheReferenceHasTooStaysTrue) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{2});
  // 0 / 0 is NaN in the reference as in every kernel: cast to bool, true.
  Value *q = b.op(OpKind::Div, {x, x}, DType::F32, Shape{2});
  b.output(b.op(OpKind::Cast, {q}, DType::Bool, Shape{2}, makeAttrs({{"dtype", DType::Bool}})));
  const std::map<std::string, Tensor> inputs{{"x", floats(DType::F32, {2}, {0.0, 2.0})}};
  for (const InterpreterResult &r : oppositeDraws(b.fusion(), inputs, 4)) {
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(intValues(r.outputs[0]), (std::vector<int64_t>{1, 1}));
  }
}

TEST(InterpreterPerturbation, ALogicalAndOfAnUndecidedProductTakesEachSideUnlessAZeroDecides) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{2, 140});
  Value *y = b.input("y", DType::F32, Shape{2, 140});
  Value *p =
      b.op(OpKind::Cumprod, {x}, DType::F32, Shape{2, 140}, makeAttrs({{"dim", int64_t{1}}}));
  b.output(b.op(OpKind::LogicalAnd, {p, y}, DType::Bool, Shape{2, 140}));
  // Row 0 and 1: halves, so element 130 of each is 2^-131, below the normal
  // range (no digits in the draws, seed 101703); y is 1 in row 0 and 0 in
  // row 1, where the and is false whatever the product.
  std::vector<double> ys(280, 1.0);
  std::fill(ys.begin() + 140, ys.end(), 0.0);
  const std::map<std::string, Tensor> inputs{
      {"x", floats(DType::F32, {2, 140}, std::vector<double>(280, 0.5))},
      {"y", floats(DType::F32, {2, 140}, ys)}};
  std::vector<std::vector<int64_t>> got;
  for (const InterpreterResult &r : oppositeDraws(b.fusion(), inputs, 4)) {
    ASSERT_TRUE(r.ok) << r.error;
    got.push_back(intValues(r.outputs[0]));
  }
  EXPECT_NE(got[0][130], got[1][130]);
  EXPECT_EQ(got[0][140 + 130], 0);
  EXPECT_EQ(got[1][140 + 130], 0);
  EXPECT_EQ(got[0][100], 1);
  EXPECT_EQ(got[1][100], 1);
}
