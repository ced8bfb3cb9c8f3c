// The attributes of an op as the printer writes them: text the parser reads
// back to the same IR.
//
// Inference normalizes attributes (Inference.h), and a normalized extent
// may be an expression the language cannot write yet: reshape's inferred
// -1 becomes `H*W`, a slice bound `-2` becomes `M - 2`, expand's -1 becomes
// the operand's extent. For such an attribute this finds a written form that
// normalizes back to the same attributes and result type: -1 in a shape
// list, a negative bound counted from the end of an operand dim, or the
// attribute left out for its default. Each candidate is checked by running
// inference on it, so no op needs a rule of its own here. An extent with no
// such form keeps its expression (the dump then does not read back).
#pragma once

#include "ir/Fusion.h"

namespace fuserc {

// True when `extent` is an integer or a single symbol, as the parser reads.
bool isWritableExtent(const Extent &extent);

// `op`'s attributes, with every extent that is not writable replaced by a
// writable form that normalizes back to them, where one exists.
Attributes sourceAttributes(const Op &op);

} // namespace fuserc
