// Op-family helpers for schedulers (see OpFamilies.h).
#include "schedulers/OpFamilies.h"

namespace fuserc {

bool isSmallReduction(const Op &op) {
  if (op.info().shapeRule != ShapeRule::Reduction)
    return false;
  const Value &x = *op.operand(0);
  int64_t elements = 1;
  for (int64_t axis : op.attrs().axes("axes")) {
    const std::optional<int64_t> extent = x.shape()[static_cast<size_t>(axis)].constant();
    if (!extent)
      return false;
    elements *= *extent;
    if (elements < 1 || elements > kSmallReductionElements)
      return false;
  }
  return true;
}

bool isSearchedScatter(const Op &op) {
  if (op.info().shapeRule != ShapeRule::Scatter)
    return false;
  const size_t dim = static_cast<size_t>(op.attrs().integer("dim"));
  const std::optional<int64_t> positions = op.operand(1)->shape()[dim].constant();
  return positions && *positions <= kSearchedScatterPositions;
}

std::string axesString(const std::vector<int64_t> &axes) {
  std::string s = "[";
  for (size_t i = 0; i < axes.size(); ++i)
    s += (i ? ", " : "") + std::to_string(axes[i]);
  return s + "]";
}

std::vector<Extent> squeezedShape(const std::vector<Extent> &shape) {
  std::vector<Extent> squeezed;
  for (const Extent &e : shape)
    if (!e.isConstant(1))
      squeezed.push_back(e);
  return squeezed;
}

bool broadcastsInto(const std::vector<Extent> &shape, const std::vector<Extent> &domain) {
  // Right-aligned: shape dim d faces domain dim d + (domain rank - shape
  // rank); dims facing nothing (a higher-rank shape's leading ones) must be 1.
  const ptrdiff_t shift =
      static_cast<ptrdiff_t>(domain.size()) - static_cast<ptrdiff_t>(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d].isConstant(1))
      continue;
    const ptrdiff_t facing = static_cast<ptrdiff_t>(d) + shift;
    if (facing < 0 || shape[d] != domain[static_cast<size_t>(facing)])
      return false;
  }
  return true;
}

} // namespace fuserc
