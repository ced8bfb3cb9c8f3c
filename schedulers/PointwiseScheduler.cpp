// The pointwise scheduler: one thread per element of the segment's single
// output iteration space. Everything but reductions fits: elementwise math,
// casts, broadcasts, resizes, indexing reads, scatter and creation ops are
// all indexed consumer-first from the output's loops; a scatter of more
// than 8 positions per line runs as a fill and an update pass
// (TwoPassScatter.h).
#include "schedulers/BuiltinSchedulers.h"
#include "schedulers/BuiltinSchedules.h"
#include "schedulers/SchedulerChecks.h"
#include "schedulers/TwoPassScatter.h"

namespace fuserc {
namespace {

class PointwiseScheduler final : public GeneratingScheduler {
public:
  using GeneratingScheduler::GeneratingScheduler;

  std::string_view name() const override { return "pointwise"; }
  std::string_view description() const override {
    return "one thread per output element; any ops but reductions, one iteration space";
  }

  Verdict canSchedule(const Segment &segment) const override {
    if (auto reason = findComposite(segment))
      return Verdict::reject(*reason);
    if (auto reason = findScan(segment))
      return Verdict::reject(*reason);
    if (auto reason = checkKernelTensors(segment))
      return Verdict::reject(*reason);
    if (auto reason = checkTwoPassScatter(segment))
      return Verdict::reject(*reason);
    if (auto reason = findReduction(segment))
      return Verdict::reject(*reason);
    if (auto reason = checkOneIterationSpace(segment, "a pointwise kernel"))
      return Verdict::reject(*reason);
    return Verdict::accept();
  }

  std::unique_ptr<const Schedule> schedule(const SegmentedFusion &fusion,
                                           const ScheduledSegment &segment) const override {
    return std::make_unique<IterationSchedule>("pointwise", fusion, segment);
  }
};

} // namespace

std::unique_ptr<Scheduler> makePointwiseScheduler(const KernelGenerator *generator) {
  return std::make_unique<PointwiseScheduler>(generator);
}

} // namespace fuserc
