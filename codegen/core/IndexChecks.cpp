// Run-time index checks (see IndexChecks.h).
#include "codegen/core/IndexChecks.h"

#include "schedulers/FusionAnalysis.h"

namespace fuserc {

bool isIndexingOp(const Op &op) {
  const ShapeRule rule = op.info().shapeRule;
  return rule == ShapeRule::Gather || rule == ShapeRule::IndexSelect || rule == ShapeRule::Scatter;
}

int indexCheckCode(const Op &op) { return static_cast<int>(op.result()->id()) + 1; }

bool segmentChecksIndices(const Segment &segment) {
  for (const Op *op : segment.ops())
    if (isIndexingOp(*op))
      return true;
  return false;
}

std::vector<IndexCheck> fusionIndexChecks(const SegmentedFusion &segmented) {
  std::vector<IndexCheck> checks;
  for (const ScheduledSegment &seg : segmented.segments) {
    if (!seg.scheduler->needsKernel())
      continue;
    for (const Op *op : seg.segment.ops()) {
      if (!isIndexingOp(*op))
        continue;
      const Value &x = *op->operand(0), &index = *op->operand(1);
      const int64_t dim = op->attrs().integer("dim");
      checks.push_back({indexCheckCode(*op), segmented.analysis->describe(*op) + ": an index in " +
                                                 segmented.analysis->quoted(index) +
                                                 " is outside [0, " + segmented.analysis->name(x) +
                                                 ".shape[" + std::to_string(dim) + "])"});
    }
  }
  std::sort(checks.begin(), checks.end(),
            [](const IndexCheck &a, const IndexCheck &b) { return a.code < b.code; });
  return checks;
}

std::string indexFlagMember() {
  return "  int *index_error; /* the workspace's first word (codegen/IndexChecks.h) */\n";
}

std::string indexFlagHostCode() { return "  a.index_error = (int *)ws;\n"; }

} // namespace fuserc
