// Input copies (docs/passes.md, "Input copies"): an output that is an input
// but not a view of it (another memory order, or a `strided` input whose
// strides alias analysis cannot prove to be the output's) is a copy. This
// pass gives each such output an op that computes it, a cast to the input's
// own dtype, so a kernel writes it like any other output. Runs after alias
// analysis, which leaves these outputs NewBuffer.
#pragma once

#include "ir/Fusion.h"

namespace fuserc {

// Rewrites `fusion` in place; returns how many outputs it gave a copy.
size_t materializeInputCopies(Fusion &fusion);

} // namespace fuserc
