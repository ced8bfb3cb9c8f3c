// V-lane consumer-first value emission (see LaneValueEmitter.h).
#include "codegen/core/LaneValueEmitter.h"

#include "codegen/core/CudaTypes.h"
#include "codegen/core/ElementwiseCode.h"
#include "codegen/core/KernelTensors.h"
#include "codegen/core/SmallReduction.h"
#include "ir/DType.h"
#include "schedulers/OpFamilies.h"

#include <algorithm>
#include <cctype>

namespace fuserc {

LaneValueEmitter::LaneValueEmitter(std::function<bool(const Value &)> isInput, LaneReader &reader,
                                   std::vector<std::string> symbols,
                                   std::function<std::string(const Value &)> name,
                                   std::string indexType, int lanes)
    : isInput_(std::move(isInput)), reader_(reader), symbols_(std::move(symbols)),
      name_(std::move(name)), index_(std::move(indexType)), lanes_(lanes), scopes_(1) {}

std::string LaneValueEmitter::ext(const Extent &e) const { return kernelExtentCode(e, symbols_); }

std::string LaneValueEmitter::body(int indent) const { return indentedLines(lines_, indent); }

void LaneValueEmitter::line(const std::string &text) {
  checkLimit();
  lines_.push_back(std::string(static_cast<size_t>(2 * depth_), ' ') + text);
}

void LaneValueEmitter::checkLimit() const {
  // As in ValueEmitter: long chains of resizes can multiply the statements;
  // past this many the variant is not generated.
  constexpr size_t kMaxStatements = 100000;
  if (lines_.size() >= kMaxStatements)
    throw LaneRefusal{"it would have more than " + std::to_string(kMaxStatements) + " statements"};
}

bool LaneValueEmitter::usesFreshFrom(const std::string &text, int first) {
  for (size_t at = 0; at < text.size(); ++at) {
    const bool starts =
        text[at] == 'v' && (at == 0 || !(std::isalnum(static_cast<unsigned char>(text[at - 1])) ||
                                         text[at - 1] == '_'));
    if (!starts)
      continue;
    size_t end = at + 1;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])))
      ++end;
    const bool word = end > at + 1 &&
                      (end == text.size() ||
                       !(std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_'));
    if (word && std::stoi(text.substr(at + 1, end - at - 1)) >= first)
      return true;
  }
  return false;
}

void LaneValueEmitter::hoistedLine(const std::string &text) {
  checkLimit();
  Hoist &h = hoists_.back();
  lines_.insert(lines_.begin() + static_cast<std::ptrdiff_t>(h.at),
                std::string(static_cast<size_t>(2 * h.depth), ' ') + text);
  ++h.at;
}

LaneValue LaneValueEmitter::defineScalar(const std::string &type, const std::string &expr) {
  std::string name = fresh();
  line(type + " " + name + " = " + expr + ";");
  return {name, true};
}

void LaneValueEmitter::assignLanes(const std::string &target, const std::string &expr) {
  const std::string l = laneVariable();
  line("#pragma unroll");
  line("for (int " + l + " = 0; " + l + " < " + std::to_string(lanes_) + "; ++" + l + ") " +
       target + "[" + l + "] = " + expr + ";");
}

LaneValue LaneValueEmitter::defineLanes(const std::string &type, const std::string &expr) {
  std::string name = fresh();
  line(type + " " + name + "[" + std::to_string(lanes_) + "];");
  assignLanes(name, expr);
  return {name, false};
}

void LaneValueEmitter::require(const Extent &extent, const std::string &what) {
  const std::optional<int64_t> rest = Extent::mod(extent, lanes_).constant();
  if (rest == 0)
    return;
  if (rest)
    throw LaneRefusal{what + " (" + extent.str() + ") is not a multiple of " +
                      std::to_string(lanes_)};
  for (const auto &[e, w] : requirements_)
    if (e == extent)
      return;
  requirements_.push_back({extent, what});
}

LaneValue LaneValueEmitter::emit(const Value &value, const Coords &coords, int lane) {
  if (value.isLiteral())
    return {cudaLiteral(value.literal(), value.dtype()), true};
  if (auto it = substitutes_.find(&value); it != substitutes_.end())
    return emit(*it->second, coords, lane);
  const std::string key = valueAtKey(value, coords) + "#" + std::to_string(lane);
  for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope)
    if (auto it = scope->find(key); it != scope->end())
      return it->second;
  LaneValue result = isInput_(value) || !value.definingOp()
                         ? emitRead(value, coords, lane)
                         : emitOp(*value.definingOp(), coords, lane);
  scopes_.back()[key] = result;
  return result;
}

LaneValue LaneValueEmitter::emitRead(const Value &input, const Coords &coords, int lane) {
  const std::string type = cudaComputeType(input.dtype());
  if (input.isScalarInput())
    return defineScalar(type, reader_.scalar(input));
  const LaneAddress address = reader_.address(input, coords, lane);
  // Inside a selected piece (see emitSelected) a read may be out of range:
  // it happens only under the pieces' conditions, else it gives 0.
  std::string guard;
  for (const std::string &g : guards_)
    guard += (guard.empty() ? "" : " && ") + g;
  if (lane < 0) {
    const std::string load = "fuserc_load(*" + address.pointer + ")";
    return defineScalar(type,
                        guard.empty() ? load : "(" + guard + ") ? " + load + " : (" + type + ")0");
  }
  // One vector load into an aligned array of the storage type, then each
  // lane converted to its compute type.
  const std::string memory = fresh() + "_m";
  const std::string bytes =
      "fuserc_bytes" + std::to_string(lanes_ * static_cast<int>(dtypeBytes(address.storage)));
  const std::string declare = "__align__(16) " + cudaStorageType(address.storage) + " " + memory +
                              "[" + std::to_string(lanes_) + "];";
  const std::string vector = address.reused
                                 ? "fuserc_load_reused<" + bytes + ">(" + address.pointer + ")"
                                 : "*(const " + bytes + " *)" + address.pointer;
  auto load = [&](const std::string &condition) {
    return "*(" + bytes + " *)" + memory + " = " +
           (condition.empty() ? vector : "(" + condition + ") ? " + vector + " : " + bytes + "()") +
           ";";
  };
  if (!guard.empty() || hoists_.empty() ||
      usesFreshFrom(address.pointer, hoists_.back().firstInside)) {
    line(declare);
    line(load(guard));
  } else {
    hoistedLine(declare);
    hoistedLine(load(hoists_.back().guard));
  }
  return defineLanes(type, InputRead::lane(memory, laneVariable(), lanes_, address.storage).value);
}

LaneValue LaneValueEmitter::emitOp(const Op &op, const Coords &coords, int lane) {
  const OpInfo &info = op.info();
  const Value &result = *op.result();
  switch (info.shapeRule) {
  case ShapeRule::Elementwise:
    return emitElementwise(op, coords, lane);
  case ShapeRule::Expand:
  case ShapeRule::BroadcastInDim:
  case ShapeRule::Permute:
  case ShapeRule::Squeeze:
  case ShapeRule::Unsqueeze:
  case ShapeRule::Slice:
  case ShapeRule::Reshape: {
    auto [at, operandLane] = operandAt(op, 0, coords, lane);
    return emit(*op.operand(0), at, operandLane);
  }
  case ShapeRule::Pad:
  case ShapeRule::Cat:
    return emitBranches(op, coords, lane);
  case ShapeRule::Reduction:
    if (isSmallReduction(op))
      return emitSmallReduction(op, coords, lane);
    break;
  case ShapeRule::Scalar:
    return defineScalar(cudaComputeType(mathDType(result.dtype())), extentValueCode(op, symbols_));
  case ShapeRule::Creation:
  case ShapeRule::Same:
    if (op.kind() == OpKind::Full)
      return {cudaLiteral(op.attrs().number("value"), mathDType(result.dtype())), true};
    if (op.kind() == OpKind::Iota) {
      const size_t dim = static_cast<size_t>(op.attrs().integer("dim"));
      const std::string type = cudaComputeType(result.dtype());
      if (static_cast<int>(dim) != lane)
        return defineScalar(type, cudaConvert(coords[dim], DType::I64, mathDType(result.dtype())));
      return defineLanes(
          type, cudaConvert("(" + coords[dim] + " + (" + index_ + ")" + laneVariable() + ")",
                            DType::I64, mathDType(result.dtype())));
    }
    break;
  default:
    break;
  }
  throw LaneRefusal{"'" + std::string(info.name) + "' (" + name_(result) +
                    ") is not computed lane by lane"};
}

// Each element's lanes read at its coordinates (the lane dim is a kept dim,
// so every element has it), combined lane by lane; uniform when every
// element is.
LaneValue LaneValueEmitter::emitSmallReduction(const Op &op, const Coords &coords, int lane) {
  const int xLane = lane >= 0 ? smallReductionOperandDims(op)[static_cast<size_t>(lane)] : -1;
  if (lane >= 0 && xLane < 0)
    throw LaneRefusal{"small reduction " + name_(*op.result()) + " reduces the vector dim"};
  std::vector<LaneValue> elements;
  bool uniform = true;
  for (const Coords &at : smallReductionElements(op, coords)) {
    elements.push_back(emit(*op.operand(0), at, xLane));
    uniform = uniform && elements.back().uniform;
  }
  std::vector<std::string> values;
  for (const LaneValue &v : elements)
    values.push_back(v.at(laneVariable()));
  LaneValue last;
  smallReductionValue(op, values, [&](const std::string &type, const std::string &expr) {
    last = uniform ? defineScalar(type, expr) : defineLanes(type, expr);
    return last.at(laneVariable());
  });
  return last;
}

std::pair<Coords, int> LaneValueEmitter::operandAt(const Op &op, size_t operand,
                                                   const Coords &coords, int lane) {
  const Value &x = *op.operand(operand);
  const Value &result = *op.result();
  const Attributes &attrs = op.attrs();
  const size_t rank = x.rank();
  Coords at(rank);
  int xLane = -1;
  // Operand dim i read at result dim r; "0" where it is broadcast.
  auto mapDim = [&](size_t i, size_t r) {
    const bool broadcast = x.shape()[i].isConstant(1) && !result.shape()[r].isConstant(1);
    at[i] = broadcast ? "0" : coords[r];
    if (!broadcast && static_cast<int>(r) == lane)
      xLane = static_cast<int>(i);
  };
  switch (op.info().shapeRule) {
  case ShapeRule::Elementwise:
  case ShapeRule::Expand:
    for (size_t i = 0; i < rank; ++i)
      mapDim(i, i + result.rank() - rank);
    break;
  case ShapeRule::BroadcastInDim: {
    const std::vector<int64_t> &dims = attrs.axes("broadcast_dims");
    for (size_t i = 0; i < rank; ++i)
      mapDim(i, static_cast<size_t>(dims[i]));
    break;
  }
  case ShapeRule::Permute: {
    const std::vector<int64_t> &dims = attrs.axes("dims");
    for (size_t i = 0; i < dims.size(); ++i) {
      at[static_cast<size_t>(dims[i])] = coords[i];
      if (static_cast<int>(i) == lane)
        xLane = static_cast<int>(dims[i]);
    }
    break;
  }
  case ShapeRule::Squeeze: {
    const std::vector<int64_t> &dims = attrs.axes("dims");
    for (size_t i = 0, r = 0; i < rank; ++i) {
      if (std::count(dims.begin(), dims.end(), int64_t(i))) {
        at[i] = "0";
        continue;
      }
      at[i] = coords[r];
      if (static_cast<int>(r++) == lane)
        xLane = static_cast<int>(i);
    }
    break;
  }
  case ShapeRule::Unsqueeze: {
    const size_t dim = static_cast<size_t>(attrs.integer("dim"));
    for (size_t i = 0; i < rank; ++i) {
      const size_t r = i < dim ? i : i + 1;
      at[i] = coords[r];
      if (static_cast<int>(r) == lane)
        xLane = static_cast<int>(i);
    }
    break;
  }
  case ShapeRule::Slice: {
    at = coords;
    xLane = lane;
    const size_t dim = static_cast<size_t>(attrs.integer("dim"));
    const Extent &start = attrs.extent("start");
    const int64_t step = attrs.integer("step");
    if (static_cast<int>(dim) == lane) {
      if (step != 1)
        throw LaneRefusal{"slice " + name_(result) + " has step " + std::to_string(step) +
                          " along the vector dim"};
      require(start, "the start of slice " + name_(result));
    }
    if (step == 1)
      at[dim] = start.isConstant(0) ? coords[dim] : "(" + coords[dim] + " + " + ext(start) + ")";
    else
      at[dim] = "(" + ext(start) + " + " + coords[dim] + " * (" + index_ + ")" +
                std::to_string(step) + ")";
    break;
  }
  case ShapeRule::Reshape: {
    // Lanes along the innermost dim of both shapes, of one extent, stay in
    // one row of the operand: the base coordinate is a multiple of V, and
    // so must the extent be.
    const bool innermost = lane >= 0 && static_cast<size_t>(lane) + 1 == result.rank() &&
                           rank > 0 && x.shape().back() == result.shape().back();
    if (lane >= 0 && !innermost)
      throw LaneRefusal{"reshape " + name_(result) + " moves the vector dim"};
    if (innermost)
      require(x.shape().back(), "the innermost extent of reshape " + name_(result));
    const std::vector<Extent> out = rowMajorStrides(result.shape()),
                              in = rowMajorStrides(x.shape());
    std::string linear = "(" + index_ + ")0";
    for (size_t i = 0; i < coords.size(); ++i)
      linear += " + " + coords[i] + " * " + ext(out[i]);
    const std::string lin = defineScalar(index_, linear).name;
    for (size_t j = 0; j < rank; ++j)
      at[j] = "((" + lin + " / " + ext(in[j]) + ") % " + ext(x.shape()[j]) + ")";
    xLane = innermost ? static_cast<int>(rank) - 1 : -1;
    break;
  }
  default:
    throw LaneRefusal{"'" + std::string(op.info().name) + "' (" + name_(result) +
                      ") is not computed lane by lane"};
  }
  return {at, xLane};
}

LaneValue LaneValueEmitter::emitElementwise(const Op &op, const Coords &coords, int lane) {
  const std::string expr = elementwiseTemplate(op);
  std::vector<LaneValue> inputs;
  bool uniform = true;
  for (size_t i = 0; i < op.operands().size(); ++i) {
    auto [at, operandLane] = operandAt(op, i, coords, lane);
    inputs.push_back(emit(*op.operand(i), at, operandLane));
    uniform = uniform && inputs.back().uniform;
  }
  // Operands converted to the op's domain: scalars once, into a variable;
  // lanes inside the lane loop.
  std::vector<std::string> operands;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Value &v = *op.operand(i);
    const DType from = v.isLiteral() ? v.dtype() : mathDType(v.dtype());
    const DType to = elementwiseOperandDType(op, i);
    const std::string raw = inputs[i].at(laneVariable());
    const std::string converted = cudaConvert(raw, from, to);
    if (converted == raw)
      operands.push_back(raw);
    else if (inputs[i].uniform)
      operands.push_back(defineScalar(cudaComputeType(to), converted).name);
    else
      operands.push_back("(" + converted + ")");
  }
  const std::string value = elementwiseResult(op, substituteTemplate(op, expr, operands));
  const std::string type = cudaComputeType(op.result()->dtype());
  return uniform ? defineScalar(type, value) : defineLanes(type, value);
}

// pad and cat: the piece is chosen once per vector, by the base coordinate
// (requirements make every lane fall in the same piece); each piece's
// values are computed inside its branch only.
LaneValue LaneValueEmitter::emitBranches(const Op &op, const Coords &coords, int lane) {
  const Value &result = *op.result();
  const size_t dim = static_cast<size_t>(op.attrs().integer("dim"));
  const bool alongLanes = static_cast<int>(dim) == lane;
  if (alongLanes && !piecesAlignToLanes(op))
    return emitLaneByLane(op, coords, lane);
  if (alongLanes && selectsPieces(op))
    return emitSelected(op, coords, lane);
  const DType math = mathDType(result.dtype());
  const std::string out = fresh();
  line(cudaComputeType(result.dtype()) + " " + out +
       (lane >= 0 ? "[" + std::to_string(lanes_) + "]" : "") + ";");
  const size_t hoistDepth = hoists_.size();
  auto assign = [&](const LaneValue &v, DType from) {
    if (lane >= 0)
      assignLanes(out, cudaConvert(v.at(laneVariable()), from, math));
    else
      line(out + " = " + cudaConvert(v.name, from, math) + ";");
  };
  // Loads in the pieces go before the branch (see Hoist), guarded.
  auto branch = [&](const std::string &condition, const std::string &guard, const Value &piece,
                    const Coords &at) {
    if (hoists_.size() == hoistDepth)
      hoists_.push_back({lines_.size(), depth_, "", next_});
    hoists_.back().guard = guard;
    line(condition.empty() ? "{" : condition + " {");
    ++depth_;
    scopes_.emplace_back();
    LaneValue v = emit(piece, at, lane);
    assign(v, piece.isLiteral() ? piece.dtype() : mathDType(piece.dtype()));
    scopes_.pop_back();
    --depth_;
    line("}");
  };
  if (op.kind() == OpKind::Pad) {
    const Value &x = *op.operand(0);
    const Extent &before = op.attrs().extent("before");
    if (alongLanes) {
      require(before, "'before' of pad " + name_(result));
      require(x.shape()[dim],
              "the extent of " + name_(x) + " along the dim pad " + name_(result) + " pads");
    }
    std::string shifted = defineScalar(index_, coords[dim] + " - " + ext(before)).name;
    Coords at = coords;
    at[dim] = shifted;
    const std::string inside = shifted + " >= 0 && " + shifted + " < " + ext(x.shape()[dim]);
    branch("if (" + inside + ")", inside, x, at);
    hoists_.pop_back();
    line("else {");
    ++depth_;
    assign({cudaLiteral(op.attrs().number("value"), mathDType(result.dtype())), true}, math);
    --depth_;
    line("}");
    return {out, lane < 0};
  }
  Extent start = 0;
  for (size_t i = 0; i < op.operands().size(); ++i) {
    const Value &piece = *op.operand(i);
    if (alongLanes)
      require(piece.shape()[dim], "the extent of piece " + std::to_string(i) + " (" + name_(piece) +
                                      ") of cat " + name_(result));
    Extent end = start + piece.shape()[dim];
    Coords at = coords;
    if (!start.isConstant(0))
      at[dim] = "(" + coords[dim] + " - " + ext(start) + ")";
    const bool last = i + 1 == op.operands().size();
    const std::string below = coords[dim] + " < " + ext(end);
    // The last piece takes the rest; a cat of one piece is that piece.
    std::string condition =
        last ? (i ? "else" : "") : std::string(i ? "else " : "") + "if (" + below + ")";
    std::string guard = i ? coords[dim] + " >= " + ext(start) : "";
    if (!last)
      guard += (guard.empty() ? "" : " && ") + below;
    branch(condition, guard.empty() ? "true" : guard, piece, at);
    start = end;
  }
  hoists_.pop_back();
  return {out, lane < 0};
}

// Whether no piece of a pad or cat along the lane dim starts or ends at a
// static offset off the vector boundaries (symbolic ones are required to
// be multiples of V, and checked at launch).
bool LaneValueEmitter::piecesAlignToLanes(const Op &op) const {
  const size_t dim = static_cast<size_t>(op.attrs().integer("dim"));
  auto aligned = [&](const Extent &e) {
    const std::optional<int64_t> rest = Extent::mod(e, lanes_).constant();
    return !rest || *rest == 0;
  };
  if (op.kind() == OpKind::Pad)
    return aligned(op.attrs().extent("before")) && aligned(op.operand(0)->shape()[dim]);
  for (const Value *piece : op.operands())
    if (!aligned(piece->shape()[dim]))
      return false;
  return true;
}

// A pad or cat whose pieces meet off the vector boundaries (a pad by
// (1, 3)): one vector's lanes fall in different pieces, so each lane is
// computed on its own, as a scalar at its coordinate, its reads element by
// element; the other operands of the kernel keep their vector loads.
LaneValue LaneValueEmitter::emitLaneByLane(const Op &op, const Coords &coords, int lane) {
  const size_t dim = static_cast<size_t>(lane);
  const std::string out = fresh();
  line(cudaComputeType(op.result()->dtype()) + " " + out + "[" + std::to_string(lanes_) + "];");
  for (int k = 0; k < lanes_; ++k) {
    Coords at = coords;
    at[dim] = defineScalar(index_, coords[dim] + " + " + std::to_string(k)).name;
    const LaneValue v = emitBranches(op, at, -1);
    line(out + "[" + std::to_string(k) + "] = " + v.name + ";");
  }
  return {out, false};
}

// Along the lane dim the pieces of a pad, or of a cat of narrow pieces,
// alternate within a warp: branching on them would run every branch one
// after the other. Computing every piece and selecting per vector keeps the
// warp together; each piece's reads are guarded by its condition (so they
// stay in range and cost no memory traffic where the piece is not taken).
// Wide cat pieces keep branches: a warp rarely straddles two of them.
bool LaneValueEmitter::selectsPieces(const Op &op) const {
  if (op.kind() == OpKind::Pad)
    return true;
  const size_t dim = static_cast<size_t>(op.attrs().integer("dim"));
  constexpr int64_t kWarp = 32;
  for (const Value *piece : op.operands()) {
    const std::optional<int64_t> extent = piece->shape()[dim].constant();
    if (!extent || *extent > kWarp * lanes_)
      return false;
  }
  return true;
}

LaneValue LaneValueEmitter::emitSelected(const Op &op, const Coords &coords, int lane) {
  const Value &result = *op.result();
  const size_t dim = static_cast<size_t>(op.attrs().integer("dim"));
  const DType math = mathDType(result.dtype());
  const std::string l = laneVariable();
  // The value of `piece` at `at` where `condition` holds, in the result's
  // math type, lane l.
  auto piece = [&](const Value &x, const Coords &at, const std::string &condition) {
    std::string taken = defineScalar("bool", condition).name;
    guards_.push_back(taken);
    scopes_.emplace_back();
    LaneValue v = emit(x, at, lane);
    scopes_.pop_back();
    guards_.pop_back();
    return std::make_pair(
        taken, cudaConvert(v.at(l), x.isLiteral() ? x.dtype() : mathDType(x.dtype()), math));
  };
  std::string select;
  if (op.kind() == OpKind::Pad) {
    const Value &x = *op.operand(0);
    const Extent &before = op.attrs().extent("before");
    require(before, "'before' of pad " + name_(result));
    require(x.shape()[dim],
            "the extent of " + name_(x) + " along the dim pad " + name_(result) + " pads");
    std::string shifted = defineScalar(index_, coords[dim] + " - " + ext(before)).name;
    Coords at = coords;
    at[dim] = shifted;
    auto [taken, value] =
        piece(x, at, shifted + " >= 0 && " + shifted + " < " + ext(x.shape()[dim]));
    select = taken + " ? " + value + " : " +
             cudaLiteral(op.attrs().number("value"), mathDType(result.dtype()));
  } else {
    Extent start = 0;
    std::string tail;
    for (size_t i = 0; i < op.operands().size(); ++i) {
      const Value &x = *op.operand(i);
      require(x.shape()[dim], "the extent of piece " + std::to_string(i) + " (" + name_(x) +
                                  ") of cat " + name_(result));
      const Extent end = start + x.shape()[dim];
      const bool last = i + 1 == op.operands().size();
      std::string condition = i ? coords[dim] + " >= " + ext(start) : "";
      if (!last)
        condition += (condition.empty() ? "" : " && ") + coords[dim] + " < " + ext(end);
      Coords at = coords;
      if (!start.isConstant(0))
        at[dim] = "(" + coords[dim] + " - " + ext(start) + ")";
      auto [taken, value] = piece(x, at, condition.empty() ? "true" : condition);
      if (last) {
        select += value + tail;
      } else {
        select += taken + " ? " + value + " : (";
        tail += ")";
      }
      start = end;
    }
  }
  return defineLanes(cudaComputeType(result.dtype()), select);
}

} // namespace fuserc
