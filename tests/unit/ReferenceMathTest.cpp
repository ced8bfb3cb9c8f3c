// Unit tests for the scalar and reduction helpers that ops.td's `cpu` /
// `cpuInt` expressions call (ir/interp/ReferenceMath.h).
#include "ir/interp/ReferenceMath.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

using namespace fuserc;

namespace {
const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const int64_t kMax = std::numeric_limits<int64_t>::max();
const int64_t kMin = std::numeric_limits<int64_t>::min();

template <typename T> std::span<const T> view(const std::vector<T> &v) { return v; }
} // namespace

TEST(ReferenceMath, IntegerArithmeticWrapsInTwosComplement) {
  EXPECT_EQ(ref::wrapAdd(kMax, 1), kMin);
  EXPECT_EQ(ref::wrapSub(kMin, 1), kMax);
  EXPECT_EQ(ref::wrapMul(kMax, 2), -2);
  EXPECT_EQ(ref::wrapNeg(kMin), kMin);
  EXPECT_EQ(ref::wrapAbs(kMin), kMin);
  EXPECT_EQ(ref::wrapAbs(-5), 5);
}

TEST(ReferenceMath, IntegerPowerHandlesNegativeExponents) {
  EXPECT_EQ(ref::ipow(3, 4), 81);
  EXPECT_EQ(ref::ipow(-2, 3), -8);
  EXPECT_EQ(ref::ipow(0, 0), 1);
  EXPECT_EQ(ref::ipow(2, -1), 0);
  EXPECT_EQ(ref::ipow(1, -5), 1);
  EXPECT_EQ(ref::ipow(-1, -3), -1);
  EXPECT_EQ(ref::ipow(-1, -2), 1);
  EXPECT_EQ(ref::ipow(2, 64), 0); // wraps
}

TEST(ReferenceMath, IntegerRemaindersFollowDividendOrDivisorSign) {
  EXPECT_EQ(ref::ifmod(7, -3), 1);
  EXPECT_EQ(ref::ifmod(-7, 3), -1);
  EXPECT_EQ(ref::ifmod(7, 0), 0);
  EXPECT_EQ(ref::ifmod(kMin, -1), 0);
  EXPECT_EQ(ref::iremainder(-7, 3), 2);
  EXPECT_EQ(ref::iremainder(7, -3), -2);
  EXPECT_EQ(ref::iremainder(6, -3), 0);
  EXPECT_EQ(ref::iremainder(7, 0), 0);
}

TEST(ReferenceMath, FloatRemainderHasTheSignOfTheDivisor) {
  EXPECT_EQ(ref::remainder(-7.5, 2.0), 0.5);
  EXPECT_EQ(ref::remainder(7.5, -2.0), -0.5);
  EXPECT_EQ(ref::remainder(7.5, 2.0), 1.5);
  EXPECT_TRUE(std::isnan(ref::remainder(1.0, 0.0)));
}

TEST(ReferenceMath, NaNPropagatesThroughReluSignMaximumMinimum) {
  EXPECT_TRUE(std::isnan(ref::relu(kNaN)));
  EXPECT_EQ(ref::relu(-2.0), 0.0);
  EXPECT_EQ(ref::relu(3.0), 3.0);
  EXPECT_TRUE(std::isnan(ref::sign(kNaN)));
  EXPECT_EQ(ref::sign(-4.0), -1.0);
  EXPECT_EQ(ref::sign(0.0), 0.0);
  EXPECT_TRUE(std::isnan(ref::maximum(1.0, kNaN)));
  EXPECT_TRUE(std::isnan(ref::minimum(kNaN, 1.0)));
  EXPECT_EQ(ref::maximum(-kInf, 2.0), 2.0);
  EXPECT_EQ(ref::minimum(-kInf, 2.0), -kInf);
}

TEST(ReferenceMath, GeluExactAndTanhApproximation) {
  EXPECT_DOUBLE_EQ(ref::gelu(1.0, "none"), 0.8413447460685429);
  EXPECT_DOUBLE_EQ(ref::gelu(1.0, "tanh"), 0.8411919906082768);
  EXPECT_EQ(ref::gelu(0.0, "none"), 0.0);
}

TEST(ReferenceMath, GeluKeepsItsTailWhereOnePlusErfWouldCancel) {
  // x * Phi(x) at x = -20 is -20 * 2.7536e-89; 1 + erf(x / sqrt 2) is 0 in double.
  EXPECT_NEAR(ref::gelu(-20.0, "none") / -5.5072e-88, 1.0, 1e-4);
  // 0.5 x (1 + tanh u) at x = -10: u = -0.79788 * (10 + 44.715) = -43.66, so
  // 1 + tanh u = 2 e^(2u) / (1 + e^(2u)), about 2.1e-38.
  const double u = -std::sqrt(2.0 / std::numbers::pi) * (10.0 + 0.044715 * 1000.0);
  EXPECT_NEAR(ref::gelu(-10.0, "tanh") / (-5.0 * 2.0 * std::exp(2.0 * u)), 1.0, 1e-9);
}

TEST(ReferenceMath, ReductionsOverDoublesAndIntegers) {
  const std::vector<double> d = {1, 2, 3, 4};
  EXPECT_EQ(ref::reduceSum(view(d)), 10.0);
  EXPECT_EQ(ref::reduceProd(view(d)), 24.0);
  EXPECT_EQ(ref::reduceMax(view(d)), 4.0);
  EXPECT_EQ(ref::reduceMin(view(d)), 1.0);
  const std::vector<int64_t> i = {kMax, 1, -3};
  EXPECT_EQ(ref::reduceSum(view(i)), kMax - 2); // wraps past the maximum
  EXPECT_EQ(ref::reduceMax(view(i)), kMax);
  EXPECT_EQ(ref::reduceMin(view(i)), -3);
  EXPECT_EQ(ref::reduceProd(view(std::vector<int64_t>{})), 1);
}

TEST(ReferenceMath, MaxAndMinPropagateNaNAndRejectEmptySets) {
  const std::vector<double> d = {1, kNaN, 3};
  EXPECT_TRUE(std::isnan(ref::reduceMax(view(d))));
  EXPECT_TRUE(std::isnan(ref::reduceMin(view(d))));
  EXPECT_THROW(ref::reduceMax(view(std::vector<double>{})), std::domain_error);
}

TEST(ReferenceMath, VarianceUsesTheCorrection) {
  const std::vector<double> d = {1, 2, 3, 4};
  EXPECT_DOUBLE_EQ(ref::reduceVar(view(d), 1), 5.0 / 3.0);
  EXPECT_DOUBLE_EQ(ref::reduceVar(view(d), 0), 1.25);
  EXPECT_DOUBLE_EQ(ref::reduceVar(view(std::vector<int64_t>{2, 4}), 1), 2.0);
  EXPECT_TRUE(std::isnan(ref::reduceVar(view(std::vector<double>{5}), 1)));
  EXPECT_EQ(ref::reduceVar(view(std::vector<double>{1, 3}), 3), kInf);
}

TEST(ReferenceMath, FloatSumsKeepTheirRoundingErrors) {
  // 2^20 copies of e^2 (seed 34027's rms_norm): a plain loop in double is
  // 1.2e-11 off, more than f64's tolerance; the reference is exact to an ulp.
  const double term = std::exp(2.0);
  const std::vector<double> terms(1 << 20, term);
  const double exact = term * (1 << 20);
  const double ulp = std::nextafter(exact, kInf) - exact;
  EXPECT_LE(std::fabs(ref::reduceSum(view(terms)) - exact), 2 * ulp);
  EXPECT_LE(std::fabs(ref::reduceVar(view(terms), 0)), 1e-20);
  // Cancelling terms, infinities and overflows as a plain sum gives them.
  EXPECT_EQ(ref::reduceSum(view(std::vector<double>{1e100, 1.0, -1e100})), 1.0);
  EXPECT_EQ(ref::reduceSum(view(std::vector<double>{1.0, kInf})), kInf);
  EXPECT_TRUE(std::isnan(ref::reduceSum(view(std::vector<double>{kInf, -kInf}))));
  EXPECT_EQ(ref::reduceSum(view(std::vector<double>{1e308, 1e308, -1e308})), kInf);
}
