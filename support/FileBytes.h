// Reading and writing whole files as bytes (binary-safe), for the compile
// cache and the toolchain steps that go through temporary files.
#pragma once

#include <optional>
#include <string>

namespace fuserc {

std::optional<std::string> readFileBytes(const std::string &path);
// False when the file cannot be written completely.
bool writeFileBytes(const std::string &path, const std::string &bytes);

} // namespace fuserc
