// Alias analysis (docs/passes.md, "Alias analysis"): decides how each output gets its memory.
//
//   - An output that is only a view of an input — through permute, squeeze,
//     unsqueeze, broadcast_in_dim/expand, slice, or a reshape the input's
//     strides can express — is a View (base input, offset, strides): it
//     needs no kernel.
//   - `output y aliases x` is an InPlace update. It is checked: same shape,
//     dtype and memory order as x, and no read of x that could observe the
//     write (anything but same-index elementwise reads of x). A hazard is an
//     error at the `aliases` clause.
//   - Everything else is a NewBuffer.
//
// Runs after layout inference (it reads and, for views, sets output layouts).
#pragma once

#include "ir/Fusion.h"
#include "ir/Printer.h"
#include "support/Diagnostics.h"

namespace fuserc {

// Fills kind/view of every output; returns false after reporting hazards.
bool analyzeAliases(Fusion &fusion, DiagnosticEngine &diag);

// Notes for the `alias` dump: every output's kind, and for views the base,
// offset and strides.
PrintNotes aliasDumpNotes();

} // namespace fuserc
