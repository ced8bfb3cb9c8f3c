// The GPU architectures fuserc can compile for: sm_80 or newer (the
// generated kernels use sm_80 instructions) and known to the NVRTC it runs
// with; and whether NVRTC compiles a module for one.
#pragma once

#include <optional>
#include <string>

namespace fuserc {

// Why fuserc cannot compile for `arch` ("sm_75"), or nothing when it can.
// `arch` already has the form sm_NN or sm_NNN, optionally with "a".
std::optional<std::string> unsupportedArchitecture(const std::string &arch);

// NVRTC's log when it rejects `cudaSource` (a module's translation unit,
// PipelineResult::cudaSource) for `arch`, or nothing when it compiles it;
// for the pipeline fuzzer, which may not reach packaging/ itself.
std::optional<std::string> nvrtcRejection(const std::string &cudaSource, const std::string &arch);

} // namespace fuserc
