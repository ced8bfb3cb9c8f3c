// The `schedule` dump: for every kernel, the segment it computes, the
// scheduler's parameters, its variants and the rule that picks one at
// launch, the launch geometry and the bytes it moves. Deterministic, for
// golden tests and for people choosing schedulers.
#pragma once

#include "schedulers/KernelPlan.h"

#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace fuserc {

void printSchedule(const std::vector<FusionCode> &code, llvm::raw_ostream &os);

} // namespace fuserc
