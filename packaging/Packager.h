// The last step of a fuserc run with -o: compiles the module's CUDA for
// every architecture (ModuleCompiler), and renders NAME.h, NAME.fatbin,
// NAME.manifest.json (and NAME.cu with --emit cuda) in memory. Nothing is
// written here: the driver writes every file or none.
#pragma once

#include "codegen/KernelPlan.h"
#include "ir/Fusion.h"
#include "passes/CompileOptions.h"
#include "passes/Segmentation.h"

#include <map>
#include <span>
#include <string>
#include <vector>

namespace fuserc {

struct PackageResult {
  bool ok = false;
  std::string error;                        // a toolchain failure, for people
  std::string failedSource;                 // the CUDA source NVRTC rejected
  std::map<std::string, std::string> files; // file name -> bytes
  std::vector<std::string> log;             // for --verbose
};

PackageResult packageModule(const std::string &name, const Module &module,
                            std::span<const SegmentedFusion> segmentations,
                            const std::vector<FusionCode> &code, const CompileOptions &options);

} // namespace fuserc
