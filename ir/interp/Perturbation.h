// Perturbed runs of the reference interpreter (InterpreterOptions::
// perturbation): how computed results and each use of them move, and the
// rules that put an element a rounding decides (a step, a comparison, an
// integer power, a remainder) on each side of the decision in one of two
// opposite draws.
// Internal to ir/interp.
#pragma once

#include "ir/interp/Evaluators.h"
#include "ir/interp/Interpreter.h"

#include <span>
#include <vector>

namespace fuserc::interp {

// Whether a kernel may round `op`'s result differently from the reference:
// not for results exact given their operands (a floor, a maximum, a cast).
bool computes(const Op &op);

// Moves every element of `op`'s result `t` by its draw. `computedOperands`
// says which operands are themselves computed: a sum or difference of them
// carries their rounding errors, whose size is the operands', not its own.
// `plain` is the result without moves (nullptr: not known).
void perturbResult(Tensor &t, const Tensor *plain, const Op &op,
                   std::span<const Tensor *const> operands,
                   const std::vector<bool> &computedOperands, const EvalContext &ctx,
                   const InterpreterOptions &options);

// A computed floating operand as one use of it sees it: kernels may
// recompute a value in each kernel that uses it, each rounding its own way,
// so each use moves by its own draw (seeded by the use), further from `plain`,
// the value without moves (nullptr: none known), on the side the value's
// moves took it.
Tensor perturbedUse(const Tensor &value, const Tensor *plain, const Op &user, size_t operand,
                    const InterpreterOptions &options);

// Where `op` (a step, a comparison, pow, remainder, fmod) decides on operands within their
// uncertainty of the decision, one of two opposite draws takes each side (acos
// and asin: near their domain's edge, the edge's value); a sine, cosine or
// tangent of an argument uncertain by a radian is NaN.
// `plains[k]` is operand k without moves (nullptr: not computed, no moves):
// how far the moves took an operand is its uncertainty, which a cancellation
// upstream makes larger than its own magnitude says.
// A cast to bool or a logical op that an operand NaN here but not in the
// reference (`exact`: the operands as computed without moves, in the
// reference's own order) decides takes each side in one of two opposite
// draws.
void tieNearDecisions(Tensor &t, const Op &op, std::span<const Tensor *const> operands,
                      std::span<const Tensor *const> plains, std::span<const Tensor *const> exact,
                      const InterpreterOptions &options);

// Whether tieNearDecisions reads `op`'s exact operands (a cast of a float
// to bool, a logical op of floats).
bool decidesOnExactValue(const Op &op);

} // namespace fuserc::interp
