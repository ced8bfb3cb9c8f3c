// The kernel generators of the built-in schedulers, one per family folder:
// pointwise/, transpose/, scans/, and one for reduction segments that emits
// rows/ or columns/ kernels as the segment's ReductionSchedule says. The driver
// registers each with its scheduler (registerBuiltinSchedulers).
#pragma once

#include "schedulers/SchedulerRegistry.h"

namespace fuserc {

// Stateless and immutable, for the life of the process.
const BuiltinGenerators &builtinGenerators();

} // namespace fuserc
