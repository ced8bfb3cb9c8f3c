// The scheduler plugin contract: how a shared library adds schedulers to
// fuserc (`fuserc --plugin libmine.so`).
//
// A plugin is a shared library built against these headers that defines
// exactly these two functions with C linkage:
//
//   extern "C" FUSERC_PLUGIN_EXPORT int fuserc_plugin_abi_version() {
//     return FUSERC_PLUGIN_ABI_VERSION;
//   }
//   extern "C" FUSERC_PLUGIN_EXPORT void
//   fuserc_register_schedulers(fuserc::SchedulerRegistry &registry) {
//     registry.add(std::make_unique<MyScheduler>());
//   }
//
// fuserc checks the version first and calls nothing else of a plugin built
// for another ABI. The register function adds schedulers (derived from
// fuserc::Scheduler, each naming the KernelGenerator of its kernels) under
// names no other scheduler has; it must not throw,
// keep pointers to the registry, or load other plugins. Schedulers live as
// long as the fuserc process; the library is never unloaded.
//
// The plugin is linked against nothing of fuserc: the symbols it uses
// (Segment, FusionAnalysis, the IR) are resolved against the fuserc
// executable, which exports them. Build it with the same compiler and
// standard library as fuserc; examples/plugin/ is a complete one.
//
// FUSERC_PLUGIN_ABI_VERSION changes whenever Scheduler, Schedule,
// KernelGenerator, KernelPlan, Segment, FusionAnalysis, SchedulerRegistry::add
// or the IR classes they expose change in a way that breaks a compiled
// plugin (2: schedulers make schedules and name their generators; 3: the
// host contract of KernelPlan.h names output strides `ostride_`; 4: a
// generator may split its kernel into compile units, EmittedKernel::parts,
// and KernelRequest carries the variant budget).
// docs/plugins.md is the guide to writing one.
#pragma once

#include "schedulers/SchedulerRegistry.h"

#define FUSERC_PLUGIN_ABI_VERSION 4
#define FUSERC_PLUGIN_EXPORT __attribute__((visibility("default")))

extern "C" {
// Each returns / does what the contract above says; fuserc only declares
// them, each plugin defines them.
int fuserc_plugin_abi_version();
void fuserc_register_schedulers(fuserc::SchedulerRegistry &registry);
}
