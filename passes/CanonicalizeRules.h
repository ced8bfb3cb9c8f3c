// Internal to the canonicalize pass: the rewrite rules Canonicalize.cpp
// applies while it rebuilds a fusion, one concept per file:
//   CastFolding.cpp             cast pairs that lose nothing, casts that change nothing
//   ConstantFolding.cpp         ops of literals become literals
//   CompositeDecomposition.cpp  softmax, log_softmax, layer_norm, rms_norm,
//                               softplus, logsumexp, std
//   ScatterRewrite.cpp          scatter into a constant `full` becomes a `where`
//   IndexSelectRewrite.cpp      a 0-d index_select index becomes 1-D
//   ReshapeSinking.cpp          elementwise ops of a reshape on the way to
//                               an output move before the reshape
//
// Every rule keeps the reference interpreter's results (Interpreter.h):
// op results of dtype f16/bf16 are carried at f32 precision and rounded
// only by explicit casts and at outputs, so a rule may not drop or add a
// rounding that the interpreter would see.
#pragma once

#include "passes/FusionRewriter.h"

#include <optional>
#include <vector>

namespace fuserc::canonicalize_detail {

// True when the interpreter carries `v` at more precision than its dtype:
// an f16/bf16 value computed by an op other than a cast.
bool carriesMoreThanDType(const Value &v);
// True when dtype `dtype` holds every value `v` can carry exactly.
bool holdsCarriedValue(const Value &v, DType dtype);

// A value equal to cast(x, dtype) that needs one cast fewer — x itself, or
// cast(y, dtype) for x = cast(y, A) when A loses nothing of y — or null.
Value *simplifyCast(FusionRewriter &rewriter, Value *x, DType dtype);

// The literal `kind(operands)` evaluates to, when every operand is a literal
// and a literal of that value has the op's result type `type` (i64 for
// integers, f64 for floats); nullopt otherwise. Evaluated by the reference
// interpreter, so the value is the one it would compute.
std::optional<Number> foldToLiteral(OpKind kind, const std::vector<Value *> &operands,
                                    const Attributes &attrs, const TensorType &type);

// Primitives computing the composite `kind(operands)` with result dtype
// `resultType`; null when `kind` is not a composite.
Value *decomposeComposite(FusionRewriter &rewriter, OpKind kind,
                          const std::vector<Value *> &operands, const Attributes &attrs,
                          DType resultType);

// where(eq(iota, index), src, background) for scatter(full, index, src) with
// one index per row; null when the scatter does not have that form or the
// rewrite would not give the interpreter's values.
Value *rewriteScatter(FusionRewriter &rewriter, const std::vector<Value *> &operands,
                      const Attributes &attrs, DType resultType);

// index_select(x, unsqueeze(index, dim=0), dim) for a 0-d index; null when
// the index is not 0-d.
Value *rewriteIndexSelect(FusionRewriter &rewriter, const std::vector<Value *> &operands,
                          const Attributes &attrs);

// reshape(kind(a, pulled operands), resultShape) for an elementwise
// `kind(operands)` of result shape `resultShape` one of whose operands is
// reshape(a) of that shape, the others reshaped to a's shape; null when some
// operand is not full or broadcast over each run of dims the reshape pairs,
// or when the op in a's shape would not have dtype `resultType`.
Value *sinkReshape(FusionRewriter &rewriter, OpKind kind, const std::vector<Value *> &operands,
                   const Attributes &attrs, const std::vector<Extent> &resultShape,
                   DType resultType);

} // namespace fuserc::canonicalize_detail
