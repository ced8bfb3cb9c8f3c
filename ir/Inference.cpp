// Result type inference and attribute normalization (see Inference.h).
//
// The dtype rules and shape rules are the families ops.td assigns; each is
// implemented once here. Messages say what was expected and what was found.
#include "ir/Inference.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <set>

namespace fuserc {
namespace {

struct Failure {
  InferenceError error;
};

[[noreturn]] void fail(std::string message, int operand = -1, std::string attr = {},
                       int attrItem = -1) {
  throw Failure{{std::move(message), operand, std::move(attr), attrItem}};
}

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

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

std::string typeString(const Value *v) {
  if (v->isLiteral())
    return "literal " + v->literal().str();
  return std::string(dtypeName(v->dtype())) + shapeString(v->shape());
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

class Inferrer {
public:
  Inferrer(OpKind kind, std::span<Value *const> operands, Attributes &attrs)
      : info_(opInfo(kind)), operands_(operands), attrs_(attrs) {}

  TensorType run() {
    checkOperands();
    fillDefaults();
    std::vector<Extent> shape = inferShape();
    DType dtype = inferDType();
    putInSchemaOrder();
    return {dtype, std::move(shape)};
  }

private:
  std::string opName() const { return quoted(info_.name); }
  Value *operand(size_t i) const { return operands_[i]; }

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
      // rand_like's seed and offset are scalar inputs (DESIGN 2.3): the
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

  // --- attribute helpers --------------------------------------------------

  // `item` is the axis' index in a list attribute (-1 for a single axis),
  // so the diagnostic can point at the entry itself.
  int64_t normalizeAxis(int64_t axis, size_t rank, std::string_view attr, int item = -1) const {
    int64_t r = static_cast<int64_t>(rank);
    if (axis < -r || axis >= r) {
      std::string range = r == 0 ? "a rank-0 tensor has no axes"
                                 : "expected an axis in [" + std::to_string(-r) + ", " +
                                       std::to_string(r - 1) + "]";
      fail(opName() + " axis " + std::to_string(axis) + " is out of range for a rank-" +
               std::to_string(r) + " tensor (" + range + ")",
           -1, std::string(attr), item);
    }
    return axis < 0 ? axis + r : axis;
  }

  int64_t axisAttr(std::string_view attr, size_t rank) {
    int64_t axis = normalizeAxis(attrs_.integer(attr), rank, attr);
    attrs_.set(attr, axis);
    return axis;
  }

  // Normalized, sorted, unique axes.
  std::vector<int64_t> axisSetAttr(std::string_view attr, size_t rank, bool allowEmpty) {
    const std::vector<int64_t> given = attrs_.axes(attr);
    std::vector<int64_t> axes;
    for (size_t i = 0; i < given.size(); ++i)
      axes.push_back(normalizeAxis(given[i], rank, attr, int(i)));
    // Reported at the second mention, with the list as written: [1, -1]
    // names dim 1 twice only once negative axes are counted from the end.
    for (size_t i = 0; i < axes.size(); ++i)
      for (size_t j = 0; j < i; ++j)
        if (axes[i] == axes[j])
          fail(opName() + " " + quoted(attr) + " " + attrValueString(given) + " names dim " +
                   std::to_string(axes[i]) + " of the rank-" + std::to_string(rank) +
                   " operand twice",
               -1, std::string(attr), int(i));
    std::vector<int64_t> sorted = axes;
    std::sort(sorted.begin(), sorted.end());
    if (sorted.empty() && !allowEmpty)
      fail(opName() + " needs at least one axis in " + quoted(attr), -1, std::string(attr));
    attrs_.set(attr, sorted);
    return sorted;
  }

  // `item` is the extent's index in the list attribute `attr`.
  void requireNonNegative(const Extent &e, std::string_view attr, size_t item) const {
    if (auto c = e.constant(); c && *c < 0)
      fail(opName() + " extent " + std::to_string(*c) + " in " + quoted(attr) + " is negative", -1,
           std::string(attr), int(item));
  }

  // --- shape rules ----------------------------------------------------------

  std::vector<Extent> inferShape() {
    switch (info_.shapeRule) {
    case ShapeRule::Elementwise:
      return elementwiseShape();
    case ShapeRule::Reduction:
      return reductionShape();
    case ShapeRule::BroadcastInDim:
      return broadcastInDimShape();
    case ShapeRule::Expand:
      return expandShape();
    case ShapeRule::Reshape:
      return reshapeShape();
    case ShapeRule::Permute:
      return permuteShape();
    case ShapeRule::Squeeze:
      return squeezeShape();
    case ShapeRule::Unsqueeze:
      return unsqueezeShape();
    case ShapeRule::Slice:
      return sliceShape();
    case ShapeRule::Pad:
      return padShape();
    case ShapeRule::Cat:
      return catShape();
    case ShapeRule::IndexSelect:
      return indexSelectShape();
    case ShapeRule::Gather:
      return gatherShape();
    case ShapeRule::Scatter:
      return scatterShape();
    case ShapeRule::Creation:
      return creationShape();
    case ShapeRule::Same:
      return sameShape();
    case ShapeRule::Normalization:
      return normalizationShape();
    }
    fail("unknown shape rule");
  }

  std::vector<Extent> elementwiseShape() {
    std::vector<Extent> shape = operand(0)->shape();
    for (size_t i = 1; i < operands_.size(); ++i) {
      auto merged = broadcastShapes(shape, operand(i)->shape());
      if (!merged)
        fail("operands of " + opName() + " do not broadcast: " + shapeString(shape) + " and " +
                 shapeString(operand(i)->shape()) + " (operand " + std::to_string(i + 1) +
                 "); extents must be equal, the same symbol, or a static 1",
             int(i));
      shape = std::move(*merged);
    }
    return shape;
  }

  std::vector<Extent> reductionShape() {
    const std::vector<Extent> &in = operand(0)->shape();
    std::vector<int64_t> axes = axisSetAttr("axes", in.size(), /*allowEmpty=*/false);
    bool keep = attrs_.boolean("keepdim");
    std::vector<Extent> out;
    for (size_t d = 0; d < in.size(); ++d) {
      bool reduced = std::binary_search(axes.begin(), axes.end(), int64_t(d));
      if (!reduced)
        out.push_back(in[d]);
      else if (keep)
        out.push_back(Extent(1));
    }
    return out;
  }

  std::vector<Extent> broadcastInDimShape() {
    const std::vector<Extent> &in = operand(0)->shape();
    std::vector<Extent> out = attrs_.extents("shape");
    for (size_t d = 0; d < out.size(); ++d)
      requireNonNegative(out[d], "shape", d);
    std::vector<int64_t> dims;
    for (int64_t d : attrs_.axes("broadcast_dims"))
      dims.push_back(normalizeAxis(d, out.size(), "broadcast_dims", int(dims.size())));
    attrs_.set("broadcast_dims", dims);
    if (dims.size() != in.size())
      fail(opName() +
               " needs one entry in 'broadcast_dims' per operand dim: the operand has rank " +
               std::to_string(in.size()) + ", 'broadcast_dims' has " + std::to_string(dims.size()),
           -1, "broadcast_dims");
    for (size_t i = 0; i < dims.size(); ++i) {
      if (i && dims[i] <= dims[i - 1])
        fail(opName() + " 'broadcast_dims' must be strictly increasing, got " +
                 attrValueString(dims),
             -1, "broadcast_dims", int(i));
      const Extent &target = out[dims[i]];
      if (!in[i].isConstant(1) && in[i] != target)
        fail(opName() + " operand dim " + std::to_string(i) + " has extent " + in[i].str() +
                 ", which cannot broadcast to output dim " + std::to_string(dims[i]) +
                 " of extent " + target.str(),
             -1, "broadcast_dims", int(i));
    }
    return out;
  }

  std::vector<Extent> expandShape() {
    const std::vector<Extent> &in = operand(0)->shape();
    std::vector<Extent> out = attrs_.extents("shape");
    if (out.size() < in.size())
      fail(opName() + " 'shape' has rank " + std::to_string(out.size()) +
               ", smaller than the operand's rank " + std::to_string(in.size()),
           -1, "shape");
    size_t lead = out.size() - in.size();
    for (size_t d = 0; d < out.size(); ++d) {
      bool keep = out[d].isConstant(-1);
      if (d < lead) {
        if (keep)
          fail(opName() + " cannot use -1 for new leading dim " + std::to_string(d) +
                   " (-1 keeps an operand dim; the operand has rank " + std::to_string(in.size()) +
                   ")",
               -1, "shape", int(d));
        requireNonNegative(out[d], "shape", d);
        continue;
      }
      const Extent &src = in[d - lead];
      if (keep) {
        out[d] = src;
        continue;
      }
      // An extent-1 dim expands to any extent, but not to a negative one.
      requireNonNegative(out[d], "shape", d);
      if (!src.isConstant(1) && src != out[d])
        fail(opName() + " cannot expand dim " + std::to_string(d - lead) + " of extent " +
                 src.str() + " to " + out[d].str() + " (only extent-1 dims expand)",
             -1, "shape", int(d));
    }
    attrs_.set("shape", out);
    return out;
  }

  std::vector<Extent> reshapeShape() {
    const std::vector<Extent> &in = operand(0)->shape();
    std::vector<Extent> out = attrs_.extents("shape");
    std::optional<size_t> inferred;
    Extent known(1);
    for (size_t d = 0; d < out.size(); ++d) {
      if (out[d].isConstant(-1)) {
        if (inferred)
          fail(opName() + " 'shape' " + attrValueString(attrs_.extents("shape")) +
                   " may contain at most one -1 (the extent to infer)",
               -1, "shape", int(d));
        inferred = d;
        continue;
      }
      requireNonNegative(out[d], "shape", d);
      known = known * out[d];
    }
    Extent total = numElements(in);
    if (inferred) {
      Extent missing = Extent::floorDiv(total, known);
      if (missing * known != total)
        fail(opName() + " cannot infer the -1 in " + shapeString(out) + ": " + total.str() +
                 " elements are not a multiple of " + known.str(),
             -1, "shape");
      out[*inferred] = missing;
      attrs_.set("shape", out);
    } else if (known != total) {
      fail(opName() + " must keep the element count: " + shapeString(in) + " has " + total.str() +
               " elements, " + shapeString(out) + " has " + known.str(),
           -1, "shape");
    }
    return out;
  }

  std::vector<Extent> permuteShape() {
    const std::vector<Extent> &in = operand(0)->shape();
    std::vector<int64_t> dims;
    for (int64_t d : attrs_.axes("dims"))
      dims.push_back(normalizeAxis(d, in.size(), "dims", int(dims.size())));
    if (!isPermutation(dims, in.size()))
      fail(opName() + " 'dims' must be a permutation of the operand's " +
               std::to_string(in.size()) + " dims, got " + attrValueString(dims),
           -1, "dims");
    attrs_.set("dims", dims);
    std::vector<Extent> out;
    for (int64_t d : dims)
      out.push_back(in[d]);
    return out;
  }

  std::vector<Extent> squeezeShape() {
    const std::vector<Extent> &in = operand(0)->shape();
    const std::vector<int64_t> given = attrs_.axes("dims");
    std::vector<int64_t> dims = axisSetAttr("dims", in.size(), /*allowEmpty=*/true);
    std::vector<Extent> out;
    for (size_t d = 0; d < in.size(); ++d) {
      if (!std::binary_search(dims.begin(), dims.end(), int64_t(d))) {
        out.push_back(in[d]);
        continue;
      }
      if (!in[d].isConstant(1)) {
        int item = -1;
        for (size_t i = 0; i < given.size(); ++i)
          if (given[i] == int64_t(d) || given[i] + int64_t(in.size()) == int64_t(d))
            item = int(i);
        fail(opName() + " cannot squeeze dim " + std::to_string(d) + " of extent " + in[d].str() +
                 " (only static extent-1 dims can be squeezed)",
             -1, "dims", item);
      }
    }
    return out;
  }

  std::vector<Extent> unsqueezeShape() {
    std::vector<Extent> out = operand(0)->shape();
    int64_t dim = axisAttr("dim", out.size() + 1);
    out.insert(out.begin() + dim, Extent(1));
    return out;
  }

  // A PyTorch-style bound: negative counts from the end; constants clamp.
  Extent sliceBound(std::string_view attr, const Extent &extent) {
    Extent bound = attrs_.extent(attr);
    if (auto c = bound.constant(); c && *c < 0)
      bound = extent + bound;
    if (auto c = bound.constant(); c && *c < 0)
      bound = Extent(0);
    if (auto c = bound.constant(), n = extent.constant(); c && n && *c > *n)
      bound = extent;
    attrs_.set(attr, bound);
    return bound;
  }

  std::vector<Extent> sliceShape() {
    std::vector<Extent> out = operand(0)->shape();
    int64_t dim = axisAttr("dim", out.size());
    const Extent extent = out[dim];
    if (!attrs_.has("end"))
      attrs_.set("end", extent);
    Extent start = sliceBound("start", extent);
    Extent end = sliceBound("end", extent);
    int64_t step = attrs_.integer("step");
    if (step <= 0)
      fail(opName() + " 'step' must be positive, got " + std::to_string(step), -1, "step");
    Extent length = Extent::ceilDiv(end - start, Extent(step));
    if (auto c = length.constant(); c && *c < 0)
      length = Extent(0);
    out[dim] = length;
    return out;
  }

  std::vector<Extent> padShape() {
    std::vector<Extent> out = operand(0)->shape();
    int64_t dim = axisAttr("dim", out.size());
    Extent padded = attrs_.extent("before") + out[dim] + attrs_.extent("after");
    if (auto c = padded.constant(); c && *c < 0)
      fail(opName() + " would give dim " + std::to_string(dim) + " a negative extent " +
               std::to_string(*c),
           -1, "after");
    out[dim] = padded;
    return out;
  }

  std::vector<Extent> catShape() {
    std::vector<Extent> out = operand(0)->shape();
    if (out.empty())
      fail(opName() + " operands must have rank 1 or more, operand 1 is " + typeString(operand(0)),
           0);
    int64_t dim = axisAttr("dim", out.size());
    for (size_t i = 1; i < operands_.size(); ++i) {
      const std::vector<Extent> &s = operand(i)->shape();
      if (s.size() != out.size())
        fail(opName() + " operand " + std::to_string(i + 1) + " has rank " +
                 std::to_string(s.size()) + ", expected " + std::to_string(out.size()),
             int(i));
      for (size_t d = 0; d < s.size(); ++d) {
        if (int64_t(d) == dim)
          continue;
        if (s[d] != out[d])
          fail(opName() + " operand " + std::to_string(i + 1) + " has extent " + s[d].str() +
                   " in dim " + std::to_string(d) + ", expected " + out[d].str() +
                   " (all dims but 'dim' must agree)",
               int(i));
      }
      out[dim] = out[dim] + s[dim];
    }
    return out;
  }

  std::vector<Extent> indexSelectShape() {
    std::vector<Extent> out = operand(0)->shape();
    int64_t dim = axisAttr("dim", out.size());
    const std::vector<Extent> &index = operand(1)->shape();
    if (index.size() != 1)
      fail(opName() + " index must be 1-D, got " + typeString(operand(1)), 1);
    out[dim] = index[0];
    return out;
  }

  std::vector<Extent> gatherShape() {
    const std::vector<Extent> &in = operand(0)->shape();
    int64_t dim = axisAttr("dim", in.size());
    const std::vector<Extent> &index = operand(1)->shape();
    if (index.size() != in.size())
      fail(opName() + " index must have the input's rank " + std::to_string(in.size()) + ", got " +
               typeString(operand(1)),
           1);
    for (size_t d = 0; d < in.size(); ++d) {
      auto i = index[d].constant(), n = in[d].constant();
      if (int64_t(d) != dim && i && n && *i > *n)
        fail(opName() + " index extent " + std::to_string(*i) + " in dim " + std::to_string(d) +
                 " exceeds the input's extent " + std::to_string(*n),
             1);
    }
    return index;
  }

  std::vector<Extent> scatterShape() {
    const std::vector<Extent> &in = operand(0)->shape();
    axisAttr("dim", in.size());
    const std::vector<Extent> &index = operand(1)->shape();
    if (index.size() != in.size())
      fail(opName() + " index must have the input's rank " + std::to_string(in.size()) + ", got " +
               typeString(operand(1)),
           1);
    const Value *src = operand(2);
    if (!src->isRankZero() && src->shape() != index)
      fail(opName() + " src must be a scalar or shaped like the index " + shapeString(index) +
               ", got " + typeString(src),
           2);
    return in;
  }

  std::vector<Extent> creationShape() {
    std::vector<Extent> out = attrs_.extents("shape");
    for (size_t d = 0; d < out.size(); ++d) {
      if (out[d].isConstant(-1))
        fail(opName() + " 'shape' cannot contain -1 (a created tensor has no operand to infer "
                        "it from)",
             -1, "shape", int(d));
      requireNonNegative(out[d], "shape", d);
    }
    if (attrs_.has("dim"))
      axisAttr("dim", out.size());
    return out;
  }

  std::vector<Extent> sameShape() {
    const std::vector<Extent> &in = operand(0)->shape();
    if (info_.findAttr("dim"))
      axisAttr("dim", in.size());
    return in;
  }

  std::vector<Extent> normalizationShape() {
    const std::vector<Extent> &in = operand(0)->shape();
    std::vector<int64_t> axes = axisSetAttr("axes", in.size(), /*allowEmpty=*/false);
    std::vector<Extent> paramShape;
    for (int64_t a : axes)
      paramShape.push_back(in[a]);
    for (size_t i = 1; i < operands_.size(); ++i)
      if (operand(i)->shape() != paramShape)
        fail(opName() + " parameter " + quoted(info_.operands[i].name) + " must have shape " +
                 shapeString(paramShape) + " (the normalized dims), got " + typeString(operand(i)),
             int(i));
    return in;
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

  const OpInfo &info_;
  std::span<Value *const> operands_;
  Attributes &attrs_;
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

} // namespace fuserc
