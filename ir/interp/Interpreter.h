// The reference interpreter: evaluates a fusion on the CPU. It is the oracle
// every GPU test compares against.
//
// Semantics: elementwise math on floating-point values is computed in double
// and rounded to f32 after every op whose dtype is f16, bf16 or f32 (the GPU
// computes f16/bf16 math in f32); f16 and bf16 values are rounded to their
// dtype only where they are stored: fusion outputs and explicit casts (and
// the results of the composites softmax, log_softmax, layer_norm, rms_norm,
// softplus, logsumexp, std).
// Integer math wraps to the dtype's width. Reductions accumulate in double
// (floating) or int64 (integers).
#pragma once

#include "ir/Extent.h"
#include "ir/Fusion.h"
#include "ir/interp/Tensor.h"

#include <map>
#include <string>
#include <vector>

namespace fuserc {

struct InterpreterResult {
  bool ok = false;
  std::string error;           // when !ok: what went wrong, for a person
  std::vector<Tensor> outputs; // in the fusion's output order
  SymbolBindings symbols;      // every symbol's value, as bound from the inputs
};

// How to evaluate. `perturbation` != 0 moves every floating-point result of
// an op that computes (elementwise ops, reductions) by a relative
// +-perturbation, the sign drawn per element from `seed`, where the result
// is carried at f32 (at perturbation * 2^-29 for f64: the same number of
// ulps); relative to its terms' magnitude for a sum or mean (the same
// reduction of |x|), and for a layer_norm to its mean's error over the
// deviation, where those are larger: a cancelling reduction's rounding
// error has the size of its terms; a sum or difference of computed operands
// relative to the larger operand. Each move's size is drawn from [1/2,
// 3/2) of that, and a nonzero element moves by at least an ulp of f32 or
// f64. Each use of a computed value sees it moved again by a draw of its
// own (kernels may recompute it per use), and reductions accumulate as a
// kernel may (EvalContext::kernelOrder). A negative perturbation moves
// each element the other way from the same seed's positive one. Results exact given their operands
// (floor, trunc, maximum, abs, where, cast, ...) are left alone, except that a decision a rounding
// can flip (a step, a comparison, pow of a negative base) takes each side in one of two opposite
// draws where its operands are within their uncertainty of it (Perturbation.h). The GPU fuzzer
// compares kernels with such a reference to tell elements that rounding errors of a few ulps can
// change (a floor, a comparison, a cancellation) from wrong ones.
struct InterpreterOptions {
  double perturbation = 0;
  uint64_t seed = 0;
  // Perturbed runs: a sum or difference of computed values within its move
  // of zero is exactly 0 everywhere (a kernel that rounds both operands
  // alike), instead of moved off it; the independent third draw of the GPU
  // fuzzer, which also orders a comparison's operands within their
  // uncertainty of each other as x > y (the pair takes x == y and x < y).
  bool cancelToZero = false;
};

// `inputs` maps every input name to a tensor (rank 0 for scalar inputs).
// Symbols are bound from the input shapes (and `symbols`, which may bind
// ones that appear only in attributes); inconsistent extents are an error.
InterpreterResult interpret(const Fusion &fusion, const std::map<std::string, Tensor> &inputs,
                            const SymbolBindings &symbols = {},
                            const InterpreterOptions &options = {});

} // namespace fuserc
