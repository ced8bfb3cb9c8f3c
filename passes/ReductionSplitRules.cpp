// How each reduction kind is recomputed from reductions over parts of its
// axes (see ReductionSplitRules.h). Every group of a split holds the same
// number of elements, so
//   sum, prod, max, min  op(x, A u B) = op(op(x, B), A)
//   mean                 mean(x, A u B) = mean(mean(x, B), A)
//   var                  with m = mean(x, B) and v = var(x, B, correction=0),
//                        var(x, A u B, correction=0) = mean(v, A) + var(m, A, correction=0)
// and a var with correction c is that times n / (n - c), n the count of
// reduced elements. max and min are exact; integer sums and products wrap
// alike in any order. Floating sums and means keep their partial results in
// the accumulator dtype of the kernels (f32, or f64), with the result's own
// dtype only on the last reduction; prod and var have no `dtype` attribute
// and keep the result's dtype, whose f16 and bf16 values the interpreter and
// the workspace carry in f32 anyway.
#include "passes/ReductionSplitRules.h"

#include <optional>

namespace fuserc::reduction_split_detail {
namespace {

// The dtype a split keeps the partial results of a `kind` reduction with
// result dtype `result` in; nullopt for a kind it does not split.
std::optional<DType> partialDType(OpKind kind, DType result) {
  switch (kind) {
  case OpKind::Sum:
    if (result == DType::Bool) // a sum to bool is whether any element is nonzero
      return std::nullopt;
    if (!isFloating(result))
      return result; // wraps alike however the elements are grouped
    return result == DType::F64 ? DType::F64 : DType::F32;
  case OpKind::Mean:
    return result == DType::F64 ? DType::F64 : DType::F32;
  case OpKind::Prod:
  case OpKind::Max:
  case OpKind::Min:
  case OpKind::Var:
    return result;
  default:
    return std::nullopt;
  }
}

Attributes correction(int64_t c) {
  Attributes attrs;
  attrs.set("correction", c);
  return attrs;
}

// The product of x's extents along `axes`: how many elements each result
// reduces.
Extent reducedCount(const Value &x, const std::vector<int64_t> &axes) {
  Extent n(1);
  for (int64_t a : axes)
    n = n * x.shape()[static_cast<size_t>(a)];
  return n;
}

// var(x, axes, correction) from per-group means and biased variances over
// runs[0], then runs[1], ..., then all of `axes`. In the result's dtype
// throughout: the count n as a value of that dtype keeps the scaling from
// promoting an f16 or bf16 variance to f32 (a cast back would round it).
Value *splitVar(SplitRewriter &rw, const Op &op, Value *x,
                const std::vector<std::vector<int64_t>> &runs, const std::string &name) {
  const DType dtype = op.result()->dtype();
  Value *mean = x, *var = nullptr;
  for (size_t i = 0; i < runs.size(); ++i) {
    const std::vector<int64_t> &run = runs[i];
    Value *groupMean = rw.reduceTo(OpKind::Mean, mean, run, true, dtype);
    Value *spread = rw.reduceTo(OpKind::Var, mean, run, true, dtype, correction(0));
    var = var ? rw.binary(OpKind::Add, rw.reduceTo(OpKind::Mean, var, run, true, dtype), spread)
              : spread;
    mean = groupMean;
    rw.nameNew(mean, name, "_mean" + std::to_string(i + 1));
    rw.nameNew(var, name, "_var" + std::to_string(i + 1));
  }
  const std::vector<int64_t> &axes = op.attrs().axes("axes");
  const bool keepdim = op.attrs().boolean("keepdim");
  // Each op built in its own statement: the order of ops (and so of value
  // numbers in dumps) must not depend on the compiler's argument order.
  Value *spreadOfMeans = rw.reduceTo(OpKind::Var, mean, axes, keepdim, dtype, correction(0));
  Value *meanOfSpreads = rw.reduceTo(OpKind::Mean, var, axes, keepdim, dtype);
  Value *biased = rw.binary(OpKind::Add, meanOfSpreads, spreadOfMeans);
  const int64_t c = op.attrs().integer("correction");
  if (c == 0)
    return biased;
  Attributes count;
  count.set("value", reducedCount(*x, axes));
  count.set("dtype", dtype);
  Value *n = rw.create(OpKind::Extent, {}, std::move(count));
  Value *denominator = rw.binary(OpKind::Sub, n, rw.literal(Number::integer(c)));
  Value *numerator = rw.binary(OpKind::Mul, biased, n);
  return rw.binary(OpKind::Div, numerator, denominator);
}

} // namespace

// The interpreter divides a var's sum of squared deviations by
// max(n - c, 0): with n <= c that is NaN where every element equals the
// mean (or some element is not finite) and +inf otherwise. The split gives
// NaN where its numerator n * (mean(v) + var(m)) is 0 or NaN, the same
// when n <= 1 (one element deviates from itself by exactly 0; no element
// gives NaN). With 1 < n <= c a partial variance of elements that differ
// may round to 0 in its dtype, NaN where the interpreter gives +inf: such a
// var is left alone, so only a count known to be above c lets c > 1 split.
bool splittable(const Op &op) {
  if (!partialDType(op.kind(), op.result()->dtype()))
    return false;
  if (op.kind() != OpKind::Var)
    return true;
  const int64_t c = op.attrs().integer("correction");
  const std::optional<int64_t> n = reducedCount(*op.operand(0), op.attrs().axes("axes")).constant();
  return c <= 1 || (n && *n > c);
}

Value *splitReduction(SplitRewriter &rw, const Op &op, Value *x,
                      const std::vector<std::vector<int64_t>> &runs, const std::string &name) {
  if (op.kind() == OpKind::Var)
    return splitVar(rw, op, x, runs, name);
  const DType partial = *partialDType(op.kind(), op.result()->dtype());
  Value *r = x;
  for (size_t i = 0; i < runs.size(); ++i) {
    r = rw.reduceTo(op.kind(), r, runs[i], true, partial);
    rw.nameNew(r, name, "_part" + std::to_string(i + 1));
  }
  return rw.reduceTo(op.kind(), r, op.attrs().axes("axes"), op.attrs().boolean("keepdim"),
                     op.result()->dtype());
}

} // namespace fuserc::reduction_split_detail
