// The deterministic IR printer used by every dump.
//
// Output is text-form source (types follow as `//` comments) that reads
// back to the same IR, except where inference derived an extent expression
// the language has no syntax for (e.g. `shape=[M*N]` from a reshape's -1,
// `start=N - 2` from a negative slice bound on a symbolic dim); anonymous values are numbered `_0, _1, ...` in
// definition order, skipping names the fusion already uses. No addresses,
// no paths, no timestamps.
#pragma once

#include "ir/Fusion.h"

#include "llvm/Support/raw_ostream.h"

namespace fuserc {

void printFusion(const Fusion &fusion, llvm::raw_ostream &os);
// Fusions separated by a blank line.
void printModule(const Module &module, llvm::raw_ostream &os);

} // namespace fuserc
