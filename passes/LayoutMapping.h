// How a memory order maps through one op: given the order of an operand,
// the order the op's result takes from it, by the op's shape rule. Used by
// layout inference; an order that does not map says why.
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

// Groups the dims of a reshape: each group is a run of input dims and a run
// of output dims with equal extent products (static-1 dims join a
// neighbouring group). Empty when the extents cannot be grouped (symbolic
// products that never agree).
struct ReshapeGroup {
  std::vector<int64_t> from; // input dims, increasing
  std::vector<int64_t> to;   // output dims, increasing
};
std::vector<ReshapeGroup> groupReshapeDims(const std::vector<Extent> &from,
                                           const std::vector<Extent> &to);

} // namespace fuserc
