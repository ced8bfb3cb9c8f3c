// Internal to reduction splitting (ReductionSplitting.h): the builder the
// split reductions are created through, and how each reduction kind is
// recomputed from reductions over parts of its axes
// (ReductionSplitRules.cpp).
#pragma once

#include "passes/FusionRewriter.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace fuserc::reduction_split_detail {

// Creates ops in `fusion`, merging identical ones (CSE): the per-group mean
// that a mean and a var of one tensor both need is computed once, and an op
// the fusion already has is reused.
class SplitRewriter : public FusionRewriter {
public:
  // `source` is the fusion being rewritten: its names are taken too.
  SplitRewriter(Fusion &fusion, const Fusion &source) : FusionRewriter(fusion), source_(source) {}

  Value *create(OpKind kind, std::vector<Value *> operands, Attributes attrs) override;
  // Makes `v`, the result of an op copied from the source, one `create`
  // may return.
  void remember(Value *v);

  // kind(x) over `axes` with result dtype `dtype`, which becomes the `dtype`
  // attribute only where the op would not have it anyway; `attrs` holds
  // the kind's other attributes (var's correction).
  Value *reduceTo(OpKind kind, Value *x, std::vector<int64_t> axes, bool keepdim, DType dtype,
                  Attributes attrs = {});

  // Values created from here on belong to the current split (isNew).
  void beginSplit() { firstNew_ = fusion().values().size(); }
  bool isNew(const Value &v) const { return v.id() >= firstNew_; }
  // Names `v` base + suffix when it is an anonymous value of the current
  // split, `base` is not empty (partial results of an anonymous reduction
  // stay anonymous) and neither fusion uses the name.
  void nameNew(Value *v, const std::string &base, const std::string &suffix);

private:
  const Fusion &source_;
  std::unordered_map<std::string, Value *> existing_;
  size_t firstNew_ = 0;
};

// Whether `op` is a reduction the split recomputes with the interpreter's
// values: sum, prod, max, min, mean and var, except a sum to bool and a var
// that may divide by zero with more than one element per result (see the
// .cpp).
bool splittable(const Op &op);

// `op` (a splittable reduction of x over its axes) recomputed: x reduced
// over runs[0] with keepdim=true, that over runs[1], ..., and the last over
// all of op's axes with op's keepdim. Partial results are named after
// `name` (when not empty). The result has op's type; it may be an existing
// value.
Value *splitReduction(SplitRewriter &rewriter, const Op &op, Value *x,
                      const std::vector<std::vector<int64_t>> &runs, const std::string &name);

} // namespace fuserc::reduction_split_detail
