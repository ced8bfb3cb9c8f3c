// How a memory order maps through one op: given the order of an operand,
// the order the op's result takes from it, by the op's shape rule. Used by
// layout inference; an order that does not map says why. Broadcasts put new
// dims outermost; ops that only re-index memory (permute, squeeze,
// unsqueeze, reshape) follow the view algebra of ViewAnalysis.h.
#pragma once

#include "ir/Fusion.h"

#include <optional>
#include <string>

namespace fuserc {

struct LayoutMapping {
  std::optional<Layout> layout; // the result's order, when it maps
  std::string reason;           // otherwise: why not, in words
};

// Maps `operandLayout`, the order of operand `operandIndex` of `op`, to an
// order of op's result.
LayoutMapping mapLayoutThroughOp(const Op &op, size_t operandIndex, const Layout &operandLayout);

} // namespace fuserc
