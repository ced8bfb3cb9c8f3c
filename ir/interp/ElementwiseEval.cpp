// Reference evaluation of elementwise ops (ShapeRule Elementwise): unary,
// binary and ternary math, comparisons, where and cast. The per-op math is
// the `cpu` / `cpuInt` expressions of ops.td, compiled into the generated
// cpuElementwiseFloat / cpuElementwiseInt.
#include "ir/Inference.h"
#include "ir/interp/EvalSupport.h"
#include "ir/interp/ReferenceMath.h"

#include <algorithm>
#include <cmath>

namespace fuserc {
namespace {

#define GET_CPU_ELEMENTWISE
#include "OpTables.inc"

} // namespace

Tensor evalElementwise(const Op &op, std::span<const Tensor *const> operands,
                       const EvalContext &ctx) {
  if (operands.empty() || operands.size() > 3)
    throw EvalError(interp::describeOp(op) + ": expected 1 to 3 operands, got " +
                    std::to_string(operands.size()));
  Tensor result = interp::makeResult(op, ctx);
  const ComputeDomain domain = elementwiseComputeDomain(op);
  const bool conditionFirst = op.info().dtypeRule == DTypeRule::Where;
  // Only cast rounds to f16 / bf16 before storing; every other op's result
  // stays in f32 (see Interpreter.h).
  const bool roundToDeclared = op.kind() == OpKind::Cast;
  const DType declared = op.result()->dtype();
  // Bitwise ops on bool act on the one bit (~true is false), whereas the
  // int64 expression would give ~1 = -2, which is nonzero, i.e. true.
  const bool bitwiseOnBool = !domain.floating && domain.operands == DType::Bool &&
                             op.info().dtypeRule == DTypeRule::PromoteIntegral;
  const OpKind kind = op.kind();
  const Attributes &attrs = op.attrs();

  std::vector<std::vector<int64_t>> strides;
  for (size_t k = 0; k < operands.size(); ++k)
    strides.push_back(interp::broadcastStrides(*operands[k], result.shape(), op, k));

  interp::forEachIndex(result.shape(), [&](const std::vector<int64_t> &index, size_t j) {
    double floats[3] = {0, 0, 0};
    int64_t ints[3] = {0, 0, 0};
    for (size_t k = 0; k < operands.size(); ++k) {
      const Tensor &t = *operands[k];
      const auto offset = static_cast<size_t>(interp::dot(index, strides[k]));
      if (k == 0 && conditionFirst) {
        const bool truth = t.getFloat(offset) != 0;
        floats[k] = truth ? 1.0 : 0.0;
        ints[k] = truth ? 1 : 0;
      } else if (domain.floating) {
        floats[k] = interp::readAsFloat(t, offset, domain.operands);
      } else {
        ints[k] = interp::readAsInt(t, offset, domain.operands);
      }
    }
    if (domain.floating) {
      double v = cpuElementwiseFloat(kind, floats[0], floats[1], floats[2], attrs);
      if (roundToDeclared && isFloating(declared))
        v = roundToFloatType(v, declared);
      result.setFloat(j, v);
    } else {
      int64_t v = cpuElementwiseInt(kind, ints[0], ints[1], ints[2], attrs);
      if (bitwiseOnBool)
        v &= 1;
      if (roundToDeclared && isFloating(declared))
        result.setFloat(j, intToFloatType(v, declared));
      else
        result.setInt(j, v);
    }
  });
  return result;
}

} // namespace fuserc
