// The CUDA text of one elementwise op, shared by the value emitters
// (ValueEmitter, one element at a time; LaneValueEmitter, V lanes at a
// time): the op's expression template from ops.td, the dtype each operand
// is converted to before it, and the conversion of its result.
#pragma once

#include "ir/Fusion.h"

#include <string>
#include <vector>

namespace fuserc {

// The dtype values of `d` are carried in between ops: f16 / bf16 in f32
// (only casts and stores round).
DType mathDType(DType d);

// The expression template of elementwise `op` for its operands' compute
// domain: `$0`..`$2` are operands, `$name` attributes. Float powers by the
// literals 2 and 3 become products. Throws CodegenError when ops.td has no
// expression for the operands' dtypes.
std::string elementwiseTemplate(const Op &op);

// The dtype operand `i` of `op` is converted to before the template applies.
DType elementwiseOperandDType(const Op &op, size_t i);

// `expr` with `$N` replaced by operands[N] and `$name` by the attribute's
// text (the operands should be variables, literals or parenthesized).
std::string substituteTemplate(const Op &op, const std::string &expr,
                               const std::vector<std::string> &operands);

// The key an emitter remembers `value` read or computed at `coords` by.
std::string valueAtKey(const Value &value, const std::vector<std::string> &coords);

// An emitter's statements, one per line, each indented by `indent` spaces.
std::string indentedLines(const std::vector<std::string> &lines, int indent);

// The substituted template as a value of the compute type of `op`'s result.
std::string elementwiseResult(const Op &op, const std::string &text);

} // namespace fuserc
