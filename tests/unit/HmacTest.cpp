// HMAC-SHA256 (support/Hmac.h) against the test vectors of RFC 4231, which
// cover short, long (hashed first) and non-text keys and messages.
#include "support/Hmac.h"

#include <gtest/gtest.h>

#include <string>

namespace fuserc {
namespace {

std::string repeat(char c, size_t n) { return std::string(n, c); }

TEST(Hmac, Rfc4231Case1ShortBinaryKey) {
  EXPECT_EQ(hmacSha256Hex(repeat('\x0b', 20), "Hi There"),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
}

TEST(Hmac, Rfc4231Case2KeyShorterThanTheHash) {
  EXPECT_EQ(hmacSha256Hex("Jefe", "what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(Hmac, Rfc4231Case3BinaryMessage) {
  EXPECT_EQ(hmacSha256Hex(repeat('\xaa', 20), repeat('\xdd', 50)),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
}

TEST(Hmac, Rfc4231Case4CountingKey) {
  std::string key;
  for (char c = 1; c <= 25; ++c)
    key += c;
  EXPECT_EQ(hmacSha256Hex(key, repeat('\xcd', 50)),
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b");
}

TEST(Hmac, Rfc4231Case5TruncatedOutputIsAPrefix) {
  EXPECT_EQ(hmacSha256Hex(repeat('\x0c', 20), "Test With Truncation").substr(0, 32),
            "a3b6167473100ee06e0c796c2955552b");
}

TEST(Hmac, Rfc4231Case6KeyLongerThanABlockIsHashedFirst) {
  EXPECT_EQ(
      hmacSha256Hex(repeat('\xaa', 131), "Test Using Larger Than Block-Size Key - Hash Key First"),
      "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

TEST(Hmac, Rfc4231Case7LongKeyAndLongMessage) {
  EXPECT_EQ(hmacSha256Hex(repeat('\xaa', 131),
                          "This is a test using a larger than block-size key and a larger than "
                          "block-size data. The key needs to be hashed before being used by the "
                          "HMAC algorithm."),
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
}

TEST(Hmac, AKeyOfExactlyOneBlockIsUsedAsItIs) {
  // 64 bytes: neither padded nor hashed (the value is Python's hmac module's).
  EXPECT_EQ(hmacSha256Hex(repeat('k', 64), "message"),
            "890f3a16e0ca0aaa3bf180f70fa8e3970b3fd6505e98fde157988dcc19d1685c");
}

TEST(Hmac, ConstantTimeEqualityComparesWholeStrings) {
  EXPECT_TRUE(equalInConstantTime("abc", "abc"));
  EXPECT_FALSE(equalInConstantTime("abc", "abd"));
  EXPECT_FALSE(equalInConstantTime("abc", "ab"));
  EXPECT_TRUE(equalInConstantTime("", ""));
}

} // namespace
} // namespace fuserc
