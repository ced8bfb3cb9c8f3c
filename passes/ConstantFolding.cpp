// Constant folding for canonicalization: an elementwise op whose operands
// are all literals becomes a literal, evaluated by the reference
// interpreter itself so the value is bit-identical to what it computes.
//
// Literals are weak in type promotion and rank-0 op results are not, so a
// fold is only offered when a literal of the value has the op's own result
// type (i64 or f64); the driver still checks each consumer's typing and
// keeps the op where the literal would change it.
#include "passes/CanonicalizeRules.h"

#include "ir/interp/Interpreter.h"

namespace fuserc::canonicalize_detail {

std::optional<Number> foldToLiteral(OpKind kind, const std::vector<Value *> &operands,
                                    const Attributes &attrs, const TensorType &type) {
  if (opInfo(kind).shapeRule != ShapeRule::Elementwise || operands.empty())
    return std::nullopt;
  for (const Value *v : operands)
    if (!v->isLiteral())
      return std::nullopt;
  if (type.dtype != DType::I64 && type.dtype != DType::F64)
    return std::nullopt;

  Fusion scratch("constant_fold");
  std::vector<Value *> literals;
  for (const Value *v : operands)
    literals.push_back(scratch.addLiteral(v->literal(), {}));
  FusionOutput output;
  output.name = "value";
  output.value = scratch.addOp(kind, literals, attrs, type, output.name, {})->result();
  scratch.addOutput(output);
  InterpreterResult result = interpret(scratch, {});
  if (!result.ok || result.outputs.size() != 1 || result.outputs[0].numel() != 1)
    return std::nullopt;
  const Tensor &value = result.outputs[0];
  if (type.dtype == DType::I64)
    return Number::integer(value.getInt(0));
  return Number::floating(value.getFloat(0));
}

} // namespace fuserc::canonicalize_detail
