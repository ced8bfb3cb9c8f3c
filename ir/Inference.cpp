// Result type inference and attribute normalization (see Inference.h).
//
// Operand and attribute checks and the dtype rules live here; the shape
// rules are in ShapeRules.cpp. Each rule family of ops.td is implemented
// once. Messages say what was expected and what was found.
#include "ir/Inference.h"
#include "ir/InferenceRules.h"
#include "ir/Limits.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <set>

namespace fuserc {
namespace {

// "1 operand", "2 operands".
std::string operandCount(size_t n) {
  return std::to_string(n) + (n == 1 ? " operand" : " operands");
}

// What a missing attribute should look like, for "requires attribute ...":
// spelled out so the user can write it without looking up ops.td.
std::string expectedValue(const AttrSpec &spec) {
  switch (spec.kind) {
  case AttrKind::Int:
    return "an integer";
  case AttrKind::Number:
    return "a number";
  case AttrKind::Bool:
    return "true or false";
  case AttrKind::DType:
    return "a dtype: bool, i32, i64, f16, bf16, f32 or f64";
  case AttrKind::Axis:
    return "an axis";
  case AttrKind::AxisList:
    return "a list of axes like [0, -1]";
  case AttrKind::Extent:
    return "an extent: an integer or a symbol";
  case AttrKind::ExtentList:
    return "a list of extents like [M, 128]";
  case AttrKind::Enum: {
    std::string choices;
    for (std::string_view c : spec.choices)
      choices += (choices.empty() ? "one of \"" : ", \"") + std::string(c) + "\"";
    return choices;
  }
  }
  return std::string(attrKindDescription(spec.kind));
}

// Parses an ops.td default value into an attribute of the given kind.
AttrValue parseDefault(AttrKind kind, std::string_view text) {
  auto toInt = [&] {
    int64_t v = 0;
    std::from_chars(text.data(), text.data() + text.size(), v);
    return v;
  };
  switch (kind) {
  case AttrKind::Int:
  case AttrKind::Axis:
    return toInt();
  case AttrKind::Number:
    if (text.find_first_of(".eEn") == std::string_view::npos)
      return Number::integer(toInt());
    return Number::floating(std::stod(std::string(text)));
  case AttrKind::Bool:
    return text == "true";
  case AttrKind::DType:
    return *parseDType(text);
  case AttrKind::Enum:
    return std::string(text);
  case AttrKind::Extent:
    if (!text.empty() && (std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '-'))
      return Extent(toInt());
    return Extent::symbol(text);
  case AttrKind::AxisList:
  case AttrKind::ExtentList:
    break;
  }
  return std::string(text); // ops.td's tblgen check rejects list defaults
}

using namespace inference_detail;

class Inferrer : public RuleContext {
public:
  Inferrer(OpKind kind, std::span<Value *const> operands, Attributes &attrs)
      : RuleContext(kind, operands, attrs), kind_(kind) {}

  TensorType run() {
    checkOperands();
    fillDefaults();
    checkSoftplusAttributes();
    checkShapeAttributeRanks();
    std::vector<Extent> shape = inferShapeRule(kind_, operands_, attrs_);
    checkResultSize(shape);
    DType dtype = inferDType();
    checkElementValue(dtype);
    putInSchemaOrder();
    return {dtype, std::move(shape)};
  }

private:
  // softplus divides by 'beta' (PyTorch gives inf or NaN everywhere for 0,
  // a mistake rather than a use) and compares beta * x with 'threshold'.
  void checkSoftplusAttributes() {
    if (kind_ != OpKind::Softplus)
      return;
    const double beta = attrs_.number("beta").asDouble();
    if (beta == 0 || !std::isfinite(beta))
      fail(opName() +
               " 'beta' must be a nonzero finite number (the result is divided by it), got " +
               attrs_.number("beta").str(),
           -1, "beta");
    if (std::isnan(attrs_.number("threshold").asDouble()))
      fail(opName() + " 'threshold' must not be NaN", -1, "threshold");
  }

  // A 'value' attribute (pad's padding, full's elements) is stored as an
  // element of the result, so it must be representable in the result's
  // dtype: 1e300 in f32 or 1e5 in f16 is refused, as PyTorch refuses it,
  // and so is `inf` or `nan` in an integer dtype. (`inf` itself is a value
  // of every floating dtype; an f64 overflow is a parse error.)
  void checkElementValue(DType dtype) {
    const AttrValue *value = attrs_.find("value");
    const Number *number = value ? std::get_if<Number>(value) : nullptr;
    if (!number)
      return;
    if (!isFloating(dtype) && dtype != DType::Bool && !std::isfinite(number->asDouble())) {
      fail(opName() + " 'value' " + number->str() + " cannot be converted to " +
               std::string(dtypeName(dtype)) + " (integer dtypes have no infinity or NaN)",
           -1, "value");
    }
    if (!isFloating(dtype) || !overflowsFloatType(number->asDouble(), dtype))
      return;
    fail(opName() + " 'value' " + number->str() + " is out of range of " +
             std::string(dtypeName(dtype)) + " (its largest finite value is " +
             Number::floating(largestFinite(dtype)).str() + ")",
         -1, "value");
  }

  // An extent-list attribute is the result's shape (reshape, expand, full,
  // iota, broadcast_in_dim). Past the rank limit it is refused before a
  // shape rule multiplies its extents, which takes time quadratic in the
  // rank when they are symbols.
  void checkShapeAttributeRanks() {
    for (const AttrSpec &spec : info_.attrs) {
      if (spec.kind != AttrKind::ExtentList || !attrs_.has(spec.name))
        continue;
      if (size_t rank = attrs_.extents(spec.name).size(); rank > limits::kMaxRank)
        fail("the result of " + opName() + " would have rank " + std::to_string(rank) +
                 "; tensors have at most " + std::to_string(limits::kMaxRank) + " dims",
             -1, std::string(spec.name));
    }
  }

  // The result must stay within limits::kMaxRank dims and kMaxElements
  // elements, and its shape must have been computed without overflow.
  void checkResultSize(const std::vector<Extent> &shape) {
    if (shape.size() > limits::kMaxRank)
      fail("the result of " + opName() + " would have rank " + std::to_string(shape.size()) +
           "; tensors have at most " + std::to_string(limits::kMaxRank) + " dims");
    for (size_t d = 0; d < shape.size(); ++d) {
      const Extent &e = shape[d];
      std::string where = "dim " + std::to_string(d) + " of the result of " + opName();
      if (e.problems() & kExtentOverflow)
        fail("the extent of " + where + " overflows 64-bit integers");
      if ((e.problems() & kExtentTooComplex) || e.str().size() > limits::kMaxExtentLength)
        fail("the extent of " + where + " is too complex an expression (more than " +
             std::to_string(limits::kMaxExtentLength) + " characters)");
      if (std::optional<int64_t> c = e.constant(); c && *c > limits::kMaxElements)
        fail("the extent " + e.str() + " of " + where + " is larger than " +
             std::to_string(limits::kMaxElements) + " (2^60)");
    }
    Extent count = numElements(shape);
    std::optional<int64_t> c = count.constant();
    if (count.problems() || (c && *c > limits::kMaxElements))
      fail("the result of " + opName() + " " + shapeString(shape) +
           " would have more than 2^60 elements");
  }

  void checkOperands() {
    size_t expected = info_.operands.size();
    if (info_.isVariadic()) {
      if (operands_.size() < expected)
        fail(opName() + " expects at least " + operandCount(expected) + ", got " +
             std::to_string(operands_.size()));
    } else if (operands_.size() != expected) {
      // Too many: point at the first one too many; too few: at the call.
      fail(opName() + " expects " + operandCount(expected) + ", got " +
               std::to_string(operands_.size()),
           operands_.size() > expected ? int(expected) : -1);
    }
    for (size_t i = 0; i < operands_.size(); ++i) {
      const OperandSpec &spec = info_.operands[std::min(i, info_.operands.size() - 1)];
      const Value *v = operand(i);
      std::string what =
          "operand " + std::to_string(i + 1) + " (" + quoted(spec.name) + ") of " + opName();
      if (spec.kind == OperandKind::Index && !isInteger(v->dtype()))
        fail(what + " must be an integer tensor, got " + typeString(v), int(i));
      // rand_like's seed and offset are scalar inputs (docs/language.md, "Scalars"): the
      // caller picks the random stream at launch, so no literal or
      // computed value stands in for them.
      if (spec.kind == OperandKind::Scalar && (!v->isScalarInput() || !isInteger(v->dtype())))
        fail(what + " must be an integer scalar input, got " + typeString(v), int(i));
    }
  }

  void fillDefaults() {
    for (const AttrSpec &spec : info_.attrs) {
      if (attrs_.has(spec.name))
        continue;
      if (spec.required)
        fail(opName() + " requires attribute " + quoted(spec.name) + " (" + expectedValue(spec) +
             ")");
      if (!spec.defaultValue.empty())
        attrs_.set(spec.name, parseDefault(spec.kind, spec.defaultValue));
    }
  }

  // Printing and equality must not depend on the order the user wrote
  // attributes in, nor on the order inference filled them in.
  void putInSchemaOrder() {
    std::vector<Attributes::Entry> ordered;
    for (const AttrSpec &spec : info_.attrs)
      if (const AttrValue *v = attrs_.find(spec.name))
        ordered.push_back({std::string(spec.name), *v});
    attrs_.entries() = std::move(ordered);
  }

  // --- dtype rules ----------------------------------------------------------

  DType inferDType() {
    switch (info_.dtypeRule) {
    case DTypeRule::Promote:
      return promoteOperandTypes(operands_);
    case DTypeRule::PromoteFloat: {
      DType t = promoteOperandTypes(operands_);
      return isFloating(t) ? t : kDefaultFloat;
    }
    case DTypeRule::PromoteToBool:
      promoteOperandTypes(operands_);
      return DType::Bool;
    case DTypeRule::PromoteIntegral: {
      DType t = promoteOperandTypes(operands_);
      if (isFloating(t)) {
        int i = firstFloatOperand();
        fail(opName() + " expects bool or integer operands, got " + typeString(operand(i)), i);
      }
      return t;
    }
    case DTypeRule::Where:
      if (operand(0)->dtype() != DType::Bool)
        fail("condition of " + opName() + " must be bool, got " + typeString(operand(0)), 0);
      return promoteOperandTypes(operands_.subspan(1));
    case DTypeRule::FromAttr:
      return attrs_.dtype("dtype");
    case DTypeRule::SameAsFirst:
      return operand(0)->dtype();
    case DTypeRule::SameFloat:
      if (!isFloating(operand(0)->dtype()) || operand(0)->isLiteral())
        fail(opName() + " expects a floating-point tensor, got " + typeString(operand(0)), 0);
      return operand(0)->dtype();
    case DTypeRule::Reduce:
      if (attrs_.has("dtype"))
        return attrs_.dtype("dtype");
      return isIntegral(operand(0)->dtype()) ? DType::I64 : operand(0)->dtype();
    case DTypeRule::ReduceKeep:
      return operand(0)->dtype();
    case DTypeRule::Index:
      return DType::I64;
    case DTypeRule::ReduceFloat:
      if (attrs_.has("dtype")) {
        DType t = attrs_.dtype("dtype");
        if (!isFloating(t))
          fail(opName() + " 'dtype' must be floating point, got " + std::string(dtypeName(t)), -1,
               "dtype");
        return t;
      }
      if (!isFloating(operand(0)->dtype()))
        fail(opName() + " expects a floating-point input (or a floating 'dtype='), got " +
                 typeString(operand(0)),
             0);
      return operand(0)->dtype();
    }
    fail("unknown dtype rule");
  }

  // Promotion gave a floating type, so some operand is floating.
  int firstFloatOperand() const {
    for (size_t i = 0; i < operands_.size(); ++i)
      if (isFloating(operand(i)->dtype()))
        return int(i);
    return 0;
  }

  OpKind kind_;
};

} // namespace

std::optional<std::vector<Extent>> broadcastShapes(const std::vector<Extent> &a,
                                                   const std::vector<Extent> &b) {
  size_t rank = std::max(a.size(), b.size());
  std::vector<Extent> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Right-aligned: i counts from the innermost dim.
    const Extent *ea = i < a.size() ? &a[a.size() - 1 - i] : nullptr;
    const Extent *eb = i < b.size() ? &b[b.size() - 1 - i] : nullptr;
    Extent &o = out[rank - 1 - i];
    if (!ea || ea->isConstant(1))
      o = *(eb ? eb : ea);
    else if (!eb || eb->isConstant(1) || *ea == *eb)
      o = *ea;
    else
      return std::nullopt;
  }
  return out;
}

DType promoteOperandTypes(std::span<Value *const> operands) {
  std::optional<DType> dimensioned, rankZero, literal;
  auto merge = [](std::optional<DType> &into, DType t) {
    into = into ? promoteTypes(*into, t) : t;
  };
  for (const Value *v : operands) {
    if (v->isLiteral())
      merge(literal, isFloating(v->dtype()) ? kDefaultFloat : v->dtype());
    else if (v->isRankZero())
      merge(rankZero, v->dtype());
    else
      merge(dimensioned, v->dtype());
  }
  // A lower-priority group only matters when it is of a higher category.
  auto combine = [](std::optional<DType> higher, std::optional<DType> lower) {
    if (!higher)
      return lower;
    if (!lower || isFloating(*higher))
      return higher;
    if (*higher == DType::Bool || isFloating(*lower))
      return std::optional<DType>(promoteTypes(*higher, *lower));
    return higher;
  };
  return combine(dimensioned, combine(rankZero, literal)).value_or(kDefaultFloat);
}

InferenceResult inferResultType(OpKind kind, std::span<Value *const> operands, Attributes &attrs) {
  try {
    return Inferrer(kind, operands, attrs).run();
  } catch (Failure &f) {
    return std::move(f.error);
  }
}

ComputeDomain elementwiseComputeDomain(const Op &op) {
  const OpInfo &info = op.info();
  auto math = [](DType t) { return t == DType::F16 || t == DType::BF16 ? DType::F32 : t; };
  DType compute;
  if (op.kind() == OpKind::Cast) {
    compute = op.operand(0)->dtype();
  } else {
    std::span<Value *const> operands(op.operands());
    if (info.dtypeRule == DTypeRule::Where)
      operands = operands.subspan(1);
    compute = promoteOperandTypes(operands);
  }
  if (isFloating(compute))
    return {true, math(compute)};
  if (info.dtypeRule == DTypeRule::PromoteFloat || !info.hasCpuInt) {
    const DType result = op.result()->dtype();
    return {true, isFloating(result) ? math(result) : kDefaultFloat};
  }
  return {false, compute};
}

} // namespace fuserc
