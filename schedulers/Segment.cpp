// Segments and their derived inputs and outputs (see Segment.h).
#include "schedulers/Segment.h"

#include <algorithm>

namespace fuserc {

Segment::Segment(std::shared_ptr<const FusionAnalysis> analysis, std::vector<const Op *> ops)
    : analysis_(std::move(analysis)) {
  for (const Op *op : ops)
    positions_.push_back(analysis_->position(*op));
  std::sort(positions_.begin(), positions_.end());
  positions_.erase(std::unique(positions_.begin(), positions_.end()), positions_.end());
  for (size_t p : positions_)
    ops_.push_back(&analysis_->op(p));

  // Membership by position: the segmenter builds many segments of large
  // fusions, and this loop visits every use.
  std::vector<char> inside(analysis_->numOps(), 0);
  for (size_t p : positions_)
    inside[p] = 1;
  auto definedInside = [&](const Value &v) {
    return v.definingOp() && inside[analysis_->position(*v.definingOp())];
  };
  for (const Op *op : ops_) {
    for (const Value *operand : op->operands())
      if (!operand->isLiteral() && !definedInside(*operand))
        inputs_.push_back(operand);
    const Value &result = *op->result();
    bool readOutside = false;
    for (const Op *user : analysis_->users(result))
      readOutside = readOutside || !inside[analysis_->position(*user)];
    if (readOutside || analysis_->isFusionOutput(result) || analysis_->isStoredOutput(result))
      outputs_.push_back(&result);
    // A view output read by another segment is read there through the view.
    if (analysis_->isStoredOutput(result) || (readOutside && !analysis_->isFusionOutput(result)))
      written_.push_back(&result);
  }
  auto byId = [](const Value *a, const Value *b) { return a->id() < b->id(); };
  std::sort(inputs_.begin(), inputs_.end(), byId);
  inputs_.erase(std::unique(inputs_.begin(), inputs_.end()), inputs_.end());
}

Segment Segment::wholeFusion(std::shared_ptr<const FusionAnalysis> analysis) {
  std::vector<const Op *> ops;
  for (const auto &op : analysis->fusion().ops())
    if (!analysis->isRecomputed(*op))
      ops.push_back(op.get());
  return Segment(std::move(analysis), std::move(ops));
}

bool Segment::contains(const Op &op) const {
  return std::binary_search(positions_.begin(), positions_.end(), analysis_->position(op));
}

bool Segment::defines(const Value &value) const {
  return value.definingOp() && contains(*value.definingOp());
}

} // namespace fuserc
