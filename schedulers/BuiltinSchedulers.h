// Factories of the built-in schedulers, one per file (AliasScheduler.cpp,
// ...). Only the registry calls them; everything else finds schedulers by
// name in a SchedulerRegistry.
#pragma once

#include "schedulers/Scheduler.h"

#include <memory>

namespace fuserc {

std::unique_ptr<Scheduler> makeAliasScheduler();
std::unique_ptr<Scheduler> makeNormalizationScheduler();
std::unique_ptr<Scheduler> makeReductionScheduler();
std::unique_ptr<Scheduler> makeTransposeScheduler();
std::unique_ptr<Scheduler> makePointwiseScheduler();

} // namespace fuserc
