// Reading and writing whole files as bytes (binary-safe), for the inputs,
// the compile cache and the toolchain steps that go through temporary files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace fuserc {

// Reads the regular file at `path` (symbolic links followed), of at most
// `maxBytes` bytes. Anything else is refused without reading it: a FIFO is
// opened without waiting for a writer, and a device such as /dev/zero or
// /dev/urandom, a directory, or a larger file (also one that grows past the
// limit while it is read) gives nullopt. `error`, when given, then says why
// ("No such file or directory", "not a regular file (a FIFO)", "larger than
// ... bytes").
std::optional<std::string> readFileBytes(const std::string &path, uint64_t maxBytes,
                                         std::string *error = nullptr);

// False when the file cannot be written completely.
bool writeFileBytes(const std::string &path, const std::string &bytes);

} // namespace fuserc
