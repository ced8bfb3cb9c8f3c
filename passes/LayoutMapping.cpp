// Mapping of memory orders through ops, by shape rule (see LayoutMapping.h).
#include "passes/LayoutMapping.h"

#include "ir/ViewAnalysis.h"

#include <algorithm>
#include <numeric>

namespace fuserc {
namespace {

LayoutMapping mapped(Layout layout) { return {std::move(layout), ""}; }
LayoutMapping notMapped(std::string reason) { return {std::nullopt, std::move(reason)}; }

// Right-aligned broadcast to `rank` dims: new leading dims go outermost.
Layout broadcastRightAligned(const Layout &layout, size_t rank) {
  const int64_t added = static_cast<int64_t>(rank) - static_cast<int64_t>(layout.size());
  Layout result(static_cast<size_t>(added));
  std::iota(result.begin(), result.end(), 0);
  for (int64_t d : layout)
    result.push_back(d + added);
  return result;
}

// Drops `removed` dims from the order and renumbers the rest.
Layout removeDims(const Layout &layout, const std::vector<int64_t> &removed) {
  Layout result;
  for (int64_t d : layout) {
    if (std::find(removed.begin(), removed.end(), d) != removed.end())
      continue;
    int64_t below = std::count_if(removed.begin(), removed.end(), [&](int64_t r) { return r < d; });
    result.push_back(d - below);
  }
  return result;
}

Layout mapBroadcastInDim(const Layout &layout, const std::vector<int64_t> &broadcastDims,
                         size_t rank) {
  Layout result;
  for (size_t d = 0; d < rank; ++d)
    if (std::find(broadcastDims.begin(), broadcastDims.end(), d) == broadcastDims.end())
      result.push_back(static_cast<int64_t>(d));
  for (int64_t d : layout)
    result.push_back(broadcastDims[static_cast<size_t>(d)]);
  return result;
}

// Shape ops that only re-index memory map the order the way a view of a
// tensor dense in that order would (ViewAnalysis): one rule for both passes.
LayoutMapping mapAsView(const Op &op, const Value &operand, const Layout &layout) {
  StridedView dense{0, operand.shape(), denseStrides(operand.shape(), layout), layout};
  ViewStep step = viewThroughOp(op, dense);
  if (!step.view)
    return notMapped(step.whyNot);
  return mapped(step.view->order);
}

} // namespace

LayoutMapping mapLayoutThroughOp(const Op &op, size_t operandIndex, const Layout &operandLayout) {
  const Value &operand = *op.operand(operandIndex);
  const Value &result = *op.result();
  const Attributes &attrs = op.attrs();
  const std::string name(op.info().name);
  switch (op.info().shapeRule) {
  case ShapeRule::Elementwise:
  case ShapeRule::Expand:
    if (operand.rank() > result.rank())
      return notMapped("'" + name + "' result has fewer dims than its operand");
    return mapped(broadcastRightAligned(operandLayout, result.rank()));
  case ShapeRule::Reduction:
    if (attrs.boolean("keepdim"))
      return mapped(operandLayout);
    return mapped(removeDims(operandLayout, attrs.axes("axes")));
  case ShapeRule::BroadcastInDim:
    return mapped(mapBroadcastInDim(operandLayout, attrs.axes("broadcast_dims"), result.rank()));
  case ShapeRule::Reshape:
  case ShapeRule::Permute:
  case ShapeRule::Squeeze:
  case ShapeRule::Unsqueeze:
    return mapAsView(op, operand, operandLayout);
  case ShapeRule::Slice:
  case ShapeRule::Pad:
  case ShapeRule::Cat:
  case ShapeRule::Gather:
  case ShapeRule::Scatter:
    // Same rank as the result, dim for dim.
    if (operand.rank() != result.rank())
      return notMapped("'" + name + "' operand " + std::to_string(operandIndex) +
                       " does not have the result's rank");
    return mapped(operandLayout);
  case ShapeRule::IndexSelect:
  case ShapeRule::Same:
  case ShapeRule::Scan:
  case ShapeRule::Normalization:
    // The first operand is shaped like the result; the others (an index,
    // scalars, normalization parameters) are not.
    if (operandIndex != 0)
      return notMapped("'" + name + "' takes its result's order from its first operand");
    return mapped(operandLayout);
  case ShapeRule::Creation:
  case ShapeRule::Scalar:
    return notMapped("'" + name + "' creates its result");
  }
  return notMapped("'" + name + "' has an unknown shape rule");
}

} // namespace fuserc
