// Code generation for a segmented fusion: lays out the workspace, asks the
// code generator of each segment's scheduler for its kernel, and collects
// the CUDA source and launch plans packaging needs. A segment whose
// scheduler has no code generator yet is a CodegenError naming it.
#pragma once

#include "schedulers/KernelPlan.h"
#include "schedulers/SegmentedFusion.h"

#include <vector>

namespace fuserc {

FusionCode generateFusionCode(const SegmentedFusion &segmented);

// One CUDA translation unit for every fusion of a module: the prelude, then
// each fusion's kernels.
std::string moduleCudaSource(const std::vector<FusionCode> &fusions);

} // namespace fuserc
