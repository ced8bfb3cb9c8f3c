// Reference evaluation of composite ops (softmax, log_softmax, layer_norm,
// rms_norm, softplus, logsumexp, argmax, argmin; std is a reduction of
// ReductionEval.cpp),
// computed directly in double. Canonicalization decomposes them
// into primitives for the GPU; evaluating the definition here, rather than
// the decomposition, lets tests check the decomposition too.
#include "ir/interp/EvalSupport.h"
#include "ir/interp/ReferenceMath.h"

#include <cmath>
#include <limits>

namespace fuserc {
namespace {

// Evaluates an op that maps each lane of x (its values along `axes`,
// row-major in the order `axes` lists them) to a lane of results of the same
// shape: fn(lane, out) fills `out`, which is then stored into the result.
template <typename Fn>
Tensor mapLanes(const Op &op, const Tensor &x, const std::vector<int64_t> &axes,
                const EvalContext &ctx, Fn fn) {
  Tensor result = interp::makeResult(op, ctx);
  if (result.shape() != x.shape())
    throw EvalError(interp::describeOp(op) + ": result shape " + interp::shapeText(result.shape()) +
                    " is not the input shape " + interp::shapeText(x.shape()));
  const interp::AxisSplit split = interp::splitAxes(x.shape(), axes, op);
  // An f16 / bf16 composite rounds its result to its dtype, as PyTorch's
  // kernels and the decomposition (passes/CompositeDecomposition.cpp) do;
  // in a perturbed run after the perturbation (Interpreter.cpp), so that a
  // result next to a rounding boundary rounds either way.
  const DType dtype = op.result()->dtype();
  const bool half = (dtype == DType::F16 || dtype == DType::BF16) && !ctx.kernelOrder;
  std::vector<double> lane(split.reducedOffsets.size()), out(lane.size());
  for (int64_t base : split.keptOffsets) {
    for (size_t r = 0; r < lane.size(); ++r)
      lane[r] = x.getFloat(static_cast<size_t>(base + split.reducedOffsets[r]));
    fn(lane, out);
    for (size_t r = 0; r < lane.size(); ++r)
      result.setFloat(static_cast<size_t>(base + split.reducedOffsets[r]),
                      half ? roundToFloatType(out[r], dtype) : out[r]);
  }
  return result;
}

// A normalization parameter (w or b): either rank 0, or shaped like the
// normalized dims; read at position r of the row-major lane.
class LaneParameter {
public:
  LaneParameter(const Op &op, const Tensor &t, const interp::AxisSplit &split, const char *name)
      : t_(t) {
    if (t.rank() != 0 && t.shape() != split.reducedShape)
      throw EvalError(interp::describeOp(op) + ": " + name + " has shape " +
                      interp::shapeText(t.shape()) + ", expected " +
                      interp::shapeText(split.reducedShape));
  }
  double operator[](size_t r) const { return t_.getFloat(t_.rank() == 0 ? 0 : r); }

private:
  const Tensor &t_;
};

double mean(const std::vector<double> &values) {
  return ref::reduceSum(std::span<const double>(values)) / static_cast<double>(values.size());
}

// The sum of a lane's `terms` as the normalization's kernel may take it
// (EvalContext::kernelOrder, below f64: each term and partial rounded to
// f32, so that squares that overflow f32 do so here too); else in double.
double laneSum(std::vector<double> terms, const Op &op, const EvalContext &ctx) {
  if (!ctx.kernelOrder || op.result()->dtype() == DType::F64)
    return ref::reduceSum(std::span<const double>(terms));
  for (double &t : terms)
    t = static_cast<double>(static_cast<float>(t));
  return ref::reducePairwise(terms, false, true);
}

double laneMax(const std::vector<double> &lane) {
  double m = -std::numeric_limits<double>::infinity();
  for (double v : lane)
    m = ref::maximum(m, v);
  return m;
}

// An f16 / bf16 composite's result rounded to its dtype (see mapLanes).
double storedValue(double v, const Op &op, const EvalContext &ctx) {
  const DType dtype = op.result()->dtype();
  const bool half = (dtype == DType::F16 || dtype == DType::BF16) && !ctx.kernelOrder;
  return half ? roundToFloatType(v, dtype) : v;
}

} // namespace

Tensor evalSoftmax(const Op &op, std::span<const Tensor *const> operands, const EvalContext &ctx) {
  const Tensor &x = interp::operandAt(op, operands, 0);
  const std::vector<int64_t> axes = {op.attrs().integer("dim")};
  return mapLanes(op, x, axes, ctx, [](const std::vector<double> &lane, std::vector<double> &out) {
    const double m = laneMax(lane);
    for (size_t r = 0; r < lane.size(); ++r)
      out[r] = std::exp(lane[r] - m);
    const double sum = ref::compensatedSum(out);
    for (double &v : out)
      v /= sum;
  });
}

Tensor evalLogSoftmax(const Op &op, std::span<const Tensor *const> operands,
                      const EvalContext &ctx) {
  const Tensor &x = interp::operandAt(op, operands, 0);
  const std::vector<int64_t> axes = {op.attrs().integer("dim")};
  return mapLanes(op, x, axes, ctx, [](const std::vector<double> &lane, std::vector<double> &out) {
    const double m = laneMax(lane);
    std::vector<double> terms(lane.size());
    for (size_t r = 0; r < lane.size(); ++r)
      terms[r] = std::exp(lane[r] - m);
    const double logSum = std::log(ref::compensatedSum(terms));
    for (size_t r = 0; r < lane.size(); ++r)
      out[r] = lane[r] - m - logSum;
  });
}

Tensor evalLayerNorm(const Op &op, std::span<const Tensor *const> operands,
                     const EvalContext &ctx) {
  const Tensor &x = interp::operandAt(op, operands, 0);
  const std::vector<int64_t> &axes = op.attrs().axes("axes");
  const interp::AxisSplit split = interp::splitAxes(x.shape(), axes, op);
  const LaneParameter w(op, interp::operandAt(op, operands, 1), split, "w");
  const LaneParameter b(op, interp::operandAt(op, operands, 2), split, "b");
  const double eps = op.attrs().number("eps").asDouble();
  return mapLanes(op, x, axes, ctx, [&](const std::vector<double> &lane, std::vector<double> &out) {
    const double n = static_cast<double>(lane.size());
    const double mu = laneSum(lane, op, ctx) / n;
    std::vector<double> squares(lane.size());
    for (size_t r = 0; r < lane.size(); ++r)
      squares[r] = (lane[r] - mu) * (lane[r] - mu);
    const double stddev = std::sqrt(laneSum(std::move(squares), op, ctx) / n + eps);
    for (size_t r = 0; r < lane.size(); ++r)
      out[r] = (lane[r] - mu) / stddev * w[r] + b[r];
  });
}

Tensor layerNormErrorScale(const Op &op, std::span<const Tensor *const> operands,
                           const EvalContext &ctx) {
  const Tensor &x = interp::operandAt(op, operands, 0);
  const std::vector<int64_t> &axes = op.attrs().axes("axes");
  const interp::AxisSplit split = interp::splitAxes(x.shape(), axes, op);
  const LaneParameter w(op, interp::operandAt(op, operands, 1), split, "w");
  const double eps = op.attrs().number("eps").asDouble();
  Tensor result = interp::makeResult(op, ctx);
  std::vector<double> lane(split.reducedOffsets.size());
  for (int64_t base : split.keptOffsets) {
    double magnitude = 0;
    for (size_t r = 0; r < lane.size(); ++r) {
      lane[r] = x.getFloat(static_cast<size_t>(base + split.reducedOffsets[r]));
      magnitude += std::fabs(lane[r]);
    }
    const double mu = mean(lane);
    double squares = 0;
    for (double v : lane)
      squares += (v - mu) * (v - mu);
    const double stddev = std::sqrt(squares / static_cast<double>(lane.size()) + eps);
    magnitude = magnitude / static_cast<double>(lane.size()) * reductionRounds(lane.size());
    for (size_t r = 0; r < lane.size(); ++r)
      result.setFloat(static_cast<size_t>(base + split.reducedOffsets[r]),
                      magnitude / stddev * std::fabs(w[r]));
  }
  return result;
}

Tensor evalRmsNorm(const Op &op, std::span<const Tensor *const> operands, const EvalContext &ctx) {
  const Tensor &x = interp::operandAt(op, operands, 0);
  const std::vector<int64_t> &axes = op.attrs().axes("axes");
  const interp::AxisSplit split = interp::splitAxes(x.shape(), axes, op);
  const LaneParameter w(op, interp::operandAt(op, operands, 1), split, "w");
  const double eps = op.attrs().number("eps").asDouble();
  return mapLanes(op, x, axes, ctx, [&](const std::vector<double> &lane, std::vector<double> &out) {
    std::vector<double> squares(lane.size());
    for (size_t r = 0; r < lane.size(); ++r)
      squares[r] = lane[r] * lane[r];
    const double rms =
        std::sqrt(laneSum(std::move(squares), op, ctx) / static_cast<double>(lane.size()) + eps);
    for (size_t r = 0; r < lane.size(); ++r)
      out[r] = lane[r] / rms * w[r];
  });
}

Tensor evalSoftplus(const Op &op, std::span<const Tensor *const> operands, const EvalContext &ctx) {
  const Tensor &x = interp::operandAt(op, operands, 0);
  Tensor result = interp::makeResult(op, ctx);
  if (result.shape() != x.shape())
    throw EvalError(interp::describeOp(op) + ": result shape " + interp::shapeText(result.shape()) +
                    " is not the input shape " + interp::shapeText(x.shape()));
  const double beta = op.attrs().number("beta").asDouble();
  const double threshold = op.attrs().number("threshold").asDouble();
  for (size_t i = 0; i < x.numel(); ++i) {
    const double v = x.getFloat(i);
    const double scaled = v * beta;
    result.setFloat(
        i, storedValue(scaled > threshold ? v : std::log1p(std::exp(scaled)) / beta, op, ctx));
  }
  return result;
}

Tensor evalLogSumExp(const Op &op, std::span<const Tensor *const> operands,
                     const EvalContext &ctx) {
  const Tensor &x = interp::operandAt(op, operands, 0);
  Tensor result = interp::makeResult(op, ctx);
  const interp::AxisSplit split = interp::splitReducedAxes(op, x, result);
  std::vector<double> lane(split.reducedOffsets.size());
  for (size_t k = 0; k < split.keptOffsets.size(); ++k) {
    for (size_t r = 0; r < lane.size(); ++r)
      lane[r] = x.getFloat(static_cast<size_t>(split.keptOffsets[k] + split.reducedOffsets[r]));
    // torch.logsumexp shifts by the max, an infinite max by 0 (an empty or
    // all -inf lane gives log(0) = -inf; a +inf gives +inf); NaN propagates.
    double m = laneMax(lane);
    if (std::isinf(m))
      m = 0;
    std::vector<double> terms(lane.size());
    for (size_t r = 0; r < lane.size(); ++r)
      terms[r] = std::exp(lane[r] - m);
    result.setFloat(k, storedValue(std::log(laneSum(std::move(terms), op, ctx)) + m, op, ctx));
  }
  return result;
}

// torch.argmax / argmin along `dim`: the first position of the extreme, a
// NaN counting as the extreme; -0 and +0 are equal (the first wins).
// Integers compare exactly, as int64_t.
Tensor evalArgExtreme(const Op &op, std::span<const Tensor *const> operands,
                      const EvalContext &ctx) {
  const Tensor &x = interp::operandAt(op, operands, 0);
  Tensor result = interp::makeResult(op, ctx);
  const interp::AxisSplit split = interp::splitReducedAxes(op, x, result);
  const bool largest = op.kind() == OpKind::ArgMax;
  if (split.reducedOffsets.empty() && result.numel() > 0)
    throw EvalError(interp::describeOp(op) + ": an empty dim has no " +
                    (largest ? "largest" : "smallest") + " value");
  auto better = [&](size_t a, size_t b) { // element a beats element b
    if (!x.isFloating())
      return largest ? x.getInt(a) > x.getInt(b) : x.getInt(a) < x.getInt(b);
    const double va = x.getFloat(a), vb = x.getFloat(b);
    if (std::isnan(vb))
      return false;
    return std::isnan(va) || (largest ? va > vb : va < vb);
  };
  for (size_t k = 0; k < split.keptOffsets.size(); ++k) {
    size_t best = 0;
    auto at = [&](size_t r) {
      return static_cast<size_t>(split.keptOffsets[k] + split.reducedOffsets[r]);
    };
    for (size_t r = 1; r < split.reducedOffsets.size(); ++r)
      if (better(at(r), at(best)))
        best = r;
    result.setInt(k, static_cast<int64_t>(best));
  }
  return result;
}

} // namespace fuserc
