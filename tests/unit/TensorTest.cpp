// Unit tests for the reference interpreter's tensor and dtype conversions
// (ir/interp/Tensor.h): software f16 / bf16 rounding, integer wrapping and
// float-to-integer conversion.
#include "ir/interp/Tensor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace fuserc;

namespace {
const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();
double f16(double v) { return roundToFloatType(v, DType::F16); }
double bf16(double v) { return roundToFloatType(v, DType::BF16); }
} // namespace

TEST(Tensor, F16RoundsToNearestEven) {
  EXPECT_EQ(f16(1.0), 1.0);
  EXPECT_EQ(f16(1.0 + 0x1p-11), 1.0);                     // tie, 1.0 is even
  EXPECT_EQ(f16(1.0 + 3 * 0x1p-11), 1.0 + 0x1p-9);        // tie, rounds up to even
  EXPECT_EQ(f16(1.0 + 0x1p-11 + 0x1p-30), 1.0 + 0x1p-10); // above the tie
  EXPECT_EQ(f16(-1.0 - 0x1p-11 - 0x1p-30), -1.0 - 0x1p-10);
  EXPECT_EQ(f16(0.1), 0.0999755859375);
}

TEST(Tensor, F16RoundsDirectlyFromDoubleNotThroughF32) {
  // Through f32 this would first become 1 + 2^-11 (a tie) and then 1.0.
  const double v = 1.0 + 0x1p-11 + 0x1p-40;
  EXPECT_EQ(f16(v), 1.0 + 0x1p-10);
  EXPECT_EQ(f16(static_cast<float>(v)), 1.0);
}

TEST(Tensor, F16SubnormalsRoundToTheSubnormalQuantum) {
  EXPECT_EQ(f16(0x1p-24), 0x1p-24); // the smallest subnormal
  EXPECT_EQ(f16(0x1p-25), 0.0);     // tie, 0 is even
  EXPECT_EQ(f16(0x1p-25 + 0x1p-40), 0x1p-24);
  EXPECT_EQ(f16(3 * 0x1p-25), 0x1p-23);                 // tie, rounds to even
  EXPECT_EQ(f16(0x1p-15 + 0x1p-24), 0x1p-15 + 0x1p-24); // subnormal, exact
  EXPECT_TRUE(std::signbit(f16(-0x1p-26)));             // underflows to -0
}

TEST(Tensor, F16OverflowsToInfinity) {
  EXPECT_EQ(f16(65504.0), 65504.0);
  EXPECT_EQ(f16(65519.99), 65504.0);
  EXPECT_EQ(f16(65520.0), kInf); // tie between 65504 and 2^16: even is 2^16
  EXPECT_EQ(f16(-1e6), -kInf);
  EXPECT_EQ(f16(kInf), kInf);
  EXPECT_TRUE(std::isnan(f16(kNaN)));
}

TEST(Tensor, BF16RoundsToNearestEven) {
  EXPECT_EQ(bf16(1.0 + 0x1p-8), 1.0);
  EXPECT_EQ(bf16(1.0 + 3 * 0x1p-8), 1.0 + 0x1p-6);
  EXPECT_EQ(bf16(0x1p-133), 0x1p-133); // the smallest subnormal
  EXPECT_EQ(bf16(0x1p-134), 0.0);
  const double maxBF16 = (2.0 - 0x1p-7) * 0x1p127;
  EXPECT_EQ(bf16(3.39e38), maxBF16);
  EXPECT_EQ(bf16(3.4e38), kInf);
  EXPECT_TRUE(std::isnan(bf16(-kNaN)));
}

TEST(Tensor, F32RoundingUsesNearestFloat) {
  EXPECT_EQ(roundToFloatType(0.1, DType::F32), static_cast<double>(0.1f));
  EXPECT_EQ(roundToFloatType(1e39, DType::F32), kInf);
  EXPECT_EQ(roundToFloatType(0.1, DType::F64), 0.1);
}

TEST(Tensor, HalfBitsRoundTripEveryPattern) {
  for (DType dtype : {DType::F16, DType::BF16}) {
    for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
      const double v = fromHalfBits(static_cast<uint16_t>(bits), dtype);
      if (std::isnan(v))
        continue;
      EXPECT_EQ(roundToFloatType(v, dtype), v) << bits;
      EXPECT_EQ(toHalfBits(v, dtype), bits) << dtypeName(dtype) << " " << bits;
    }
  }
  EXPECT_EQ(toHalfBits(1.0, DType::F16), 0x3C00);
  EXPECT_EQ(toHalfBits(65504.0, DType::F16), 0x7BFF);
  EXPECT_EQ(toHalfBits(0x1p-24, DType::F16), 0x0001);
  EXPECT_EQ(toHalfBits(-0.0, DType::F16), 0x8000);
  EXPECT_EQ(toHalfBits(kInf, DType::F16), 0x7C00);
  EXPECT_EQ(toHalfBits(1.0, DType::BF16), 0x3F80);
  EXPECT_TRUE(std::isnan(fromHalfBits(toHalfBits(kNaN, DType::F16), DType::F16)));
}

TEST(Tensor, IntegersWrapToTheDTypeWidth) {
  EXPECT_EQ(wrapToIntType(int64_t{1} << 31, DType::I32), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(wrapToIntType((int64_t{1} << 32) + 5, DType::I32), 5);
  EXPECT_EQ(wrapToIntType(-7, DType::I64), -7);
  EXPECT_EQ(wrapToIntType(5, DType::Bool), 1);
  EXPECT_EQ(wrapToIntType(0, DType::Bool), 0);
}

TEST(Tensor, FloatToIntTruncatesAndSaturates) {
  EXPECT_EQ(floatToIntType(-2.7, DType::I32), -2);
  EXPECT_EQ(floatToIntType(2.7, DType::I64), 2);
  EXPECT_EQ(floatToIntType(3e9, DType::I32), std::numeric_limits<int32_t>::max());
  EXPECT_EQ(floatToIntType(-3e9, DType::I32), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(floatToIntType(1e30, DType::I64), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(floatToIntType(-kInf, DType::I64), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(floatToIntType(kNaN, DType::I32), 0);
  EXPECT_EQ(floatToIntType(0.25, DType::Bool), 1);
  EXPECT_EQ(floatToIntType(-0.0, DType::Bool), 0);
  EXPECT_EQ(floatToIntType(kNaN, DType::Bool), 1); // NaN != 0
}

TEST(Tensor, IntToFloatRoundsOnce) {
  // Through double, 2^60 + 2^52 + 1 would become the tie 2^60 + 2^52 and
  // then round to even (2^60); rounded once it goes up.
  const int64_t v = (int64_t{1} << 60) + (int64_t{1} << 52) + 1;
  EXPECT_EQ(intToFloatType(v, DType::BF16), 0x1p60 + 0x1p53);
  EXPECT_EQ(intToFloatType(-v, DType::BF16), -(0x1p60 + 0x1p53));
  EXPECT_EQ(intToFloatType(16777217, DType::F32), 16777216.0);
  EXPECT_EQ(intToFloatType(65520, DType::F16), kInf);
  EXPECT_EQ(intToFloatType(std::numeric_limits<int64_t>::min(), DType::F16), -kInf);
}

TEST(Tensor, SettersConvertToTheDType) {
  Tensor t(DType::I32, {2, 2});
  EXPECT_EQ(t.numel(), 4u);
  EXPECT_EQ(t.strides(), (std::vector<int64_t>{2, 1}));
  t.setFloat(0, -3.9);
  t.setInt(1, (int64_t{1} << 32) + 9);
  EXPECT_EQ(t.getInt(0), -3);
  EXPECT_EQ(t.getInt(1), 9);
  EXPECT_EQ(t.getFloat(1), 9.0);

  Tensor h = Tensor::fromFloats(DType::F16, {2}, std::vector<double>{0.1, 70000.0});
  EXPECT_EQ(h.getFloat(0), 0.0999755859375);
  EXPECT_EQ(h.getFloat(1), kInf);
  EXPECT_EQ(Tensor::scalar(DType::F32, 2.5).getInt(0), 2);
  EXPECT_EQ(Tensor::scalar(DType::Bool, 0.5).getInt(0), 1);
  EXPECT_EQ(Tensor::fromInts(DType::I64, {3}, std::vector<int64_t>{1, 2, 3}).str(),
            "i64[3] {1, 2, 3}");
  EXPECT_THROW(Tensor::fromInts(DType::I64, {2}, std::vector<int64_t>{1}), std::invalid_argument);
}
