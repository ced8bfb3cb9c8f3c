// Fusion-level code generation (see FusionCodegen.h).
#include "codegen/FusionCodegen.h"

#include "codegen/core/CudaPrelude.h"
#include "codegen/core/IndexChecks.h"
#include "schedulers/KernelGenerator.h"

#include <map>
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

FusionCode generateFusionCode(const SegmentedFusion &segmented, VariantBudget variants) {
  FusionCode code;
  code.fusion = segmented.fusion->name();
  // An input written as an output in a layout it is not a view in gets a
  // copy op (passes/InputCopies.h); without one no kernel would write it.
  for (const FusionOutput &out : segmented.fusion->outputs())
    if (out.kind == OutputKind::NewBuffer && out.value->isInput())
      throw CodegenError("fusion '" + code.fusion + "': output '" + out.name + "' is input '" +
                         out.value->name() +
                         "' in a layout it is not a view in, and no op copies it");
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

  std::map<std::string, std::string> helpers; // by name: each defined once
  for (const ScheduledSegment &seg : segmented.segments) {
    if (!seg.scheduler->needsKernel())
      continue;
    const std::string where = "fusion '" + code.fusion + "', segment " + std::to_string(seg.id) +
                              " (" + segmentOps(segmented, seg) + ") is scheduled as '" +
                              std::string(seg.scheduler->name()) + "'";
    const KernelGenerator *generator = seg.scheduler->generator();
    if (!generator || !seg.schedule)
      throw CodegenError(where + ", and that scheduler has no kernel generator");
    EmittedKernel kernel;
    try {
      kernel = generator->generate({segmented, seg, workspace, scratchOffset, variants});
    } catch (const CodegenError &e) {
      throw CodegenError(where + ": " + e.what());
    }
    kernel.plan.family = std::string(seg.schedule->family());
    if (!kernel.plan.scratchBytes.isConstant(0)) {
      const Extent bytes =
          Extent::ceilDiv(kernel.plan.scratchBytes, kWorkspaceAlignment) * kWorkspaceAlignment;
      scratch = scratch ? Extent::max(*scratch, bytes) : bytes;
    }
    helpers.insert(kernel.hostHelpers.begin(), kernel.hostHelpers.end());
    code.cudaSource += kernel.source;
    code.kernelUnits.push_back(kernel.parts.empty() ? std::vector<std::string>{kernel.source}
                                                    : kernel.parts);
    code.kernels.push_back(std::move(kernel.plan));
  }
  code.workspaceBytes = scratch ? scratchOffset + *scratch : scratchOffset;
  for (const auto &[name, definitions] : helpers)
    code.hostHelpers += definitions;
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

std::vector<CompileUnit> moduleCompileUnits(const std::string &name,
                                            const std::vector<FusionCode> &fusions) {
  std::vector<CompileUnit> units;
  for (const FusionCode &f : fusions)
    if (f.unsupported.empty())
      for (size_t k = 0; k < f.kernels.size() && k < f.kernelUnits.size(); ++k) {
        const std::vector<std::string> &parts = f.kernelUnits[k];
        for (size_t p = 0; p < parts.size(); ++p) {
          const std::string unit =
              f.kernels[k].name + (parts.size() > 1 ? "_u" + std::to_string(p) : "");
          units.push_back({unit, cudaPrelude() + "// ---- fusion " + f.fusion + ", kernel " +
                                     f.kernels[k].name + ", unit " + unit + " ----\n\n" +
                                     parts[p]});
        }
      }
  if (units.empty())
    units.push_back({name, cudaPrelude()});
  return units;
}

} // namespace fuserc
