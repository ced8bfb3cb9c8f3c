// Canonicalization (docs/passes.md, "Canonicalize"): rewrites a fusion into the canonical form
// every later pass assumes.
//
//   - composite ops (softmax, log_softmax, layer_norm, rms_norm, softplus,
//     logsumexp, std, argmax, argmin) are decomposed into primitives;
//   - `index_select` with a 0-d index gets the 1-D index unsqueeze(index);
//   - `size(x, dim)` becomes `extent(value=<that extent>)`, which reads no
//     tensor;
//   - `scatter` into a constant `full` with one index per row becomes the
//     pointwise `where(eq(iota, index), src, background)`, so no one-hot
//     buffer of the full shape is ever materialised;
//   - ops whose operands are all literals are folded into a literal when the
//     literal has the same type the op result had;
//   - cast pairs that lose nothing fold (cast(cast(x, f32), bf16) of a bf16 x
//     is cast(x, bf16)), and casts that change nothing disappear;
//   - identical ops are merged (CSE) and ops no output needs are dropped
//     (DCE).
//
// The interpreter gives the same results before and after (bit for bit,
// except that a decomposed composite is compared with the composite's
// double-precision definition within rounding). A scatter index out of
// range, an error for the scatter, gives the background after the rewrite.
//
// The rules live in CanonicalizeRules.h and the files it lists.
#pragma once

#include "ir/Fusion.h"

#include <memory>

namespace fuserc {

// The canonical form of `fusion`, as a new fusion with the same name,
// inputs (all of them, used or not, in order) and outputs (same names and
// order). `fusion` is left unchanged.
std::unique_ptr<Fusion> canonicalize(const Fusion &fusion);

} // namespace fuserc
