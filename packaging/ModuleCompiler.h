// Compiles one module's CUDA source for every requested architecture —
// in parallel, through the compile cache — and packages the images into a
// fatbinary: a cubin per arch plus PTX of the newest.
#pragma once

#include "packaging/NvrtcCompiler.h"

#include <map>
#include <string>
#include <vector>

namespace fuserc {

struct ModuleCompileOptions {
  std::vector<std::string> archs; // "sm_80", ...
  unsigned jobs = 0;              // 0: one per core
  std::string cacheDir;           // empty: no cache
  std::string sourceName = "fusion.cu";
};

struct ModuleCompileResult {
  bool ok = false;
  std::string error;                                             // what failed, for people
  std::string fatbin;                                            // the packaged images
  std::map<std::string, std::vector<KernelResources>> resources; // by arch
  std::vector<std::string> log; // one line per compile: arch, cache hit or NVRTC
  unsigned nvrtcCompiles = 0;   // compiles that ran NVRTC (not served by the cache)
  std::string ptxArch;          // the arch whose PTX is embedded
};

ModuleCompileResult compileModule(const std::string &source, const ModuleCompileOptions &options);

} // namespace fuserc
