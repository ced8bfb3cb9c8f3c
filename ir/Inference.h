// Result type inference: the dtype rules and shape rules of ops.td.
//
// Used by the frontends when building the IR, by the verifier to re-check
// it, and by passes that create ops. Inference also normalizes the op's
// attributes, so that every later stage sees one canonical form:
//   - attributes with a default are present (filled from ops.td);
//   - Axis / AxisList attributes are non-negative, and reduction / squeeze
//     axes are sorted and unique; unsqueeze's dim is in [0, rank];
//   - expand's and reshape's `shape` have no -1 left (expand's -1 is the
//     input extent; reshape's is inferred from the element count);
//   - slice has `start` and `end` (default end: the extent; constant bounds
//     are clamped to [0, extent] as in PyTorch) and a positive `step`;
//   - the result shape of shape-producing ops equals their `shape` attribute.
#pragma once

#include "ir/Fusion.h"

#include <span>
#include <string>
#include <variant>

namespace fuserc {

struct InferenceError {
  std::string message;
  int operand = -1;  // the operand the error is about, or -1
  std::string attr;  // the attribute the error is about, or empty
  int attrItem = -1; // the entry of the list attribute `attr` it is about, or -1
};

using InferenceResult = std::variant<TensorType, InferenceError>;

// Infers the result type of `kind` applied to `operands`, checking operand
// kinds, dtypes, shapes and attribute values, and normalizes `attrs` in
// place (see above). Attributes must already have the kinds ops.td gives them.
InferenceResult inferResultType(OpKind kind, std::span<Value *const> operands, Attributes &attrs);

// Broadcasts two shapes NumPy-style; nullopt when they do not broadcast.
std::optional<std::vector<Extent>> broadcastShapes(const std::vector<Extent> &a,
                                                   const std::vector<Extent> &b);

// PyTorch's result_type over operands: dimensioned tensors outrank rank-0
// values (scalar inputs and rank-0 results), which outrank literals, unless
// a lower group is of a higher category (bool < integer < floating).
DType promoteOperandTypes(std::span<Value *const> operands);

// Where an elementwise op (shape rule Elementwise) does its math: operands
// are converted to `operands` and the op's float (`cuda` / `cpu`) or integer
// (`cudaInt` / `cpuInt`) expression applies. Floating-point math on f16 and
// bf16 happens in f32; integral operands of an op with only floating-point
// math (div, exp, ...) convert to its floating result type. For `where`,
// the domain is that of the two branches (the condition is a truth value);
// for `cast`, that of its input.
struct ComputeDomain {
  bool floating;
  DType operands;
};
ComputeDomain elementwiseComputeDomain(const Op &op);

} // namespace fuserc
