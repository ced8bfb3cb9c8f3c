// Decomposition of the composite ops into primitives, as PyTorch computes
// them:
//   softmax      e = exp(x - max(x)); e / sum(e)
//   log_softmax  d = x - max(x); d - log(sum(exp(d)))
//   layer_norm   d = x - mean(x); d * rsqrt(mean(d * d) + eps) * w + b   (biased variance)
//   rms_norm     x * rsqrt(mean(x * x) + eps) * w
// Reductions keep their dims so the statistics broadcast back over x.
// f16/bf16 inputs are computed in f32 (cast in, and cast back to the
// composite's dtype at the end, as PyTorch's kernels do).
//
// The interpreter evaluates a composite in double (CompositeEval.cpp), the
// decomposition op by op in the dtype's precision: results agree within
// rounding, not bit for bit.
#include "passes/CanonicalizeRules.h"

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

} // namespace

Value *decomposeComposite(FusionRewriter &rewriter, OpKind kind,
                          const std::vector<Value *> &operands, const Attributes &attrs,
                          DType resultType) {
  if (!opInfo(kind).composite || operands.empty())
    return nullptr;
  Value *x = rewriter.castIfNeeded(operands[0], computeType(operands[0]->dtype()));
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
  default:
    return nullptr;
  }
  return rewriter.castIfNeeded(y, resultType);
}

} // namespace fuserc::canonicalize_detail
