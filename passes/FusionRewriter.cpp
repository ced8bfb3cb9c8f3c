// The op builder passes share (see FusionRewriter.h).
#include "passes/FusionRewriter.h"

#include "ir/Inference.h"

#include <bit>
#include <stdexcept>
#include <variant>

namespace fuserc {

std::optional<TensorType> FusionRewriter::infer(OpKind kind, const std::vector<Value *> &operands,
                                                Attributes &attrs, std::string *error) {
  InferenceResult inferred = inferResultType(kind, operands, attrs);
  if (const auto *problem = std::get_if<InferenceError>(&inferred)) {
    if (error)
      *error = problem->message;
    return std::nullopt;
  }
  return std::get<TensorType>(std::move(inferred));
}

Value *FusionRewriter::append(OpKind kind, std::vector<Value *> operands, Attributes attrs,
                              TensorType type) {
  return fusion_.addOp(kind, std::move(operands), std::move(attrs), std::move(type), "", loc_)
      ->result();
}

Value *FusionRewriter::tryAdd(OpKind kind, std::vector<Value *> operands, Attributes attrs,
                              std::string *error) {
  std::optional<TensorType> type = infer(kind, operands, attrs, error);
  if (!type)
    return nullptr;
  return append(kind, std::move(operands), std::move(attrs), std::move(*type));
}

Value *FusionRewriter::create(OpKind kind, std::vector<Value *> operands, Attributes attrs) {
  std::string error;
  if (Value *v = tryAdd(kind, std::move(operands), std::move(attrs), &error))
    return v;
  throw std::logic_error("a rewrite built an op that does not type-check: " + error);
}

Value *FusionRewriter::literal(Number value) {
  const uint64_t bits = value.isInteger ? static_cast<uint64_t>(value.intValue)
                                        : std::bit_cast<uint64_t>(value.floatValue);
  Value *&slot = literals_[{value.isInteger, bits}];
  if (!slot)
    slot = fusion_.addLiteral(value, loc_);
  return slot;
}

Value *FusionRewriter::cast(Value *x, DType dtype) {
  Attributes attrs;
  attrs.set("dtype", dtype);
  return create(OpKind::Cast, {x}, std::move(attrs));
}

Value *FusionRewriter::reduce(OpKind kind, Value *x, std::vector<int64_t> axes, bool keepdim) {
  Attributes attrs;
  attrs.set("axes", std::move(axes));
  attrs.set("keepdim", keepdim);
  return create(kind, {x}, std::move(attrs));
}

std::string FusionRewriter::cseKey(OpKind kind, const std::vector<Value *> &operands,
                                   const Attributes &attrs) {
  std::string key = std::to_string(static_cast<unsigned>(kind)) + "(";
  for (const Value *v : operands)
    key += std::to_string(v->id()) + ",";
  key += ")";
  for (const Attributes::Entry &e : attrs.entries())
    key += e.name + "=" + attrValueString(e.value) + ";";
  return key;
}

} // namespace fuserc
