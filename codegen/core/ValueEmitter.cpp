// Consumer-first value emission (see ValueEmitter.h).
#include "codegen/core/ValueEmitter.h"

#include "codegen/core/IndexChecks.h"

#include "codegen/core/CudaTypes.h"
#include "codegen/core/ElementwiseCode.h"
#include "codegen/core/KernelTensors.h"
#include "codegen/core/SmallReduction.h"
#include "ir/Inference.h"
#include "schedulers/KernelGenerator.h"
#include "schedulers/OpFamilies.h"

#include <algorithm>

namespace fuserc {
std::vector<Extent> rowMajorStrides(const std::vector<Extent> &shape) {
  std::vector<Extent> strides(shape.size(), Extent(1));
  for (size_t d = shape.size(); d-- > 1;)
    strides[d - 1] = strides[d] * shape[d];
  return strides;
}

bool isCoordinateFree(const Op &op) {
  const ShapeRule rule = op.info().shapeRule;
  return rule == ShapeRule::Elementwise || rule == ShapeRule::Scalar || op.kind() == OpKind::Full;
}

std::string extentValueCode(const Op &op, const std::vector<std::string> &symbols) {
  const Extent extent =
      op.kind() == OpKind::Size
          ? op.operand(0)->shape().at(static_cast<size_t>(op.attrs().integer("dim")))
          : op.attrs().extent("value");
  return cudaConvert(kernelExtentValueCode(extent, symbols), DType::I64,
                     mathDType(op.result()->dtype()));
}

ValueEmitter::ValueEmitter(std::function<bool(const Value &)> isInput, InputReader &reader,
                           std::vector<std::string> symbols, std::string indexType,
                           bool coordinateFree)
    : isInput_(std::move(isInput)), reader_(reader), symbols_(std::move(symbols)),
      index_(std::move(indexType)), coordinateFree_(coordinateFree), scopes_(1) {}

bool ValueEmitter::supportsCoordinateFree(const std::vector<const Op *> &ops) {
  return std::all_of(ops.begin(), ops.end(), [](const Op *op) { return isCoordinateFree(*op); });
}

std::string ValueEmitter::ext(const Extent &e) const { return kernelExtentCode(e, symbols_); }

std::string ValueEmitter::body(int indent) const { return indentedLines(lines_, indent); }

std::string ValueEmitter::takeBody(int indent) {
  std::string text = body(indent);
  lines_.clear();
  return text;
}

void ValueEmitter::line(const std::string &text) {
  // Values are computed once per distinct coordinates they are used at;
  // chains of slices, pads or cats use each value at ever more coordinates,
  // which can multiply the statements exponentially with the chain's length.
  // Past this many the kernel is refused (NVRTC would take hours over it).
  constexpr size_t kMaxStatements = 100000;
  if (lines_.size() >= kMaxStatements)
    throw CodegenError("the kernel would have more than " + std::to_string(kMaxStatements) +
                       " statements (values are needed at too many different coordinates, as "
                       "in long chains of slices); split the fusion");
  lines_.push_back(std::string(static_cast<size_t>(2 * depth_), ' ') + text);
}

std::optional<std::string> ValueEmitter::loadedElement(const std::string &var, DType dtype) const {
  auto it = loaded_.find(var);
  if (it == loaded_.end() || it->second.second != dtype)
    return std::nullopt;
  return it->second.first;
}

std::string ValueEmitter::define(const std::string &type, const std::string &expr) {
  std::string name = "v" + std::to_string(next_++);
  line(type + " " + name + " = " + expr + ";");
  return name;
}

std::string ValueEmitter::emit(const Value &value, const Coords &coords) {
  if (value.isLiteral())
    return cudaLiteral(value.literal(), value.dtype());
  if (auto it = bound_.find(&value); it != bound_.end())
    return it->second;
  if (auto it = substitutes_.find(&value); it != substitutes_.end())
    return emit(*it->second, coords);
  const Coords &at = coordinateFree_ ? Coords{} : coords;
  const std::string key = valueAtKey(value, at);
  for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope)
    if (auto it = scope->find(key); it != scope->end())
      return it->second;
  std::string result;
  if (isInput_(value) || !value.definingOp()) {
    const InputRead read = reader_.read(value, at);
    result = define(cudaComputeType(value.dtype()), read.value);
    if ((value.dtype() == DType::F16 || value.dtype() == DType::BF16) && !read.element.empty())
      loaded_[result] = {read.element, value.dtype()};
  } else
    result = emitOp(*value.definingOp(), at);
  scopes_.back()[key] = result;
  return result;
}

std::string ValueEmitter::emitOp(const Op &op, const Coords &coords) {
  const OpInfo &info = op.info();
  if (coordinateFree_ && !isCoordinateFree(op))
    throw CodegenError("'" + std::string(info.name) +
                       "' needs coordinates, which this kernel variant does not track");
  switch (info.shapeRule) {
  case ShapeRule::Elementwise:
    return emitElementwise(op, coords);
  case ShapeRule::Creation:
  case ShapeRule::Same:
    return emitCreation(op, coords);
  case ShapeRule::Scalar:
    return define(cudaComputeType(mathDType(op.result()->dtype())), extentValueCode(op, symbols_));
  case ShapeRule::Expand:
  case ShapeRule::BroadcastInDim:
  case ShapeRule::Permute:
  case ShapeRule::Squeeze:
  case ShapeRule::Unsqueeze:
  case ShapeRule::Slice:
  case ShapeRule::Reshape:
    return emit(*op.operand(0), operandCoords(op, 0, coords));
  case ShapeRule::Pad:
  case ShapeRule::Cat:
    return emitBranches(op, coords);
  case ShapeRule::IndexSelect:
  case ShapeRule::Gather: {
    const size_t dim = static_cast<size_t>(op.attrs().integer("dim"));
    const Value &x = *op.operand(0);
    Coords indexAt = info.shapeRule == ShapeRule::Gather ? coords : Coords{coords[dim]};
    std::string index = emit(*op.operand(1), indexAt);
    // An index out of range is reported through the flag and clamped into
    // range: the kernel must not read outside the tensor (IndexChecks.h).
    // The check is in 64 bits: a 32-bit index type would wrap a large
    // index into range.
    std::string extent = "(long long)(" + ext(x.shape()[dim]) + ")";
    std::string raw = define("long long", "(long long)(" + index + ")");
    line("if (" + raw + " < 0 || " + raw + " >= " + extent + ") {");
    line("  fuserc_index_error(" + std::string(indexFlagInKernel()) + ", " +
         std::to_string(indexCheckCode(op)) + ");");
    line("  " + raw + " = " + raw + " < 0 ? 0 : " + extent + " - 1;");
    line("}");
    std::string j = define(index_, "(" + index_ + ")(" + raw + ")");
    Coords xAt = coords;
    xAt[dim] = j;
    return emit(x, xAt);
  }
  case ShapeRule::Scatter:
    return emitScatter(op, coords);
  case ShapeRule::Reduction:
    if (isSmallReduction(op)) {
      std::vector<std::string> values;
      for (const Coords &at : smallReductionElements(op, coords))
        values.push_back(emit(*op.operand(0), at));
      return smallReductionValue(
          op, values,
          [this](const std::string &type, const std::string &expr) { return define(type, expr); });
    }
    break;
  case ShapeRule::Normalization:
  case ShapeRule::Scan:
    break;
  }
  throw CodegenError("'" + std::string(info.name) +
                     "' is not supported by this kernel's code generator");
}

Coords ValueEmitter::operandCoords(const Op &op, size_t operand, const Coords &coords) {
  const Value &x = *op.operand(operand);
  const Value &result = *op.result();
  const Attributes &attrs = op.attrs();
  const size_t rank = x.rank();
  Coords at(rank);
  switch (op.info().shapeRule) {
  case ShapeRule::Elementwise:
  case ShapeRule::Expand:
    for (size_t i = 0; i < rank; ++i) {
      size_t r = i + result.rank() - rank;
      at[i] = x.shape()[i].isConstant(1) && !result.shape()[r].isConstant(1) ? "0" : coords[r];
    }
    return at;
  case ShapeRule::BroadcastInDim: {
    const std::vector<int64_t> &dims = attrs.axes("broadcast_dims");
    for (size_t i = 0; i < rank; ++i) {
      size_t r = static_cast<size_t>(dims[i]);
      at[i] = x.shape()[i].isConstant(1) && !result.shape()[r].isConstant(1) ? "0" : coords[r];
    }
    return at;
  }
  case ShapeRule::Permute: {
    const std::vector<int64_t> &dims = attrs.axes("dims");
    for (size_t i = 0; i < dims.size(); ++i)
      at[static_cast<size_t>(dims[i])] = coords[i];
    return at;
  }
  case ShapeRule::Squeeze: {
    const std::vector<int64_t> &dims = attrs.axes("dims");
    for (size_t i = 0, r = 0; i < rank; ++i)
      at[i] = std::count(dims.begin(), dims.end(), int64_t(i)) ? "0" : coords[r++];
    return at;
  }
  case ShapeRule::Unsqueeze: {
    const size_t dim = static_cast<size_t>(attrs.integer("dim"));
    for (size_t i = 0; i < rank; ++i)
      at[i] = coords[i < dim ? i : i + 1];
    return at;
  }
  case ShapeRule::Slice: {
    at = coords;
    const size_t dim = static_cast<size_t>(attrs.integer("dim"));
    at[dim] = "(" + ext(attrs.extent("start")) + " + " + coords[dim] + " * (" + index_ + ")" +
              std::to_string(attrs.integer("step")) + ")";
    return at;
  }
  case ShapeRule::Reshape: {
    std::vector<Extent> out = rowMajorStrides(result.shape()), in = rowMajorStrides(x.shape());
    std::string linear = "(" + index_ + ")0";
    for (size_t i = 0; i < coords.size(); ++i)
      linear += " + " + coords[i] + " * " + ext(out[i]);
    std::string lin = define(index_, linear);
    for (size_t j = 0; j < rank; ++j)
      at[j] = "((" + lin + " / " + ext(in[j]) + ") % " + ext(x.shape()[j]) + ")";
    return at;
  }
  default:
    throw CodegenError("no coordinate mapping for '" + std::string(op.info().name) + "'");
  }
}

std::string ValueEmitter::emitElementwise(const Op &op, const Coords &coords) {
  const ComputeDomain domain = elementwiseComputeDomain(op);
  std::string expr = elementwiseTemplate(op);
  std::vector<std::string> operands;
  for (size_t i = 0; i < op.operands().size(); ++i) {
    const Value &v = *op.operand(i);
    std::string raw = emit(v, coordinateFree_ ? Coords{} : operandCoords(op, i, coords));
    DType to = elementwiseOperandDType(op, i);
    std::string converted = cudaConvert(raw, v.isLiteral() ? v.dtype() : mathDType(v.dtype()), to);
    operands.push_back(converted == raw ? raw : define(cudaComputeType(to), converted));
  }
  // Division by an invariant of the kernel's loop (a row's sum, say):
  // multiply by its reciprocal, one division per row instead of one per
  // element (within 1.5 ulp of the quotient in f32).
  if (op.kind() == OpKind::Div && invariant_ && !coordinateFree_ && domain.operands == DType::F32 &&
      !op.operand(1)->isLiteral() && invariant_(*op.operand(1), operandCoords(op, 1, coords))) {
    const std::string key = "rcp@" + operands[1];
    std::string rcp;
    for (auto scope = scopes_.rbegin(); scope != scopes_.rend() && rcp.empty(); ++scope)
      if (auto it = scope->find(key); it != scope->end())
        rcp = it->second;
    if (rcp.empty()) {
      rcp = define("float", "1.0f / " + operands[1]);
      scopes_.back()[key] = rcp;
    }
    expr = "($0 * " + rcp + ")";
  }
  const std::string text = substituteTemplate(op, expr, operands);
  return define(cudaComputeType(op.result()->dtype()), elementwiseResult(op, text));
}

std::string ValueEmitter::emitCreation(const Op &op, const Coords &coords) {
  const Value &result = *op.result();
  // f16 / bf16 values are carried at f32 until stored (docs/language.md).
  const DType dtype = mathDType(result.dtype());
  switch (op.kind()) {
  case OpKind::Full:
    return cudaLiteral(op.attrs().number("value"), dtype);
  case OpKind::Iota: {
    const size_t dim = static_cast<size_t>(op.attrs().integer("dim"));
    return define(cudaComputeType(dtype), cudaConvert(coords[dim], DType::I64, dtype));
  }
  case OpKind::RandLike: {
    std::vector<Extent> strides = rowMajorStrides(result.shape());
    std::string linear = "(fuserc_u64)0";
    for (size_t i = 0; i < coords.size(); ++i)
      linear += " + (fuserc_u64)" + coords[i] + " * (fuserc_u64)" + ext(strides[i]);
    std::string seed = emit(*op.operand(1), {}), offset = emit(*op.operand(2), {});
    std::string word = define("fuserc_u32", "fuserc_philox_word((fuserc_u64)" + seed +
                                                ", (fuserc_u64)" + offset + ", " + linear + ")");
    // The unit draw is on the stored dtype's grid, so it needs no rounding.
    const DType stored = result.dtype();
    const char *unit = stored == DType::F16    ? "fuserc_unit_f16"
                       : stored == DType::BF16 ? "fuserc_unit_bf16"
                       : stored == DType::F64  ? "fuserc_unit_f64"
                                               : "fuserc_unit_f32";
    return define(cudaComputeType(dtype), std::string(unit) + "(" + word + ")");
  }
  default:
    throw CodegenError("'" + std::string(op.info().name) +
                       "' is not supported by this kernel's code generator");
  }
}

// scatter, consumer-first: an element is x's unless some position of the
// index (same coordinates but along `dim`) points at it; the last such
// position in row-major order wins, as in the reference interpreter. The
// loop runs over the index's extent along `dim`.
std::string ValueEmitter::emitScatter(const Op &op, const Coords &coords) {
  const Value &x = *op.operand(0), &index = *op.operand(1), &src = *op.operand(2);
  const Value &result = *op.result();
  const size_t dim = static_cast<size_t>(op.attrs().integer("dim"));
  const DType math = mathDType(result.dtype());
  std::string out = "v" + std::to_string(next_++);
  std::string base = emit(x, coords);
  line(cudaComputeType(result.dtype()) + " " + out + " = " +
       cudaConvert(base, x.isLiteral() ? x.dtype() : mathDType(x.dtype()), math) + ";");
  // Only coordinates inside the index's extents (it may be smaller) are hit.
  std::string inside = "true";
  for (size_t d = 0; d < index.rank(); ++d)
    if (d != dim && index.shape()[d] != x.shape()[d])
      inside += " && " + coords[d] + " < " + ext(index.shape()[d]);
  std::string j = "j" + std::to_string(next_++);
  line("if (" + inside + ")");
  // Not unrolled: each element of a vectorized kernel searches the index,
  // so an unrolled search multiplies the code (and NVRTC's time) by its
  // extent.
  line("#pragma unroll 1");
  line("for (" + index_ + " " + j + " = 0; " + j + " < " + ext(index.shape()[dim]) + "; ++" + j +
       ") {");
  ++depth_;
  scopes_.emplace_back();
  Coords at = coords;
  at[dim] = j;
  // A position out of range writes nothing, and is reported (IndexChecks.h);
  // positions compare in 64 bits, so no large index wraps into range.
  std::string target = define("long long", "(long long)(" + emit(index, at) + ")");
  line("if (" + target + " < 0 || " + target + " >= (long long)(" + ext(x.shape()[dim]) + "))");
  line("  fuserc_index_error(" + std::string(indexFlagInKernel()) + ", " +
       std::to_string(indexCheckCode(op)) + ");");
  line("if (" + target + " == (long long)(" + coords[dim] + ")) {");
  ++depth_;
  scopes_.emplace_back();
  std::string value = emit(src, src.isRankZero() ? Coords{} : at);
  line(out + " = " +
       cudaConvert(value, src.isLiteral() ? src.dtype() : mathDType(src.dtype()), math) + ";");
  scopes_.pop_back();
  --depth_;
  line("}");
  scopes_.pop_back();
  --depth_;
  line("}");
  return out;
}

// pad and cat: pick the piece the coordinate falls in; each piece's values
// are computed inside its branch only, at in-range coordinates.
std::string ValueEmitter::emitBranches(const Op &op, const Coords &coords) {
  const Value &result = *op.result();
  const size_t dim = static_cast<size_t>(op.attrs().integer("dim"));
  const std::string type = cudaComputeType(result.dtype());
  std::string out = "v" + std::to_string(next_++);
  line(type + " " + out + ";");
  auto branch = [&](const std::string &condition, const Value &piece, const Coords &at) {
    line(condition.empty() ? "{" : condition + " {");
    ++depth_;
    scopes_.emplace_back();
    std::string v = emit(piece, at);
    line(out + " = " +
         cudaConvert(v, piece.isLiteral() ? piece.dtype() : mathDType(piece.dtype()),
                     mathDType(result.dtype())) +
         ";");
    scopes_.pop_back();
    --depth_;
    line("}");
  };
  if (op.kind() == OpKind::Pad) {
    const Value &x = *op.operand(0);
    std::string shifted = define(index_, coords[dim] + " - " + ext(op.attrs().extent("before")));
    Coords at = coords;
    at[dim] = shifted;
    branch("if (" + shifted + " >= 0 && " + shifted + " < " + ext(x.shape()[dim]) + ")", x, at);
    line("else");
    ++depth_;
    line(out + " = " + cudaLiteral(op.attrs().number("value"), mathDType(result.dtype())) + ";");
    --depth_;
    return out;
  }
  Extent start = 0;
  for (size_t i = 0; i < op.operands().size(); ++i) {
    const Value &piece = *op.operand(i);
    Extent end = start + piece.shape()[dim];
    Coords at = coords;
    at[dim] = "(" + coords[dim] + " - " + ext(start) + ")";
    // The last piece takes the rest; a cat of one piece is that piece.
    std::string condition =
        i + 1 == op.operands().size()
            ? (i ? "else" : "")
            : std::string(i ? "else " : "") + "if (" + coords[dim] + " < " + ext(end) + ")";
    branch(condition, piece, at);
    start = end;
  }
  return out;
}

} // namespace fuserc
