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

// A computed value whose only use is a fusion output that reshapes it
// (reshape, squeeze, unsqueeze, or a chain of them): the kernel computing it
// stores it straight into the output's buffer through the view's strides,
// so no kernel copies the view.
struct OutputView {
  const FusionOutput *output = nullptr; // the output it is stored as
  StridedView view;                     // the value over the output's memory
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

  // The ops that read `value`, each once, in fusion order. The view ops
  // from a value stored through an output view (outputView) are not
  // readers: the kernel computing the value writes them.
  std::span<const Op *const> users(const Value &value) const { return users_[value.id()]; }
  // The fusion outputs that are `value` (a value may be output twice).
  std::span<const FusionOutput *const> outputsOf(const Value &value) const {
    return outputs_[value.id()];
  }
  bool isFusionOutput(const Value &value) const { return !outputs_[value.id()].empty(); }
  // A fusion output some kernel must store: one that alias analysis did not
  // make a view of an input.
  // Also a value stored through an output view.
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
  // The output view `value` is stored through, if any: a value no fusion
  // output is, computed by a kernel, whose one reader is a chain of
  // reshapes (each read once) ending in a new-buffer output no op reads,
  // the chain expressible as strides over that output's dense layout.
  const OutputView *outputView(const Value &value) const;
  // Whether `value` is on such a chain, after the stored value: its view
  // op is in no segment, and the output's buffer already holds it.
  bool isOutputViewOfStored(const Value &value) const { return outputViewOps_[value.id()]; }
  // For such a value, the stored value under it (which outputView has).
  const Value &storedBeneath(const Value &value) const;
  // The ops no segment computes: index maps and recomputed casts, which
  // kernels read where they need them, and the view ops into an output
  // view, which the kernel storing the viewed value writes.
  bool isRecomputed(const Op &op) const {
    return indexMap(*op.result()) || isRecomputedCast(*op.result()) ||
           isOutputViewOfStored(*op.result());
  }
  // The op a kernel computes `value` with: none for inputs, literals, index
  // maps, recomputed casts and output views, which segments read as inputs.
  const Op *producer(const Value &value) const {
    const Op *op = value.definingOp();
    return op && isRecomputed(*op) ? nullptr : op;
  }
  // Whether `value`, as kernels read or write it, is dense in its stored
  // layout: not for `strided` inputs, nor for index maps with gaps (slices).
  bool isDense(const Value &value) const;

  // The memory order `value` is stored in: the output's layout when it is a
  // fusion output, an index map's or output view's order, otherwise the
  // value's own (row-major when none was set).
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
  void findOutputViews();

  const Fusion &fusion_;
  ValueNames names_;
  DimCorrespondence dims_;
  std::vector<size_t> opPosition_; // by result value id
  std::vector<std::vector<const Op *>> users_;
  std::vector<std::vector<const FusionOutput *>> outputs_;
  std::vector<std::optional<IndexMap>> indexMaps_;     // by value id
  std::vector<char> recomputedCasts_;                  // by value id
  std::vector<std::optional<OutputView>> outputViews_; // by value id
  std::vector<char> outputViewOps_;                    // by value id
};

} // namespace fuserc
