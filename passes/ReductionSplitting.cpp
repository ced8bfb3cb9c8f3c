// Reduction splitting's driver (see ReductionSplitting.h): finds the
// reductions whose reduced dims form more than one run in their operand's
// memory order, then rebuilds the fusion op by op, each of those through
// ReductionSplitRules.h and every other op as it was.
#include "passes/ReductionSplitting.h"

#include "passes/ReductionSplitRules.h"
#include "schedulers/OpFamilies.h"
#include "schedulers/ReductionGrouping.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace fuserc {
namespace reduction_split_detail {

Value *SplitRewriter::create(OpKind kind, std::vector<Value *> operands, Attributes attrs) {
  std::string error;
  std::optional<TensorType> type = infer(kind, operands, attrs, &error);
  if (!type)
    throw std::logic_error("reduction splitting built an op that does not type-check: " + error);
  std::string k = cseKey(kind, operands, attrs);
  if (auto it = existing_.find(k); it != existing_.end())
    return it->second;
  Value *v = append(kind, std::move(operands), std::move(attrs), std::move(*type));
  existing_.emplace(std::move(k), v);
  return v;
}

void SplitRewriter::remember(Value *v) {
  const Op &op = *v->definingOp();
  existing_.emplace(cseKey(op.kind(), op.operands(), op.attrs()), v);
}

Value *SplitRewriter::reduceTo(OpKind kind, Value *x, std::vector<int64_t> axes, bool keepdim,
                               DType dtype, Attributes attrs) {
  attrs.set("axes", std::move(axes));
  attrs.set("keepdim", keepdim);
  Attributes plain = attrs;
  std::optional<TensorType> type = infer(kind, {x}, plain, nullptr);
  if (!type || type->dtype != dtype)
    attrs.set("dtype", dtype);
  return create(kind, {x}, std::move(attrs));
}

void SplitRewriter::nameNew(Value *v, const std::string &base, const std::string &suffix) {
  const std::string name = base + suffix;
  if (isNew(*v) && v->name().empty() && !base.empty() && !fusion().findValue(name) &&
      !source_.findValue(name))
    fusion().setName(v, name);
}

} // namespace reduction_split_detail

namespace {

using namespace reduction_split_detail;

// The runs of reduced dims of `op`'s operand, innermost first, when there
// are more than one; empty otherwise. Dims walk the memory order kernels
// read the operand in, static 1 dims left out, as the reduction
// schedulers group them.
std::vector<std::vector<int64_t>> interleavedRuns(const FusionAnalysis &analysis, const Op &op) {
  const Value &x = *op.operand(0);
  ReductionRows rows;
  rows.reductions = {&op};
  rows.domain = x.shape();
  rows.axes = op.attrs().axes("axes");
  const ReductionGrouping g = groupReductionDims(analysis, rows, op);
  if (g.kind != ReductionGrouping::Kind::Interleaved)
    return {};
  std::vector<std::vector<int64_t>> runs;
  bool inRun = false;
  for (int64_t d : g.order) {
    if (x.shape()[static_cast<size_t>(d)].isConstant(1))
      continue;
    const bool reduced = std::find(rows.axes.begin(), rows.axes.end(), d) != rows.axes.end();
    if (reduced && !inRun)
      runs.emplace_back();
    if (reduced)
      runs.back().push_back(d);
    inRun = reduced;
  }
  // Innermost first, each run's axes ascending; the outermost run is left
  // to the last reduction, which reduces every axis.
  std::vector<std::vector<int64_t>> inner(runs.rbegin(), runs.rend() - 1);
  for (std::vector<int64_t> &run : inner)
    std::sort(run.begin(), run.end());
  return inner;
}

// The splittable reductions that interleave, with their runs. Small
// reductions are left alone: pointwise kernels compute them element by
// element, in any memory order.
std::map<const Op *, std::vector<std::vector<int64_t>>> findSplits(const Fusion &fusion) {
  const FusionAnalysis analysis(fusion);
  std::map<const Op *, std::vector<std::vector<int64_t>>> splits;
  for (const auto &op : fusion.ops()) {
    if (!isReduction(*op) || op->operand(0)->isRankZero())
      continue;
    std::vector<std::vector<int64_t>> runs = interleavedRuns(analysis, *op);
    if (!runs.empty() && splittable(*op))
      splits.emplace(op.get(), std::move(runs));
  }
  return splits;
}

class Splitter {
public:
  Splitter(const Fusion &source, Fusion &target,
           std::map<const Op *, std::vector<std::vector<int64_t>>> splits)
      : source_(source), target_(target), rewriter_(target, source), splits_(std::move(splits)),
        map_(source.values().size(), nullptr) {}

  void run() {
    for (const Value *input : source_.inputs())
      map_[input->id()] =
          input->isScalarInput()
              ? target_.addScalarInput(input->name(), input->dtype(), input->loc())
              : target_.addTensorInput(input->name(), input->dtype(), input->shape(),
                                       input->layout(), input->isStrided(), input->loc());
    for (const auto &op : source_.ops())
      map_[op->result()->id()] = rebuild(*op);
    for (FusionOutput output : source_.outputs()) {
      output.remapValues([&](const Value *v) { return mapped(v); });
      target_.addOutput(std::move(output));
    }
  }

private:
  Value *mapped(const Value *v) {
    return v->isLiteral() ? rewriter_.literal(v->literal()) : map_.at(v->id());
  }

  Value *rebuild(const Op &op) {
    std::vector<Value *> operands;
    for (const Value *v : op.operands())
      operands.push_back(mapped(v));
    const Value &old = *op.result();
    auto split = splits_.find(&op);
    if (split == splits_.end()) {
      Value *v = target_
                     .addOp(op.kind(), std::move(operands), op.attrs(), {old.dtype(), old.shape()},
                            old.name(), op.loc())
                     ->result();
      rewriter_.remember(v);
      return v;
    }
    rewriter_.setLoc(op.loc());
    rewriter_.beginSplit();
    Value *v = splitReduction(rewriter_, op, operands[0], split->second, old.name());
    // The value keeps the reduction's name (an output's, perhaps): it
    // must be a value of its own.
    if (!rewriter_.isNew(*v) || !v->name().empty()) {
      const Op &def = *v->definingOp();
      v = rewriter_.tryAdd(def.kind(), def.operands(), def.attrs());
    }
    if (v->dtype() != old.dtype() || v->shape() != old.shape())
      throw std::logic_error("reduction splitting rebuilt '" + std::string(op.info().name) +
                             "' as " + std::string(dtypeName(v->dtype())) +
                             shapeString(v->shape()) + ", not " +
                             std::string(dtypeName(old.dtype())) + shapeString(old.shape()));
    if (!old.name().empty())
      target_.setName(v, old.name());
    return v;
  }

  const Fusion &source_;
  Fusion &target_;
  SplitRewriter rewriter_;
  std::map<const Op *, std::vector<std::vector<int64_t>>> splits_;
  std::vector<Value *> map_; // source value id -> rebuilt value
};

} // namespace

std::unique_ptr<Fusion> splitInterleavedReductions(const Fusion &fusion) {
  std::map<const Op *, std::vector<std::vector<int64_t>>> splits = findSplits(fusion);
  if (splits.empty())
    return nullptr;
  auto split = std::make_unique<Fusion>(fusion.name(), fusion.loc());
  Splitter(fusion, *split, std::move(splits)).run();
  return split;
}

} // namespace fuserc
