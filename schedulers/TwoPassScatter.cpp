// Two-pass scatters in segments (see TwoPassScatter.h).
#include "schedulers/TwoPassScatter.h"

#include "schedulers/OpFamilies.h"

#include <algorithm>

namespace fuserc {
namespace {

std::string positionsPerLine(const Op &scatter) {
  const size_t dim = static_cast<size_t>(scatter.attrs().integer("dim"));
  return scatter.operand(1)->shape()[dim].str();
}

// The inputs of the segment `value` is computed from (itself when it is
// one), through the segment's ops.
void collectSegmentInputs(const Segment &segment, const Value &value, std::set<const Value *> &seen,
                          std::set<const Value *> &inputs) {
  if (value.isLiteral() || !seen.insert(&value).second)
    return;
  const Op *op = value.definingOp();
  if (!op || !segment.contains(*op)) {
    inputs.insert(&value);
    return;
  }
  for (const Value *operand : op->operands())
    collectSegmentInputs(segment, *operand, seen, inputs);
}

// The fusion input whose memory `value` (a segment input) reads: itself,
// or the base of the index map or recomputed cast it is.
const Value *memoryOf(const FusionAnalysis &a, const Value *value) {
  while (true) {
    if (const IndexMap *map = a.indexMap(*value))
      return map->base;
    if (a.isRecomputedCast(*value) && value->definingOp()) {
      value = value->definingOp()->operand(0);
      continue;
    }
    return value;
  }
}

} // namespace

std::optional<TwoPassScatter> findTwoPassScatter(const Segment &segment) {
  auto it = std::find_if(segment.ops().begin(), segment.ops().end(),
                         [](const Op *op) { return isTwoPassScatter(*op); });
  if (it == segment.ops().end())
    return std::nullopt;
  TwoPassScatter found;
  found.scatter = *it;
  std::set<const Value *> reached{(*it)->result()};
  for (const Op *op : segment.ops()) {
    const bool reads = std::any_of(op->operands().begin(), op->operands().end(),
                                   [&](const Value *v) { return reached.count(v) > 0; });
    if (!reads)
      continue;
    found.chain.push_back(op);
    reached.insert(op->result());
  }
  found.updateReads = {found.scatter->operand(1), found.scatter->operand(2)};
  for (const Op *op : found.chain)
    for (const Value *operand : op->operands())
      if (!reached.count(operand) && !operand->isLiteral() &&
          std::find(found.updateReads.begin(), found.updateReads.end(), operand) ==
              found.updateReads.end())
        found.updateReads.push_back(operand);
  return found;
}

std::optional<std::string> checkTwoPassScatter(const Segment &segment) {
  std::optional<TwoPassScatter> found = findTwoPassScatter(segment);
  if (!found)
    return std::nullopt;
  const FusionAnalysis &a = segment.analysis();
  const Op &scatter = *found->scatter;
  const std::string what = a.describe(scatter) + " writes through " + positionsPerLine(scatter) +
                           " index positions per line";
  for (const Op *op : found->chain) {
    if (isTwoPassScatter(*op))
      return what + ", and " + a.describe(*op) +
             " reads it; a pointwise kernel runs one such scatter, as a fill and an update pass";
    if (!isElementwise(*op) || op->result()->shape() != scatter.result()->shape())
      return what + ", and " + a.describe(*op) +
             " reads it other than element by element; a pointwise kernel runs such a scatter "
             "as a fill and an update pass, which recomputes only elementwise ops of its shape "
             "at the positions it writes";
  }
  for (const Op *op : segment.ops())
    if (op != &scatter && isTwoPassScatter(*op))
      return what + ", and so does " + a.describe(*op) +
             "; a pointwise kernel runs one such scatter, as a fill and an update pass";
  std::set<const Value *> seen, inputs;
  for (const Value *v : found->updateReads)
    collectSegmentInputs(segment, *v, seen, inputs);
  for (const Value *out : segment.writtenOutputs())
    for (const FusionOutput *o : a.outputsOf(*out))
      if (o->kind == OutputKind::InPlace && o->aliases)
        for (const Value *in : inputs)
          if (memoryOf(a, in) == o->aliases)
            return what + "; its update pass reads " + a.quoted(*in) + " after output '" + o->name +
                   "' has overwritten it in place";
  return std::nullopt;
}

std::optional<std::string> refuseTwoPassScatter(const Segment &segment) {
  for (const Op *op : segment.ops())
    if (isTwoPassScatter(*op))
      return segment.analysis().describe(*op) + " writes through " + positionsPerLine(*op) +
             " index positions per line; only a pointwise kernel runs such a scatter (a fill "
             "and an update pass)";
  return std::nullopt;
}

} // namespace fuserc
