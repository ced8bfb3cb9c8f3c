// The shape rules of ops.td (one method per ShapeRule family) and the
// attribute normalization they do; see ir/Inference.h for the normal form.
#include "ir/InferenceRules.h"

#include <algorithm>
#include <optional>

namespace fuserc::inference_detail {
namespace {

class ShapeRules : public RuleContext {
public:
  using RuleContext::RuleContext;

  std::vector<Extent> infer() {
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
    case ShapeRule::Scan:
      return sameShape();
    case ShapeRule::Scalar:
      return scalarShape();
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
    // argmax and argmin reduce one `dim`, the others a set of `axes`.
    std::vector<int64_t> axes = attrs_.has("dim")
                                    ? std::vector<int64_t>{axisAttr("dim", in.size())}
                                    : axisSetAttr("axes", in.size(), /*allowEmpty=*/false);
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
    if (known.problems())
      fail(opName() + " 'shape' " + attrValueString(attrs_.extents("shape")) +
               " has too many elements (its element count overflows 64-bit integers)",
           -1, "shape");
    if (inferred) {
      // Not provably whole: an exact division the wrappers check at launch
      // ([N, 32, -1] of [N, C]); a constant remainder is an error now.
      Extent missing = Extent::floorDiv(total, known);
      if (missing * known != total && !Extent::mod(total, known).constant())
        missing = Extent::exactDiv(total, known);
      // 100*N over 32*N reduces to two numbers with a remainder.
      if (missing.hasRemainder() || missing * known != total)
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
    if (padded.problems() & kExtentOverflow)
      fail(opName() + " would give dim " + std::to_string(dim) +
               " an extent that overflows 64-bit integers",
           -1, "after");
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
    // A 0-d index selects one entry and keeps the dim, as torch.index_select.
    if (index.size() > 1)
      fail(opName() + " index must be 1-D or 0-d, got " + typeString(operand(1)), 1);
    out[dim] = index.empty() ? Extent(1) : index[0];
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

  // size(x, dim) and extent(value=...): rank 0; size's dim is one of x's.
  std::vector<Extent> scalarShape() {
    if (attrs_.has("dim"))
      axisAttr("dim", operand(0)->rank());
    return {};
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
};

} // namespace

std::vector<Extent> inferShapeRule(OpKind kind, std::span<Value *const> operands,
                                   Attributes &attrs) {
  return ShapeRules(kind, operands, attrs).infer();
}

} // namespace fuserc::inference_detail
