// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2,
// 3", SC 2011; the Random123 constants), the counter-based generator behind
// rand_like. Being a pure function of (key, counter), it lets the GPU and
// this reference produce the same numbers for any element independently.
#pragma once

#include <array>
#include <cstdint>

namespace fuserc::philox {

using Counter = std::array<uint32_t, 4>;
using Key = std::array<uint32_t, 2>;

inline constexpr uint32_t kM0 = 0xD2511F53u; // round multipliers
inline constexpr uint32_t kM1 = 0xCD9E8D57u;
inline constexpr uint32_t kW0 = 0x9E3779B9u; // Weyl key increments
inline constexpr uint32_t kW1 = 0xBB67AE85u;
inline constexpr int kRounds = 10;

// One round: two 32x32->64 multiplies; the high halves are mixed with the
// other counter words and the key, and the words are permuted.
inline Counter round(const Counter &ctr, const Key &key) {
  const uint64_t p0 = uint64_t{kM0} * ctr[0];
  const uint64_t p1 = uint64_t{kM1} * ctr[2];
  const auto hi0 = static_cast<uint32_t>(p0 >> 32), lo0 = static_cast<uint32_t>(p0);
  const auto hi1 = static_cast<uint32_t>(p1 >> 32), lo1 = static_cast<uint32_t>(p1);
  return {hi1 ^ ctr[1] ^ key[0], lo1, hi0 ^ ctr[3] ^ key[1], lo0};
}

// The 128-bit output block for `ctr` under `key`; the key is bumped by the
// Weyl constants between rounds.
inline Counter philox4x32(Counter ctr, Key key) {
  for (int r = 0; r < kRounds; ++r) {
    if (r > 0) {
      key[0] += kW0;
      key[1] += kW1;
    }
    ctr = round(ctr, key);
  }
  return ctr;
}

inline uint32_t lo32(uint64_t v) { return static_cast<uint32_t>(v); }
inline uint32_t hi32(uint64_t v) { return static_cast<uint32_t>(v >> 32); }

// The 32-bit word for element `index` of rand_like's row-major result: word
// index % 4 of the block at counter (index / 4, offset), keyed by the seed.
inline uint32_t randWord(uint64_t seed, uint64_t offset, uint64_t index) {
  const uint64_t block = index / 4;
  const Counter out =
      philox4x32({lo32(block), hi32(block), lo32(offset), hi32(offset)}, {lo32(seed), hi32(seed)});
  return out[index % 4];
}

// Maps a random word to [0, 1) with as many bits as the dtype's mantissa
// holds exactly, so the value needs no further rounding.
inline double wordToUnitF32(uint32_t w) { return static_cast<double>(w >> 8) * 0x1p-24; }
inline double wordToUnitF16(uint32_t w) { return static_cast<double>(w >> 21) * 0x1p-11; }
inline double wordToUnitBF16(uint32_t w) { return static_cast<double>(w >> 24) * 0x1p-8; }
inline double wordToUnitF64(uint32_t w) { return static_cast<double>(w) * 0x1p-32; }

} // namespace fuserc::philox
