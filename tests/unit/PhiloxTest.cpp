// Unit tests for the Philox4x32-10 generator behind rand_like
// (ir/interp/Philox.h), against the Random123 known-answer vectors.
#include "ir/interp/Philox.h"
#include "ir/interp/Tensor.h"

#include <gtest/gtest.h>

using namespace fuserc;
using philox::Counter;

TEST(Philox, MatchesRandom123KnownAnswers) {
  EXPECT_EQ(philox::philox4x32({0, 0, 0, 0}, {0, 0}),
            (Counter{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(philox::philox4x32({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
                               {0xffffffff, 0xffffffff}),
            (Counter{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(philox::philox4x32({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
                               {0xa4093822, 0x299f31d0}),
            (Counter{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

TEST(Philox, RandWordTakesWordIndexMod4OfBlockIndexDiv4) {
  const uint64_t seed = 0x0123456789abcdefull;
  const uint64_t offset = 0x0000000500000002ull;
  const uint64_t index = (uint64_t{3} << 34) + 6; // block (3 << 32) + 1, word 2
  const Counter block = philox::philox4x32({1, 3, 2, 5}, {0x89abcdef, 0x01234567});
  EXPECT_EQ(philox::randWord(seed, offset, index), block[2]);
  // Key (0, 0) and counter 0 is the first known-answer vector.
  EXPECT_EQ(philox::randWord(0, 0, 0), 0x6627e8d5u);
  EXPECT_EQ(philox::randWord(0, 0, 3), 0x9b00dbd8u);
}

TEST(Philox, UnitMappingsAreBelowOneAndExactInTheirDType) {
  EXPECT_EQ(philox::wordToUnitF32(0xffffffff), 1.0 - 0x1p-24);
  EXPECT_EQ(philox::wordToUnitF16(0xffffffff), 1.0 - 0x1p-11);
  EXPECT_EQ(philox::wordToUnitBF16(0xffffffff), 1.0 - 0x1p-8);
  EXPECT_EQ(philox::wordToUnitF64(0xffffffff), 1.0 - 0x1p-32);
  EXPECT_EQ(philox::wordToUnitF32(0x100), 0x1p-24);
  EXPECT_EQ(philox::wordToUnitF32(0xff), 0.0);
  for (uint32_t w : {0x0u, 0x12345678u, 0xdeadbeefu, 0xffffffffu}) {
    EXPECT_EQ(roundToFloatType(philox::wordToUnitF32(w), DType::F32), philox::wordToUnitF32(w));
    EXPECT_EQ(roundToFloatType(philox::wordToUnitF16(w), DType::F16), philox::wordToUnitF16(w));
    EXPECT_EQ(roundToFloatType(philox::wordToUnitBF16(w), DType::BF16), philox::wordToUnitBF16(w));
  }
}
