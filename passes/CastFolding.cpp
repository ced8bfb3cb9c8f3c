// Cast folding for canonicalization: a cast that changes nothing goes away,
// and cast(cast(y, A), B) becomes cast(y, B) when A holds y exactly, e.g.
// the f32 round trip of a bf16 input. Only roundings the interpreter would
// not perform may disappear (see CanonicalizeRules.h).
#include "passes/CanonicalizeRules.h"

namespace fuserc::canonicalize_detail {
namespace {

bool isHalf(DType t) { return t == DType::F16 || t == DType::BF16; }

} // namespace

bool carriesMoreThanDType(const Value &v) {
  if (!isHalf(v.dtype()) || v.isInput())
    return false;
  const Op *def = v.definingOp();
  return !def || def->kind() != OpKind::Cast;
}

bool holdsCarriedValue(const Value &v, DType dtype) {
  const DType t = v.dtype();
  if (t == dtype)
    return !carriesMoreThanDType(v);
  switch (t) {
  case DType::Bool:
    return true; // 0 and 1
  case DType::I32:
    return dtype == DType::I64 || dtype == DType::F64;
  case DType::F16:
  case DType::BF16:
  case DType::F32: // carried at f32 precision at most
    return dtype == DType::F32 || dtype == DType::F64;
  case DType::I64:
  case DType::F64:
    return false;
  }
  return false;
}

Value *simplifyCast(FusionRewriter &rewriter, Value *x, DType dtype) {
  if (const Op *inner = x->definingOp(); inner && inner->kind() == OpKind::Cast) {
    Value *y = inner->operand(0);
    if (holdsCarriedValue(*y, x->dtype()))
      return rewriter.cast(y, dtype);
  }
  // A literal stays behind its cast: the cast makes a rank-0 tensor of a
  // fixed dtype out of a weak literal (constant folding decides about it).
  if (x->dtype() == dtype && !x->isLiteral() && !carriesMoreThanDType(*x))
    return x;
  return nullptr;
}

} // namespace fuserc::canonicalize_detail
