// Code generation for a segmented fusion: lays out the workspace, hands
// each segment that needs a kernel to its scheduler's generator with the
// schedule that scheduler made (the pipeline's schedule stage), and
// collects the CUDA source and launch plans packaging needs. A segment
// whose scheduler has no generator is a CodegenError naming it.
#pragma once

#include "schedulers/KernelGenerator.h"
#include "schedulers/KernelPlan.h"
#include "schedulers/SegmentedFusion.h"

#include <vector>

namespace fuserc {

FusionCode generateFusionCode(const SegmentedFusion &segmented,
                              VariantBudget variants = VariantBudget::Default);

// One CUDA translation unit for every fusion of a module: the prelude, then
// each fusion's kernels.
std::string moduleCudaSource(const std::vector<FusionCode> &fusions);

// The module's compile units: per kernel, one per group of its variants
// (the prelude, then the group; named after the kernel, with _uN when it has
// several), in fusion and kernel order; a module without kernels is one
// unit named `name` holding the prelude.
std::vector<CompileUnit> moduleCompileUnits(const std::string &name,
                                            const std::vector<FusionCode> &fusions);

} // namespace fuserc
