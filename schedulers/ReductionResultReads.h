// Where the kernels of reduction segments read reduction results. The row
// and column generators hold each reduction result in a register for the
// row (or column) they compute and read that register wherever the segment
// uses the result, so every use must be at the row's own coordinates: the
// result broadcast back over the dims it reduced (keepdim=true, or
// unsqueeze), not right-aligned onto a reduced dim, and not re-indexed by
// a view. This check states exactly that, for the normalization and
// reduction schedulers.
#pragma once

#include "schedulers/SchedulerChecks.h"

#include <optional>
#include <string>

namespace fuserc {

// Why some op of `segment` reads a reduction result at coordinates other
// than its row's, or nothing when every read is at the row's own.
// Coordinates are followed from the reductions' inputs and the written
// outputs through elementwise ops, broadcasts (expand, broadcast_in_dim:
// read as elementwise operands are), squeeze and unsqueeze; any other op on
// the way to a reduction result is refused, since the generators do not
// re-index register values.
std::optional<std::string> checkReductionResultReads(const Segment &segment,
                                                     const ReductionRows &rows);

} // namespace fuserc
