// A segment: a set of ops of one fusion that one kernel (or, for views, no
// kernel) computes. Ops are kept in fusion order; the values a segment reads
// from outside and the values it produces for outside are derived:
//
//   inputs   values its ops read that no op of the segment defines — fusion
//            inputs (tensors and scalars), index maps of tensor inputs
//            (FusionAnalysis::indexMap: views read through strides),
//            recomputed casts of either (computed where read) and results
//            of other segments; literals are not inputs (they are folded
//            into the code);
//   outputs  values it defines that an op outside the segment reads or that
//            are fusion outputs, or stored as one through an output view
//            (FusionAnalysis::outputView);
//   written outputs
//            the outputs a kernel for the segment stores: all but the fusion
//            outputs alias analysis made views, which the header describes
//            by strides over an input and other segments read through.
//            Schedulers' rules about outputs are about these.
//
// Both lists are in value order (definition order), so printing is stable.
#pragma once

#include "schedulers/FusionAnalysis.h"

#include <memory>
#include <span>
#include <vector>

namespace fuserc {

class Segment {
public:
  // `ops` may come in any order and with repeats; they must belong to the
  // analysed fusion.
  Segment(std::shared_ptr<const FusionAnalysis> analysis, std::vector<const Op *> ops);
  // Every op of the fusion but its index maps and recomputed casts, which
  // no segment computes.
  static Segment wholeFusion(std::shared_ptr<const FusionAnalysis> analysis);

  const FusionAnalysis &analysis() const { return *analysis_; }
  std::shared_ptr<const FusionAnalysis> sharedAnalysis() const { return analysis_; }
  const Fusion &fusion() const { return analysis_->fusion(); }

  std::span<const Op *const> ops() const { return ops_; }
  std::span<const Value *const> inputs() const { return inputs_; }
  std::span<const Value *const> outputs() const { return outputs_; }
  std::span<const Value *const> writtenOutputs() const { return written_; }
  bool contains(const Op &op) const;
  // Whether an op of the segment defines `value`.
  bool defines(const Value &value) const;
  bool isWholeFusion() const { return ops_.size() == analysis_->numOps(); }

private:
  std::shared_ptr<const FusionAnalysis> analysis_;
  std::vector<const Op *> ops_;
  std::vector<size_t> positions_; // of ops_, ascending
  std::vector<const Value *> inputs_;
  std::vector<const Value *> outputs_;
  std::vector<const Value *> written_;
};

} // namespace fuserc
