// Assembling PTX into a cubin with the toolkit's ptxas, with the same
// resource report NVRTC's compiles give; used where several architectures
// share one PTX (SharedPtx.h).
#pragma once

#include "packaging/NvrtcCompiler.h"

#include <string>

namespace fuserc {

// The toolkit's ptxas: $FUSERC_PTXAS, else the one found at build time,
// else `ptxas` on PATH; empty when none exists or it is not executable.
std::string findPtxas();

// Assembles `ptx` (named `name` in messages) for `arch` ("sm_90"): the
// cubin, ptxas' report without its timing lines, the resources parsed from
// it. Thread-safe.
NvrtcOutput assembleWithPtxas(const std::string &ptxas, const std::string &ptx,
                              const std::string &name, const std::string &arch);

} // namespace fuserc
