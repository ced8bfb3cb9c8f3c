// The evaluator table of the reference interpreter (generated from the
// `cpuEval` fields of ops.td), EvalContext, and the machinery the
// per-family evaluators (ElementwiseEval.cpp, ReductionEval.cpp, ...) share.
#include "ir/interp/EvalSupport.h"

namespace fuserc {

namespace {
#define GET_CPU_EVALUATORS
#include "OpTables.inc"
} // namespace

CpuEvaluator cpuEvaluator(OpKind kind) {
  const auto index = static_cast<size_t>(kind);
  if (index >= std::size(kCpuEvaluators))
    throw EvalError("no CPU evaluator for op kind " + std::to_string(index));
  return kCpuEvaluators[index];
}

int noCpuDomain(OpKind kind, const char *domain) {
  throw EvalError(std::string(opInfo(kind).name) + " has no " + domain +
                  " reference expression in ops.td");
}

int64_t EvalContext::evaluate(const Extent &e) const {
  std::optional<int64_t> value = e.evaluate(symbols);
  if (!value)
    throw EvalError("cannot evaluate extent '" + e.str() +
                    "': a symbol is unbound or a division by zero occurs");
  return *value;
}

std::vector<int64_t> EvalContext::resultShape(const Op &op) const {
  std::vector<int64_t> shape;
  for (const Extent &extent : op.result()->shape()) {
    const int64_t value = evaluate(extent);
    if (value < 0)
      throw EvalError(interp::describeOp(op) + ": result extent '" + extent.str() +
                      "' evaluates to " + std::to_string(value));
    shape.push_back(value);
  }
  return shape;
}

namespace interp {

DType storageDType(DType dtype) {
  return (dtype == DType::F16 || dtype == DType::BF16) ? DType::F32 : dtype;
}

Tensor makeResult(const Op &op, const EvalContext &ctx) {
  return Tensor(storageDType(op.result()->dtype()), ctx.resultShape(op));
}

std::string describeOp(const Op &op) {
  std::string text(op.info().name);
  if (!op.result()->name().empty())
    text += " ('" + op.result()->name() + "')";
  return text;
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (size_t d = 0; d < shape.size(); ++d)
    text += (d ? ", " : "") + std::to_string(shape[d]);
  return text + "]";
}

int64_t dot(const std::vector<int64_t> &index, const std::vector<int64_t> &strides) {
  int64_t offset = 0;
  for (size_t d = 0; d < index.size(); ++d)
    offset += index[d] * strides[d];
  return offset;
}

std::vector<int64_t> broadcastStrides(const Tensor &t, const std::vector<int64_t> &shape,
                                      const Op &op, size_t operandIndex) {
  auto fail = [&] {
    throw EvalError(describeOp(op) + ": operand " + std::to_string(operandIndex) + " of shape " +
                    shapeText(t.shape()) + " does not broadcast to " + shapeText(shape));
  };
  if (t.rank() > shape.size())
    fail();
  const std::vector<int64_t> own = rowMajorStrides(t.shape());
  std::vector<int64_t> strides(shape.size(), 0);
  const size_t lead = shape.size() - t.rank();
  for (size_t d = 0; d < t.rank(); ++d) {
    if (t.shape()[d] == shape[lead + d])
      strides[lead + d] = own[d];
    else if (t.shape()[d] != 1)
      fail();
  }
  return strides;
}

double readAsFloat(const Tensor &t, size_t i, DType floatType) {
  if (t.isFloating())
    return roundToFloatType(t.getFloat(i), floatType);
  return intToFloatType(t.getInt(i), floatType);
}

int64_t readAsInt(const Tensor &t, size_t i, DType intType) {
  if (t.isFloating())
    return floatToIntType(t.getFloat(i), intType);
  return wrapToIntType(t.getInt(i), intType);
}

void copyElement(const Tensor &src, size_t i, Tensor &dst, size_t j) {
  if (src.isFloating())
    dst.setFloat(j, src.getFloat(i));
  else
    dst.setInt(j, src.getInt(i));
}

AxisSplit splitAxes(const std::vector<int64_t> &shape, const std::vector<int64_t> &axes,
                    const Op &op) {
  const std::vector<int64_t> strides = rowMajorStrides(shape);
  std::vector<bool> isReduced(shape.size(), false);
  std::vector<int64_t> reducedStrides;
  AxisSplit split;
  for (int64_t axis : axes) {
    const int64_t a = checkedAxis(op, "axes", axis, shape.size());
    if (isReduced[a])
      throw EvalError(describeOp(op) + ": axis " + std::to_string(a) + " is listed twice");
    isReduced[a] = true;
    split.reducedShape.push_back(shape[a]);
    reducedStrides.push_back(strides[a]);
  }
  std::vector<int64_t> keptShape, keptStrides;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!isReduced[d]) {
      keptShape.push_back(shape[d]);
      keptStrides.push_back(strides[d]);
    }
  }
  forEachIndex(keptShape, [&](const std::vector<int64_t> &index, size_t) {
    split.keptOffsets.push_back(dot(index, keptStrides));
  });
  forEachIndex(split.reducedShape, [&](const std::vector<int64_t> &index, size_t) {
    split.reducedOffsets.push_back(dot(index, reducedStrides));
  });
  return split;
}

AxisSplit splitReducedAxes(const Op &op, const Tensor &x, const Tensor &result) {
  const Attributes &attrs = op.attrs();
  AxisSplit split = splitAxes(
      x.shape(), attrs.has("dim") ? std::vector<int64_t>{attrs.integer("dim")} : attrs.axes("axes"),
      op);
  if (split.keptOffsets.size() != result.numel())
    throw EvalError(describeOp(op) + ": reducing " + shapeText(x.shape()) +
                    " does not give the result shape " + shapeText(result.shape()));
  return split;
}

const Tensor &operandAt(const Op &op, std::span<const Tensor *const> operands, size_t i) {
  if (i >= operands.size() || operands[i] == nullptr)
    throw EvalError(describeOp(op) + ": operand " + std::to_string(i) + " is missing");
  return *operands[i];
}

int64_t checkedAxis(const Op &op, std::string_view attrName, int64_t axis, size_t rank) {
  if (axis < 0 || axis >= static_cast<int64_t>(rank))
    throw EvalError(describeOp(op) + ": " + std::string(attrName) + " " + std::to_string(axis) +
                    " is out of range for rank " + std::to_string(rank));
  return axis;
}

} // namespace interp
} // namespace fuserc
