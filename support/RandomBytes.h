// Unpredictable bytes from the kernel, for secrets (the key that signs
// commit journals) and for names no other run can guess.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace fuserc {

// `count` bytes from getrandom(2), or from /dev/urandom (checked to be the
// character device, read for exactly `count` bytes) where that call is
// missing. nullopt when neither gives them; `error`, when given, says why.
std::optional<std::string> randomBytes(size_t count, std::string *error = nullptr);

} // namespace fuserc
