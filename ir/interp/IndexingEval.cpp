// Reference evaluation of data-dependent indexing and concatenation: cat,
// index_select, gather (take-along-axis) and scatter. Indices out of range
// are run-time errors (EvalError), never clamped or wrapped.
#include "ir/interp/EvalSupport.h"

namespace fuserc {
namespace {

using interp::checkedAxis;
using interp::describeOp;
using interp::shapeText;

[[noreturn]] void fail(const Op &op, const std::string &message) {
  throw EvalError(describeOp(op) + ": " + message);
}

// The index value at `position` of `index`, checked against dim `dim` of
// extent `extent`.
int64_t checkedIndex(const Op &op, const Tensor &index, size_t position, int64_t dim,
                     int64_t extent) {
  const int64_t value = index.getInt(position);
  if (value < 0 || value >= extent)
    fail(op, "index " + std::to_string(value) + " is out of range for dim " + std::to_string(dim) +
                 " of extent " + std::to_string(extent));
  return value;
}

void checkIntegralIndex(const Op &op, const Tensor &index) {
  if (!isInteger(index.dtype()))
    fail(op,
         "the index has dtype " + std::string(dtypeName(index.dtype())) + ", not an integer dtype");
}

// Checks that an index shaped `indexShape` (addressing `x` along `dim`)
// stays within x in every other dim, as torch.gather and scatter require.
void checkOtherDims(const Op &op, const std::vector<int64_t> &indexShape, const Tensor &x,
                    int64_t dim) {
  if (indexShape.size() != x.rank())
    fail(op, "the index has rank " + std::to_string(indexShape.size()) +
                 " but the input has rank " + std::to_string(x.rank()));
  for (size_t d = 0; d < x.rank(); ++d)
    if (static_cast<int64_t>(d) != dim && indexShape[d] > x.shape()[d])
      fail(op, "the index " + shapeText(indexShape) + " exceeds the input " + shapeText(x.shape()) +
                   " in dim " + std::to_string(d));
}

} // namespace

Tensor evalCat(const Op &op, std::span<const Tensor *const> operands, const EvalContext &ctx) {
  Tensor result = interp::makeResult(op, ctx);
  const int64_t dim = checkedAxis(op, "dim", op.attrs().integer("dim"), result.rank());
  const std::vector<int64_t> outStrides = rowMajorStrides(result.shape());
  int64_t position = 0; // where the next operand starts along dim
  for (size_t k = 0; k < operands.size(); ++k) {
    const Tensor &t = interp::operandAt(op, operands, k);
    bool fits = t.rank() == result.rank();
    for (size_t d = 0; fits && d < t.rank(); ++d)
      fits = static_cast<int64_t>(d) == dim || t.shape()[d] == result.shape()[d];
    if (!fits || position + t.shape()[dim] > result.shape()[dim])
      fail(op, "operand " + std::to_string(k) + " of shape " + shapeText(t.shape()) +
                   " does not fit the result " + shapeText(result.shape()));
    const int64_t base = position * outStrides[dim];
    interp::forEachIndex(t.shape(), [&](const std::vector<int64_t> &index, size_t i) {
      interp::copyElement(t, i, result, static_cast<size_t>(base + interp::dot(index, outStrides)));
    });
    position += t.shape()[dim];
  }
  if (position != result.shape()[dim])
    fail(op, "the operands' extents along dim " + std::to_string(dim) + " add up to " +
                 std::to_string(position) + ", not " + std::to_string(result.shape()[dim]));
  return result;
}

Tensor evalIndexSelect(const Op &op, std::span<const Tensor *const> operands,
                       const EvalContext &ctx) {
  const Tensor &x = interp::operandAt(op, operands, 0);
  const Tensor &index = interp::operandAt(op, operands, 1);
  checkIntegralIndex(op, index);
  // A 0-d index is one position (torch.index_select keeps the dim).
  if (index.rank() > 1)
    fail(op, "the index has rank " + std::to_string(index.rank()) + ", not 0 or 1");
  Tensor result = interp::makeResult(op, ctx);
  const int64_t dim = checkedAxis(op, "dim", op.attrs().integer("dim"), x.rank());
  std::vector<int64_t> expected = x.shape();
  expected[dim] = static_cast<int64_t>(index.numel());
  if (result.shape() != expected)
    fail(op, "result shape " + shapeText(result.shape()) + " is not " + shapeText(expected));
  const std::vector<int64_t> xStrides = rowMajorStrides(x.shape());

  interp::forEachIndex(result.shape(), [&](const std::vector<int64_t> &position, size_t j) {
    std::vector<int64_t> source = position;
    source[dim] = checkedIndex(op, index, static_cast<size_t>(position[dim]), dim, x.shape()[dim]);
    interp::copyElement(x, static_cast<size_t>(interp::dot(source, xStrides)), result, j);
  });
  return result;
}

Tensor evalGather(const Op &op, std::span<const Tensor *const> operands, const EvalContext &ctx) {
  const Tensor &x = interp::operandAt(op, operands, 0);
  const Tensor &index = interp::operandAt(op, operands, 1);
  checkIntegralIndex(op, index);
  Tensor result = interp::makeResult(op, ctx);
  const int64_t dim = checkedAxis(op, "dim", op.attrs().integer("dim"), x.rank());
  checkOtherDims(op, index.shape(), x, dim);
  if (result.shape() != index.shape())
    fail(op, "result shape " + shapeText(result.shape()) + " is not the index shape " +
                 shapeText(index.shape()));
  const std::vector<int64_t> xStrides = rowMajorStrides(x.shape());

  interp::forEachIndex(index.shape(), [&](const std::vector<int64_t> &position, size_t p) {
    std::vector<int64_t> source = position;
    source[dim] = checkedIndex(op, index, p, dim, x.shape()[dim]);
    interp::copyElement(x, static_cast<size_t>(interp::dot(source, xStrides)), result, p);
  });
  return result;
}

Tensor evalScatter(const Op &op, std::span<const Tensor *const> operands, const EvalContext &ctx) {
  const Tensor &x = interp::operandAt(op, operands, 0);
  const Tensor &index = interp::operandAt(op, operands, 1);
  const Tensor &src = interp::operandAt(op, operands, 2);
  checkIntegralIndex(op, index);
  Tensor result = interp::makeResult(op, ctx);
  if (result.shape() != x.shape())
    fail(op, "result shape " + shapeText(result.shape()) + " is not the input shape " +
                 shapeText(x.shape()));
  const int64_t dim = checkedAxis(op, "dim", op.attrs().integer("dim"), x.rank());
  checkOtherDims(op, index.shape(), x, dim);
  // src is read at the index position: a rank-0 src is broadcast; a tensor
  // src must cover the index (torch allows it to be larger).
  std::vector<int64_t> srcStrides(index.rank(), 0);
  if (src.rank() != 0) {
    bool covers = src.rank() == index.rank();
    for (size_t d = 0; covers && d < src.rank(); ++d)
      covers = src.shape()[d] >= index.shape()[d];
    if (!covers)
      fail(op, "src of shape " + shapeText(src.shape()) + " does not cover the index " +
                   shapeText(index.shape()));
    srcStrides = rowMajorStrides(src.shape());
  }

  for (size_t i = 0; i < x.numel(); ++i)
    interp::copyElement(x, i, result, i);
  const std::vector<int64_t> outStrides = rowMajorStrides(result.shape());
  // Row-major order over the index makes the last duplicate write win.
  interp::forEachIndex(index.shape(), [&](const std::vector<int64_t> &position, size_t p) {
    std::vector<int64_t> target = position;
    target[dim] = checkedIndex(op, index, p, dim, x.shape()[dim]);
    interp::copyElement(src, static_cast<size_t>(interp::dot(position, srcStrides)), result,
                        static_cast<size_t>(interp::dot(target, outStrides)));
  });
  return result;
}

} // namespace fuserc
