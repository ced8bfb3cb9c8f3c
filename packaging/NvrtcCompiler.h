// NVRTC compilation of one CUDA source for one GPU architecture, with the
// resource usage ptxas reports for every kernel (registers, shared memory,
// stack, spills). The log's timing lines are dropped so results are
// deterministic.
#pragma once

#include <string>
#include <vector>

namespace fuserc {

struct KernelResources {
  std::string kernel;
  int registers = 0;
  int sharedBytes = 0; // static shared memory
  int stackBytes = 0;
  int spillStoreBytes = 0;
  int spillLoadBytes = 0;
};

struct NvrtcOutput {
  bool ok = false;
  std::string log;   // NVRTC's messages (errors, ptxas report), timing lines removed
  std::string cubin; // machine code for the arch
  std::string ptx;   // when asked for
  std::vector<KernelResources> resources; // sorted by kernel name
};

// "sm_90" -> "90"; empty when `arch` is not of the form sm_NN / sm_NNa.
std::string smNumber(const std::string &arch);

// Compiles `source` (named `sourceName` in messages) for `arch` (e.g.
// "sm_90"), also returning PTX when `wantPtx`. Thread-safe.
NvrtcOutput compileWithNvrtc(const std::string &source, const std::string &sourceName,
                             const std::string &arch, bool wantPtx,
                             const std::vector<std::string> &options);

// The options every fusion compile uses: the toolkit's include directory
// (for cuda_fp16.h / cuda_bf16.h: $FUSERC_CUDA_INCLUDE, else the one found at
// build time), C++17, and no fast-math shortcuts.
std::vector<std::string> defaultNvrtcOptions();

// "13.0": part of every cache key.
std::string nvrtcVersionString();

// The architectures this NVRTC compiles for, as numbers (75, 80, 86, ...),
// ascending.
std::vector<int> nvrtcSupportedArchs();

// `log` without the lines that vary from run to run ("Compile time = 2.5
// ms").
std::string withoutTimings(const std::string &log);

// Parses ptxas' verbose report ("Function properties for k", "Used 8
// registers, used 0 barriers, 16 bytes smem"...). Exposed for tests.
std::vector<KernelResources> parsePtxasReport(const std::string &log);

} // namespace fuserc
