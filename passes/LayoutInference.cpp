// Layout inference (see LayoutInference.h): propagates memory orders from
// the inputs forward through the ops, choosing per op the operand whose
// source input dominates, and mapping its order through the op's shape rule.
#include "passes/LayoutInference.h"

#include "passes/LayoutMapping.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fuserc {
namespace {

// A memory order for one value, and how it got there.
// The root is an input, or a row-major fallback (which dominates nothing).
struct Candidate {
  Layout layout;
  std::string root;              // "x", or "row-major (reason)"
  size_t sourceDims = 0;         // non-broadcast dims of the root input
  size_t sourceIndex = SIZE_MAX; // the root input's position; SIZE_MAX: a fallback
  // The first kShownPath ops it was mapped through, in order, and how many
  // there were: a copy per value of the whole path would be quadratic in a
  // long chain.
  std::vector<std::string> path;
  size_t pathLength = 0;
};

constexpr size_t kShownPath = 6;

size_t nonBroadcastDims(const Value &v) {
  size_t n = 0;
  for (const Extent &e : v.shape())
    n += !e.isConstant(1);
  return n;
}

// Dominance: more non-broadcast dims in the source input, then the input
// declared first.
bool dominates(const Candidate &a, const Candidate &b) {
  if (a.sourceDims != b.sourceDims)
    return a.sourceDims > b.sourceDims;
  return a.sourceIndex < b.sourceIndex;
}

std::string describePath(const Candidate &c) {
  std::string s;
  for (size_t i = 0; i < c.path.size(); ++i)
    s += (i ? ", " : "") + c.path[i];
  if (c.pathLength > c.path.size())
    s += ", ... (" + std::to_string(c.pathLength - c.path.size()) + " more)";
  return s;
}

std::string describe(const Candidate &c) {
  if (c.sourceIndex == SIZE_MAX)
    return c.root + (c.path.empty() ? "" : ", then through " + describePath(c));
  return "from " + c.root + " through " + describePath(c);
}

class LayoutInference {
public:
  explicit LayoutInference(Fusion &fusion) : fusion_(fusion), candidates_(fusion.values().size()) {}

  void run() {
    for (size_t i = 0; i < fusion_.inputs().size(); ++i) {
      Value *in = fusion_.inputs()[i];
      if (in->isScalarInput())
        continue;
      candidates_[in->id()] = Candidate{in->layout(), in->name(), nonBroadcastDims(*in), i, {}, 0};
    }
    for (const auto &op : fusion_.ops())
      inferResult(*op);
    for (FusionOutput &out : fusion_.mutableOutputs()) {
      if (out.pinnedLayout) {
        out.layout = *out.pinnedLayout;
        out.layoutOrigin = "pinned";
      } else {
        out.layout = out.value->layout();
        out.layoutOrigin = out.value->layoutOrigin();
      }
    }
  }

private:
  void inferResult(const Op &op) {
    Value *result = op.result();
    std::optional<Candidate> best;
    std::string whyNot; // the first reason an operand's order did not map
    for (size_t i = 0; i < op.operands().size(); ++i) {
      const std::optional<Candidate> &from = candidates_[op.operand(i)->id()];
      if (!from)
        continue;
      LayoutMapping mapped = mapLayoutThroughOp(op, i, from->layout);
      if (!mapped.layout) {
        if (whyNot.empty())
          whyNot = mapped.reason;
        continue;
      }
      Candidate c = *from;
      c.layout = std::move(*mapped.layout);
      if (c.path.size() < kShownPath)
        c.path.push_back(std::string(op.info().name));
      ++c.pathLength;
      if (!best || dominates(c, *best))
        best = std::move(c);
    }
    if (best) {
      fusion_.setLayout(result, best->layout, describe(*best));
      candidates_[result->id()] = std::move(best);
      return;
    }
    std::string reason = whyNot;
    if (reason.empty())
      reason = "'" + std::string(op.info().name) +
               (op.info().shapeRule == ShapeRule::Creation ? "' creates its result"
                                                           : "' reads no tensor");
    Candidate fallback{
        rowMajorLayout(result->rank()), "row-major (" + reason + ")", 0, SIZE_MAX, {}, 0};
    fusion_.setLayout(result, fallback.layout, describe(fallback));
    // Later ops just say where the order was lost.
    fallback.root = "row-major (order lost at '" + std::string(op.info().name) + "')";
    candidates_[result->id()] = std::move(fallback);
  }

  Fusion &fusion_;
  std::vector<std::optional<Candidate>> candidates_; // by value id
};

} // namespace

void inferLayouts(Fusion &fusion) { LayoutInference(fusion).run(); }

PrintNotes layoutDumpNotes() {
  PrintNotes notes;
  notes.value = [](const Value &v) -> std::string {
    if (v.isScalarInput() || v.isRankZero())
      return "";
    return "layout" + layoutString(v.layout()) + " " + v.layoutOrigin();
  };
  notes.output = [](const FusionOutput &out) -> std::string {
    if (out.value->isRankZero())
      return "";
    return "layout" + layoutString(out.layout) + " " + out.layoutOrigin;
  };
  return notes;
}

} // namespace fuserc
