// HMAC-SHA256 (see Hmac.h).
#include "support/Hmac.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

namespace fuserc {
namespace {

constexpr size_t kBlockBytes = 64; // SHA-256's block

std::string sha256(llvm::StringRef a, llvm::StringRef b = "") {
  llvm::SHA256 hash;
  hash.update(a);
  hash.update(b);
  return hash.final().str();
}

} // namespace

std::string hmacSha256Hex(llvm::StringRef key, llvm::StringRef message) {
  // The key, hashed when longer than a block, padded with zeros to a block.
  std::string block = key.size() > kBlockBytes ? sha256(key) : key.str();
  block.resize(kBlockBytes, '\0');
  // H((K ^ opad) || H((K ^ ipad) || message))
  std::string inner = block, outer = block;
  for (size_t i = 0; i < kBlockBytes; ++i) {
    inner[i] = char(uint8_t(inner[i]) ^ 0x36);
    outer[i] = char(uint8_t(outer[i]) ^ 0x5c);
  }
  return llvm::toHex(sha256(outer, sha256(inner, message)), /*LowerCase=*/true);
}

bool equalInConstantTime(llvm::StringRef a, llvm::StringRef b) {
  if (a.size() != b.size())
    return false;
  unsigned char differ = 0;
  for (size_t i = 0; i < a.size(); ++i)
    differ |= static_cast<unsigned char>(a[i] ^ b[i]);
  return differ == 0;
}

} // namespace fuserc
