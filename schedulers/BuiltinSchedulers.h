// Factories of the built-in schedulers, one per file (AliasScheduler.cpp,
// ...), each given the generator of its kernels (null: its segments cannot
// be compiled). Only the registry calls them; everything else finds
// schedulers by name in a SchedulerRegistry.
#pragma once

#include "schedulers/Scheduler.h"

#include <memory>

namespace fuserc {

// The base of the built-in schedulers that make kernels: the generator they
// were given.
class GeneratingScheduler : public Scheduler {
public:
  explicit GeneratingScheduler(const KernelGenerator *generator) : generator_(generator) {}
  const KernelGenerator *generator() const final { return generator_; }

private:
  const KernelGenerator *generator_;
};

std::unique_ptr<Scheduler> makeAliasScheduler();
std::unique_ptr<Scheduler> makeNormalizationScheduler(const KernelGenerator *generator);
std::unique_ptr<Scheduler> makeReductionScheduler(const KernelGenerator *generator);
std::unique_ptr<Scheduler> makeScanScheduler(const KernelGenerator *generator);
std::unique_ptr<Scheduler> makeTransposeScheduler(const KernelGenerator *generator);
std::unique_ptr<Scheduler> makePointwiseScheduler(const KernelGenerator *generator);

} // namespace fuserc
