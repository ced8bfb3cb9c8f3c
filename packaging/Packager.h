// The last step of a fuserc run with -o: compiles the module's compile units
// (which the driver hands over, as code generation made them) for every
// architecture (ModuleCompiler), and renders NAME.h, NAME.c, NAME.fatbin,
// NAME.manifest.json (NAME.h alone in the single-header form, NAME.cu with
// --emit cuda, libNAME.so with --emit so) in memory. Nothing is written here: the driver writes
// every file or none.
#pragma once

#include "ir/Fusion.h"
#include "packaging/ModuleCompiler.h"
#include "schedulers/KernelPlan.h"
#include "schedulers/SegmentedFusion.h"

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace fuserc {

// What packaging takes from the command line.
struct PackageOptions {
  std::vector<std::string> archs;                          // sm_XX, compiled in this order
  std::vector<std::string> emit;                           // header, fatbin, manifest, cuda, so
  unsigned jobs = 0;                                       // NVRTC threads; 0: one per core
  std::optional<std::string> cacheDir;                     // absent: no compile cache
  std::function<void(const CompileJobReport &)> onJobDone; // progress (may be empty)
  std::string variants = "default";                        // the variant budget, for the manifest
};

struct PackageResult {
  bool ok = false;
  std::string error;                        // a toolchain failure, for people
  std::string failedSource;                 // the CUDA source NVRTC rejected
  std::map<std::string, std::string> files; // file name -> bytes
  std::vector<std::string> log;             // for --verbose
  StageTimes times;                         // compiles, fatbinary, each file rendered
  unsigned compileJobs = 0;                 // compile jobs the cache did not serve
  unsigned cacheHits = 0;
};

// `units` are what NVRTC compiles (one per kernel); `cudaSource` is the
// module's one translation unit (every fusion's kernels after the prelude),
// written with --emit cuda; `code` describes the kernels.
PackageResult packageModule(const std::string &name, const Module &module,
                            std::span<const SegmentedFusion> segmentations,
                            const std::vector<FusionCode> &code,
                            const std::vector<CompileUnit> &units, const std::string &cudaSource,
                            const PackageOptions &options);

} // namespace fuserc
