// Per-family CPU evaluators of the reference interpreter. ops.td names, per
// op, the function here that evaluates it (its `cpuEval` field); the
// generated table kCpuEvaluators maps op kinds to them.
#pragma once

#include "ir/Fusion.h"
#include "ir/interp/Tensor.h"

#include <cmath>
#include <span>
#include <stdexcept>
#include <string>

namespace fuserc {

struct EvalContext {
  const SymbolBindings &symbols;
  // Floating sums, products, means and variances as a kernel may compute
  // them: pairwise, each partial rounded to the accumulator (f32 below f64).
  // Perturbed runs only (InterpreterOptions): another association, which
  // overflows, underflows and cancels where a kernel's may.
  bool kernelOrder = false;
  // The result shape of `op`, with its symbolic extents evaluated.
  std::vector<int64_t> resultShape(const Op &op) const;
  int64_t evaluate(const Extent &e) const;
};

// Thrown by evaluators for run-time errors (e.g. an index out of range);
// interpret() turns it into InterpreterResult::error.
struct EvalError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using CpuEvaluator = Tensor (*)(const Op &op, std::span<const Tensor *const> operands,
                                const EvalContext &ctx);

Tensor evalElementwise(const Op &, std::span<const Tensor *const>, const EvalContext &);
Tensor evalReduction(const Op &, std::span<const Tensor *const>, const EvalContext &);
// cumsum, cumprod: inclusive prefixes along `dim`.
Tensor evalScan(const Op &, std::span<const Tensor *const>, const EvalContext &);
// broadcast_in_dim, expand, reshape, permute, squeeze, unsqueeze, slice, pad:
// each output element reads (at most) one input element.
Tensor evalIndexMap(const Op &, std::span<const Tensor *const>, const EvalContext &);
Tensor evalCat(const Op &, std::span<const Tensor *const>, const EvalContext &);
Tensor evalIndexSelect(const Op &, std::span<const Tensor *const>, const EvalContext &);
Tensor evalGather(const Op &, std::span<const Tensor *const>, const EvalContext &);
Tensor evalScatter(const Op &, std::span<const Tensor *const>, const EvalContext &);
Tensor evalFull(const Op &, std::span<const Tensor *const>, const EvalContext &);
Tensor evalIota(const Op &, std::span<const Tensor *const>, const EvalContext &);
Tensor evalSize(const Op &, std::span<const Tensor *const>, const EvalContext &);
Tensor evalExtent(const Op &, std::span<const Tensor *const>, const EvalContext &);
Tensor evalRandLike(const Op &, std::span<const Tensor *const>, const EvalContext &);
Tensor evalSoftmax(const Op &, std::span<const Tensor *const>, const EvalContext &);
Tensor evalLogSoftmax(const Op &, std::span<const Tensor *const>, const EvalContext &);
Tensor evalLayerNorm(const Op &, std::span<const Tensor *const>, const EvalContext &);
Tensor evalRmsNorm(const Op &, std::span<const Tensor *const>, const EvalContext &);
Tensor evalSoftplus(const Op &, std::span<const Tensor *const>, const EvalContext &);
Tensor evalLogSumExp(const Op &, std::span<const Tensor *const>, const EvalContext &);
Tensor evalArgExtreme(const Op &, std::span<const Tensor *const>, const EvalContext &);
// Per element, the size of a layer_norm result's error that a rounding of
// its mean by one unit (relative to the mean of |x| over the lane) causes:
// mean(|x|) / stddev * |w|, times reductionRounds(lane size). The
// interpreter's perturbation scales by it.
// About how many roundings a kernel's sum of n terms makes along each path
// of its tree: log2(n), at least 1.
inline double reductionRounds(size_t n) { return n > 2 ? std::log2(static_cast<double>(n)) : 1.0; }
Tensor layerNormErrorScale(const Op &, std::span<const Tensor *const>, const EvalContext &);

// The evaluator ops.td names for `kind`.
CpuEvaluator cpuEvaluator(OpKind kind);

} // namespace fuserc
