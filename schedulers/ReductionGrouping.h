// Where a reduction's reduced dims sit in memory, which decides the kernel
// family of a reduction segment (BuiltinSchedules.h). In the memory order of the first reduction's
// input (static 1 dims left out) the domain is grouped as
//
//   [outer kept dims A][reduced dims R][inner kept dims K]
//
// With K empty the reduced dims are innermost: a row reduction (one result
// per row of contiguous elements, codegen/rows/). With K non-empty it
// is an outer (A empty) or middle reduction: a column reduction
// (codegen/columns/), for the reduction scheduler only. Kept and
// reduced dims that do not group like this (e.g. kept, reduced, kept,
// reduced) are interleaved: no generator handles them, and the reduction
// splitting pass (passes/ReductionSplitting.h) splits them into groupings
// that are.
#pragma once

#include "schedulers/FusionAnalysis.h"
#include "schedulers/SchedulerChecks.h"

#include <optional>
#include <string>
#include <vector>

namespace fuserc {

struct ReductionGrouping {
  enum class Kind { Inner, Outer, Interleaved };
  Kind kind = Kind::Inner;
  Layout order; // memory order of the first reduction's input, outermost first
  // Domain dims in memory order, outermost first, static 1 dims left out.
  std::vector<size_t> outerKept, reduced, innerKept;
};

// The grouping in the memory order of the first reduction's input.
ReductionGrouping groupReductionDims(const FusionAnalysis &analysis, const ReductionRows &rows);
// The same in the memory order of `reduction`'s input (one of rows.reductions).
ReductionGrouping groupReductionDims(const FusionAnalysis &analysis, const ReductionRows &rows,
                                     const Op &reduction);

// Why some reduction's reduced dims are not innermost in its input's memory
// order (static 1 dims aside), or nothing: what a persistent row kernel
// needs, since it keeps rows of contiguous elements. (The reduction
// scheduler also takes outer reductions, for the column generator.)
std::optional<std::string> checkRowsAreInnermost(const FusionAnalysis &analysis,
                                                 const ReductionRows &rows);

} // namespace fuserc
