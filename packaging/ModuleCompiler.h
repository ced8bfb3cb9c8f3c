// Compiles one module's CUDA source for every requested architecture —
// in parallel, through the compile cache — and packages the images into a
// fatbinary: a cubin per arch plus PTX of the newest.
#pragma once

#include "packaging/NvrtcCompiler.h"
#include "support/StageTimes.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace fuserc {

// One finished compile job, as the progress display reports it.
struct CompileJobReport {
  std::string unit;    // what was compiled: the source's name
  std::string arch;    // "sm_90"
  bool cached = false; // served by the compile cache
  bool ok = false;
  double seconds = 0; // wall-clock, cache lookup included
  size_t done = 0;    // jobs finished so far, this one included
  size_t total = 0;   // jobs of the module
};

struct ModuleCompileOptions {
  std::vector<std::string> archs; // "sm_80", ...
  unsigned jobs = 0;              // 0: one per core
  std::string cacheDir;           // empty: no cache
  std::string sourceName = "fusion.cu";
  // Called as each job finishes, from the thread that ran it, one call at a
  // time (may be empty).
  std::function<void(const CompileJobReport &)> onJobDone;
};

struct ModuleCompileResult {
  bool ok = false;
  std::string error;                                             // what failed, for people
  std::string fatbin;                                            // the packaged images
  std::map<std::string, std::vector<KernelResources>> resources; // by arch
  std::vector<std::string> log; // one line per compile: arch, cache hit or NVRTC
  unsigned nvrtcCompiles = 0;   // compiles that ran NVRTC (not served by the cache)
  unsigned cacheHits = 0;       // compiles the cache served
  std::string ptxArch;          // the arch whose PTX is embedded
  // Each job ("nvrtc sm_90", "cache sm_80") in arch order, then "fatbinary".
  StageTimes times;
};

ModuleCompileResult compileModule(const std::string &source, const ModuleCompileOptions &options);

} // namespace fuserc
