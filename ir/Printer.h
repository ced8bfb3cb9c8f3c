// The deterministic IR printer used by every dump.
//
// Output is valid text-form source (types follow as `//` comments), so a
// dump can be read back; anonymous values are numbered `_0, _1, ...` in
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
