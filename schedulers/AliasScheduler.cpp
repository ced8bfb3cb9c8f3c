// The alias scheduler: segments made only of view ops whose outputs alias
// analysis describes as views of inputs. No kernel runs: the header fills
// in each output's data pointer and strides over its base input.
#include "schedulers/BuiltinSchedulers.h"
#include "schedulers/OpFamilies.h"

namespace fuserc {
namespace {

class AliasScheduler final : public Scheduler {
public:
  std::string_view name() const override { return "alias"; }
  std::string_view description() const override {
    return "no kernel: outputs are views of inputs (base, offset, strides)";
  }
  bool needsKernel() const override { return false; }
  std::unique_ptr<const Schedule> schedule(const SegmentedFusion &,
                                           const ScheduledSegment &) const override {
    return nullptr;
  }
  const KernelGenerator *generator() const override { return nullptr; }

  Verdict canSchedule(const Segment &segment) const override {
    const FusionAnalysis &a = segment.analysis();
    for (const Op *op : segment.ops())
      if (!isViewOp(*op))
        return Verdict::reject(a.describe(*op) + " is not a view op");
    for (const Value *out : segment.outputs()) {
      if (!a.isFusionOutput(*out))
        return Verdict::reject(a.quoted(*out) +
                               " is read by another segment; a view-only segment produces "
                               "nothing but fusion outputs that are views");
      for (const FusionOutput *o : a.outputsOf(*out))
        if (o->kind != OutputKind::View)
          return Verdict::reject("output '" + o->name + "' is a " +
                                 std::string(outputKindName(o->kind)) +
                                 " (alias analysis), not a view of an input");
    }
    return Verdict::accept();
  }
};

} // namespace

std::unique_ptr<Scheduler> makeAliasScheduler() { return std::make_unique<AliasScheduler>(); }

} // namespace fuserc
