// Grouping a reduction's dims by memory order (see ReductionGrouping.h).
#include "schedulers/ReductionGrouping.h"

#include "ir/Printer.h"
#include "schedulers/OpFamilies.h"

#include <algorithm>

namespace fuserc {

ReductionGrouping groupReductionDims(const FusionAnalysis &analysis, const ReductionRows &rows) {
  return groupReductionDims(analysis, rows, *rows.reductions.front());
}

ReductionGrouping groupReductionDims(const FusionAnalysis &analysis, const ReductionRows &rows,
                                     const Op &reduction) {
  ReductionGrouping g;
  g.order = analysis.storedLayout(*reduction.operand(0));
  auto reduced = [&](int64_t d) {
    return std::find(rows.axes.begin(), rows.axes.end(), d) != rows.axes.end();
  };
  // Walk memory order: kept dims before the first reduced dim are outer,
  // kept dims after it are inner; a reduced dim after an inner kept one
  // interleaves.
  for (int64_t d : g.order) {
    const size_t dim = static_cast<size_t>(d);
    if (rows.domain[dim].isConstant(1))
      continue;
    if (reduced(d)) {
      if (!g.innerKept.empty())
        g.kind = ReductionGrouping::Kind::Interleaved;
      g.reduced.push_back(dim);
    } else {
      (g.reduced.empty() ? g.outerKept : g.innerKept).push_back(dim);
    }
  }
  if (g.kind != ReductionGrouping::Kind::Interleaved && !g.innerKept.empty())
    g.kind = ReductionGrouping::Kind::Outer;
  return g;
}

std::optional<std::string> checkRowsAreInnermost(const FusionAnalysis &analysis,
                                                 const ReductionRows &rows) {
  for (const Op *op : rows.reductions) {
    const ReductionGrouping g = groupReductionDims(analysis, rows, *op);
    if (g.kind == ReductionGrouping::Kind::Inner)
      continue;
    const Value &in = *op->operand(0);
    return analysis.quoted(*op->result()) + " reduces axes " + axesString(rows.axes) + " of " +
           typeString(in) + ", which " +
           (g.kind == ReductionGrouping::Kind::Interleaved
                ? "interleave with kept dims in memory (layout " + layoutString(g.order) +
                      "); no kernel family reduces interleaved dims"
                : "are not innermost in memory (layout " + layoutString(g.order) +
                      "); a persistent kernel keeps rows of contiguous elements");
  }
  return std::nullopt;
}

} // namespace fuserc
