// The reduction scheduler: reductions of one set of axes of one shape, with
// the pointwise-like ops that feed them (prologue) and ops on the reduced
// values (epilogue). Every output is reduced: a value over the unreduced
// domain that reads a reduction result is a normalization, and one that
// does not is a separate pointwise kernel.
#include "schedulers/BuiltinSchedulers.h"
#include "schedulers/BuiltinSchedules.h"
#include "schedulers/OpFamilies.h"
#include "schedulers/ReductionResultReads.h"
#include "schedulers/SchedulerChecks.h"

namespace fuserc {
namespace {

class ReductionScheduler final : public GeneratingScheduler {
public:
  using GeneratingScheduler::GeneratingScheduler;

  std::string_view name() const override { return "reduction"; }
  std::string_view description() const override {
    return "reductions over one set of axes with their prologue and epilogue; reduced outputs";
  }

  Verdict canSchedule(const Segment &segment) const override {
    if (auto reason = findOpsOfOtherKernels(segment))
      return Verdict::reject(*reason);
    auto found = findReductionRows(segment, "a reduction kernel reduces one set of axes of one "
                                            "shape");
    if (auto *reason = std::get_if<std::string>(&found))
      return Verdict::reject(*reason);
    const ReductionRows &rows = std::get<ReductionRows>(found);
    const FusionAnalysis &a = segment.analysis();

    std::vector<bool> depends = dependsOnReduction(segment);
    for (size_t i = 0; i < segment.ops().size(); ++i) {
      const Op &op = *segment.ops()[i];
      if (depends[i] && !isReduction(op) && !rows.isReducedShape(op.result()->shape()))
        return Verdict::reject(a.describe(op) + " uses a reduction result over the unreduced " +
                               shapeString(rows.domain) +
                               " (broadcast back over its rows); that is a normalization");
    }
    const Value &first = *rows.reductions.front()->result();
    for (const Value *out : segment.writtenOutputs())
      if (!rows.isReducedShape(out->shape()))
        return Verdict::reject(a.quoted(first) + " reduces axes " + axesString(rows.axes) +
                               " but " + a.quoted(*out) +
                               " is not reduced; a reduction kernel writes only reduced outputs");
    if (auto reason = checkReductionResultReads(segment, rows))
      return Verdict::reject(*reason);
    return Verdict::accept();
  }

  std::unique_ptr<const Schedule> schedule(const SegmentedFusion &fusion,
                                           const ScheduledSegment &segment) const override {
    return std::make_unique<ReductionSchedule>(fusion, segment, /*normalization=*/false);
  }
};

} // namespace

std::unique_ptr<Scheduler> makeReductionScheduler(const KernelGenerator *generator) {
  return std::make_unique<ReductionScheduler>(generator);
}

} // namespace fuserc
