// Fusion-level code generation (see FusionCodegen.h).
#include "codegen/FusionCodegen.h"

#include "codegen/ReductionLayout.h"
#include "codegen/columns/ColumnReductionKernel.h"
#include "codegen/core/CodegenError.h"
#include "codegen/core/CudaPrelude.h"
#include "codegen/core/IndexChecks.h"
#include "codegen/pointwise/PointwiseKernel.h"
#include "codegen/rows/RowReductionKernel.h"
#include "codegen/transpose/TransposeKernel.h"

#include <optional>

namespace fuserc {
namespace {

constexpr int64_t kWorkspaceAlignment = 256;

std::string segmentOps(const SegmentedFusion &sf, const ScheduledSegment &seg) {
  std::string s;
  for (const Op *op : seg.segment.ops()) {
    if (!s.empty())
      s += ", ";
    if (s.size() > 60) {
      s += "...";
      break;
    }
    s += sf.analysis->describe(*op);
  }
  return s;
}

} // namespace

FusionCode generateFusionCode(const SegmentedFusion &segmented) {
  FusionCode code;
  code.fusion = segmented.fusion->name();
  // Workspace: every tensor passed between segments through it, in value
  // order, each slot aligned.
  WorkspaceOffsets workspace;
  // The index flag comes first, when a kernel checks indices.
  code.indexChecks = fusionIndexChecks(segmented);
  Extent offset = code.indexChecks.empty() ? 0 : kIndexFlagBytes;
  for (const CrossingTensor &c : segmented.crossing) {
    if (c.kind != CrossingTensor::Kind::Workspace)
      continue;
    workspace[c.value] = offset;
    offset = offset + Extent::ceilDiv(c.bytes, kWorkspaceAlignment) * kWorkspaceAlignment;
  }
  // Then the scratch area the kernels share (KernelPlan.h), sized below.
  const Extent scratchOffset = offset;
  std::optional<Extent> scratch;

  bool pointwise = false, columns = false;
  for (const ScheduledSegment &seg : segmented.segments) {
    const std::string scheduler(seg.scheduler->name());
    if (!seg.scheduler->needsKernel())
      continue;
    const std::string where = "fusion '" + code.fusion + "', segment " + std::to_string(seg.id) +
                              " (" + segmentOps(segmented, seg) + ") is scheduled as '" +
                              scheduler + "'";
    EmittedKernel kernel;
    if (scheduler == "pointwise") {
      kernel = emitPointwiseKernel(segmented, seg, workspace);
      pointwise = true;
    } else if (scheduler == "transpose") {
      try {
        kernel = emitTransposeKernel(segmented, seg, workspace);
      } catch (const CodegenError &e) {
        throw CodegenError(where + ": " + e.what());
      }
      pointwise = true; // its host block uses the pointwise helpers
    } else if (scheduler == "normalization" || scheduler == "reduction") {
      try {
        if (chooseReductionGenerator(segmented, seg) == ReductionGenerator::Column) {
          kernel = emitColumnReductionKernel(segmented, seg, workspace, scratchOffset);
          columns = true;
        } else {
          kernel = emitRowReductionKernel(segmented, seg, workspace);
        }
      } catch (const CodegenError &e) {
        throw CodegenError(where + ": " + e.what());
      }
    } else {
      throw CodegenError(
          where + ", and fuserc does not generate '" + scheduler +
          "' kernels yet (only pointwise, transpose, normalization and reduction ones)");
    }
    if (!kernel.plan.scratchBytes.isConstant(0)) {
      const Extent bytes =
          Extent::ceilDiv(kernel.plan.scratchBytes, kWorkspaceAlignment) * kWorkspaceAlignment;
      scratch = scratch ? Extent::max(*scratch, bytes) : bytes;
    }
    code.cudaSource += kernel.source;
    code.kernels.push_back(std::move(kernel.plan));
  }
  code.workspaceBytes = scratch ? scratchOffset + *scratch : scratchOffset;
  if (pointwise)
    code.hostHelpers = pointwiseHostHelpers();
  if (columns)
    code.hostHelpers += columnReductionHostHelpers();
  return code;
}

std::string moduleCudaSource(const std::vector<FusionCode> &fusions) {
  std::string source = cudaPrelude();
  for (const FusionCode &f : fusions)
    if (f.unsupported.empty())
      source += "// ---- fusion " + f.fusion + " ----\n\n" + f.cudaSource;
    else
      source += "// ---- fusion " + f.fusion + ": no code (" + f.unsupported + ") ----\n\n";
  return source;
}

} // namespace fuserc
