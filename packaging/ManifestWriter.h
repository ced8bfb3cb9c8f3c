// The output-layout manifest NAME.manifest.json (docs/manifest.md): what each
// output looks like in memory, which outputs alias inputs, which kernels run
// and why, for tools and people. Versioned ("format": "fuserc-manifest",
// "version": 2) and deterministic: fixed key order, no timestamps, no paths.
//
// In: the module after every pass, the code, segmentation summary and
// resource usage of its fusions, and the toolchain. Out: the JSON text.
#pragma once

#include "ir/Fusion.h"
#include "packaging/ModuleCompiler.h"
#include "packaging/NvrtcCompiler.h"
#include "packaging/SegmentSummary.h"
#include "schedulers/KernelPlan.h"

#include <map>
#include <span>
#include <string>
#include <vector>

namespace fuserc {

// 2: kernels' parameters carry their types (numbers, flags, text, arrays of
// numbers) and each kernel names its schedule's family.
// 3: NAME.fatbin holds a fatbinary per compile unit (`images`); each variant
// names its image; the variant budget (`variants`, and per kernel what it
// left out).
inline constexpr int kManifestVersion = 3;

struct ToolchainInfo {
  std::string fusercVersion;      // "0.1.0"
  std::string cudaToolkitVersion; // the toolkit fuserc was built with, "13.0"
  std::string nvrtcVersion;       // the NVRTC that compiled, "13.0"
  std::vector<std::string> archs; // cubins, in --arch order
  std::string ptxArch;            // the arch whose PTX is embedded
};

// This fuserc's versions, the NVRTC it runs, and `archs` with PTX of the
// newest (the highest sm number).
ToolchainInfo currentToolchain(const std::vector<std::string> &archs);

using ResourcesByArch = std::map<std::string, std::vector<KernelResources>>;

// What the manifest describes; it points at the caller's data.
struct ManifestContents {
  std::string name; // the outputs' base name (NAME)
  const Module *module = nullptr;
  std::span<const FusionCode> code;           // matched to fusions by name
  std::span<const SegmentSummary> segments;   // matched to fusions by name
  const ResourcesByArch *resources = nullptr; // NVRTC's report per arch; null: none
  std::span<const UnitImage> images;          // where each kernel's image lies in NAME.fatbin
  std::string variants = "default";           // the variant budget (--variants)
  ToolchainInfo toolchain;
};

std::string writeManifest(const ManifestContents &contents);

} // namespace fuserc
