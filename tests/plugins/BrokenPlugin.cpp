// Plugins that break the contract of schedulers/Plugin.h in one way each,
// for the lit tests of fuserc's plugin errors. Built five times:
//   FUSERC_BROKEN_NO_REGISTER  defines the version but no register function;
//   FUSERC_BROKEN_ABI          reports a plugin ABI version fuserc does not have;
//   FUSERC_BROKEN_DUPLICATE    registers a scheduler named "pointwise";
//   FUSERC_BROKEN_NO_GENERATOR registers "claims_all", which accepts every
//                              segment but has no kernel generator;
//   FUSERC_BROKEN_UNRESOLVED   calls a function that nothing defines, so
//                              the library cannot be bound.
#include "schedulers/Plugin.h"

#include <memory>

namespace {

class ClashingScheduler final : public fuserc::Scheduler {
public:
#ifdef FUSERC_BROKEN_NO_GENERATOR
  std::string_view name() const override { return "claims_all"; }
  std::string_view description() const override { return "claims segments it cannot compile"; }
  fuserc::Verdict canSchedule(const fuserc::Segment &) const override {
    return fuserc::Verdict::accept();
  }
#else
  std::string_view name() const override { return "pointwise"; }
  std::string_view description() const override { return "a name that is already taken"; }
  fuserc::Verdict canSchedule(const fuserc::Segment &) const override {
    return fuserc::Verdict::reject("never");
  }
#endif
  std::unique_ptr<const fuserc::Schedule>
  schedule(const fuserc::SegmentedFusion &, const fuserc::ScheduledSegment &) const override {
    return nullptr;
  }
  const fuserc::KernelGenerator *generator() const override { return nullptr; }
};

} // namespace

extern "C" FUSERC_PLUGIN_EXPORT int fuserc_plugin_abi_version() {
#ifdef FUSERC_BROKEN_ABI
  return FUSERC_PLUGIN_ABI_VERSION + 41;
#else
  return FUSERC_PLUGIN_ABI_VERSION;
#endif
}

#ifdef FUSERC_BROKEN_UNRESOLVED
extern "C" void fuserc_test_function_nothing_defines();
#endif

#ifndef FUSERC_BROKEN_NO_REGISTER
extern "C" FUSERC_PLUGIN_EXPORT void
fuserc_register_schedulers(fuserc::SchedulerRegistry &registry) {
#ifdef FUSERC_BROKEN_UNRESOLVED
  fuserc_test_function_nothing_defines();
#endif
  registry.add(std::make_unique<ClashingScheduler>());
}
#endif
