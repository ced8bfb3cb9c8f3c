// Reduction splitting (docs/passes.md, "Reduction splitting"): a reduction
// whose kept and reduced dims interleave in memory order, which no kernel
// family reduces, becomes a chain of reductions that each group as a row or
// a column reduction. BatchNorm's statistics of an NCHW tensor (axes
// [0, 2, 3], C kept between N and H, W) become a row reduction over H*W per
// (n, c) and a column reduction of those over N.
//
// In: a fusion whose layouts are inferred. A reduction's operand is read in
// the memory order kernels read it in (FusionAnalysis::storedLayout); walked
// outermost first, static 1 dims left out, its reduced dims form runs
// R1, ..., Rk between kept dims, and k > 1 interleaves (ReductionGrouping.h).
// Out: null when no reduction splits; otherwise a new fusion with the same
// name, inputs and outputs (same names, same order) in which each such
// reduction reduces Rk with keepdim=true, that result over R(k-1), ..., R2,
// and the last over all its axes with its own keepdim:
//   sum, prod, max, min  op(op(x, Rk), ...); partial sums in the accumulator
//                        dtype (f32, f64, or the integer result dtype)
//   mean                 a mean of means (every group counts alike), partial
//                        means in f32 (f64 for f64)
//   var                  per group the mean m and the biased variance v;
//                        groups combine as mean(v) + var(m, correction=0),
//                        and the total is scaled by n / (n - correction)
// A var whose correction is above 1 splits only where n, the count of
// reduced elements, is a constant above it (ReductionSplitRules.cpp says
// why). Small reductions, which pointwise kernels compute in any memory
// order, stay. Layouts of the new fusion are not set: infer them again.
//
// The reference interpreter gives the same values within rounding (the
// partial results are rounded to their dtype once more), and the same NaN
// and errors. A partial sum or product may overflow (or underflow) its
// accumulator where the whole does not: the interpreter's kernel order
// (EvalContext::kernelOrder) calls such elements ill-defined already, as
// a kernel's order of accumulation decides them too.
#pragma once

#include "ir/Fusion.h"

#include <memory>

namespace fuserc {

std::unique_ptr<Fusion> splitInterleavedReductions(const Fusion &fusion);

} // namespace fuserc
