// The transpose scheduler: a pointwise-like segment whose inputs and
// outputs disagree on the dimension innermost in memory (through the
// layouts layout inference chose). Its kernel stages tiles through shared
// memory so that both the reads and the writes are coalesced.
#include "schedulers/BuiltinSchedulers.h"
#include "schedulers/BuiltinSchedules.h"
#include "schedulers/SchedulerChecks.h"

namespace fuserc {
namespace {

class TransposeScheduler final : public GeneratingScheduler {
public:
  using GeneratingScheduler::GeneratingScheduler;

  std::string_view name() const override { return "transpose"; }
  std::string_view description() const override {
    return "tiled through shared memory; inputs and outputs disagree on the innermost dimension";
  }

  Verdict canSchedule(const Segment &segment) const override {
    if (auto reason = findOpsOfOtherKernels(segment))
      return Verdict::reject(*reason);
    if (auto reason = findReduction(segment))
      return Verdict::reject(*reason);
    if (auto reason = checkOneSpaceUpToPermutes(segment, "a transpose kernel"))
      return Verdict::reject(*reason);

    const FusionAnalysis &a = segment.analysis();
    if (auto reason = checkTwoInnermostDims(segment))
      return Verdict::reject(*reason);
    std::vector<std::pair<const Value *, InnermostDim>> tensors;
    for (auto values : {segment.inputs(), segment.writtenOutputs()})
      for (const Value *v : values)
        if (std::optional<InnermostDim> inner = a.innermostDim(*v))
          tensors.push_back({v, *inner});
    // Two tensors that both vary along both innermost loops: one is the
    // other's transpose. One broadcast along the other's innermost loop (a
    // per-row statistic) is read a few elements at a time instead.
    for (size_t i = 0; i < tensors.size(); ++i)
      for (size_t j = 0; j < i; ++j) {
        const auto &[u, uInner] = tensors[i];
        const auto &[v, vInner] = tensors[j];
        if (uInner.loopClass != vInner.loopClass && a.variesAlong(*u, vInner.loopClass) &&
            a.variesAlong(*v, uInner.loopClass))
          return Verdict::accept();
      }
    const Value *reference = tensors.empty() ? nullptr : tensors.front().first;
    const std::optional<InnermostDim> referenceDim =
        tensors.empty() ? std::nullopt : std::optional<InnermostDim>(tensors.front().second);
    if (!reference)
      return Verdict::reject("no input or output has two dimensions of extent other than 1, so "
                             "there is nothing to transpose");
    return Verdict::reject("every input and output has the same innermost dimension in memory "
                           "(dim " +
                           std::to_string(referenceDim->dim) + " of " + a.quoted(*reference) +
                           ") or is broadcast along the others'; there is nothing to transpose");
  }

private:
  // Outputs permuting one value are stored through the tiles of two dims
  // (or along the innermost one): a third innermost dim would be stored
  // element by element across rows.
  static std::optional<std::string> checkTwoInnermostDims(const Segment &segment) {
    const FusionAnalysis &a = segment.analysis();
    std::span<const Value *const> outputs = segment.writtenOutputs();
    std::vector<size_t> dims;
    std::string names;
    for (const Value *out : outputs) {
      const std::optional<InnermostDim> inner = a.innermostDim(*out);
      if (!inner)
        continue;
      size_t dim = inner->dim;
      if (out->shape() != outputs.front()->shape()) {
        std::optional<std::vector<size_t>> onto = permutedDims(segment, *out, *outputs.front());
        if (!onto)
          continue;
        dim = (*onto)[inner->dim];
      }
      if (std::find(dims.begin(), dims.end(), dim) == dims.end()) {
        dims.push_back(dim);
        names += std::string(names.empty() ? "" : ", ") + a.quoted(*out);
      }
    }
    if (dims.size() <= 2)
      return std::nullopt;
    return "outputs " + names + " are innermost in memory along " + std::to_string(dims.size()) +
           " different dims; a transpose kernel tiles two";
  }

public:
  std::unique_ptr<const Schedule> schedule(const SegmentedFusion &fusion,
                                           const ScheduledSegment &segment) const override {
    return std::make_unique<IterationSchedule>("transpose", fusion, segment);
  }
};

} // namespace

std::unique_ptr<Scheduler> makeTransposeScheduler(const KernelGenerator *generator) {
  return std::make_unique<TransposeScheduler>(generator);
}

} // namespace fuserc
