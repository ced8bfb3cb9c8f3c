// Compiles a module's compile units (one per kernel: the prelude and the
// kernel's variants) for every requested architecture, jobs in parallel,
// each through the compile cache on its own content key, and packages each
// unit's images into its own fatbinary: a cubin per arch plus PTX of the
// newest. The archs a unit's source cannot tell apart share one NVRTC
// compile to PTX, which ptxas assembles for each (SharedPtx.h); the others
// compile from source each. The fatbinaries lie back to back in one blob (each
// 16-byte aligned), which NAME.fatbin and NAME.c hold.
#pragma once

#include "packaging/NvrtcCompiler.h"
#include "schedulers/KernelPlan.h"
#include "support/StageTimes.h"

#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace fuserc {

// One finished compile job, as the progress display reports it.
struct CompileJobReport {
  std::string unit;    // what was compiled: the unit's name ("softmax_k0")
  std::string arch;    // "sm_90"; a compile to PTX several archs share: "compute_80"
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
  // Called as each job finishes, from the thread that ran it, one call at a
  // time (may be empty).
  std::function<void(const CompileJobReport &)> onJobDone;
};

// Where one unit's fatbinary lies in ModuleCompileResult::fatbin, and the
// kernels (__global__ symbols) it defines, sorted.
struct UnitImage {
  std::string unit; // CompileUnit::name
  size_t offset = 0;
  size_t size = 0;
  std::vector<std::string> symbols;
  std::string ptxArch; // the arch its PTX was compiled for
};

struct ModuleCompileResult {
  bool ok = false;
  std::string error;        // what failed, for people
  std::string failedSource; // the unit NVRTC rejected, when it did
  std::string fatbin;       // every unit's fatbinary, in unit order, 16-byte aligned
  std::vector<UnitImage> images;
  std::map<std::string, std::vector<KernelResources>> resources; // by arch, sorted by kernel
  std::vector<std::string> log; // one line per compile: unit, arch, cache hit or NVRTC
  unsigned compileJobs = 0;     // jobs that ran NVRTC or ptxas (not served by the cache)
  unsigned cacheHits = 0;       // compiles the cache served
  std::string ptxArch;          // the newest arch an image's PTX was compiled for
  // Each job ("nvrtc softmax_k0 sm_90", "nvrtc softmax_k0 compute_80",
  // "ptxas softmax_k0 sm_90", "cache ...") in unit and arch order, then
  // "fatbinary".
  StageTimes times;
};

// The index in `images` of the image defining kernel `symbol`; nothing when
// none does.
std::optional<size_t> imageHolding(std::span<const UnitImage> images, const std::string &symbol);

// Alignment of each unit's fatbinary in the blob (the driver loads images
// from 8-byte aligned addresses).
inline constexpr size_t kUnitImageAlignment = 16;

ModuleCompileResult compileModule(const std::vector<CompileUnit> &units,
                                  const ModuleCompileOptions &options);

} // namespace fuserc
