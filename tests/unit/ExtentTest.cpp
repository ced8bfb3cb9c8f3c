// Unit tests for the symbolic extent algebra (ir/Extent.h).
#include "ir/Extent.h"
#include "ir/ExtentCode.h"

#include <gtest/gtest.h>

#include <limits>

using fuserc::Extent;
using fuserc::SymbolBindings;

namespace {

const Extent M = Extent::symbol("M");
const Extent N = Extent::symbol("N");
const Extent C = Extent::symbol("C");

} // namespace

TEST(Extent, ConstantsFold) {
  EXPECT_EQ((Extent(2) + Extent(3)).str(), "5");
  EXPECT_EQ((Extent(2) * Extent(-3) - Extent(4)).str(), "-10");
  EXPECT_EQ(Extent().str(), "0");
  EXPECT_EQ((Extent(7) - Extent(7)).constant(), 0);
  EXPECT_TRUE((Extent(6) * Extent(7)).isConstant(42));
  EXPECT_EQ((N + 1 - N).constant(), 1);
}

TEST(Extent, LikeTermsCombine) {
  EXPECT_EQ((N + N).str(), "2*N");
  EXPECT_EQ((N * M + M * N * 2).str(), "3*M*N");
  EXPECT_EQ((N + 1 + N + 2).str(), "2*N + 3");
  EXPECT_EQ((N - N).str(), "0");
  EXPECT_EQ((N * M - M * N).constant(), 0);
}

TEST(Extent, ProductsDistributeOverSums) {
  // Terms are ordered by the text of their product ("M" < "M*N"), the constant last.
  EXPECT_EQ(((N + 1) * (M - 1)).str(), "M + M*N - N - 1");
  EXPECT_EQ(((N + 1) * (N + 1)).str(), "2*N + N*N + 1");
  EXPECT_EQ((Extent(2) * (M * N) - 3).str(), "2*M*N - 3");
  EXPECT_EQ(((N + 1) * 0).str(), "0");
}

TEST(Extent, PrintingFormat) {
  EXPECT_EQ((N + 1).str(), "N + 1");
  EXPECT_EQ((N - 1).str(), "N - 1");
  EXPECT_EQ((Extent(0) - N).str(), "-N");
  EXPECT_EQ((Extent(-2) * N + 5).str(), "-2*N + 5");
  EXPECT_EQ(Extent(-3).str(), "-3");
  EXPECT_EQ(Extent::floorDiv(N, 3).str(), "floordiv(N, 3)");
  EXPECT_EQ(Extent::ceilDiv(N + 1, M).str(), "ceildiv(N + 1, M)");
  EXPECT_EQ(Extent::mod(N, 4).str(), "mod(N, 4)");
  EXPECT_EQ(Extent::min(N, M).str(), "min(M, N)");
  EXPECT_EQ(Extent::max(N, 8).str(), "max(8, N)");
  EXPECT_EQ((Extent::floorDiv(N, 2) * 2).str(), "2*floordiv(N, 2)");
}

TEST(Extent, PrintingIsDeterministic) {
  Extent a = N * M + Extent::floorDiv(N, 3) * C + 7 - M;
  Extent b = Extent(7) - M + C * Extent::floorDiv(N, 3) + M * N;
  EXPECT_EQ(a.str(), b.str());
  EXPECT_EQ((C * M * N).str(), (N * M * C).str());
  EXPECT_EQ((C * M * N).str(), "C*M*N");
}

TEST(Extent, EqualityIsStructural) {
  EXPECT_EQ(N + M, M + N);
  EXPECT_EQ((N + 1) * 2, N * 2 + 2);
  EXPECT_NE(N, M);
  EXPECT_NE(N + 1, N);
  EXPECT_EQ(Extent::min(N, M), Extent::min(M, N));
  EXPECT_EQ(Extent::max(N + 1, M), Extent::max(M, 1 + N));
  EXPECT_EQ(Extent(3), Extent(1) + Extent(2));
}

TEST(Extent, ExactDivisionCancels) {
  EXPECT_EQ(Extent::floorDiv(M * N * C, C), M * N);
  EXPECT_EQ(Extent::ceilDiv(M * N * C, C), M * N);
  EXPECT_TRUE(Extent::mod(M * N * C, C).isConstant(0));
  EXPECT_EQ(Extent::floorDiv(4 * N + 8, 4), N + 2);
  EXPECT_EQ(Extent::ceilDiv(6 * N * C + 2 * C, 2 * C), 3 * N + 1);
  EXPECT_TRUE(Extent::mod(4 * N + 8, 4).isConstant(0));
  EXPECT_EQ(Extent::floorDiv(N + 3, 1), N + 3);
  EXPECT_TRUE(Extent::mod(N + 3, 1).isConstant(0));
  EXPECT_EQ(Extent::floorDiv(C * C * N, C), C * N);
  EXPECT_EQ(Extent::floorDiv(N, N), Extent(1));
}

TEST(Extent, ConstantDivisionUsesFloorSemantics) {
  EXPECT_EQ(Extent::floorDiv(7, 2).constant(), 3);
  EXPECT_EQ(Extent::floorDiv(-7, 2).constant(), -4);
  EXPECT_EQ(Extent::ceilDiv(7, 2).constant(), 4);
  EXPECT_EQ(Extent::ceilDiv(-7, 2).constant(), -3);
  EXPECT_EQ(Extent::mod(7, 3).constant(), 1);
  EXPECT_EQ(Extent::mod(-7, 3).constant(), 2);
  EXPECT_EQ(Extent::floorDiv(6, 3).constant(), 2);
}

TEST(Extent, DivisionByZeroStaysOpaque) {
  Extent q = Extent::floorDiv(5, 0);
  EXPECT_EQ(q.str(), "floordiv(5, 0)");
  EXPECT_FALSE(q.constant());
  EXPECT_FALSE(q.evaluate({}));
  EXPECT_FALSE(Extent::mod(N, 0).evaluate({{"N", 3}}));
  EXPECT_FALSE(Extent::ceilDiv(N, M).evaluate({{"N", 3}, {"M", 0}}));
}

TEST(Extent, InexactDivisionStaysOpaque) {
  EXPECT_EQ(Extent::floorDiv(N + 1, 2).str(), "floordiv(N + 1, 2)");
  EXPECT_EQ(Extent::ceilDiv(3 * N, 2).str(), "ceildiv(3*N, 2)");
  EXPECT_EQ(Extent::floorDiv(M * N, C).str(), "floordiv(M*N, C)");
  EXPECT_EQ(Extent::floorDiv(M * C + 1, C).str(), "floordiv(C*M + 1, C)");
  EXPECT_EQ(Extent::mod(N, M).str(), "mod(N, M)");
  // A sum divisor never cancels, even when it would divide.
  EXPECT_EQ(Extent::floorDiv(N + M, N + M).str(), "floordiv(M + N, M + N)");
  EXPECT_FALSE(Extent::floorDiv(N, 2).symbolName());
}

TEST(Extent, SliceExtentFormula) {
  // A slice [start, end) with step s has ceildiv(end - start, s) elements.
  EXPECT_EQ(Extent::ceilDiv(N - 0, 1), N);
  EXPECT_EQ(Extent::ceilDiv(N - 64, 1).str(), "N - 64");
  EXPECT_EQ(Extent::ceilDiv(N - 64, 2).str(), "ceildiv(N - 64, 2)");
  EXPECT_EQ(Extent::ceilDiv(Extent(128) - 0, 3).constant(), 43);
  EXPECT_EQ(Extent::ceilDiv(N - 64, 2).evaluate({{"N", 129}}), 33);
  EXPECT_EQ(Extent::ceilDiv(2 * N - 64, 2), N - 32);
}

TEST(Extent, MinMaxFold) {
  EXPECT_EQ(Extent::min(3, 5).constant(), 3);
  EXPECT_EQ(Extent::max(3, 5).constant(), 5);
  EXPECT_EQ(Extent::min(N + 1, 1 + N), N + 1);
  EXPECT_EQ(Extent::max(N, N), N);
  EXPECT_EQ(Extent::min(N, 4).evaluate({{"N", 9}}), 4);
  EXPECT_EQ(Extent::max(N, 4).evaluate({{"N", 9}}), 9);
}

TEST(Extent, ConstantAndSymbolName) {
  EXPECT_EQ(Extent(12).constant(), 12);
  EXPECT_FALSE(N.constant());
  EXPECT_EQ(N.symbolName(), "N");
  EXPECT_FALSE((2 * N).symbolName());
  EXPECT_FALSE((N + 1).symbolName());
  EXPECT_FALSE(Extent(1).symbolName());
  EXPECT_EQ((N + 1 - 1).symbolName(), "N");
}

TEST(Extent, SymbolsIncludeThoseInsideAtoms) {
  Extent e = M * N + Extent::floorDiv(C, 4) + Extent::min(Extent::symbol("K"), N);
  EXPECT_EQ(e.symbols(), (std::vector<std::string>{"C", "K", "M", "N"}));
  EXPECT_TRUE(Extent(5).symbols().empty());
}

TEST(Extent, EvaluateWithBindings) {
  SymbolBindings b{{"M", 3}, {"N", 5}, {"C", 4}};
  EXPECT_EQ((M * N + 1).evaluate(b), 16);
  EXPECT_EQ((2 * M * N - 3).evaluate(b), 27);
  EXPECT_EQ(Extent::floorDiv(N - 10, C).evaluate(b), -2);
  EXPECT_EQ(Extent::ceilDiv(N, C).evaluate(b), 2);
  EXPECT_EQ(Extent::mod(N - 10, C).evaluate(b), 3);
  EXPECT_EQ(Extent(9).evaluate({}), 9);
}

TEST(Extent, EvaluateUnboundIsNullopt) {
  EXPECT_FALSE(N.evaluate({}));
  EXPECT_FALSE((M + N).evaluate({{"M", 1}}));
  EXPECT_FALSE(Extent::floorDiv(N, 2).evaluate({{"M", 1}}));
}

TEST(Extent, SubstituteFolds) {
  EXPECT_EQ((M * N + 1).substitute({{"M", 2}, {"N", 3}}).constant(), 7);
  EXPECT_EQ((M * N + M).substitute({{"M", 2}}), 2 * N + 2);
  EXPECT_EQ(Extent::floorDiv(N + 1, 2).substitute({{"N", 7}}).constant(), 4);
  // Substitution re-simplifies divisions: dividing by C = 1 cancels.
  EXPECT_EQ(Extent::floorDiv(N * M, C).substitute({{"C", 1}}), M * N);
  EXPECT_EQ(Extent::min(N, M).substitute({{"M", 4}}).str(), "min(4, N)");
  EXPECT_EQ((M + N).substitute({}), M + N);
  EXPECT_EQ((N - M).substitute({{"M", 0}}), N);
}

TEST(Extent, OverflowWrapsWithoutTrapping) {
  const int64_t big = std::numeric_limits<int64_t>::max();
  const int64_t smallest = std::numeric_limits<int64_t>::min();
  EXPECT_EQ((Extent(big) + 1).constant(), smallest);
  EXPECT_EQ(Extent::floorDiv(smallest, -1).constant(), smallest);
  EXPECT_EQ(Extent::mod(smallest, -1).constant(), 0);
  EXPECT_EQ(Extent(smallest).str(), "-9223372036854775808");
  EXPECT_EQ((N * big * 2).evaluate({{"N", 1}}), -2);
}

TEST(Extent, OverflowIsRecordedAndSticks) {
  const int64_t big = std::numeric_limits<int64_t>::max();
  EXPECT_EQ((Extent(big) + 1).problems(), fuserc::kExtentOverflow);
  EXPECT_EQ((Extent(big) * 2 * N).problems(), fuserc::kExtentOverflow);
  EXPECT_EQ((Extent(0) - Extent(std::numeric_limits<int64_t>::min())).problems(),
            fuserc::kExtentOverflow);
  // Through later arithmetic, folding and atoms.
  EXPECT_EQ(((Extent(big) + 1) * 0).problems(), fuserc::kExtentOverflow);
  EXPECT_EQ(Extent::ceilDiv(Extent(big) + 1, 2).problems(), fuserc::kExtentOverflow);
  EXPECT_EQ(Extent::ceilDiv(N * big * 2, M).problems(), fuserc::kExtentOverflow);
  EXPECT_EQ(fuserc::numElements({1 << 30, 1 << 30, 1 << 30}).problems(), fuserc::kExtentOverflow);
  // In range: no problem.
  EXPECT_EQ((Extent(big - 1) + 1).problems(), 0);
  EXPECT_EQ(fuserc::numElements({M, N, int64_t{1} << 40}).problems(), 0);
}

TEST(Extent, HugeProductsAreNotExpanded) {
  // (S0 + ... + S99) * (T0 + ... + T99) would have 10,000 terms.
  Extent s, t;
  for (int i = 0; i < 100; ++i) {
    s = s + Extent::symbol("S" + std::to_string(i));
    t = t + Extent::symbol("T" + std::to_string(i));
  }
  Extent product = s * t;
  EXPECT_EQ(product.problems(), fuserc::kExtentTooComplex);
  EXPECT_FALSE(product.constant());
  EXPECT_EQ((product + 1).problems(), fuserc::kExtentTooComplex);
}

TEST(Extent, ShapeString) {
  EXPECT_EQ(fuserc::shapeString({M, N, 128}), "[M, N, 128]");
  EXPECT_EQ(fuserc::shapeString({}), "[]");
  EXPECT_EQ(fuserc::shapeString({N + 1}), "[N + 1]");
}

TEST(Extent, NumElements) {
  EXPECT_EQ(fuserc::numElements({M, N, 128}), 128 * M * N);
  EXPECT_EQ(fuserc::numElements({M, N, 128}).str(), "128*M*N");
  EXPECT_TRUE(fuserc::numElements({}).isConstant(1));
  EXPECT_EQ(fuserc::numElements({4, 8}).constant(), 32);
}

namespace fuserc {
namespace {

std::string code(const Extent &e) {
  return extentToCode(e, [](const std::string &s) { return "sym_" + s; });
}

TEST(Extent, AnExactDivisionCancelsCommonFactorsAndItsMultiples) {
  const Extent C = Extent::symbol("C"), H = Extent::symbol("H"), N = Extent::symbol("N");
  // Provably whole: it cancels, as a floor division would.
  EXPECT_EQ(Extent::exactDiv(Extent(32) * C, Extent(32)), C);
  // Not provable: an atom printed as written, after the factors common to
  // both sides are taken out.
  const Extent q = Extent::exactDiv(C * H * N, Extent(32) * N);
  EXPECT_EQ(q.str(), "((C*H) / 32)");
  EXPECT_EQ(Extent::exactDiv(C, Extent(32)).str(), "(C / 32)");
  // A multiple of the divisor times the quotient is the dividend again.
  EXPECT_EQ(Extent(32) * Extent::exactDiv(C, Extent(32)) * N, C * N);
  EXPECT_EQ((Extent(64) * Extent::exactDiv(C, Extent(32))).str(), "2*C");
  // It has a value only where it is whole, and is listed for the checks.
  EXPECT_EQ(Extent::exactDiv(C, Extent(32)).evaluate({{"C", 96}}), 3);
  EXPECT_EQ(Extent::exactDiv(C, Extent(32)).evaluate({{"C", 95}}), std::nullopt);
  const auto divisions = (Extent(2) * q + Extent::exactDiv(N, Extent(4))).exactDivisions();
  ASSERT_EQ(divisions.size(), 2u);
}

TEST(Extent, LinearInASymbolGivesItsCoefficientAndTheRest) {
  const Extent G = Extent::symbol("G"), K = Extent::symbol("K"), N = Extent::symbol("N");
  auto linear = (Extent(32) * G).linearIn("G");
  ASSERT_TRUE(linear);
  EXPECT_EQ(linear->first, 32);
  EXPECT_TRUE(linear->second.isConstant(0));
  linear = (Extent(2) * G + N * K + Extent(3)).linearIn("G");
  ASSERT_TRUE(linear);
  EXPECT_EQ(linear->first, 2);
  EXPECT_EQ(linear->second.str(), "K*N + 3");
  // Not linear: a square, a product with another symbol, a floor division,
  // a negative coefficient.
  EXPECT_FALSE((G * G).linearIn("G"));
  EXPECT_FALSE((G * N).linearIn("G"));
  EXPECT_FALSE(Extent::floorDiv(G, Extent(2)).linearIn("G"));
  EXPECT_FALSE((N - G).linearIn("G"));
}

TEST(ExtentCode, PolynomialsBecome64BitExpressions) {
  EXPECT_EQ(code(Extent(7)), "((7LL))");
  EXPECT_EQ(code(Extent::symbol("N")), "((sym_N))");
  EXPECT_EQ(code(Extent::symbol("M") * Extent::symbol("N") - 2), "((sym_M) * (sym_N) + (-2LL))");
  EXPECT_EQ(code(Extent::ceilDiv(Extent::symbol("N"), 4)), "(fuserc_ceildiv(((sym_N)), ((4LL))))");
}

std::string checkedCode(const Extent &e) {
  return extentToCheckedCode(e, [](const std::string &s) { return "sym_" + s; });
}

TEST(ExtentCode, CheckedCodeCallsACheckedHelperForEveryOperation) {
  EXPECT_EQ(checkedCode(Extent(7)), "((7LL))");
  EXPECT_EQ(checkedCode(Extent::symbol("M") * Extent::symbol("N") - 2),
            "(fuserc_cadd(fuserc_cmul((sym_M), (sym_N)), (-2LL)))");
  EXPECT_EQ(checkedCode(Extent::ceilDiv(260 * Extent::symbol("N"), 256) * 256),
            "(fuserc_cmul((256LL), fuserc_cceildiv((fuserc_cmul((260LL), (sym_N))), ((256LL)))))");
}

} // namespace
} // namespace fuserc
