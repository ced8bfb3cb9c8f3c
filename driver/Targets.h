// The GPU architectures fuserc can compile for: sm_80 or newer (the
// generated kernels use sm_80 instructions) and known to the NVRTC it runs
// with.
#pragma once

#include <optional>
#include <string>

namespace fuserc {

// Why fuserc cannot compile for `arch` ("sm_75"), or nothing when it can.
// `arch` already has the form sm_NN or sm_NNN, optionally with "a".
std::optional<std::string> unsupportedArchitecture(const std::string &arch);

} // namespace fuserc
