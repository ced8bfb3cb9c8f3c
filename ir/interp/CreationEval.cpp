// Reference evaluation of creation ops: full, iota, size, extent and
// rand_like (Philox 4x32-10, see Philox.h for the counter layout shared with
// the GPU).
#include "ir/interp/EvalSupport.h"
#include "ir/interp/Philox.h"

namespace fuserc {

Tensor evalFull(const Op &op, std::span<const Tensor *const> operands, const EvalContext &ctx) {
  Tensor result = interp::makeResult(op, ctx);
  const Number &value = op.attrs().number("value");
  for (size_t i = 0; i < result.numel(); ++i) {
    // Integer values stay exact for integer dtypes (and round once for
    // floating ones).
    if (value.isInteger)
      result.setInt(i, value.intValue);
    else
      result.setFloat(i, value.floatValue);
  }
  return result;
}

Tensor evalIota(const Op &op, std::span<const Tensor *const> operands, const EvalContext &ctx) {
  Tensor result = interp::makeResult(op, ctx);
  const int64_t dim = interp::checkedAxis(op, "dim", op.attrs().integer("dim"), result.rank());
  interp::forEachIndex(result.shape(), [&](const std::vector<int64_t> &index, size_t j) {
    result.setInt(j, index[dim]);
  });
  return result;
}

namespace {

// An extent's value, exact in integer dtypes and rounded once in floating ones.
Tensor extentValue(const Op &op, int64_t value, const EvalContext &ctx) {
  Tensor result = interp::makeResult(op, ctx);
  result.setInt(0, value);
  return result;
}

} // namespace

Tensor evalSize(const Op &op, std::span<const Tensor *const> operands, const EvalContext &ctx) {
  const Tensor &x = interp::operandAt(op, operands, 0);
  const int64_t dim = interp::checkedAxis(op, "dim", op.attrs().integer("dim"), x.rank());
  return extentValue(op, x.shape()[static_cast<size_t>(dim)], ctx);
}

Tensor evalExtent(const Op &op, std::span<const Tensor *const>, const EvalContext &ctx) {
  return extentValue(op, ctx.evaluate(op.attrs().extent("value")), ctx);
}

Tensor evalRandLike(const Op &op, std::span<const Tensor *const> operands, const EvalContext &ctx) {
  const Tensor &seedTensor = interp::operandAt(op, operands, 1);
  const Tensor &offsetTensor = interp::operandAt(op, operands, 2);
  if (seedTensor.numel() != 1 || offsetTensor.numel() != 1)
    throw EvalError(interp::describeOp(op) + ": seed and offset must be scalars");
  // The scalars' bits, as the GPU receives them (a negative seed is its
  // two's-complement pattern).
  const auto seed = static_cast<uint64_t>(seedTensor.getInt(0));
  const auto offset = static_cast<uint64_t>(offsetTensor.getInt(0));

  Tensor result = interp::makeResult(op, ctx);
  double (*toUnit)(uint32_t) = nullptr;
  switch (op.result()->dtype()) {
  case DType::F16:
    toUnit = &philox::wordToUnitF16;
    break;
  case DType::BF16:
    toUnit = &philox::wordToUnitBF16;
    break;
  case DType::F32:
    toUnit = &philox::wordToUnitF32;
    break;
  case DType::F64:
    toUnit = &philox::wordToUnitF64;
    break;
  default:
    throw EvalError(interp::describeOp(op) + ": dtype " +
                    std::string(dtypeName(op.result()->dtype())) + " is not floating point");
  }
  for (size_t i = 0; i < result.numel(); ++i)
    result.setFloat(i, toUnit(philox::randWord(seed, offset, i)));
  return result;
}

} // namespace fuserc
