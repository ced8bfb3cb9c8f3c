// HMAC-SHA256 (RFC 2104 over LLVM's SHA-256): a keyed signature, so that
// only a holder of the key can make a message that verifies. It signs the
// commit journals of the output directory (driver/CommitJournal.h).
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>

namespace fuserc {

// HMAC-SHA256 of `message` under `key`, as 64 lowercase hexadecimal
// digits. Any key length: one longer than the 64-byte block is hashed
// first, as RFC 2104 says.
std::string hmacSha256Hex(llvm::StringRef key, llvm::StringRef message);

// Equality in time that depends only on the lengths, so that comparing a
// forged signature with the right one tells nothing about where they differ.
bool equalInConstantTime(llvm::StringRef a, llvm::StringRef b);

} // namespace fuserc
