// Mapping of memory orders through ops, by shape rule (see LayoutMapping.h).
#include "passes/LayoutMapping.h"

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

Layout mapPermute(const Layout &layout, const std::vector<int64_t> &dims) {
  std::vector<int64_t> inverse(dims.size());
  for (size_t i = 0; i < dims.size(); ++i)
    inverse[static_cast<size_t>(dims[i])] = static_cast<int64_t>(i);
  Layout result;
  for (int64_t d : layout)
    result.push_back(inverse[static_cast<size_t>(d)]);
  return result;
}

// The new extent-1 dim goes just outside the dim that follows it logically
// (innermost when it is the last dim).
Layout mapUnsqueeze(const Layout &layout, int64_t dim) {
  Layout result;
  bool placed = false;
  for (int64_t d : layout) {
    if (d == dim) {
      result.push_back(dim);
      placed = true;
    }
    result.push_back(d >= dim ? d + 1 : d);
  }
  if (!placed)
    result.push_back(dim);
  return result;
}

LayoutMapping mapReshape(const Layout &layout, const std::vector<Extent> &from,
                         const std::vector<Extent> &to) {
  std::vector<ReshapeGroup> groups = groupReshapeDims(from, to);
  if (groups.empty() && !(from.empty() || to.empty()))
    return notMapped("reshape from " + shapeString(from) + " to " + shapeString(to) +
                     " has no dims whose extents match up");
  // Position of each non-broadcast input dim in the memory order.
  std::vector<int64_t> position(from.size(), -1);
  int64_t next = 0;
  for (int64_t d : layout)
    if (!from[static_cast<size_t>(d)].isConstant(1))
      position[static_cast<size_t>(d)] = next++;
  // Each group's real input dims must be adjacent and in logical order in
  // memory; the group then takes the place of its first one.
  std::vector<std::pair<int64_t, size_t>> keys; // (position*2 or after a group, group)
  int64_t lastKey = -1;
  for (size_t g = 0; g < groups.size(); ++g) {
    std::vector<int64_t> real;
    for (int64_t d : groups[g].from)
      if (position[static_cast<size_t>(d)] >= 0)
        real.push_back(d);
    for (size_t k = 1; k < real.size(); ++k)
      if (position[static_cast<size_t>(real[k])] != position[static_cast<size_t>(real[k - 1])] + 1)
        return notMapped("reshape combines dims " + layoutString(real) +
                         " of its operand, which are not adjacent and in order in its memory "
                         "order " +
                         layoutString(layout));
    int64_t key = real.empty() ? lastKey + 1 : 2 * position[static_cast<size_t>(real[0])];
    if (!real.empty())
      lastKey = key;
    keys.push_back({key, g});
  }
  std::stable_sort(keys.begin(), keys.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  Layout result;
  for (const auto &[key, g] : keys)
    for (int64_t d : groups[g].to)
      result.push_back(d);
  return mapped(std::move(result));
}

} // namespace

std::vector<ReshapeGroup> groupReshapeDims(const std::vector<Extent> &from,
                                           const std::vector<Extent> &to) {
  std::vector<ReshapeGroup> groups;
  size_t i = 0, j = 0;
  while (i < from.size() && j < to.size()) {
    // The smallest runs from[i, a) and to[j, b) with equal products.
    bool found = false;
    Extent p = 1;
    size_t a = i;
    size_t b = j;
    while (!found && a < from.size()) {
      p = p * from[a++];
      Extent q = 1;
      for (b = j; b < to.size();) {
        q = q * to[b++];
        if (q == p) {
          found = true;
          break;
        }
      }
    }
    if (!found)
      return {};
    ReshapeGroup group;
    for (; i < a; ++i)
      group.from.push_back(static_cast<int64_t>(i));
    for (; j < b; ++j)
      group.to.push_back(static_cast<int64_t>(j));
    groups.push_back(std::move(group));
  }
  // Trailing extent-1 dims join the last group (or form one).
  for (; i < from.size() || j < to.size();) {
    bool isFrom = i < from.size();
    const Extent &e = isFrom ? from[i] : to[j];
    if (!e.isConstant(1))
      return {};
    if (groups.empty())
      groups.emplace_back();
    if (isFrom)
      groups.back().from.push_back(static_cast<int64_t>(i++));
    else
      groups.back().to.push_back(static_cast<int64_t>(j++));
  }
  return groups;
}

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
    return mapReshape(operandLayout, operand.shape(), result.shape());
  case ShapeRule::Permute:
    return mapped(mapPermute(operandLayout, attrs.axes("dims")));
  case ShapeRule::Squeeze:
    return mapped(removeDims(operandLayout, attrs.axes("dims")));
  case ShapeRule::Unsqueeze:
    return mapped(mapUnsqueeze(operandLayout, attrs.integer("dim")));
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
  case ShapeRule::Normalization:
    // The first operand is shaped like the result; the others (an index,
    // scalars, normalization parameters) are not.
    if (operandIndex != 0)
      return notMapped("'" + name + "' takes its result's order from its first operand");
    return mapped(operandLayout);
  case ShapeRule::Creation:
    return notMapped("'" + name + "' creates its result");
  }
  return notMapped("'" + name + "' has an unknown shape rule");
}

} // namespace fuserc
