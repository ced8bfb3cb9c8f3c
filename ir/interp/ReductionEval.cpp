// Reference evaluation of reductions (ShapeRule Reduction): sum, prod, max,
// min, mean, var, and the composite std; and of the scans cumsum and cumprod,
// which share their accumulation rules. The per-op math is the `cpu` expression of ops.td,
// compiled into the generated cpuReduce overloads.
#include "ir/interp/EvalSupport.h"
#include "ir/interp/ReferenceMath.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <vector>

namespace fuserc {
namespace {

#define GET_CPU_REDUCTIONS
#include "OpTables.inc"

// Reduces every kept position of `x` with the generated cpuReduce over
// values of type T read by `read`, storing with `store`.
template <typename T, typename Read, typename Store>
void reduceAll(const Op &op, const Tensor &x, const interp::AxisSplit &split, Read read,
               Store store) {
  std::vector<T> values(split.reducedOffsets.size());
  for (size_t k = 0; k < split.keptOffsets.size(); ++k) {
    for (size_t r = 0; r < values.size(); ++r)
      values[r] = read(static_cast<size_t>(split.keptOffsets[k] + split.reducedOffsets[r]));
    store(k, cpuReduce(op.kind(), std::span<const T>(values), op.attrs()));
  }
}

// Whether the order of accumulation decides a sum or product of the values
// added so far, in an accumulator of magnitudes up to `largest` (log2 of
// the smallest subnormal: `tiniest`): some order overflows where another
// does not (a sum whose positive or negative terms overflow although the
// total fits, or overflow against an infinity of the other sign; a product
// that overflows and also meets a zero or underflows), a product of an
// infinity and finite factors whose partial product may underflow to 0 (inf
// or NaN), or a product ending below the normal range. Incremental, so that
// a scan asks it of every prefix.
class OrderRisk {
public:
  OrderRisk(bool product, double largest, int tiniest)
      : product_(product), largest_(largest), tiniest_(tiniest) {}

  void add(double v) {
    if (std::isnan(v)) {
      nan_ = true;
      return;
    }
    if (std::isinf(v)) {
      (v > 0 ? plusInf_ : minusInf_) = true;
      return;
    }
    if (product_) {
      zero_ |= v == 0;
      allQuarters_ &= std::fabs(v) <= 0.25;
      if (v != 0)
        (std::fabs(v) > 1 ? up_ : down_) += std::log2(std::fabs(v));
    } else {
      (v > 0 ? up_ : down_) += v;
    }
  }

  bool decides() const {
    if (nan_)
      return false;
    // A product below the smallest normal number is rounded in the subnormal
    // range, coarsely: one order ends at 0, another stuck at a subnormal.
    // Factors of at most 1/4 cannot hold a subnormal up (the roundings add
    // at most a third of half the smallest subnormal): where the exact
    // product is below a quarter of the smallest subnormal, every order ends
    // at 0.
    const int tiniestNormal = tiniest_ == -149 ? -126 : -1022;
    const bool alwaysZero = allQuarters_ && up_ + down_ < tiniest_ - 2;
    if (plusInf_ || minusInf_) {
      if (product_)
        return !zero_ && down_ < tiniest_;
      return !(plusInf_ && minusInf_) && (plusInf_ ? -down_ : up_) > largest_;
    }
    if (product_) {
      // An order taking the large (small) factors first overflows
      // (underflows to 0) on the way and stays there, where another ends in
      // range: [2^100, 2^100, 2^-100] in f32.
      const double top = std::log2(largest_);
      const bool outOfRangeOnTheWay = (up_ > top && up_ + down_ <= top) ||
                                      (!zero_ && down_ < tiniest_ && up_ + down_ >= tiniest_);
      return outOfRangeOnTheWay || (up_ > top && (zero_ || down_ < tiniest_)) ||
             (!zero_ && up_ + down_ < tiniestNormal && !alwaysZero);
    }
    return (up_ > largest_ || -down_ > largest_) && std::fabs(up_ + down_) <= largest_;
  }

private:
  bool product_;
  double largest_;
  int tiniest_;
  double up_ = 0, down_ = 0;
  bool nan_ = false, zero_ = false, plusInf_ = false, minusInf_ = false, allQuarters_ = true;
};

OrderRisk orderRisk(bool product, bool narrow) {
  return OrderRisk(product,
                   narrow ? std::numeric_limits<float>::max() : std::numeric_limits<double>::max(),
                   narrow ? -149 : -1074);
}

bool orderDecides(std::span<const double> values, bool product, bool narrow) {
  OrderRisk risk = orderRisk(product, narrow);
  for (double v : values)
    risk.add(v);
  return risk.decides();
}

// Sum, prod, mean and var as kernels may accumulate them
// (EvalContext::kernelOrder); NaN (ill-defined) where the order decides
// whether a sum or product overflows; nullopt for the other reductions.
std::optional<double> kernelOrderReduce(const Op &op, std::span<const double> values, bool narrow) {
  const double n = static_cast<double>(values.size());
  auto round = [&](double v) { return narrow ? static_cast<double>(static_cast<float>(v)) : v; };
  const bool product = op.kind() == OpKind::Prod;
  if ((product || op.kind() == OpKind::Sum || op.kind() == OpKind::Mean) &&
      orderDecides(values, product, narrow))
    return std::numeric_limits<double>::quiet_NaN();
  switch (op.kind()) {
  case OpKind::Sum:
    return ref::reducePairwise(values, false, narrow);
  case OpKind::Prod:
    return ref::reducePairwise(values, true, narrow);
  case OpKind::Mean:
    return round(ref::reducePairwise(values, false, narrow) / n);
  case OpKind::Var:
  case OpKind::Std: {
    const double mean = round(ref::reducePairwise(values, false, narrow) / n);
    std::vector<double> squares(values.size());
    for (size_t i = 0; i < values.size(); ++i)
      squares[i] = round(round(values[i] - mean) * round(values[i] - mean));
    const double divisor = std::max(n - static_cast<double>(op.attrs().integer("correction")), 0.0);
    const double var = round(ref::reducePairwise(squares, false, narrow) / divisor);
    return op.kind() == OpKind::Std ? round(std::sqrt(var)) : var;
  }
  default:
    return std::nullopt;
  }
}

// The product of `values` as a number: a zero factor among finite ones
// makes it a zero of the factors' sign, although a long product in double
// may overflow before it meets the zero (inf * 0: NaN).
double exactProduct(std::span<const double> values) {
  bool zero = false, infinite = false, negative = false;
  double product = 1;
  for (double v : values) {
    if (std::isnan(v))
      return v;
    zero |= v == 0;
    infinite |= std::isinf(v);
    negative ^= std::signbit(v);
    product *= v;
  }
  if (zero && infinite)
    return std::numeric_limits<double>::quiet_NaN();
  return zero ? (negative ? -0.0 : 0.0) : product;
}

} // namespace

Tensor evalReduction(const Op &op, std::span<const Tensor *const> operands,
                     const EvalContext &ctx) {
  const Tensor &x = interp::operandAt(op, operands, 0);
  Tensor result = interp::makeResult(op, ctx);
  const interp::AxisSplit split = interp::splitReducedAxes(op, x, result);

  // The domain follows the result dtype, with f16 and bf16 math in f32
  // (docs/language.md): inputs convert to it first, then accumulate in
  // double or int64. (torch's sum(x, dtype=f16) converts to f16 itself.)
  const DType resultType = op.result()->dtype();
  try {
    if (isFloating(resultType)) {
      const DType floatType = interp::storageDType(resultType);
      const bool narrow = floatType != DType::F64;
      if (ctx.kernelOrder) {
        std::vector<double> values(split.reducedOffsets.size());
        for (size_t k = 0; k < split.keptOffsets.size(); ++k) {
          for (size_t r = 0; r < values.size(); ++r)
            values[r] = interp::readAsFloat(
                x, static_cast<size_t>(split.keptOffsets[k] + split.reducedOffsets[r]), floatType);
          const std::optional<double> v = kernelOrderReduce(op, values, narrow);
          result.setFloat(k, v ? *v
                               : cpuReduce(op.kind(), std::span<const double>(values), op.attrs()));
        }
      } else if (op.kind() == OpKind::Prod) {
        std::vector<double> values(split.reducedOffsets.size());
        for (size_t k = 0; k < split.keptOffsets.size(); ++k) {
          for (size_t r = 0; r < values.size(); ++r)
            values[r] = interp::readAsFloat(
                x, static_cast<size_t>(split.keptOffsets[k] + split.reducedOffsets[r]), floatType);
          result.setFloat(k, exactProduct(values));
        }
      } else {
        // A composite (std) rounds an f16 / bf16 result, as PyTorch's kernel
        // does (perturbed runs round after the move: Interpreter.cpp).
        const bool half = op.info().composite && floatType != resultType;
        reduceAll<double>(
            op, x, split, [&](size_t i) { return interp::readAsFloat(x, i, floatType); },
            [&](size_t k, double v) {
              result.setFloat(k, half ? roundToFloatType(v, resultType) : v);
            });
      }
    } else {
      reduceAll<int64_t>(
          op, x, split, [&](size_t i) { return interp::readAsInt(x, i, resultType); },
          [&](size_t k, int64_t v) { result.setInt(k, v); });
    }
  } catch (const std::domain_error &e) { // e.g. the max of an empty set
    throw EvalError(interp::describeOp(op) + ": " + e.what());
  }
  return result;
}

Tensor evalScan(const Op &op, std::span<const Tensor *const> operands, const EvalContext &ctx) {
  const Tensor &x = interp::operandAt(op, operands, 0);
  Tensor result = interp::makeResult(op, ctx);
  const int64_t dim = interp::checkedAxis(op, "dim", op.attrs().integer("dim"), x.shape().size());
  // The lanes along `dim`; x and the result share the shape, so offsets.
  const interp::AxisSplit split = interp::splitAxes(x.shape(), {dim}, op);
  const bool product = op.kind() == OpKind::Cumprod;
  const DType resultType = op.result()->dtype();
  for (int64_t kept : split.keptOffsets) {
    if (isFloating(resultType)) {
      // As the reductions: inputs convert to the result dtype (f16 and bf16
      // math in f32), accumulated in double. Where kernels may round
      // (kernelOrder), a prefix whose overflow depends on the order of
      // accumulation is NaN (ill-defined), as for sum and prod.
      const DType floatType = interp::storageDType(resultType);
      OrderRisk risk = orderRisk(product, floatType != DType::F64);
      bool undecided = false;
      double acc = product ? 1.0 : 0.0;
      for (int64_t r : split.reducedOffsets) {
        const size_t i = static_cast<size_t>(kept + r);
        const double v = interp::readAsFloat(x, i, floatType);
        acc = product ? acc * v : acc + v;
        risk.add(v);
        undecided = undecided || (ctx.kernelOrder && risk.decides());
        result.setFloat(i, undecided ? std::numeric_limits<double>::quiet_NaN() : acc);
      }
    } else {
      // Integers wrap, through unsigned arithmetic.
      uint64_t acc = product ? 1 : 0;
      for (int64_t r : split.reducedOffsets) {
        const size_t i = static_cast<size_t>(kept + r);
        const auto v = static_cast<uint64_t>(interp::readAsInt(x, i, resultType));
        acc = product ? acc * v : acc + v;
        result.setInt(i, static_cast<int64_t>(acc));
      }
    }
  }
  return result;
}

} // namespace fuserc
