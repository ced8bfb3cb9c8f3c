// Which architectures fuserc compiles for (see Targets.h).
#include "driver/Targets.h"

#include "codegen/core/CudaPrelude.h"
#include "packaging/NvrtcCompiler.h"

#include <algorithm>
#include <vector>

namespace fuserc {

std::optional<std::string> unsupportedArchitecture(const std::string &arch) {
  const int number = std::stoi(smNumber(arch));
  if (number < kOldestGeneratedArch)
    return "'" + arch + "' is older than fuserc generates code for: sm_" +
           std::to_string(kOldestGeneratedArch) +
           " and newer (its kernels use sm_80 instructions such as cp.async)";
  static const std::vector<int> supported = nvrtcSupportedArchs();
  if (supported.empty() || std::find(supported.begin(), supported.end(), number) != supported.end())
    return std::nullopt;
  std::string known;
  for (int n : supported)
    if (n >= kOldestGeneratedArch)
      known += (known.empty() ? "sm_" : ", sm_") + std::to_string(n);
  return "NVRTC " + nvrtcVersionString() + " does not compile for '" + arch +
         "'; it compiles for " + known;
}

std::optional<std::string> nvrtcRejection(const std::string &cudaSource, const std::string &arch) {
  NvrtcOutput out =
      compileWithNvrtc(cudaSource, "generated.cu", arch, /*wantPtx=*/false, defaultNvrtcOptions());
  if (out.ok)
    return std::nullopt;
  return out.log;
}

} // namespace fuserc
