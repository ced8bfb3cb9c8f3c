// Turns fuzz bytes into choices, so that libFuzzer's mutations of the bytes
// become mutations of the decisions a generator makes. When the bytes run
// out every choice is 0 (the first option), so any input, even an empty
// one, describes a complete, small result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace fuserc::fuzz {

class ByteReader {
public:
  explicit ByteReader(std::span<const uint8_t> bytes) : bytes_(bytes) {}

  bool exhausted() const { return next_ >= bytes_.size(); }

  uint8_t byte() { return exhausted() ? 0 : bytes_[next_++]; }

  // A choice in [0, n); n must be positive. Two bytes when one cannot
  // reach every option.
  size_t below(size_t n) {
    size_t v = byte();
    if (n > 256)
      v = v << 8 | byte();
    return v % n;
  }

  // True with roughly `percent` percent probability over random bytes
  // (false once the bytes are exhausted, so exhausted inputs stay small).
  bool chance(unsigned percent) { return !exhausted() && byte() % 100 < percent; }

  template <class T, size_t N> const T &pick(const T (&options)[N]) { return options[below(N)]; }
  template <class T> const T &pick(std::span<const T> options) {
    return options[below(options.size())];
  }

private:
  std::span<const uint8_t> bytes_;
  size_t next_ = 0;
};

} // namespace fuserc::fuzz
