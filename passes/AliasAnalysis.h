// Alias analysis (docs/passes.md, "Alias analysis"): decides how each output gets its memory.
//
//   - An output that is only a view of an input — through permute, squeeze,
//     unsqueeze, broadcast_in_dim/expand, slice, or a reshape the input's
//     strides can express — is a View (base input, offset, strides): it
//     needs no kernel.
//   - `output y aliases x` is an InPlace update. It is checked: same shape,
//     dtype and memory order as x, and no view of x that could observe the
//     write. Other reads of x (or of values computed from it) than
//     same-index elementwise ones — a reduction, a broadcast, a gather —
//     are ordered by segmentation before the kernel writing x
//     (readsOtherThanElementwise). A hazard is an error at the `aliases`
//     clause.
//   - Everything else is a NewBuffer.
//
// Runs after layout inference (it reads and, for views, sets output layouts).
#pragma once

#include "ir/Fusion.h"
#include "ir/Printer.h"
#include "support/Diagnostics.h"

namespace fuserc {

// A read of an in-place output's input x, or of a value computed from x
// element by element, other than at the index being written: operand
// `operand` of `op`.
struct InPlaceRead {
  const Op *op;
  size_t operand;
};
// Every such read in `fusion`, in op order: the first op on each path from
// x that is not elementwise at x's shape (rand_like reads only the shape).
std::vector<InPlaceRead> readsOtherThanElementwise(const Fusion &fusion, const Value &x);
// What the read does, in words: "reduces 'h' (computed from 'x') over
// axes [1]"; `operandName` names the operand read (default: its name in
// the source, and "a value computed from 'x'" for an unnamed one).
std::string describeInPlaceRead(const InPlaceRead &read, const Value &x,
                                const std::string &operandName = "");

// Fills kind/view of every output; returns false after reporting hazards.
bool analyzeAliases(Fusion &fusion, DiagnosticEngine &diag);

// Notes for the `alias` dump: every output's kind, and for views the base,
// offset and strides.
PrintNotes aliasDumpNotes();

} // namespace fuserc
