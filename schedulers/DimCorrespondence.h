// Which dimensions of different tensors of a fusion are the same loop
// dimension: the result dim of a permute is the operand dim it moved, an
// elementwise op's dims are its operands' (right-aligned), a reduction keeps
// the dims it does not reduce, and so on through every shape rule of ops.td.
//
// The transpose scheduler uses it to tell whether two tensors agree on the
// dimension that is innermost in memory even when their shapes differ.
// Dims of static extent 1 (broadcast dims) join no class: they carry no
// loop. Reshapes relate only the dims they leave alone at either end.
#pragma once

#include "ir/Fusion.h"

#include <cstddef>
#include <vector>

namespace fuserc {

class DimCorrespondence {
public:
  explicit DimCorrespondence(const Fusion &fusion);

  // A number naming the loop dimension that `dim` of `value` belongs to:
  // equal numbers mean corresponding dims.
  size_t classOf(const Value &value, size_t dim) const;

private:
  size_t slot(const Value &value, size_t dim) const { return base_[value.id()] + dim; }
  size_t find(size_t slot) const;
  void unite(const Value &a, size_t da, const Value &b, size_t db);
  void relateOp(const Op &op);

  std::vector<size_t> base_; // by value id: the slot of its dim 0
  mutable std::vector<size_t> parent_;
};

} // namespace fuserc
