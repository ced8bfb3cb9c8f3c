// What every kernel emitter works from: the generation request (the
// segmented fusion, the segment, the workspace layout, the scratch offset),
// the fusion's analysis and the kernel's base name. One struct, so the
// emitters of the kernel families do not each re-declare these fields.
#pragma once

#include "schedulers/KernelGenerator.h"

#include <string>

namespace fuserc {

struct KernelContext {
  explicit KernelContext(const KernelRequest &request)
      : fusion(request.fusion), segment(request.segment), analysis(*request.fusion.analysis),
        workspace(request.workspace), scratchOffset(request.scratchOffset),
        variants(request.variants),
        base(request.fusion.fusion->name() + "_k" + std::to_string(request.segment.id)) {}

  const SegmentedFusion &fusion;
  const ScheduledSegment &segment;
  const FusionAnalysis &analysis;
  const WorkspaceOffsets &workspace;
  Extent scratchOffset;
  VariantBudget variants; // --variants
  std::string base;       // "<fusion>_k<segment>": the kernel's name, its variants' prefix
};

} // namespace fuserc
