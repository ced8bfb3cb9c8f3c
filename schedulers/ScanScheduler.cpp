// The scan scheduler: cumsum and cumprod along one dim, with the ops
// leading to them (a prologue, computed element by element) and the ops
// using their results element by element (an epilogue), in one kernel that
// carries each lane's prefix from one chunk of the lane to the next.
#include "schedulers/BuiltinSchedulers.h"
#include "schedulers/BuiltinSchedules.h"
#include "schedulers/OpFamilies.h"
#include "schedulers/SchedulerChecks.h"
#include "schedulers/TwoPassScatter.h"

#include <unordered_set>

namespace fuserc {
namespace {

class ScanScheduler final : public GeneratingScheduler {
public:
  using GeneratingScheduler::GeneratingScheduler;

  std::string_view name() const override { return "scan"; }
  std::string_view description() const override {
    return "prefix sums and products along one dim, each lane's prefix carried chunk by chunk";
  }

  Verdict canSchedule(const Segment &segment) const override {
    auto found = findScanLanes(segment);
    if (auto *reason = std::get_if<std::string>(&found))
      return Verdict::reject(*reason);
    if (auto reason = findComposite(segment))
      return Verdict::reject(*reason);
    if (auto reason = checkKernelTensors(segment))
      return Verdict::reject(*reason);
    if (auto reason = refuseTwoPassScatter(segment))
      return Verdict::reject(*reason);
    if (auto reason = findReduction(segment))
      return Verdict::reject(*reason);
    if (auto reason = findSmallReduction(segment))
      return Verdict::reject(*reason);
    const ScanLanes &lanes = std::get<ScanLanes>(found);
    const FusionAnalysis &a = segment.analysis();
    for (const Op *op : segment.ops()) {
      const std::vector<Extent> &shape = op->result()->shape();
      if (shape != lanes.domain && !broadcastsInto(shape, lanes.domain))
        return Verdict::reject(a.describe(*op) + " " + typeString(*op->result()) +
                               " is not over the scanned " + shapeString(lanes.domain));
    }
    for (const Value *out : segment.writtenOutputs())
      if (out->shape() != lanes.domain)
        return Verdict::reject(a.quoted(*out) + " " + typeString(*out) +
                               " is written out but is not shaped like the scanned " +
                               shapeString(lanes.domain));
    // A thread holds a scan's result, and what the kernel computes from it,
    // only at the elements it computes, so ops of the kernel may read such
    // values there and nowhere else (seed 74854: an index_select of a
    // product of a cumsum read other rows' prefixes).
    std::unordered_set<const Value *> scanned;
    for (const Op *op : segment.ops()) {
      bool fromScan = isScan(*op);
      for (const Value *operand : op->operands()) {
        if (!scanned.count(operand))
          continue;
        if ((!isElementwise(*op) && !isScan(*op)) || op->result()->shape() != lanes.domain)
          return Verdict::reject(a.describe(*op) + " reads " + a.quoted(*operand) +
                                 ", computed from a scan, other than element by element; a scan "
                                 "kernel holds such elements only where it computes them");
        fromScan = true;
      }
      if (fromScan)
        scanned.insert(op->result());
    }
    return Verdict::accept();
  }

  std::unique_ptr<const Schedule> schedule(const SegmentedFusion &fusion,
                                           const ScheduledSegment &segment) const override {
    return std::make_unique<ScanSchedule>(fusion, segment);
  }
};

} // namespace

std::unique_ptr<Scheduler> makeScanScheduler(const KernelGenerator *generator) {
  return std::make_unique<ScanScheduler>(generator);
}

} // namespace fuserc
