// The reference interpreter's driver: binds symbols from the input shapes,
// evaluates the ops in order with the per-family evaluators, and converts
// the outputs to their declared dtypes (see Interpreter.h for the rounding
// contract).
#include "ir/interp/Interpreter.h"

#include "ir/interp/EvalSupport.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <set>
#include <vector>

namespace fuserc {
namespace {

// Thrown while binding inputs; becomes InterpreterResult::error.
struct BindError {
  std::string message;
};

std::string inputDim(const Value &input, size_t dim) {
  return "input '" + input.name() + "' dim " + std::to_string(dim);
}

// Binds the symbols of the input shapes, checking every input against its
// declaration. Symbols remember where they were bound, for messages.
class InputBinder {
public:
  explicit InputBinder(SymbolBindings &symbols) : symbols_(symbols) {
    for (const auto &[name, value] : symbols_)
      origins_[name] = "the given bindings";
  }

  void bind(const Value &input, const Tensor &t) {
    const std::string subject = "input '" + input.name() + "'";
    if (t.dtype() != input.dtype())
      fail(subject + ": expected dtype " + std::string(dtypeName(input.dtype())) + ", found " +
           std::string(dtypeName(t.dtype())));
    if (t.rank() != input.rank())
      fail(subject + ": expected rank " + std::to_string(input.rank()) + " (shape " +
           shapeString(input.shape()) + "), found rank " + std::to_string(t.rank()) + " (shape " +
           interp::shapeText(t.shape()) + ")");
    for (size_t d = 0; d < t.rank(); ++d)
      bindDim(input, d, t.shape()[d]);
  }

  // Checks the extents that are neither constants nor single symbols, once
  // every input has been bound.
  void checkDeferred() {
    for (const auto &[input, dim, found] : deferred_) {
      const Extent &e = input->shape()[dim];
      const std::optional<int64_t> expected = e.evaluate(symbols_);
      if (!expected)
        fail(inputDim(*input, dim) + ": cannot evaluate extent '" + e.str() + "'");
      if (*expected != found)
        fail(inputDim(*input, dim) + ": expected " + e.str() + " = " + std::to_string(*expected) +
             ", found " + std::to_string(found));
    }
  }

private:
  [[noreturn]] static void fail(std::string message) { throw BindError{std::move(message)}; }

  void bindDim(const Value &input, size_t dim, int64_t found) {
    const Extent &e = input.shape()[dim];
    if (std::optional<int64_t> c = e.constant()) {
      if (*c != found)
        fail(inputDim(input, dim) + ": expected " + std::to_string(*c) + ", found " +
             std::to_string(found));
      return;
    }
    std::optional<std::string> symbol = e.symbolName();
    if (!symbol) {
      deferred_.push_back({&input, dim, found});
      return;
    }
    auto it = symbols_.find(*symbol);
    if (it == symbols_.end()) {
      symbols_.emplace(*symbol, found);
      origins_[*symbol] = inputDim(input, dim);
    } else if (it->second != found) {
      fail(inputDim(input, dim) + ": expected " + *symbol + " = " + std::to_string(it->second) +
           " (bound by " + origins_[*symbol] + "), found " + std::to_string(found));
    }
  }

  struct Deferred {
    const Value *input;
    size_t dim;
    int64_t found;
  };
  SymbolBindings &symbols_;
  std::map<std::string, std::string> origins_;
  std::vector<Deferred> deferred_;
};

Tensor literalTensor(const Value &literal) {
  Tensor t(literal.dtype(), {});
  const Number &n = literal.literal();
  if (n.isInteger)
    t.setInt(0, n.intValue);
  else
    t.setFloat(0, n.floatValue);
  return t;
}

// The value of `t` with exactly dtype `dtype`: f16 / bf16 values held in
// f32 are rounded here, where they are stored.
Tensor withDType(const Tensor &t, DType dtype) {
  if (t.dtype() == dtype)
    return t;
  Tensor out(dtype, t.shape());
  for (size_t i = 0; i < t.numel(); ++i)
    interp::copyElement(t, i, out, i);
  return out;
}

InterpreterResult failure(InterpreterResult result, std::string message) {
  result.ok = false;
  result.error = std::move(message);
  result.outputs.clear();
  return result;
}

// splitmix64: the perturbation's sign for element `i` of op `op`.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Ops whose result the GPU may round differently: not those whose result is
// exact given their operands (a floor, a maximum, a cast), so that a floor
// of a value a few ulps from an integer shows as ill-conditioned.
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
  return rule == ShapeRule::Elementwise || rule == ShapeRule::Reduction ||
         rule == ShapeRule::Normalization;
}

// What a rounding error of the op's own arithmetic scales with, per
// element, where that is not the result's magnitude: a sum's or mean's is
// its terms' (the same reduction of |x|: a cancelling sum keeps an error
// the size of its terms), a layer_norm's that of its mean
// (layerNormErrorScale). None: the result's magnitude.
// Either is then multiplied by reductionRounds of the elements reduced per
// result (layerNormErrorScale does so itself). A var's and a std's: below.
std::optional<Tensor> errorScale(const Op &op, std::span<const Tensor *const> operands,
                                 const EvalContext &ctx, double relative) {
  std::optional<Tensor> scale;
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
    const Tensor y = cpuEvaluator(op.kind())(op, operands, ctx);
    for (size_t i = 0; i < scale->numel(); ++i)
      scale->setFloat(i, std::fabs(y.getFloat(i)) * (2 + 1.173 * std::fabs(x.getFloat(i))) *
                             0x1p-23 / std::fabs(relative));
    return scale;
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

// Moves every finite element of `t` by `relative` times its `scale` (its
// magnitude where null), each by a size drawn from [1/2, 3/2) of that (so
// that moves along a chain do not cancel exactly) and a sign drawn from
// `base`; a nonzero element by at least one ulp of f32 or f64 (subnormals),
// and one within its move of zero to exactly 0 in one of two opposite draws.
void moveElements(Tensor &t, double relative, uint64_t base, const Tensor *scale) {
  for (size_t i = 0; i < t.numel(); ++i) {
    const double v = t.getFloat(i);
    if (!std::isfinite(v))
      continue;
    const uint64_t draw = mix(base + i);
    const bool up = (draw & 1) != (relative < 0);
    const double size = scale ? std::max(std::fabs(v), scale->getFloat(i)) : std::fabs(v);
    const double factor = 0.5 + static_cast<double>(draw >> 11) * 0x1p-53;
    const double move = std::isfinite(size) ? size * std::fabs(relative) * factor : 0;
    // A value within its own error of zero (a cancelling reduction) may
    // come out exactly 0 in a kernel: one of each pair of opposite draws
    // puts it there (a bit of its own: the sign of such a value follows the
    // moves of its operands, not its own).
    const bool zero = move >= std::fabs(v) && ((draw >> 1) & 1) == (relative > 0);
    t.setFloat(i, zero ? 0.0 : up ? v + move : v - move);
    if (v == 0 || t.getFloat(i) != v)
      continue;
    const double toward = up ? HUGE_VAL : -HUGE_VAL;
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

// A comparison of floating operands within their moves of each other (a
// value's own and its use's) may find them equal in a kernel (cosh(x) == 1
// for a tiny x rounds either way): one of two opposite draws ties them.
void tieNearComparisons(Tensor &t, const Op &op, std::span<const Tensor *const> operands,
                        const InterpreterOptions &options, uint64_t base) {
  const OpKind kind = op.kind();
  if (kind != OpKind::Eq && kind != OpKind::Ne && kind != OpKind::Lt && kind != OpKind::Le &&
      kind != OpKind::Gt && kind != OpKind::Ge)
    return;
  const Tensor &a = *operands[0], &b = *operands[1];
  if (!a.isFloating() && !b.isFloating())
    return;
  const double relative = std::max(a.isFloating() ? std::fabs(relativeFor(a, options)) : 0.0,
                                   b.isFloating() ? std::fabs(relativeFor(b, options)) : 0.0);
  const std::vector<int64_t> sa = interp::broadcastStrides(a, t.shape(), op, 0),
                             sb = interp::broadcastStrides(b, t.shape(), op, 1);
  const bool equal = kind == OpKind::Eq || kind == OpKind::Le || kind == OpKind::Ge;
  interp::forEachIndex(t.shape(), [&](const std::vector<int64_t> &index, size_t j) {
    const double x = a.getFloat(static_cast<size_t>(interp::dot(index, sa))),
                 y = b.getFloat(static_cast<size_t>(interp::dot(index, sb)));
    if (!std::isfinite(x) || !std::isfinite(y) || x == y ||
        std::fabs(x - y) > 3 * relative * std::max(std::fabs(x), std::fabs(y)))
      return;
    if (firstOfPair(base, j, options))
      t.setInt(j, equal);
  });
}

// A step function (floor, ceil, trunc, round, a cast of a float to an
// integer) of a computed value within its moves of a step (sigmoid(17) is
// one f32 ulp below 1, which a kernel's sigmoid may round up to 1) may land
// on either side of it in a kernel: one of two opposite draws puts it on
// each side. A value exactly at a step is left alone, as comparisons leave
// equal operands.
void tieNearSteps(Tensor &t, const Op &op, std::span<const Tensor *const> operands,
                  const InterpreterOptions &options, uint64_t base) {
  const OpKind kind = op.kind();
  const bool cast = kind == OpKind::Cast && !t.isFloating() && t.dtype() != DType::Bool;
  if (kind != OpKind::Floor && kind != OpKind::Ceil && kind != OpKind::Trunc &&
      kind != OpKind::Round && !cast)
    return;
  const Tensor &a = *operands[0];
  const Op *producer = op.operand(0)->definingOp();
  if (!producer || !a.isFloating() || a.numel() != t.numel())
    return;
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
    const double reach = 3 * relative * std::fabs(x);
    // Only where the moves stay well inside one unit: a step nearby is one.
    const bool atStep = kind == OpKind::Round ? x - std::floor(x) == 0.5 : x == std::trunc(x);
    if (!std::isfinite(x) || atStep || reach >= 0.25 || step(x - reach) == step(x + reach))
      continue;
    const double side = firstOfPair(base, j, options) ? -reach : reach;
    const double moved = step(x + side);
    if (cast)
      t.setInt(j, static_cast<int64_t>(moved));
    else
      t.setFloat(j, moved);
  }
}

// pow of a negative base is NaN unless the exponent is an integer: an
// exponent within its moves of an integer n (x - sum(x) is one in a kernel
// that sums in another order) gives pow(base, n) in one of two opposite
// draws.
void tieNearIntegerPowers(Tensor &t, const Op &op, std::span<const Tensor *const> operands,
                          const InterpreterOptions &options, uint64_t base) {
  if (op.kind() != OpKind::Pow || !operands[1]->isFloating() || !op.operand(1)->definingOp())
    return;
  const Tensor &a = *operands[0], &b = *operands[1];
  const double relative = std::fabs(relativeFor(b, options));
  const std::vector<int64_t> sa = interp::broadcastStrides(a, t.shape(), op, 0),
                             sb = interp::broadcastStrides(b, t.shape(), op, 1);
  interp::forEachIndex(t.shape(), [&](const std::vector<int64_t> &index, size_t j) {
    const double x = a.getFloat(static_cast<size_t>(interp::dot(index, sa))),
                 y = b.getFloat(static_cast<size_t>(interp::dot(index, sb)));
    const double n = std::nearbyint(y);
    if (!(x < 0) || !std::isfinite(y) || y == n || std::fabs(y - n) > 3 * relative * std::fabs(y))
      return;
    if (firstOfPair(base, j, options))
      t.setFloat(j, std::pow(x, n));
  });
}

void perturb(Tensor &t, const Op &op, std::span<const Tensor *const> operands,
             const EvalContext &ctx, const InterpreterOptions &options) {
  const std::optional<Tensor> scale = errorScale(op, operands, ctx, relativeFor(t, options));
  moveElements(t, relativeFor(t, options), mix(options.seed ^ mix(op.result()->id())),
               scale ? &*scale : nullptr);
  // Composites round an f16 / bf16 result to its dtype: here after the
  // move (CompositeEval.cpp), so that one next to a boundary rounds either way.
  const DType dtype = op.result()->dtype();
  if ((dtype == DType::F16 || dtype == DType::BF16) && op.info().composite)
    for (size_t i = 0; i < t.numel(); ++i)
      t.setFloat(i, roundToFloatType(t.getFloat(i), dtype));
}

// A computed floating operand as one use of it sees it: kernels may
// recompute a value in each kernel that uses it, each rounding its own way,
// so each use moves by its own draw (seeded by the use).
Tensor perturbedUse(const Tensor &value, const Op &user, size_t operand,
                    const InterpreterOptions &options) {
  Tensor copy = value;
  moveElements(copy, relativeFor(copy, options),
               mix(options.seed ^ mix(user.result()->id() * 64 + operand + 0x5eed)), nullptr);
  return copy;
}

} // namespace

InterpreterResult interpret(const Fusion &fusion, const std::map<std::string, Tensor> &inputs,
                            const SymbolBindings &symbols, const InterpreterOptions &options) {
  InterpreterResult result;
  result.symbols = symbols;
  std::vector<std::optional<Tensor>> values(fusion.values().size());

  try {
    InputBinder binder(result.symbols);
    std::set<std::string> known;
    for (const Value *input : fusion.inputs()) {
      known.insert(input->name());
      auto it = inputs.find(input->name());
      if (it == inputs.end())
        return failure(std::move(result), "missing input '" + input->name() + "'");
      binder.bind(*input, it->second);
      values[input->id()] = it->second;
    }
    binder.checkDeferred();
    for (const auto &[name, tensor] : inputs)
      if (!known.count(name))
        return failure(std::move(result), "unknown input '" + name + "' (the fusion '" +
                                              fusion.name() + "' has no input of that name)");
  } catch (const BindError &e) {
    return failure(std::move(result), e.message);
  }

  for (const auto &value : fusion.values())
    if (value->isLiteral())
      values[value->id()] = literalTensor(*value);

  const EvalContext ctx{result.symbols, options.perturbation != 0};
  // Values a kernel computes, directly or through exact ops (an abs or a
  // view of a computed value): a kernel may recompute them per use.
  std::vector<bool> computed(fusion.values().size(), false);
  for (const auto &op : fusion.ops()) {
    try {
      std::vector<const Tensor *> operands;
      std::vector<Tensor> uses; // perturbed runs: each use's own view of a computed value
      uses.reserve(op->operands().size());
      for (const Value *operand : op->operands()) {
        if (!values[operand->id()])
          throw EvalError(interp::describeOp(*op) + ": an operand is used before it is defined");
        const Tensor &value = *values[operand->id()];
        if (options.perturbation != 0 && computed[operand->id()] && value.isFloating()) {
          uses.push_back(perturbedUse(value, *op, operands.size(), options));
          operands.push_back(&uses.back());
        } else {
          operands.push_back(&value);
        }
      }
      Tensor t = cpuEvaluator(op->kind())(*op, operands, ctx);
      // The evaluators allocate through makeResult; a mismatch is a bug in
      // one of them, caught here rather than silently propagated.
      const std::vector<int64_t> shape = ctx.resultShape(*op);
      const DType dtype = interp::storageDType(op->result()->dtype());
      if (t.shape() != shape || t.dtype() != dtype)
        throw EvalError(interp::describeOp(*op) + ": the evaluator returned " +
                        std::string(dtypeName(t.dtype())) + interp::shapeText(t.shape()) +
                        ", expected " + std::string(dtypeName(dtype)) + interp::shapeText(shape));
      bool fromComputed = computes(*op);
      for (const Value *operand : op->operands())
        fromComputed = fromComputed || computed[operand->id()];
      computed[op->result()->id()] = fromComputed;
      const uint64_t base = mix(options.seed ^ mix(op->result()->id()));
      if (options.perturbation != 0 && t.isFloating() && computes(*op)) {
        perturb(t, *op, operands, ctx, options);
        tieNearIntegerPowers(t, *op, operands, options, base);
      } else if (options.perturbation != 0) {
        tieNearComparisons(t, *op, operands, options, base);
        tieNearSteps(t, *op, operands, options, base);
      }
      values[op->result()->id()] = std::move(t);
    } catch (const EvalError &e) {
      return failure(std::move(result), e.what());
    } catch (const std::exception &e) {
      return failure(std::move(result), interp::describeOp(*op) + ": " + e.what());
    }
  }

  for (const FusionOutput &output : fusion.outputs()) {
    const std::optional<Tensor> &value = values.at(output.value->id());
    if (!value)
      return failure(std::move(result), "an output is never computed");
    result.outputs.push_back(withDType(*value, output.value->dtype()));
  }
  result.ok = true;
  return result;
}

} // namespace fuserc
