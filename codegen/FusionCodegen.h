// Code generation for a segmented fusion: lays out the workspace, hands
// each segment that needs a kernel to its scheduler's generator with the
// schedule that scheduler made (the pipeline's schedule stage), and
// collects the CUDA source and launch plans packaging needs. A segment
// whose scheduler has no generator is a CodegenError naming it.
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
