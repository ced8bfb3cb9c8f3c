// The normalization scheduler: a persistent kernel that keeps each row (the
// elements one reduction result covers) on chip, reduces it, and uses the
// result again over the same row — softmax, layer norm, RMS norm,
// cross-entropy. Several reductions of the same rows may follow one another
// (softmax's max, then its sum). Every op works over the rows' domain or a
// shape that broadcasts into it, or over the reduced values.
#include "schedulers/BuiltinSchedulers.h"
#include "schedulers/BuiltinSchedules.h"
#include "schedulers/OpFamilies.h"
#include "schedulers/ReductionGrouping.h"
#include "schedulers/ReductionResultReads.h"
#include "schedulers/SchedulerChecks.h"

namespace fuserc {
namespace {

// A persistent kernel recomputes, for each reduction stage, the pointwise
// ops leading to it from the row it keeps on chip, so its code grows with
// the square of the number of chained stages: hundreds of chained softmaxes
// in one kernel would be megabytes of CUDA that NVRTC takes minutes over.
// Longer chains are split into several kernels.
constexpr size_t kMaxReductionStages = 6;

// The column reductions the row generator accumulates beside its rows: a
// partial per block, merged in block order by a second kernel.
bool accumulatesColumns(const Op &op) {
  const OpKind k = op.kind();
  return (k == OpKind::Sum || k == OpKind::Mean || k == OpKind::Max || k == OpKind::Min) &&
         isFloating(op.operand(0)->dtype());
}

class NormalizationScheduler final : public GeneratingScheduler {
public:
  using GeneratingScheduler::GeneratingScheduler;

  std::string_view name() const override { return "normalization"; }
  std::string_view description() const override {
    return "persistent: each row is reduced and the result used again over the same row";
  }

  Verdict canSchedule(const Segment &segment) const override {
    if (auto reason = findOpsOfOtherKernels(segment))
      return Verdict::reject(*reason);
    auto found = findNormalizationRows(segment);
    if (auto *reason = std::get_if<std::string>(&found))
      return Verdict::reject(*reason);
    const ReductionRows &rows = std::get<ReductionRows>(found);
    for (const Op *op : rows.columns)
      if (!accumulatesColumns(*op))
        return Verdict::reject(segment.analysis().describe(*op) +
                               " reduces the columns; a persistent kernel accumulates column "
                               "sums, means, maxima and minima of floating values only");
    const FusionAnalysis &a = segment.analysis();
    if (size_t stages = reductionStages(segment); stages > kMaxReductionStages)
      return Verdict::reject("its reductions are chained " + std::to_string(stages) +
                             " deep; one persistent kernel takes at most " +
                             std::to_string(kMaxReductionStages));

    std::vector<bool> depends = dependsOnReduction(segment);
    bool broadcastBack = false;
    for (size_t i = 0; i < segment.ops().size(); ++i) {
      const Op &op = *segment.ops()[i];
      const std::vector<Extent> &shape = op.result()->shape();
      if (rows.isOverColumns(*op.result()))
        continue; // over the columns: findNormalizationRows checked
      if (rows.isReducedShape(shape))
        continue;
      if (!rows.isDomainShape(shape) && !broadcastsInto(shape, rows.domain))
        return Verdict::reject(a.describe(op) + " " + typeString(*op.result()) +
                               " is neither over the rows " + shapeString(rows.domain) +
                               " nor reduced");
      broadcastBack = broadcastBack || (depends[i] && !isReduction(op));
    }
    // Column reductions beside the rows' make the kernel worth it without
    // a broadcast: the rows are read once for both.
    if (!broadcastBack && rows.columns.empty())
      return Verdict::reject("no reduction result is broadcast back over the " +
                             shapeString(rows.domain) + " it reduces; that is a plain reduction");
    for (const Value *out : segment.writtenOutputs())
      if (!rows.isOverColumns(*out) && !rows.isReducedShape(out->shape()) &&
          !rows.isDomainShape(out->shape()))
        return Verdict::reject(a.quoted(*out) + " " + typeString(*out) +
                               " is written out but is neither over the rows " +
                               shapeString(rows.domain) + " nor reduced");
    if (auto reason = checkRowsAreInnermost(a, rows))
      return Verdict::reject(*reason);
    if (auto reason = checkReductionResultReads(segment, rows))
      return Verdict::reject(*reason);
    return Verdict::accept();
  }

  std::unique_ptr<const Schedule> schedule(const SegmentedFusion &fusion,
                                           const ScheduledSegment &segment) const override {
    return std::make_unique<ReductionSchedule>(fusion, segment, /*normalization=*/true);
  }
};

} // namespace

std::unique_ptr<Scheduler> makeNormalizationScheduler(const KernelGenerator *generator) {
  return std::make_unique<NormalizationScheduler>(generator);
}

} // namespace fuserc
