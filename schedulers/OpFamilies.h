// What schedulers need to know about an op's family, read from ops.td's
// shape rules and flags (no op lists by hand), and the wording their
// reasons use for ops and values.
#pragma once

#include "ir/Fusion.h"

#include <string>
#include <vector>

namespace fuserc {

// A reduction over 1 to kSmallReductionElements elements, every reduced
// extent static: each thread of a pointwise kernel computes it for the
// elements it writes, unrolled, as it would an elementwise op (a mean over
// an extent-1 dim is a copy; a sum over 4 heads is 4 reads and 3 adds).
inline constexpr int64_t kSmallReductionElements = 8;
bool isSmallReduction(const Op &op);
// Reductions that need a reduction kernel: every one but the small ones.
inline bool isReduction(const Op &op) {
  return op.info().shapeRule == ShapeRule::Reduction && !isSmallReduction(op);
}
// A scatter whose index has at most kSearchedScatterPositions static
// positions along its dim: each element of any kernel searches them, in
// order, for the last that writes it (consumer-first, as an elementwise op).
// Every other scatter is a two-pass scatter: only a pointwise kernel runs it,
// as a fill of the background and an update pass over the index
// (codegen/pointwise/ScatterSplit.h), linear in both.
inline constexpr int64_t kSearchedScatterPositions = 8;
bool isSearchedScatter(const Op &op);
inline bool isTwoPassScatter(const Op &op) {
  return op.info().shapeRule == ShapeRule::Scatter && !isSearchedScatter(op);
}
// cumsum, cumprod: each result element combines a prefix of its lane, so
// no consumer-first indexing computes it; only the scan scheduler runs them.
inline bool isScan(const Op &op) { return op.info().shapeRule == ShapeRule::Scan; }
inline bool isElementwise(const Op &op) { return op.info().shapeRule == ShapeRule::Elementwise; }
// permute, reshape, squeeze, unsqueeze, broadcasts, slice: ops whose result
// can be described as strides over the operand's memory.
inline bool isViewOp(const Op &op) { return op.info().viewable; }
// A reshape, squeeze or unsqueeze: the same elements in the same order.
inline bool isReshapeLike(const Op &op) {
  const ShapeRule rule = op.info().shapeRule;
  return rule == ShapeRule::Reshape || rule == ShapeRule::Squeeze || rule == ShapeRule::Unsqueeze;
}
// Composites (softmax, layer_norm, ...) are decomposed by canonicalization;
// no scheduler runs them.
inline bool isComposite(const Op &op) { return op.info().composite; }

// "[0, 1]"
std::string axesString(const std::vector<int64_t> &axes);
// A shape with its static extent-1 dims removed: two shapes that differ only
// by such dims describe the same elements.
std::vector<Extent> squeezedShape(const std::vector<Extent> &shape);
// Whether `shape` broadcasts into `domain` (right-aligned, each dim equal or
// a static 1), i.e. reads of it can be indexed from the domain's loops.
bool broadcastsInto(const std::vector<Extent> &shape, const std::vector<Extent> &domain);

} // namespace fuserc
