// Layout inference (docs/passes.md, "Layout inference"): gives every tensor a memory order.
//
// Inputs keep their declared order. Every op result takes the order of its
// dominant operand — the one whose source input has the most
// non-broadcast dims — mapped through the op (elementwise ops, casts,
// reductions, permute, broadcasts, squeeze/unsqueeze, reshape where the
// mapping is well defined). When no operand's order maps, or the op has no
// tensor operands (full, iota), the result is row-major and the reason is
// recorded. Outputs take their value's order unless the user pinned one.
#pragma once

#include "ir/Fusion.h"
#include "ir/Printer.h"

namespace fuserc {

void inferLayouts(Fusion &fusion);

// Notes for the `layout` dump: per tensor, the order and where it came from.
PrintNotes layoutDumpNotes();

} // namespace fuserc
