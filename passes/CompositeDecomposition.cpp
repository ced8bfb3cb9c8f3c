// Decomposition of the composite ops into primitives, as PyTorch computes
// them:
//   softmax      e = exp(x - max(x)); e / sum(e)
//   log_softmax  d = x - max(x); d - log(sum(exp(d)))
//   layer_norm   d = x - mean(x); d * rsqrt(mean(d * d) + eps) * w + b   (biased variance)
//   rms_norm     x * rsqrt(mean(x * x) + eps) * w
//   softplus     where(beta * x > threshold, x, log1p(exp(beta * x)) / beta)
//   logsumexp    m = max(x) with +-inf replaced by 0; log(sum(exp(x - m))) + m
//   std          sqrt(var(x, correction))
//   argmax       min(where(x == max(x) or isnan(x), iota along dim, INT64_MAX))
//                (argmin with min(x)): the first position of the extreme,
//                the first NaN where there is one (max and min propagate it)
// Reductions keep their dims so the statistics broadcast back over x.
// f16/bf16 inputs are computed in f32 (cast in, and cast back to the
// composite's dtype at the end, as PyTorch's kernels do); logsumexp's
// integer and bool inputs are cast to its floating result type first.
//
// The interpreter evaluates a composite in double (CompositeEval.cpp), the
// decomposition op by op in the dtype's precision: results agree within
// rounding, not bit for bit.
#include "passes/CanonicalizeRules.h"

#include <limits>

namespace fuserc::canonicalize_detail {
namespace {

DType computeType(DType t) { return t == DType::F16 || t == DType::BF16 ? DType::F32 : t; }

// A normalization parameter (w or b) made to broadcast against x: it is
// rank 0 or shaped like the normalized dims `axes`; those line up with
// x's trailing dims by right alignment only when `axes` are the trailing
// dims, otherwise broadcast_in_dim places them.
Value *alignParameter(FusionRewriter &rewriter, Value *param, const Value &x,
                      const std::vector<int64_t> &axes) {
  if (param->isRankZero())
    return param;
  const auto rank = static_cast<int64_t>(x.rank());
  const auto count = static_cast<int64_t>(axes.size());
  bool trailing = true;
  for (int64_t i = 0; i < count; ++i)
    trailing = trailing && axes[i] == rank - count + i;
  if (trailing)
    return param;
  std::vector<Extent> shape(x.rank(), Extent(1));
  for (int64_t a : axes)
    shape[a] = x.shape()[a];
  Attributes attrs;
  attrs.set("shape", std::move(shape));
  attrs.set("broadcast_dims", axes);
  return rewriter.create(OpKind::BroadcastInDim, {param}, std::move(attrs));
}

// rsqrt(mean(squares) + eps) over `axes`: layer_norm's reciprocal standard
// deviation, rms_norm's reciprocal root mean square.
Value *rsqrtMeanPlusEps(FusionRewriter &rewriter, Value *squares, const std::vector<int64_t> &axes,
                        const Number &eps) {
  Value *meanSquare = rewriter.reduce(OpKind::Mean, squares, axes, /*keepdim=*/true);
  return rewriter.unary(OpKind::Rsqrt,
                        rewriter.binary(OpKind::Add, meanSquare, rewriter.literal(eps)));
}

Value *softmax(FusionRewriter &rewriter, Value *x, int64_t dim) {
  Value *shifted = rewriter.binary(OpKind::Sub, x, rewriter.reduce(OpKind::Max, x, {dim}, true));
  Value *e = rewriter.unary(OpKind::Exp, shifted);
  return rewriter.binary(OpKind::Div, e, rewriter.reduce(OpKind::Sum, e, {dim}, true));
}

Value *logSoftmax(FusionRewriter &rewriter, Value *x, int64_t dim) {
  Value *shifted = rewriter.binary(OpKind::Sub, x, rewriter.reduce(OpKind::Max, x, {dim}, true));
  Value *sum = rewriter.reduce(OpKind::Sum, rewriter.unary(OpKind::Exp, shifted), {dim}, true);
  return rewriter.binary(OpKind::Sub, shifted, rewriter.unary(OpKind::Log, sum));
}

Value *layerNorm(FusionRewriter &rewriter, Value *x, Value *w, Value *b,
                 const std::vector<int64_t> &axes, const Number &eps) {
  Value *centered =
      rewriter.binary(OpKind::Sub, x, rewriter.reduce(OpKind::Mean, x, axes, /*keepdim=*/true));
  Value *rstd =
      rsqrtMeanPlusEps(rewriter, rewriter.binary(OpKind::Mul, centered, centered), axes, eps);
  Value *normalized = rewriter.binary(OpKind::Mul, centered, rstd);
  Value *scaled = rewriter.binary(OpKind::Mul, normalized, alignParameter(rewriter, w, *x, axes));
  return rewriter.binary(OpKind::Add, scaled, alignParameter(rewriter, b, *x, axes));
}

Value *rmsNorm(FusionRewriter &rewriter, Value *x, Value *w, const std::vector<int64_t> &axes,
               const Number &eps) {
  Value *rrms = rsqrtMeanPlusEps(rewriter, rewriter.binary(OpKind::Mul, x, x), axes, eps);
  Value *normalized = rewriter.binary(OpKind::Mul, x, rrms);
  return rewriter.binary(OpKind::Mul, normalized, alignParameter(rewriter, w, *x, axes));
}

// torch.nn.functional.softplus: linear above the threshold, where
// log1p(exp(beta * x)) / beta equals x in floating point anyway. A beta of 1
// needs no scaling (x * 1 and y / 1 are exact).
Value *softplus(FusionRewriter &rewriter, Value *x, const Number &beta, const Number &threshold) {
  const bool unit = beta.asDouble() == 1;
  Value *scaled = unit ? x : rewriter.binary(OpKind::Mul, x, rewriter.literal(beta));
  Value *soft = rewriter.unary(OpKind::Log1p, rewriter.unary(OpKind::Exp, scaled));
  if (!unit)
    soft = rewriter.binary(OpKind::Div, soft, rewriter.literal(beta));
  Value *linear = rewriter.binary(OpKind::Gt, scaled, rewriter.literal(threshold));
  return rewriter.create(OpKind::Where, {linear, x, soft});
}

// torch.logsumexp: the shift is the max with infinities replaced by 0, so a
// lane of -inf gives log(0) = -inf and a lane holding +inf gives +inf, never
// the NaN of inf - inf. Computed with kept dims and squeezed at the end.
Value *logSumExp(FusionRewriter &rewriter, Value *x, const std::vector<int64_t> &axes,
                 bool keepdim) {
  Value *max = rewriter.reduce(OpKind::Max, x, axes, /*keepdim=*/true);
  Value *shift = rewriter.create(OpKind::Where, {rewriter.unary(OpKind::Isinf, max),
                                                 rewriter.literal(Number::integer(0)), max});
  Value *sum = rewriter.reduce(OpKind::Sum,
                               rewriter.unary(OpKind::Exp, rewriter.binary(OpKind::Sub, x, shift)),
                               axes, /*keepdim=*/true);
  Value *y = rewriter.binary(OpKind::Add, rewriter.unary(OpKind::Log, sum), shift);
  if (keepdim)
    return y;
  Attributes squeeze;
  squeeze.set("dims", axes);
  return rewriter.create(OpKind::Squeeze, {y}, std::move(squeeze));
}

Value *argExtreme(FusionRewriter &rewriter, Value *x, OpKind extreme, const Attributes &attrs) {
  const int64_t dim = attrs.integer("dim");
  Value *hit = rewriter.binary(OpKind::Eq, x, rewriter.reduce(extreme, x, {dim}, /*keepdim=*/true));
  if (isFloating(x->dtype()))
    hit = rewriter.binary(OpKind::LogicalOr, hit, rewriter.unary(OpKind::Isnan, x));
  Attributes iota;
  iota.set("shape", x->shape());
  iota.set("dim", dim);
  iota.set("dtype", DType::I64);
  Value *position = rewriter.create(OpKind::Iota, {}, std::move(iota));
  // Every lane has a hit (its extreme, or a NaN), so the filler never wins.
  Value *filler = rewriter.literal(Number::integer(std::numeric_limits<int64_t>::max()));
  Value *candidate = rewriter.create(OpKind::Where, {hit, position, filler});
  return rewriter.reduce(OpKind::Min, candidate, {dim}, attrs.boolean("keepdim"));
}

Value *standardDeviation(FusionRewriter &rewriter, Value *x, const Attributes &attrs) {
  Attributes var;
  var.set("axes", attrs.axes("axes"));
  var.set("keepdim", attrs.boolean("keepdim"));
  var.set("correction", attrs.integer("correction"));
  return rewriter.unary(OpKind::Sqrt, rewriter.create(OpKind::Var, {x}, std::move(var)));
}

} // namespace

Value *decomposeComposite(FusionRewriter &rewriter, OpKind kind,
                          const std::vector<Value *> &operands, const Attributes &attrs,
                          DType resultType) {
  if (!opInfo(kind).composite || operands.empty())
    return nullptr;
  // argmax and argmin compare x as it is (exact in every dtype): a cast
  // shared by their two reductions would be a tensor between kernels.
  if (kind == OpKind::ArgMax || kind == OpKind::ArgMin)
    return argExtreme(rewriter, operands[0], kind == OpKind::ArgMax ? OpKind::Max : OpKind::Min,
                      attrs);
  // An integer or bool input of a floating composite (logsumexp) computes
  // in the result's type.
  const DType inputType = operands[0]->dtype();
  Value *x = rewriter.castIfNeeded(operands[0],
                                   computeType(isFloating(inputType) ? inputType : resultType));
  Value *y = nullptr;
  switch (kind) {
  case OpKind::Softmax:
    y = softmax(rewriter, x, attrs.integer("dim"));
    break;
  case OpKind::LogSoftmax:
    y = logSoftmax(rewriter, x, attrs.integer("dim"));
    break;
  case OpKind::LayerNorm:
    y = layerNorm(rewriter, x, operands.at(1), operands.at(2), attrs.axes("axes"),
                  attrs.number("eps"));
    break;
  case OpKind::RmsNorm:
    y = rmsNorm(rewriter, x, operands.at(1), attrs.axes("axes"), attrs.number("eps"));
    break;
  case OpKind::Softplus:
    y = softplus(rewriter, x, attrs.number("beta"), attrs.number("threshold"));
    break;
  case OpKind::LogSumExp:
    y = logSumExp(rewriter, x, attrs.axes("axes"), attrs.boolean("keepdim"));
    break;
  case OpKind::Std:
    y = standardDeviation(rewriter, x, attrs);
    break;
  default:
    return nullptr;
  }
  return rewriter.castIfNeeded(y, resultType);
}

} // namespace fuserc::canonicalize_detail
