// An example scheduler plugin (the contract is schedulers/Plugin.h; the
// guide is docs/plugins.md): the `f32_elementwise` scheduler takes segments
// made only of elementwise ops over f32 tensors with one iteration space —
// the kind of segment a hand-tuned f32 kernel library would serve — and its
// generator (F32ElementwiseGenerator.cpp) compiles them. Load it with
//
//   fuserc --plugin libfuserc_example_plugin.so --schedulers f32_elementwise,pointwise ...
//
// and the segments dump shows which segments it claimed; with -o its
// kernels are in the fatbin like any other.
#include "F32Elementwise.h"

#include "schedulers/BuiltinSchedules.h"
#include "schedulers/OpFamilies.h"
#include "schedulers/Plugin.h"
#include "schedulers/SchedulerChecks.h"

#include <memory>

namespace {

class F32ElementwiseScheduler final : public fuserc::Scheduler {
public:
  std::string_view name() const override { return "f32_elementwise"; }
  std::string_view description() const override {
    return "example plugin: elementwise ops over f32 tensors only";
  }

  fuserc::Verdict canSchedule(const fuserc::Segment &segment) const override {
    if (auto reason = fuserc::checkKernelTensors(segment))
      return fuserc::Verdict::reject(*reason);
    if (auto reason = fuserc::checkOneIterationSpace(segment, "an f32_elementwise kernel"))
      return fuserc::Verdict::reject(*reason);
    const fuserc::FusionAnalysis &a = segment.analysis();
    for (const fuserc::Op *op : segment.ops()) {
      if (!fuserc::isElementwise(*op))
        return fuserc::Verdict::reject(a.describe(*op) + " is not elementwise");
      for (const fuserc::Value *v : op->operands())
        if (!v->isLiteral() && v->dtype() != fuserc::DType::F32)
          return fuserc::Verdict::reject(a.quoted(*v) + " is " +
                                         std::string(fuserc::dtypeName(v->dtype())) + ", not f32");
      if (op->result()->dtype() != fuserc::DType::F32)
        return fuserc::Verdict::reject(a.quoted(*op->result()) + " is " +
                                       std::string(fuserc::dtypeName(op->result()->dtype())) +
                                       ", not f32");
    }
    return fuserc::Verdict::accept();
  }

  // The written output the threads walk, as the built-in pointwise
  // scheduler decides it; the family names this plugin's kernels.
  std::unique_ptr<const fuserc::Schedule>
  schedule(const fuserc::SegmentedFusion &fusion,
           const fuserc::ScheduledSegment &segment) const override {
    return std::make_unique<fuserc::IterationSchedule>("f32_elementwise", fusion, segment);
  }
  const fuserc::KernelGenerator *generator() const override {
    return &example::f32ElementwiseGenerator();
  }
};

} // namespace

extern "C" FUSERC_PLUGIN_EXPORT int fuserc_plugin_abi_version() {
  return FUSERC_PLUGIN_ABI_VERSION;
}

extern "C" FUSERC_PLUGIN_EXPORT void
fuserc_register_schedulers(fuserc::SchedulerRegistry &registry) {
  registry.add(std::make_unique<F32ElementwiseScheduler>());
}
