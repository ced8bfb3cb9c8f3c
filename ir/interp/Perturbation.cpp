// Perturbed runs of the reference interpreter: the moves of computed
// results and of their uses, and the ties of decisions a rounding can flip
// (see Perturbation.h and InterpreterOptions).
#include "ir/interp/Perturbation.h"

#include "ir/interp/EvalSupport.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <optional>

namespace fuserc::interp {
namespace {

// The smallest f32 result a kernel's exp is sure not to flush to 0.
constexpr double kFlushBelow = 2 * FLT_MIN;

// How far, in units of a result's own move, its operands' roundings may
// take it from its value without moves; further is a decision (a step, a
// comparison) a draw flipped.
constexpr double kRoundingsOff = 16;

// splitmix64: the perturbation's sign for element `i` of op `op`.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// What a rounding error of the op's own arithmetic scales with, per
// element, where that is not the result's magnitude: a sum's or mean's is
// its terms' (the same reduction of |x|: a cancelling sum keeps an error
// the size of its terms), a layer_norm's that of its mean
// (layerNormErrorScale). None: the result's magnitude.
// Either is then multiplied by reductionRounds of the elements reduced per
// result (layerNormErrorScale does so itself). A var's, a std's, a
// product's, a scan's, an exp's, log_softmax's and logsumexp's, and a sum's or
// difference of computed operands: below. `result` is the op's unmoved
// result.
std::optional<Tensor> errorScale(const Op &op, std::span<const Tensor *const> operands,
                                 const Tensor &result, const std::vector<bool> &computedOperands,
                                 const EvalContext &ctx, double relative) {
  std::optional<Tensor> scale;
  if ((op.kind() == OpKind::Add || op.kind() == OpKind::Sub) &&
      std::find(computedOperands.begin(), computedOperands.end(), true) != computedOperands.end()) {
    // Computed operands carry rounding errors of their own size, which a
    // cancelling difference (x - mean(x) of equal values) keeps whole.
    scale = interp::makeResult(op, ctx);
    const std::vector<int64_t> sa = interp::broadcastStrides(*operands[0], scale->shape(), op, 0),
                               sb = interp::broadcastStrides(*operands[1], scale->shape(), op, 1);
    interp::forEachIndex(scale->shape(), [&](const std::vector<int64_t> &index, size_t j) {
      const double a = interp::readAsFloat(*operands[0],
                                           static_cast<size_t>(interp::dot(index, sa)), DType::F64),
                   b = interp::readAsFloat(*operands[1],
                                           static_cast<size_t>(interp::dot(index, sb)), DType::F64);
      scale->setFloat(j, std::max(std::fabs(a), std::fabs(b)));
    });
    return scale;
  }
  if (op.kind() == OpKind::LogSoftmax || op.kind() == OpKind::LogSumExp) {
    // log(sum(exp(x - max))) of a sum near 1 is off by the sum's rounding,
    // absolutely: log_softmax's largest element (about 1 - sum) keeps no
    // relative accuracy. Each element moves by at least that.
    scale = interp::makeResult(op, ctx);
    const size_t n = op.kind() == OpKind::LogSoftmax
                         ? static_cast<size_t>(operands[0]->shape().at(
                               static_cast<size_t>(op.attrs().integer("dim"))))
                         : operands[0]->numel() / std::max<size_t>(scale->numel(), 1);
    for (size_t i = 0; i < scale->numel(); ++i)
      scale->setFloat(i, reductionRounds(n));
    return scale;
  }
  if (op.kind() == OpKind::LayerNorm) {
    scale = layerNormErrorScale(op, operands, ctx);
  } else if ((op.kind() == OpKind::Var || op.kind() == OpKind::Std) && operands[0]->isFloating()) {
    // A variance near 0 (of nearly equal values) is off by the square of
    // its mean's error, which the deviations carry: (relative * rounds *
    // mean |x|)^2, expressed in units of `relative`; its square root (std)
    // by up to that mean's error itself.
    const Tensor &x = *operands[0];
    const interp::AxisSplit split = interp::splitAxes(x.shape(), op.attrs().axes("axes"), op);
    scale = interp::makeResult(op, ctx);
    const size_t n = split.reducedOffsets.size();
    for (size_t k = 0; k < split.keptOffsets.size(); ++k) {
      double magnitude = 0;
      for (int64_t r : split.reducedOffsets)
        magnitude += std::fabs(x.getFloat(static_cast<size_t>(split.keptOffsets[k] + r)));
      const double meanError = std::fabs(relative) * reductionRounds(n) * magnitude /
                               static_cast<double>(std::max<size_t>(n, 1));
      const double move = op.kind() == OpKind::Std ? meanError : meanError * meanError;
      scale->setFloat(k, move / std::fabs(relative));
    }
    return scale;
  } else if (op.kind() == OpKind::Exp && op.result()->dtype() != DType::F64) {
    // Kernels compute exp below f64 as 2^(x log2 e) on the multifunction
    // unit: at most 2 + 1.173 |x| ulps of f32 off (the prelude's bound).
    const Tensor &x = *operands[0];
    scale = interp::makeResult(op, ctx);
    for (size_t i = 0; i < scale->numel(); ++i)
      scale->setFloat(i, std::fabs(result.getFloat(i)) * (2 + 1.173 * std::fabs(x.getFloat(i))) *
                             0x1p-23 / std::fabs(relative));
    return scale;
  } else if ((op.kind() == OpKind::Cumsum || op.kind() == OpKind::Cumprod) &&
             operands[0]->isFloating()) {
    // A scan's prefix of n elements rounds like a sum (its terms' |x|, the
    // same scan of |x|) or a product (its own magnitude) of them; a kernel
    // carries each prefix from the one before, so every element takes the
    // rounds of the whole lane.
    if (op.kind() == OpKind::Cumsum) {
      Tensor magnitudes = *operands[0];
      for (size_t i = 0; i < magnitudes.numel(); ++i)
        magnitudes.setFloat(i, std::fabs(magnitudes.getFloat(i)));
      const std::vector<const Tensor *> absolute{&magnitudes};
      scale = evalScan(op, std::span<const Tensor *const>(absolute), ctx);
    } else {
      scale = result;
      for (size_t i = 0; i < scale->numel(); ++i)
        scale->setFloat(i, std::fabs(scale->getFloat(i)));
    }
    const size_t lane = static_cast<size_t>(
        operands[0]->shape().at(static_cast<size_t>(op.attrs().integer("dim"))));
    for (size_t i = 0; i < scale->numel(); ++i)
      scale->setFloat(i, scale->getFloat(i) * reductionRounds(lane));
    return scale;
  } else if (op.kind() == OpKind::Prod && operands[0]->isFloating()) {
    // Each factor a kernel multiplies in rounds by up to half an ulp of the
    // product: a thread's serial run of factors as well as the tree.
    scale = result;
    for (size_t i = 0; i < scale->numel(); ++i)
      scale->setFloat(i, std::fabs(scale->getFloat(i)));
  } else if ((op.kind() == OpKind::Sum || op.kind() == OpKind::Mean) && operands[0]->isFloating()) {
    Tensor magnitudes = *operands[0];
    for (size_t i = 0; i < magnitudes.numel(); ++i)
      magnitudes.setFloat(i, std::fabs(magnitudes.getFloat(i)));
    const std::vector<const Tensor *> absolute{&magnitudes};
    scale = cpuEvaluator(op.kind())(op, std::span<const Tensor *const>(absolute), ctx);
  } else {
    return std::nullopt;
  }
  if (op.kind() != OpKind::LayerNorm && scale->numel() > 0) {
    const double factor = reductionRounds(operands[0]->numel() / scale->numel());
    for (size_t i = 0; i < scale->numel(); ++i)
      scale->setFloat(i, scale->getFloat(i) * factor);
  }
  return scale;
}

// Whether element i's draw from `base` moves it up (a move by `relative`).
bool movesUp(uint64_t base, size_t i, double relative) {
  return (mix(base + i) & 1) != (relative < 0);
}

// Where a value within its move of zero goes to exactly 0: never, in one
// draw of each opposite pair (judged on the value, or also on the value
// without moves: OneOfPairOrUnmoved), or in every draw.
enum class ZeroRule { Never, OneOfPair, OneOfPairOrUnmoved, Always };

// Moves every finite element of `t` by `relative` times its `scale` (its
// magnitude where null), each by a size drawn from [1/2, 3/2) of that (so
// that moves along a chain do not cancel exactly), on the way the
// operands' moves took it from its value without moves (`plain`, where
// known) where they took it far, else with a sign drawn from `base`; a
// nonzero element by at least one ulp of f32 or f64 (subnormals), and, as
// `zeroNearZero` says, one within its move of zero to exactly 0; one below
// kFlushBelow to 0 in one of two opposite draws.
void moveElements(Tensor &t, double relative, uint64_t base, const Tensor *scale,
                  ZeroRule zeroNearZero, bool approximate, const Tensor *plain = nullptr,
                  bool halfResult = false) {
  // Which draw of the pair puts every result within its move of zero on
  // it: one draw for the whole op, as a kernel's rounding is systematic (the
  // std of a row of equal values is 0 in every such row, or in none); drawn
  // per element, each draw would hold some zeros, and a sum over them the
  // NaN of one in every draw (seed 39151).
  const bool wholeOpZero = ((mix(base ^ 0x9e3779b97f4a7c15ULL) >> 1) & 1) == (relative > 0);
  for (size_t i = 0; i < t.numel(); ++i) {
    const double v = t.getFloat(i);
    if (!std::isfinite(v))
      continue;
    const uint64_t draw = mix(base + i);
    const double unmoved = plain ? plain->getFloat(i) : v;
    const double size = scale ? std::max(std::fabs(v), scale->getFloat(i)) : std::fabs(v);
    const double factor = 0.5 + static_cast<double>(draw >> 11) * 0x1p-53;
    const double move = std::isfinite(size) ? size * std::fabs(relative) * factor : 0;
    // Where the operands' moves took the value half this move or more from
    // its value without them (`plain`), the move goes on the same way: the
    // other way it could cancel them, and the element would model no
    // rounding at all (seed 49180: all three draws of a difference of two
    // 5e7s within 0.15 of the reference, a kernel 4 off). Else the draw
    // picks, so that the two draws of a pair move it opposite ways (a value
    // next to a rounding boundary crosses it in one: seed 55260); always
    // for an f16 or bf16 result, whose rounding to its coarse grid decides
    // its error, not a move below its ulp.
    const bool onward =
        !halfResult && std::isfinite(unmoved) && v != unmoved && std::fabs(v - unmoved) >= move / 2;
    const bool up = onward ? v > unmoved : movesUp(base, i, relative);
    // A value within its own error of zero (a cancelling reduction) may
    // come out exactly 0 in a kernel: one of each pair of opposite draws
    // puts it there (wholeOpZero).
    // A kernel's exp flushes a result below f32's normal range to 0, and on
    // the GPU one below twice its bottom, 2^-125 (so do composites made of
    // it): one of each pair of opposite draws does too.
    const bool subnormal = approximate && t.dtype() == DType::F32 && std::fabs(v) < kFlushBelow;
    const bool oneOfPair = ((draw >> 1) & 1) == (relative > 0);
    // A reduction within its move of zero with or without the operands'
    // moves, where those are roundings (seed 52192: a mean of deviations
    // from their mean, 0 without them, 1e-14 off with them, exactly 0 in a
    // kernel), not a decision a draw flipped (seed 57205: a sum of floors of
    // 1 - 2^-24, 0 without moves and 1 in a draw as in the kernel). Other
    // ops by their value only: the moves off a zero model a kernel's
    // nonzero result there (seeds 24771, 53300: a quotient of a variance of
    // equal values).
    const bool roundingsOff =
        std::isfinite(size) && std::fabs(v - unmoved) <= kRoundingsOff * size * std::fabs(relative);
    const bool near = move >= (zeroNearZero == ZeroRule::OneOfPairOrUnmoved && roundingsOff
                                   ? std::min(std::fabs(v), std::fabs(unmoved))
                                   : std::fabs(v));
    // Operands rounded alike cancel what their own moves (up to 3 of its
    // size) and this one's put between them.
    // (Judged on the value without moves where known: the operands' uses
    // move away from theirs.)
    const bool cancels =
        std::isfinite(size) && 4.5 * size * std::fabs(relative) >= std::fabs(unmoved);
    const bool zero =
        (zeroNearZero == ZeroRule::Always && cancels) || (subnormal && oneOfPair) ||
        ((zeroNearZero == ZeroRule::OneOfPair || zeroNearZero == ZeroRule::OneOfPairOrUnmoved) &&
         near && wholeOpZero);
    // A value that does not move keeps its sign (-0 + 0 would be +0).
    t.setFloat(i, zero ? std::copysign(0.0, v) : move == 0 ? v : up ? v + move : v - move);
    // An approximated function's f32 result that underflows to 0 here may
    // be an ulp above it in a kernel: the smallest subnormal, in the other
    // draw.
    if (v == 0 && move == 0 && approximate && t.dtype() == DType::F32 && !oneOfPair)
      t.setFloat(i, std::copysign(static_cast<double>(FLT_TRUE_MIN), v));
    if (v == 0 || t.getFloat(i) != v)
      continue;
    // An ulp toward zero from the smallest subnormal would be 0: away instead.
    const bool away = std::fabs(v) <= (t.dtype() == DType::F32 ? FLT_TRUE_MIN : DBL_TRUE_MIN);
    const double toward = (away ? v > 0 : up) ? HUGE_VAL : -HUGE_VAL;
    if (t.dtype() == DType::F32)
      t.setFloat(i, std::nextafter(static_cast<float>(v), static_cast<float>(toward)));
    else if (t.dtype() == DType::F64)
      t.setFloat(i, std::nextafter(v, toward));
  }
}

double relativeFor(const Tensor &t, const InterpreterOptions &options) {
  return t.dtype() == DType::F64 ? options.perturbation * 0x1p-29 : options.perturbation;
}

// Element j's side in a pair of opposite draws (perturbations of opposite
// sign from one seed): true in exactly one of the two.
bool firstOfPair(uint64_t base, size_t j, const InterpreterOptions &options) {
  return ((mix(base + j) >> 1) & 1) == (options.perturbation > 0);
}

// Half an ulp of `v` in f16 or bf16 (subnormals' at the bottom).
double halfUlp(double v, DType dtype) {
  const int digits = dtype == DType::F16 ? 11 : 8, lowest = dtype == DType::F16 ? -14 : -126;
  const int exponent = std::max(std::ilogb(v == 0 ? 1.0 : v), lowest);
  return std::ldexp(0.5, exponent - digits + 1);
}

// How far the moves took element i of an operand from its plain value
// (`plain` null: the operand is not computed, so not at all), and at least
// the range a kernel may flush to 0 for a computed f32 value.
double uncertainty(const Tensor &used, const Tensor *plain, size_t i) {
  if (!plain)
    return 0;
  const double d = std::fabs(used.getFloat(i) - plain->getFloat(i));
  return std::max(std::isnan(d) ? 0 : d, used.dtype() == DType::F32 ? kFlushBelow / 2 : 0.0);
}

// A sine, cosine or tangent of a computed argument its moves took a radian
// or more carries no digits: a kernel's argument, an ulp or two off, lands
// anywhere in the period, while the draws' moves (multiples of a coarse ulp)
// may happen to land near whole periods. NaN in every draw.
void dropPeriodicOfUncertain(Tensor &t, std::span<const Tensor *const> operands,
                             std::span<const Tensor *const> plains) {
  const Tensor &a = *operands[0];
  if (!plains[0] || !a.isFloating() || a.numel() != t.numel())
    return;
  for (size_t i = 0; i < t.numel(); ++i)
    if (uncertainty(a, plains[0], i) >= 1)
      t.setFloat(i, std::numeric_limits<double>::quiet_NaN());
}

// A comparison of floating operands within their uncertainty of each other
// (their moves, or 3 of their own draws) may find them equal in a kernel
// (cosh(x) == 1 for a tiny x rounds either way), unequal (a variance of
// equal values, 0 here, a rounding in a kernel) or in the other order (a
// bf16 result half an ulp above a bound, rounded below it in a kernel:
// seed 55260): the draws take each order.
void tieNearComparisons(Tensor &t, const Op &op, std::span<const Tensor *const> operands,
                        std::span<const Tensor *const> plains, const InterpreterOptions &options,
                        uint64_t base) {
  const Tensor &a = *operands[0], &b = *operands[1];
  if (!a.isFloating() && !b.isFloating())
    return;
  const double relative = std::max(a.isFloating() ? std::fabs(relativeFor(a, options)) : 0.0,
                                   b.isFloating() ? std::fabs(relativeFor(b, options)) : 0.0);
  const std::vector<int64_t> sa = interp::broadcastStrides(a, t.shape(), op, 0),
                             sb = interp::broadcastStrides(b, t.shape(), op, 1);
  const OpKind kind = op.kind();
  const bool equal = kind == OpKind::Eq || kind == OpKind::Le || kind == OpKind::Ge;
  interp::forEachIndex(t.shape(), [&](const std::vector<int64_t> &index, size_t j) {
    const size_t ia = static_cast<size_t>(interp::dot(index, sa)),
                 ib = static_cast<size_t>(interp::dot(index, sb));
    const double x = a.getFloat(ia), y = b.getFloat(ib);
    // A computed f16 or bf16 operand, at least half its ulp: a kernel's
    // rounding of it may take the other neighbour, which the draws' moves,
    // far below that ulp, seldom reach.
    auto operandUncertainty = [&](size_t k, const Tensor &v, size_t i) {
      const DType dtype = op.operand(k)->dtype();
      const bool half = plains[k] && (dtype == DType::F16 || dtype == DType::BF16);
      return std::max(uncertainty(v, plains[k], i), half ? halfUlp(v.getFloat(i), dtype) : 0.0);
    };
    // An operand NaN here but not without the moves carries no digits (a
    // tangent of an argument its moves took a radian: seed 61052): its order
    // is unknown, where a NaN would make every draw's comparison false.
    auto noDigits = [&](size_t k, double v, size_t i) {
      return std::isnan(v) && plains[k] && !std::isnan(plains[k]->getFloat(i));
    };
    if (!noDigits(0, x, ia) && !noDigits(1, y, ib)) {
      const double moves = operandUncertainty(0, a, ia) + operandUncertainty(1, b, ib);
      if (!std::isfinite(x) || !std::isfinite(y) || (x == y && moves == 0))
        return;
      const double reach = std::max(3 * relative * std::max(std::fabs(x), std::fabs(y)), 2 * moves);
      if (std::fabs(x - y) > reach)
        return;
    }
    // Each order in one of the three draws: equal in one of the pair, x < y
    // in the other, x > y in the independent draw (the kernel's order may
    // be any, and the draws' own orders may all agree: seed 55260).
    const bool lessThan = !options.cancelToZero && !firstOfPair(base, j, options);
    if (!options.cancelToZero && firstOfPair(base, j, options))
      t.setInt(j, equal);
    else
      t.setInt(j, kind == OpKind::Ne || (lessThan ? kind == OpKind::Lt || kind == OpKind::Le
                                                  : kind == OpKind::Gt || kind == OpKind::Ge));
  });
}

// A step function (floor, ceil, trunc, round, a cast of a float to an
// integer) of a computed value within its uncertainty of a step (sigmoid(17)
// is one f32 ulp below 1, which a kernel's sigmoid may round up to 1; x -
// mean(x) of equal values is 0 or a rounding either side) lands on each side
// of it in one of two opposite draws, also where its moves cancel. A value
// not computed (an input's) exactly at a step is left alone.
void tieNearSteps(Tensor &t, const Op &op, std::span<const Tensor *const> operands,
                  std::span<const Tensor *const> plains, const InterpreterOptions &options,
                  uint64_t base) {
  const OpKind kind = op.kind();
  const Tensor &a = *operands[0];
  if (!op.operand(0)->definingOp() || !a.isFloating() || a.numel() != t.numel())
    return;
  const bool cast = kind == OpKind::Cast;
  const double relative = std::fabs(relativeFor(a, options));
  auto step = [&](double x) {
    switch (kind) {
    case OpKind::Floor:
      return std::floor(x);
    case OpKind::Ceil:
      return std::ceil(x);
    case OpKind::Round:
      return std::nearbyint(x);
    default:
      return std::trunc(x);
    }
  };
  for (size_t j = 0; j < t.numel(); ++j) {
    const double x = a.getFloat(j);
    if (!std::isfinite(x))
      continue;
    const double point = kind == OpKind::Round ? std::floor(x) + 0.5 : std::nearbyint(x);
    const double moved = uncertainty(a, plains[0], j);
    const double reach = std::max(3 * relative * std::fabs(x), 2 * moved);
    // Only where the uncertainty stays well inside one unit: a step nearby is one.
    if (reach >= 0.25 || std::fabs(x - point) > reach || (x == point && !plains[0]))
      continue;
    const double side =
        step(std::nextafter(point, firstOfPair(base, j, options) ? -HUGE_VAL : HUGE_VAL));
    if (cast)
      t.setInt(j, static_cast<int64_t>(side));
    else
      t.setFloat(j, side);
  }
}

// pow of a negative base is NaN unless the exponent is an integer: an
// exponent within its uncertainty of an integer n (x - sum(x) is one in a
// kernel that sums in another order, var(x) of equal values may miss 0)
// gives pow(base, n) in one of two opposite draws and, for a computed
// exponent, NaN in the other.
void tieNearIntegerPowers(Tensor &t, const Op &op, std::span<const Tensor *const> operands,
                          std::span<const Tensor *const> plains, const InterpreterOptions &options,
                          uint64_t base) {
  if (!operands[1]->isFloating() || !op.operand(1)->definingOp())
    return;
  const Tensor &a = *operands[0], &b = *operands[1];
  const double relative = std::fabs(relativeFor(b, options));
  const std::vector<int64_t> sa = interp::broadcastStrides(a, t.shape(), op, 0),
                             sb = interp::broadcastStrides(b, t.shape(), op, 1);
  interp::forEachIndex(t.shape(), [&](const std::vector<int64_t> &index, size_t j) {
    const size_t ib = static_cast<size_t>(interp::dot(index, sb));
    const double x = a.getFloat(static_cast<size_t>(interp::dot(index, sa))), y = b.getFloat(ib);
    const double n = std::nearbyint(y);
    const double reach = std::max(3 * relative * std::fabs(y), 2 * uncertainty(b, plains[1], ib));
    if (!(x < 0) || !std::isfinite(y) || std::fabs(y - n) > reach)
      return;
    if (firstOfPair(base, j, options))
      t.setFloat(j, std::pow(x, n));
    else if (plains[1] && std::fabs(y) < (b.dtype() == DType::F64 ? 0x1p52 : 0x1p23))
      t.setFloat(j, NAN); // a computed exponent may miss the integer in a kernel
  });
}

// A remainder (fmod) of a quotient within its uncertainty of an integer is
// near 0 on one side and near the divisor on the other (a kernel's a / b
// may land exactly on the integer): one of two opposite draws takes each
// side. One of a quotient uncertain by 1/(2 pi) of a period or more carries
// no digits (as a sine of an argument uncertain by a radian): exactly 0 in
// one draw (seed 39151: remainder(1.4e5 + f, 1) was 0 in a kernel) and the
// divisor in the other, so the pair spans every value a kernel may give
// (seed 67917: fmod of an f32 product of 4.7e6 was 0 in every draw and -0.5
// in the kernel). Not NaN: a sum over such remainders stays a number.
void tieNearQuotients(Tensor &t, const Op &op, std::span<const Tensor *const> operands,
                      std::span<const Tensor *const> plains, const InterpreterOptions &options,
                      uint64_t base) {
  const Tensor &a = *operands[0], &b = *operands[1];
  if (!plains[0] && !plains[1])
    return;
  const double relative = std::fabs(relativeFor(t, options));
  const std::vector<int64_t> sa = interp::broadcastStrides(a, t.shape(), op, 0),
                             sb = interp::broadcastStrides(b, t.shape(), op, 1);
  interp::forEachIndex(t.shape(), [&](const std::vector<int64_t> &index, size_t j) {
    const size_t ia = static_cast<size_t>(interp::dot(index, sa)),
                 ib = static_cast<size_t>(interp::dot(index, sb));
    const double x = a.getFloat(ia), y = b.getFloat(ib), r = t.getFloat(j);
    const double q = x / y, n = std::nearbyint(q);
    if (!std::isfinite(q) || !std::isfinite(r) || y == 0)
      return;
    const double quotientMoves =
        (uncertainty(a, plains[0], ia) + std::fabs(q) * uncertainty(b, plains[1], ib)) /
        std::fabs(y);
    const double reach = std::max(3 * relative * std::fabs(q), 2 * quotientMoves);
    const double sign = op.kind() == OpKind::Remainder ? y : x; // the sign the result takes
    if (reach >= 1 / (2 * std::numbers::pi)) {
      t.setFloat(j, std::copysign(firstOfPair(base, j, options) ? 0.0 : std::fabs(y), sign));
      return;
    }
    if (std::fabs(q - n) > reach)
      return;
    // One draw of the pair lands just past the multiple, the other just short.
    const double past = std::min(std::fabs(r), std::fabs(std::fabs(y) - std::fabs(r)));
    t.setFloat(j, std::copysign(firstOfPair(base, j, options) ? past : std::fabs(y) - past, sign));
  });
}

// acos and asin of a computed value within its uncertainty of a domain
// edge, +-1: a kernel may round the operand onto the edge, where the result
// is exact (acos(1) is 0), while the draws, moved off it, give NaN beyond it
// and values a square root away inside it (acos(cosh(x)) for a small x:
// seed 66352). One draw of the pair takes the edge's value.
void tieNearDomainEdges(Tensor &t, const Op &op, std::span<const Tensor *const> operands,
                        std::span<const Tensor *const> plains, const InterpreterOptions &options,
                        uint64_t base) {
  const Tensor &a = *operands[0];
  if (!plains[0] || !a.isFloating() || a.numel() != t.numel())
    return;
  const double relative = std::fabs(relativeFor(a, options));
  for (size_t j = 0; j < t.numel(); ++j) {
    const double x = a.getFloat(j);
    const double edge = std::copysign(1.0, x);
    const double reach = std::max(3 * relative, 2 * uncertainty(a, plains[0], j));
    if (!std::isfinite(x) || x == edge || std::fabs(x - edge) > reach ||
        !firstOfPair(base, j, options))
      continue;
    t.setFloat(j, op.kind() == OpKind::Acos ? std::acos(edge) : std::asin(edge));
  }
}

// Elementwise functions and composites kernels approximate (exp, erf,
// gelu, rms_norm's rsqrt, ...), not the correctly rounded arithmetic of
// IEEE (add, sub, mul, div, sqrt).
bool approximated(const Op &op) {
  switch (op.kind()) {
  case OpKind::Add:
  case OpKind::Sub:
  case OpKind::Mul:
  case OpKind::Div:
  case OpKind::Sqrt:
  case OpKind::Reciprocal:
  case OpKind::Lerp:
    return false;
  default:
    return op.info().composite || op.info().shapeRule == ShapeRule::Elementwise;
  }
}

bool isStep(const Op &op) {
  switch (op.kind()) {
  case OpKind::Floor:
  case OpKind::Ceil:
  case OpKind::Trunc:
  case OpKind::Round:
    return true;
  case OpKind::Cast:
    return !isFloating(op.result()->dtype()) && op.result()->dtype() != DType::Bool;
  default:
    return false;
  }
}

bool isComparison(OpKind kind) {
  return kind == OpKind::Eq || kind == OpKind::Ne || kind == OpKind::Lt || kind == OpKind::Le ||
         kind == OpKind::Gt || kind == OpKind::Ge;
}

uint64_t drawBase(const Op &op, const InterpreterOptions &options) {
  return mix(options.seed ^ mix(op.result()->id()));
}

} // namespace

bool computes(const Op &op) {
  switch (op.kind()) {
  case OpKind::Abs:
  case OpKind::Cast:
  case OpKind::Ceil:
  case OpKind::Clamp:
  case OpKind::Floor:
  case OpKind::Fmod:
  case OpKind::Max:
  case OpKind::Maximum:
  case OpKind::Min:
  case OpKind::Minimum:
  case OpKind::Neg:
  case OpKind::Relu:
  case OpKind::Round:
  case OpKind::Sign:
  case OpKind::Trunc:
  case OpKind::Where:
    return false;
  default:
    break;
  }
  const ShapeRule rule = op.info().shapeRule;
  return op.info().composite || rule == ShapeRule::Elementwise || rule == ShapeRule::Reduction ||
         rule == ShapeRule::Scan || rule == ShapeRule::Normalization;
}

void perturbResult(Tensor &t, const Tensor *plain, const Op &op,
                   std::span<const Tensor *const> operands,
                   const std::vector<bool> &computedOperands, const EvalContext &ctx,
                   const InterpreterOptions &options) {
  const std::optional<Tensor> scale =
      errorScale(op, operands, t, computedOperands, ctx, relativeFor(t, options));
  // A cancelling reduction may land on exactly 0 (one of two opposite draws
  // puts it there); a difference of computed values only in the runs that
  // model operands rounded alike (a product of such differences is then 0
  // or NaN throughout, not in every draw).
  const bool sum = op.kind() == OpKind::Add || op.kind() == OpKind::Sub;
  const bool accumulates =
      op.info().shapeRule == ShapeRule::Reduction || op.info().shapeRule == ShapeRule::Scan;
  const ZeroRule zero = accumulates            ? ZeroRule::OneOfPairOrUnmoved
                        : !sum                 ? ZeroRule::OneOfPair
                        : options.cancelToZero ? ZeroRule::Always
                                               : ZeroRule::Never;
  const DType dtype = op.result()->dtype();
  moveElements(t, relativeFor(t, options), drawBase(op, options), scale ? &*scale : nullptr, zero,
               approximated(op), plain, dtype == DType::F16 || dtype == DType::BF16);
  // A variance near 0 moves up, not below it: a kernel's sum of squares is
  // never negative.
  if (op.kind() == OpKind::Var || op.kind() == OpKind::Std)
    for (size_t i = 0; i < t.numel(); ++i)
      if (t.getFloat(i) < 0)
        t.setFloat(i, -t.getFloat(i));
  // Composites round an f16 / bf16 result to its dtype: here after the
  // move (CompositeEval.cpp), so that one next to a boundary rounds either way.
  if ((dtype == DType::F16 || dtype == DType::BF16) && op.info().composite)
    for (size_t i = 0; i < t.numel(); ++i)
      t.setFloat(i, roundToFloatType(t.getFloat(i), dtype));
}

Tensor perturbedUse(const Tensor &value, const Tensor *plain, const Op &user, size_t operand,
                    const InterpreterOptions &options) {
  Tensor copy = value;
  const double relative = relativeFor(copy, options);
  const uint64_t base = mix(options.seed ^ mix(user.result()->id() * 64 + operand + 0x5eed));
  // A use moves on from its value, away from the unmoved value, on the side
  // the value's moves took it (its own draw picks only where they did not).
  // Added with its own sign, a use's move could cancel the value's, and the
  // use would model no rounding at all; two uses on opposite sides (`t + t`
  // of a value its moves took 0.3 up) would cancel each other, where a
  // kernel's uses of one value all see its one rounding. (Not from an exact
  // 0: a value a draw put on 0 stays there in every use.)
  moveElements(copy, relative, base, nullptr, ZeroRule::Never, false);
  if (plain)
    for (size_t i = 0; i < copy.numel(); ++i) {
      const double v = value.getFloat(i), p = plain->getFloat(i), moved = copy.getFloat(i);
      if (std::isfinite(v) && std::isfinite(p) && v != p && moved != v && (moved > v) != (v > p))
        copy.setFloat(i, 2 * v - moved);
    }
  return copy;
}

// A cast to bool and the logical ops decide whether a float is zero. A
// product whose order decides whether it underflows to 0 is NaN (no
// digits) in the draws, which they would take as nonzero in every draw
// where a kernel's may be 0 (seeds 101703, 109295: a cumprod underflowing,
// then `logical_and`ed or cast to bool). An operand NaN here where the
// reference has a number is undecided: a result it decides is true in one
// of two opposite draws and false in the other. A NaN the reference has
// too is nonzero, as in every kernel.
void tieBoolsWithoutDigits(Tensor &t, const Op &op, std::span<const Tensor *const> operands,
                           std::span<const Tensor *const> exact, const InterpreterOptions &options,
                           uint64_t base) {
  std::vector<std::vector<int64_t>> strides;
  for (size_t k = 0; k < operands.size(); ++k)
    strides.push_back(interp::broadcastStrides(*operands[k], t.shape(), op, k));
  interp::forEachIndex(t.shape(), [&](const std::vector<int64_t> &index, size_t j) {
    // Per operand: 1 nonzero, 0 zero, -1 undecided.
    int truth[2] = {0, 0};
    bool undecided = false;
    for (size_t k = 0; k < operands.size(); ++k) {
      const size_t i = static_cast<size_t>(interp::dot(index, strides[k]));
      const Tensor &a = *operands[k];
      const bool open =
          a.isFloating() && std::isnan(a.getFloat(i)) && !std::isnan(exact[k]->getFloat(i));
      truth[k] = open ? -1 : a.isFloating() ? a.getFloat(i) != 0 : a.getInt(i) != 0;
      undecided = undecided || open;
    }
    if (!undecided)
      return;
    // An operand that decides the result alone: a zero for and, a nonzero for or.
    if ((op.kind() == OpKind::LogicalAnd && (truth[0] == 0 || truth[1] == 0)) ||
        (op.kind() == OpKind::LogicalOr && (truth[0] == 1 || truth[1] == 1)))
      return;
    t.setInt(j, firstOfPair(base, j, options) ? 1 : 0);
  });
}

bool decidesOnExactValue(const Op &op) {
  const bool floating = std::any_of(op.operands().begin(), op.operands().end(),
                                    [](const Value *v) { return isFloating(v->dtype()); });
  switch (op.kind()) {
  case OpKind::Cast:
    return op.result()->dtype() == DType::Bool && floating;
  case OpKind::LogicalAnd:
  case OpKind::LogicalOr:
  case OpKind::LogicalNot:
    return floating;
  default:
    return false;
  }
}

void tieNearDecisions(Tensor &t, const Op &op, std::span<const Tensor *const> operands,
                      std::span<const Tensor *const> plains, std::span<const Tensor *const> exact,
                      const InterpreterOptions &options) {
  const uint64_t base = drawBase(op, options);
  if (op.kind() == OpKind::Pow && t.isFloating())
    tieNearIntegerPowers(t, op, operands, plains, options, base);
  else if ((op.kind() == OpKind::Remainder || op.kind() == OpKind::Fmod) && t.isFloating())
    tieNearQuotients(t, op, operands, plains, options, base);
  else if (isComparison(op.kind()))
    tieNearComparisons(t, op, operands, plains, options, base);
  else if (isStep(op))
    tieNearSteps(t, op, operands, plains, options, base);
  else if (decidesOnExactValue(op))
    tieBoolsWithoutDigits(t, op, operands, exact, options, base);
  else if ((op.kind() == OpKind::Sin || op.kind() == OpKind::Cos || op.kind() == OpKind::Tan) &&
           t.isFloating())
    dropPeriodicOfUncertain(t, operands, plains);
  else if ((op.kind() == OpKind::Acos || op.kind() == OpKind::Asin) && t.isFloating())
    tieNearDomainEdges(t, op, operands, plains, options, base);
}

} // namespace fuserc::interp
