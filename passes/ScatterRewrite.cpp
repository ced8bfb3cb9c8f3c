// The scatter rewrite for canonicalization: scatter(full(shape, value), index,
// src, dim) with one index per row (index extent 1 along dim, the full's
// extents elsewhere) is the pointwise
//
//   where(eq(iota(dim), index), src, value)
//
// with an iota shaped 1 except along dim, so it broadcasts against the
// index. A cross-entropy backward then never materialises its [M, V]
// one-hot buffer. Where an index is out of range the interpreter reports
// an error for the scatter, and the rewrite gives the row its background;
// for indices in range the results are identical (checked below: the
// rewrite is refused when a dtype conversion could round differently).
#include "passes/CanonicalizeRules.h"

#include "ir/Inference.h"
#include "ir/interp/Tensor.h"

#include <cmath>

namespace fuserc::canonicalize_detail {
namespace {

bool isHalf(DType t) { return t == DType::F16 || t == DType::BF16; }

// True when `value` converts to `dtype` (and back) unchanged.
bool representable(const Number &value, DType dtype) {
  if (isFloating(dtype)) {
    if (value.isInteger) {
      constexpr int64_t kExactInDouble = int64_t{1} << 53;
      if (value.intValue > kExactInDouble || value.intValue < -kExactInDouble)
        return false;
    }
    const double v = value.asDouble();
    return std::isnan(v) || roundToFloatType(v, dtype) == v;
  }
  if (!value.isInteger)
    return false;
  return wrapToIntType(value.intValue, dtype) == value.intValue;
}

// The scatter copies src and the full's value straight into its result
// dtype (held at the precision the interpreter carries it at); the rewrite
// reads them as `where`'s computation type `branch` and then casts to
// `result`. True when both give the same values, i.e. no conversion on the
// way rounds where the scatter's copy would not.
bool sameValuesThroughCast(const Value &src, const Number &background, DType branch, DType result) {
  if (branch == result)
    return true;
  if (!representable(background, branch) || !representable(background, result))
    return false;
  if (src.isLiteral())
    return representable(src.literal(), branch) && representable(src.literal(), result);
  const DType carried = isHalf(branch) ? DType::F32 : branch;
  const bool readExactly = src.dtype() == branch || holdsCarriedValue(src, carried);
  // A cast to f16/bf16 rounds to the dtype, the scatter's copy only to the
  // f32 precision such results are carried at.
  return readExactly && (!isHalf(result) || holdsCarriedValue(src, result));
}

} // namespace

Value *rewriteScatter(FusionRewriter &rewriter, const std::vector<Value *> &operands,
                      const Attributes &attrs, DType resultType) {
  if (operands.size() != 3)
    return nullptr;
  Value *base = operands[0], *index = operands[1], *src = operands[2];
  const Op *full = base->definingOp();
  if (!full || full->kind() != OpKind::Full)
    return nullptr;
  const auto dim = static_cast<size_t>(attrs.integer("dim"));
  if (index->rank() != base->rank() || dim >= index->rank() || !index->shape()[dim].isConstant(1))
    return nullptr;
  for (size_t d = 0; d < index->rank(); ++d)
    if (d != dim && index->shape()[d] != base->shape()[d])
      return nullptr;
  if (!src->isRankZero() && src->shape() != index->shape())
    return nullptr;

  // A src of another dtype is converted first, as the scatter's copy does,
  // so that `where` computes in the result dtype; a cast to f16/bf16 would
  // round more than the copy (the result is carried at f32 precision).
  if (!src->isLiteral() && src->dtype() != resultType &&
      (!isHalf(resultType) || holdsCarriedValue(*src, resultType)))
    src = rewriter.cast(src, resultType);
  const Number &background = full->attrs().number("value");
  Value *backgroundLiteral = rewriter.literal(background);
  std::vector<Value *> branches = {src, backgroundLiteral};
  if (!sameValuesThroughCast(*src, background, promoteOperandTypes(branches), resultType))
    return nullptr;

  std::vector<Extent> iotaShape(base->rank(), Extent(1));
  iotaShape[dim] = base->shape()[dim];
  Attributes iotaAttrs;
  iotaAttrs.set("shape", std::move(iotaShape));
  iotaAttrs.set("dim", static_cast<int64_t>(dim));
  iotaAttrs.set("dtype", index->dtype());
  Value *positions = rewriter.create(OpKind::Iota, {}, std::move(iotaAttrs));
  Value *hit = rewriter.binary(OpKind::Eq, positions, index);
  Value *selected = rewriter.create(OpKind::Where, {hit, src, backgroundLiteral});
  return rewriter.castIfNeeded(selected, resultType);
}

} // namespace fuserc::canonicalize_detail
