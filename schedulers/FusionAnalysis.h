// Facts about one fusion that segments and schedulers consult over and
// over, computed once: each op's position, the users of every value, which
// values are fusion outputs, how each tensor is laid out in memory, the
// names the dumps give values, and which dims of different tensors are the
// same loop dimension.
//
// Built after layout inference and alias analysis; it reads their results
// (Value::layout(), FusionOutput::layout / kind) and never changes the fusion.
#pragma once

#include "ir/Fusion.h"
#include "ir/Printer.h"
#include "ir/ViewAnalysis.h"
#include "schedulers/DimCorrespondence.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace fuserc {

// The dim of a tensor that is innermost in memory, and its loop dimension.
struct InnermostDim {
  size_t dim;       // logical dim of the tensor
  size_t loopClass; // DimCorrespondence class
};

// A value that only re-indexes a tensor input's memory (a reshape, permute,
// squeeze, unsqueeze or slice of it, or a chain of them): kernels read it
// through the view's offset and strides, so no kernel computes it.
struct IndexMap {
  const Value *base = nullptr; // the tensor input
  StridedView view;            // over the base's memory
};

class FusionAnalysis {
public:
  explicit FusionAnalysis(const Fusion &fusion);
  FusionAnalysis(const FusionAnalysis &) = delete;
  FusionAnalysis &operator=(const FusionAnalysis &) = delete;

  const Fusion &fusion() const { return fusion_; }
  size_t numOps() const { return fusion_.ops().size(); }
  const Op &op(size_t position) const { return *fusion_.ops()[position]; }
  // The op's index in fusion.ops() (its definition order).
  size_t position(const Op &op) const { return opPosition_[op.result()->id()]; }

  // The ops that read `value`, each once, in fusion order.
  std::span<const Op *const> users(const Value &value) const { return users_[value.id()]; }
  // The fusion outputs that are `value` (a value may be output twice).
  std::span<const FusionOutput *const> outputsOf(const Value &value) const {
    return outputs_[value.id()];
  }
  bool isFusionOutput(const Value &value) const { return !outputs_[value.id()].empty(); }
  // A fusion output some kernel must store: one that alias analysis did not
  // make a view of an input.
  bool isStoredOutput(const Value &value) const;

  // The index map `value` is, if it is one: a view op's result that no
  // fusion output is, viewing a tensor input (or another index map) that no
  // output updates in place. Broadcasts stay ops: every kernel already reads
  // them at coordinate 0, and schedulers tell a broadcast weight from a
  // stream by its shape.
  const IndexMap *indexMap(const Value &value) const;
  // Whether `value` is a cast that every kernel reading it computes from
  // its operand instead of reading it from the workspace: a cast of a tensor
  // input, an index map or another such cast, that no fusion output is. It
  // costs a conversion per read; storing it would cost a tensor.
  bool isRecomputedCast(const Value &value) const { return recomputedCasts_[value.id()]; }
  // The ops no segment computes: index maps and recomputed casts. Kernels
  // read them where they need them.
  bool isRecomputed(const Op &op) const {
    return indexMap(*op.result()) || isRecomputedCast(*op.result());
  }
  // The op a kernel computes `value` with: none for inputs, literals, index
  // maps and recomputed casts, which segments read as inputs.
  const Op *producer(const Value &value) const {
    const Op *op = value.definingOp();
    return op && isRecomputed(*op) ? nullptr : op;
  }
  // Whether `value`, as kernels read or write it, is dense in its stored
  // layout: not for `strided` inputs, nor for index maps with gaps (slices).
  bool isDense(const Value &value) const;

  // The memory order `value` is stored in: the output's layout when it is a
  // fusion output, an index map's view order, otherwise the value's own
  // (row-major when none was set).
  Layout storedLayout(const Value &value) const;
  // The innermost dim in memory that is not a broadcast (static 1) dim; none
  // for tensors with fewer than two such dims, whose order does not matter.
  std::optional<InnermostDim> innermostDim(const Value &value) const;
  // Whether `value` has a dim of extent other than static 1 in loop
  // dimension `loopClass` (it varies along that loop).
  bool variesAlong(const Value &value, size_t loopClass) const;

  // The name dumps give `value`, and "'name'" / "'name' (op)" for reasons.
  std::string name(const Value &value) const { return names_(&value); }
  std::string quoted(const Value &value) const { return "'" + name(value) + "'"; }
  std::string describe(const Op &op) const;

private:
  void findRecomputedValues();

  const Fusion &fusion_;
  ValueNames names_;
  DimCorrespondence dims_;
  std::vector<size_t> opPosition_; // by result value id
  std::vector<std::vector<const Op *>> users_;
  std::vector<std::vector<const FusionOutput *>> outputs_;
  std::vector<std::optional<IndexMap>> indexMaps_; // by value id
  std::vector<char> recomputedCasts_;              // by value id
};

} // namespace fuserc
