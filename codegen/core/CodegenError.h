// The error code generation raises when a segment cannot be compiled: the
// message says which op or segment and why, for the user (fuserc reports it
// and exits with the internal-error code when it is a fuserc limitation).
#pragma once

#include <stdexcept>
#include <string>

namespace fuserc {

class CodegenError : public std::runtime_error {
public:
  explicit CodegenError(const std::string &message) : std::runtime_error(message) {}
};

} // namespace fuserc
