// How a row reduction combines values in generated CUDA: the accumulator
// each reduction kind uses, its identity and combiner, and the device
// helpers that combine per-thread partials across lanes (shuffles) and a
// block (shared memory), leaving the result in every thread.
//
// Accumulators: f32 for f16 / bf16 / f32 results, f64 for f64, long long
// for integer and bool results (sums and products wrap, as in the
// reference interpreter). max and min propagate NaN.
#pragma once

#include "ir/DType.h"
#include "ir/Fusion.h"

#include <string>

namespace fuserc {

// The dtype a reduction producing `result` accumulates in.
DType reductionAccumulator(DType result);

// The combiner functor ("fuserc_red_add", ...) of a reduction kind; mean and
// var add (var adds squared deviations).
std::string reductionCombiner(OpKind kind);

// `a + b` and `a - b` of the accumulator `acc`, each rounded on its own
// (__fadd_rn, __dadd_rn, ...): the compiler never fuses them with the
// multiplication making an operand into an FMA, which would use the
// product unrounded where another statement uses it rounded. Integers:
// plain.
std::string roundedAdd(DType acc, const std::string &a, const std::string &b);
std::string roundedSub(DType acc, const std::string &a, const std::string &b);

// The identity of a reduction kind as a literal of the accumulator `acc`:
// what an empty row reduces to (sum 0, prod 1, max -inf, min +inf; integer
// max / min use the extreme values).
std::string reductionIdentity(OpKind kind, DType acc);
// The identity of the combiner reductionCombiner names (fuserc_red_add, ...).
std::string combinerIdentity(const std::string &combiner, DType acc);

// CUDA definitions of the combiners, fuserc_group_reduce,
// fuserc_block_reduce and the Welford joins (fuserc_welford_join,
// fuserc_welford_block), guarded so that every kernel may include them.
const std::string &blockReduceCuda();

// CUDA definitions for kernels whose CTAs form a thread-block cluster
// (sm_90 and newer; nothing below): the CTA's rank, the cluster's size,
// cluster barriers, and fuserc_cluster_reduce, which combines one value per
// CTA through distributed shared memory in the same order in every CTA.
const std::string &clusterReduceCuda();
// CUDA definitions for kernels whose blocks split a row over a grid whose
// blocks are all resident at once (a cooperative launch):
// fuserc_grid_reduce, which combines one value per block over a row's
// blocks through workspace scratch (needs blockReduceCuda's definitions).
const std::string &gridReduceCuda();

} // namespace fuserc
