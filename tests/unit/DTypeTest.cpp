// Range of floating-point dtypes (ir/DType.h): which finite values become
// infinities when stored, agreeing with the reference interpreter's
// rounding at the edges.
#include "ir/DType.h"
#include "ir/interp/Tensor.h"

#include <gtest/gtest.h>

#include <cmath>

namespace fuserc {
namespace {

TEST(DTypeRange, TheLargestFiniteValueFitsAndHalfwayPastItOverflows) {
  for (DType t : {DType::F16, DType::BF16, DType::F32}) {
    double max = largestFinite(t);
    EXPECT_FALSE(overflowsFloatType(max, t)) << dtypeName(t);
    EXPECT_FALSE(overflowsFloatType(-max, t)) << dtypeName(t);
    EXPECT_EQ(roundToFloatType(max, t), max) << dtypeName(t);
  }
  EXPECT_TRUE(overflowsFloatType(65520, DType::F16));
  EXPECT_FALSE(overflowsFloatType(65519.99, DType::F16));
  EXPECT_TRUE(overflowsFloatType(-0x1.ffp127, DType::BF16));
  EXPECT_FALSE(overflowsFloatType(0x1.fefffep127, DType::BF16));
  EXPECT_TRUE(overflowsFloatType(1e39, DType::F32));
}

TEST(DTypeRange, TheInterpreterRoundsTheSameEdgesToInfinity) {
  for (DType t : {DType::F16, DType::BF16, DType::F32})
    for (double v : {65504.0, 65519.0, 65520.0, 1e5, 0x1.fep127, 0x1.ffp127, 3.4e38, 1e39})
      EXPECT_EQ(overflowsFloatType(v, t), std::isinf(roundToFloatType(v, t)))
          << dtypeName(t) << " " << v;
}

TEST(DTypeRange, F64AndInfinitiesNeverOverflow) {
  EXPECT_FALSE(overflowsFloatType(1e300, DType::F64));
  EXPECT_FALSE(overflowsFloatType(INFINITY, DType::F32));
  EXPECT_FALSE(overflowsFloatType(NAN, DType::F16));
}

} // namespace
} // namespace fuserc
