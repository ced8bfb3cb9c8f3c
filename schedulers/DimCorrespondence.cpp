// Loop-dimension classes of a fusion's tensors (see DimCorrespondence.h): a
// union-find over (value, dim) slots, joined op by op by its shape rule.
#include "schedulers/DimCorrespondence.h"

#include <algorithm>
#include <numeric>

namespace fuserc {

DimCorrespondence::DimCorrespondence(const Fusion &fusion) {
  size_t slots = 0;
  base_.resize(fusion.values().size());
  for (const auto &value : fusion.values()) {
    base_[value->id()] = slots;
    slots += value->rank();
  }
  parent_.resize(slots);
  std::iota(parent_.begin(), parent_.end(), size_t{0});
  for (const auto &op : fusion.ops())
    relateOp(*op);
}

size_t DimCorrespondence::find(size_t s) const {
  while (parent_[s] != s) {
    parent_[s] = parent_[parent_[s]];
    s = parent_[s];
  }
  return s;
}

size_t DimCorrespondence::classOf(const Value &value, size_t dim) const {
  return find(slot(value, dim));
}

void DimCorrespondence::unite(const Value &a, size_t da, const Value &b, size_t db) {
  if (da >= a.rank() || db >= b.rank() || a.shape()[da].isConstant(1) ||
      b.shape()[db].isConstant(1))
    return;
  size_t ra = find(slot(a, da)), rb = find(slot(b, db));
  if (ra != rb)
    parent_[std::max(ra, rb)] = std::min(ra, rb);
}

void DimCorrespondence::relateOp(const Op &op) {
  const Value &out = *op.result();
  const Attributes &attrs = op.attrs();
  auto sameDims = [&](const Value &in) {
    for (size_t d = 0; d < std::min(in.rank(), out.rank()); ++d)
      unite(in, d, out, d);
  };
  auto rightAligned = [&](const Value &in) {
    if (in.rank() > out.rank())
      return;
    for (size_t d = 0; d < in.rank(); ++d)
      unite(in, d, out, out.rank() - in.rank() + d);
  };
  // Maps the operand dims other than `skipped` in order onto the result dims
  // other than `gap` (either may be none: pass the rank).
  auto inOrder = [&](const Value &in, const std::vector<bool> &skipped, size_t gap) {
    size_t o = 0;
    for (size_t d = 0; d < in.rank(); ++d) {
      if (skipped[d])
        continue;
      if (o == gap)
        ++o;
      unite(in, d, out, o++);
    }
  };

  if (op.operands().empty())
    return;
  const Value &x = *op.operand(0);
  switch (op.info().shapeRule) {
  case ShapeRule::Elementwise:
  case ShapeRule::Expand:
    for (const Value *operand : op.operands())
      rightAligned(*operand);
    return;
  case ShapeRule::Reduction: {
    std::vector<bool> reduced(x.rank(), false);
    for (int64_t axis : attrs.axes("axes"))
      reduced[axis] = true;
    if (attrs.boolean("keepdim")) {
      for (size_t d = 0; d < x.rank(); ++d)
        if (!reduced[d])
          unite(x, d, out, d);
    } else {
      inOrder(x, reduced, out.rank());
    }
    return;
  }
  case ShapeRule::BroadcastInDim: {
    const std::vector<int64_t> &dims = attrs.axes("broadcast_dims");
    for (size_t d = 0; d < dims.size(); ++d)
      unite(x, d, out, static_cast<size_t>(dims[d]));
    return;
  }
  case ShapeRule::Reshape: {
    // Dims a reshape leaves alone at either end keep their identity.
    size_t front = 0;
    while (front < x.rank() && front < out.rank() && x.shape()[front] == out.shape()[front]) {
      unite(x, front, out, front);
      ++front;
    }
    for (size_t back = 1; back <= std::min(x.rank(), out.rank()) - front; ++back) {
      const size_t dx = x.rank() - back, dout = out.rank() - back;
      if (x.shape()[dx] != out.shape()[dout])
        break;
      unite(x, dx, out, dout);
    }
    return;
  }
  case ShapeRule::Permute: {
    const std::vector<int64_t> &dims = attrs.axes("dims");
    for (size_t d = 0; d < dims.size(); ++d)
      unite(x, static_cast<size_t>(dims[d]), out, d);
    return;
  }
  case ShapeRule::Squeeze: {
    std::vector<bool> removed(x.rank(), false);
    for (int64_t d : attrs.axes("dims"))
      removed[d] = true;
    inOrder(x, removed, out.rank());
    return;
  }
  case ShapeRule::Unsqueeze:
    inOrder(x, std::vector<bool>(x.rank(), false), static_cast<size_t>(attrs.integer("dim")));
    return;
  case ShapeRule::Slice:
  case ShapeRule::Pad:
  case ShapeRule::Scatter:
  case ShapeRule::Same:
  case ShapeRule::Scan:
  case ShapeRule::Normalization:
    sameDims(x);
    return;
  case ShapeRule::Cat:
    for (const Value *operand : op.operands())
      sameDims(*operand);
    return;
  case ShapeRule::IndexSelect:
  case ShapeRule::Gather: {
    const size_t dim = static_cast<size_t>(attrs.integer("dim"));
    for (size_t d = 0; d < x.rank(); ++d)
      if (d != dim)
        unite(x, d, out, d);
    const Value &index = *op.operand(1);
    if (op.info().shapeRule == ShapeRule::Gather)
      sameDims(index);
    else
      unite(index, 0, out, dim);
    return;
  }
  case ShapeRule::Creation:
  case ShapeRule::Scalar:
    return;
  }
}

} // namespace fuserc
