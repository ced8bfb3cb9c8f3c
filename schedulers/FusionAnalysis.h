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

  // The memory order `value` is stored in: the output's layout when it is a
  // fusion output, otherwise the value's own (row-major when none was set).
  Layout storedLayout(const Value &value) const;
  // The innermost dim in memory that is not a broadcast (static 1) dim; none
  // for tensors with fewer than two such dims, whose order does not matter.
  std::optional<InnermostDim> innermostDim(const Value &value) const;

  // The name dumps give `value`, and "'name'" / "'name' (op)" for reasons.
  std::string name(const Value &value) const { return names_(&value); }
  std::string quoted(const Value &value) const { return "'" + name(value) + "'"; }
  std::string describe(const Op &op) const;

private:
  const Fusion &fusion_;
  ValueNames names_;
  DimCorrespondence dims_;
  std::vector<size_t> opPosition_; // by result value id
  std::vector<std::vector<const Op *>> users_;
  std::vector<std::vector<const FusionOutput *>> outputs_;
};

} // namespace fuserc
