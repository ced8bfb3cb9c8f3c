// Reshape sinking for canonicalization: an elementwise op reading
// reshape(a) at full size, on its way to an output, is computed in a's shape
// and reshaped after it. Its other operands are reshaped to match; each must
// be either full or broadcast over each run of dims the reshape merges or
// splits. GroupNorm's `reshape(norm(g)) * w + b` so becomes one value over
// the groups' rows, which the output stores through a view
// (FusionAnalysis::outputView) instead of a kernel re-indexing it.
#include "passes/CanonicalizeRules.h"

#include "ir/ViewAnalysis.h"
#include "schedulers/OpFamilies.h"

namespace fuserc::canonicalize_detail {
namespace {

// `b` (broadcasting to `to`) as a value of a's shape `from`, or null when a
// run of the reshape from `from` to `to` sees b neither full nor broadcast.
Value *pullBack(FusionRewriter &rewriter, Value *b, const std::vector<Extent> &from,
                const std::vector<Extent> &to, const std::vector<ReshapeRun> &runs) {
  if (b->isLiteral() || b->isRankZero())
    return b;
  if (b->rank() > to.size())
    return nullptr;
  // b's dims right-aligned against the result's.
  std::vector<Extent> aligned(to.size() - b->rank(), Extent(1));
  aligned.insert(aligned.end(), b->shape().begin(), b->shape().end());
  std::vector<Extent> shape(from.size(), Extent(1));
  for (const ReshapeRun &run : runs) {
    bool full = true, broadcast = true;
    for (size_t d : run.to) {
      full = full && aligned[d] == to[d];
      broadcast = broadcast && aligned[d].isConstant(1);
    }
    if (broadcast)
      continue;
    if (!full)
      return nullptr;
    for (size_t d : run.from)
      shape[d] = from[d];
  }
  if (shape == b->shape())
    return b;
  Attributes attrs;
  attrs.set("shape", shape);
  return rewriter.create(OpKind::Reshape, {b}, std::move(attrs));
}

// Whether `v` is more than a view or cast of inputs: those are read through
// index maps and recomputed casts, which a reshape after them would defeat.
bool computed(const Value &v) {
  const Value *at = &v;
  while (const Op *op = at->definingOp()) {
    if (!op->info().viewable && op->kind() != OpKind::Cast)
      return true;
    at = op->operand(0);
  }
  return false;
}

} // namespace

Value *sinkReshape(FusionRewriter &rewriter, OpKind kind, const std::vector<Value *> &operands,
                   const Attributes &attrs, const std::vector<Extent> &resultShape,
                   DType resultType) {
  const Value *reshaped = nullptr;
  for (const Value *v : operands)
    if (const Op *op = v->definingOp();
        op && isReshapeLike(*op) && v->shape() == resultShape && computed(*op->operand(0))) {
      reshaped = v;
      break;
    }
  if (!reshaped)
    return nullptr;
  const std::vector<Extent> &from = reshaped->definingOp()->operand(0)->shape();
  std::optional<std::vector<ReshapeRun>> runs = reshapeRuns(from, resultShape);
  if (!runs)
    return nullptr;
  std::vector<Value *> pulled;
  for (Value *v : operands) {
    const Op *op = v->definingOp();
    Value *p = op && isReshapeLike(*op) && v->shape() == resultShape &&
                       op->operand(0)->shape() == from
                   ? op->operand(0)
                   : pullBack(rewriter, v, from, resultShape, *runs);
    if (!p)
      return nullptr;
    pulled.push_back(p);
  }
  // Rank-0 operands promote more weakly than ranked ones: with the
  // reshaped operand rank 0 too, the op may type differently (seed 82525).
  Value *inner = rewriter.create(kind, std::move(pulled), attrs);
  if (inner->dtype() != resultType)
    return nullptr;
  Attributes reshape;
  reshape.set("shape", resultShape);
  return rewriter.create(OpKind::Reshape, {inner}, std::move(reshape));
}

} // namespace fuserc::canonicalize_detail
