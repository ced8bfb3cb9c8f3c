// Reference evaluation of index-map ops: broadcast_in_dim, expand, reshape,
// permute, squeeze, unsqueeze, slice and pad. Each output element reads at
// most one input element, at an offset affine in the output index, so every
// op reduces to building one AffineMap from its shape rule.
#include "ir/interp/EvalSupport.h"

namespace fuserc {
namespace {

using interp::checkedAxis;
using interp::describeOp;
using interp::shapeText;

// Output element at index `out` reads input offset base + dot(out, strides),
// except that, when padDim >= 0, positions whose out[padDim] - padBefore
// falls outside [0, padExtent) are padding.
struct AffineMap {
  std::vector<int64_t> strides;
  int64_t base = 0;
  int64_t padDim = -1;
  int64_t padBefore = 0;
  int64_t padExtent = 0;
};

[[noreturn]] void fail(const Op &op, const std::string &message) {
  throw EvalError(describeOp(op) + ": " + message);
}

AffineMap broadcastInDimMap(const Op &op, const Tensor &x, const std::vector<int64_t> &out) {
  const std::vector<int64_t> &dims = op.attrs().axes("broadcast_dims");
  if (dims.size() != x.rank())
    fail(op, "broadcast_dims has " + std::to_string(dims.size()) +
                 " entries for an operand of rank " + std::to_string(x.rank()));
  const std::vector<int64_t> own = rowMajorStrides(x.shape());
  AffineMap map{std::vector<int64_t>(out.size(), 0)};
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = checkedAxis(op, "broadcast_dims", dims[i], out.size());
    if (x.shape()[i] == out[d])
      map.strides[d] = own[i];
    else if (x.shape()[i] != 1)
      fail(op, "operand dim " + std::to_string(i) + " of extent " + std::to_string(x.shape()[i]) +
                   " cannot broadcast to result dim " + std::to_string(d) + " of extent " +
                   std::to_string(out[d]));
  }
  return map;
}

AffineMap permuteMap(const Op &op, const Tensor &x, const std::vector<int64_t> &out) {
  const std::vector<int64_t> &dims = op.attrs().axes("dims");
  if (dims.size() != x.rank() || out.size() != x.rank())
    fail(op, "dims does not permute the operand's " + std::to_string(x.rank()) + " dims");
  const std::vector<int64_t> own = rowMajorStrides(x.shape());
  AffineMap map;
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = checkedAxis(op, "dims", dims[i], x.rank());
    if (out[i] != x.shape()[d])
      fail(op, "result dim " + std::to_string(i) + " has extent " + std::to_string(out[i]) +
                   " but operand dim " + std::to_string(d) + " has " +
                   std::to_string(x.shape()[d]));
    map.strides.push_back(own[d]);
  }
  return map;
}

AffineMap squeezeMap(const Op &op, const Tensor &x) {
  std::vector<bool> squeezed(x.rank(), false);
  for (int64_t dim : op.attrs().axes("dims")) {
    const int64_t d = checkedAxis(op, "dims", dim, x.rank());
    if (x.shape()[d] != 1)
      fail(op,
           "dim " + std::to_string(d) + " has extent " + std::to_string(x.shape()[d]) + ", not 1");
    squeezed[d] = true;
  }
  const std::vector<int64_t> own = rowMajorStrides(x.shape());
  AffineMap map;
  for (size_t d = 0; d < x.rank(); ++d)
    if (!squeezed[d])
      map.strides.push_back(own[d]);
  return map;
}

AffineMap unsqueezeMap(const Op &op, const Tensor &x) {
  const int64_t dim = checkedAxis(op, "dim", op.attrs().integer("dim"), x.rank() + 1);
  AffineMap map{rowMajorStrides(x.shape())};
  map.strides.insert(map.strides.begin() + dim, 0);
  return map;
}

AffineMap sliceMap(const Op &op, const Tensor &x, const std::vector<int64_t> &out,
                   const EvalContext &ctx) {
  const int64_t dim = checkedAxis(op, "dim", op.attrs().integer("dim"), x.rank());
  const int64_t start = ctx.evaluate(op.attrs().extent("start"));
  const int64_t step = op.attrs().integer("step");
  if (step <= 0)
    fail(op, "step " + std::to_string(step) + " is not positive");
  const int64_t count = out.at(dim);
  const int64_t extent = x.shape()[dim];
  if (count > 0 && (start < 0 || start + (count - 1) * step >= extent))
    fail(op, std::to_string(count) + " elements from " + std::to_string(start) + " by step " +
                 std::to_string(step) + " leave dim " + std::to_string(dim) + " of extent " +
                 std::to_string(extent));
  AffineMap map{rowMajorStrides(x.shape())};
  map.base = start * map.strides[dim];
  map.strides[dim] *= step;
  return map;
}

AffineMap padMap(const Op &op, const Tensor &x, const EvalContext &ctx) {
  const int64_t dim = checkedAxis(op, "dim", op.attrs().integer("dim"), x.rank());
  AffineMap map{rowMajorStrides(x.shape())};
  map.padDim = dim;
  map.padBefore = ctx.evaluate(op.attrs().extent("before"));
  map.padExtent = x.shape()[dim];
  map.base = -map.padBefore * map.strides[dim];
  return map;
}

AffineMap buildMap(const Op &op, const Tensor &x, const std::vector<int64_t> &out,
                   const EvalContext &ctx) {
  switch (op.info().shapeRule) {
  case ShapeRule::BroadcastInDim:
    return broadcastInDimMap(op, x, out);
  case ShapeRule::Expand:
    return AffineMap{interp::broadcastStrides(x, out, op, 0)};
  case ShapeRule::Reshape: {
    size_t count = 1;
    for (int64_t extent : out)
      count *= static_cast<size_t>(extent);
    if (count != x.numel())
      fail(op, "cannot reshape " + shapeText(x.shape()) + " to " + shapeText(out));
    // Row-major reinterpretation: output element j is input element j.
    return AffineMap{rowMajorStrides(out)};
  }
  case ShapeRule::Permute:
    return permuteMap(op, x, out);
  case ShapeRule::Squeeze:
    return squeezeMap(op, x);
  case ShapeRule::Unsqueeze:
    return unsqueezeMap(op, x);
  case ShapeRule::Slice:
    return sliceMap(op, x, out, ctx);
  case ShapeRule::Pad:
    return padMap(op, x, ctx);
  default:
    fail(op, "is not an index-map op");
  }
}

} // namespace

Tensor evalIndexMap(const Op &op, std::span<const Tensor *const> operands, const EvalContext &ctx) {
  const Tensor &x = interp::operandAt(op, operands, 0);
  Tensor result = interp::makeResult(op, ctx);
  const AffineMap map = buildMap(op, x, result.shape(), ctx);
  if (map.strides.size() != result.rank())
    fail(op, "result shape " + shapeText(result.shape()) + " does not match operand shape " +
                 shapeText(x.shape()));
  const Number padValue = map.padDim >= 0 ? op.attrs().number("value") : Number::integer(0);

  interp::forEachIndex(result.shape(), [&](const std::vector<int64_t> &index, size_t j) {
    if (map.padDim >= 0) {
      const int64_t in = index[map.padDim] - map.padBefore;
      if (in < 0 || in >= map.padExtent) {
        if (padValue.isInteger)
          result.setInt(j, padValue.intValue);
        else
          result.setFloat(j, padValue.floatValue);
        return;
      }
    }
    const int64_t offset = map.base + interp::dot(index, map.strides);
    // A guard against result shapes that disagree with the operand.
    if (offset < 0 || offset >= static_cast<int64_t>(x.numel()))
      fail(op, "result " + shapeText(result.shape()) + " reads outside the operand " +
                   shapeText(x.shape()));
    interp::copyElement(x, static_cast<size_t>(offset), result, j);
  });
  return result;
}

} // namespace fuserc
