// The segmenter's group graph (see SegmentGraph.h).
#include "passes/SegmentGraph.h"

#include <algorithm>
#include <span>

namespace fuserc {
namespace {

void sortUnique(std::vector<size_t> &v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

// Calls f(value) for every value in both id-sorted lists. Merged groups'
// lists grow long while their partners' stay short, so the shorter list is
// looked up in the longer one.
template <typename F>
void forEachCommon(const std::vector<const Value *> &a, const std::vector<const Value *> &b, F f) {
  const auto &shorter = a.size() <= b.size() ? a : b;
  const auto &longer = a.size() <= b.size() ? b : a;
  auto from = longer.begin();
  for (const Value *v : shorter) {
    from = std::lower_bound(from, longer.end(), v,
                            [](const Value *x, const Value *y) { return x->id() < y->id(); });
    if (from == longer.end())
      return;
    if (*from == v)
      f(*v);
  }
}

} // namespace

SegmentGraph::SegmentGraph(std::shared_ptr<const FusionAnalysis> analysis,
                           std::vector<double> valueBytes)
    : analysis_(std::move(analysis)), bytes_(std::move(valueBytes)) {
  const size_t n = analysis_->numOps();
  groups_.resize(n);
  groupOfOp_.resize(n);
  visited_.assign(n, 0);
  // Ops are in definition order, a topological order of the single ops.
  slotOf_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    groups_[i].ops = {i};
    groups_[i].alive = !analysis_->isRecomputed(analysis_->op(i));
    groupOfOp_[i] = i;
    slotOf_[i] = i;
  }
  for (size_t i = 0; i < n; ++i)
    deriveInputsAndOutputs(groups_[i]);
}

void SegmentGraph::deriveInputsAndOutputs(Group &group) const {
  const size_t id = groupOfOp_[group.ops.front()];
  auto inGroup = [&](const Op &op) { return groupOfOp_[analysis_->position(op)] == id; };
  group.inputs.clear();
  group.outputs.clear();
  for (size_t p : group.ops) {
    const Op &op = analysis_->op(p);
    for (const Value *operand : op.operands())
      if (!operand->isLiteral() && !(operand->definingOp() && inGroup(*operand->definingOp())))
        group.inputs.push_back(operand);
    const Value &result = *op.result();
    bool outside = analysis_->isStoredOutput(result);
    for (const Op *user : analysis_->users(result))
      outside = outside || !inGroup(*user);
    if (outside)
      group.outputs.push_back(&result);
  }
  auto byId = [](const Value *x, const Value *y) { return x->id() < y->id(); };
  std::sort(group.inputs.begin(), group.inputs.end(), byId);
  group.inputs.erase(std::unique(group.inputs.begin(), group.inputs.end()), group.inputs.end());
}

std::vector<size_t> SegmentGraph::groups() const {
  std::vector<size_t> live;
  for (size_t g = 0; g < groups_.size(); ++g)
    if (groups_[g].alive)
      live.push_back(g);
  std::sort(live.begin(), live.end(), [&](size_t x, size_t y) { return firstOp(x) < firstOp(y); });
  return live;
}

Segment SegmentGraph::segment(size_t group) const {
  std::vector<const Op *> ops;
  for (size_t p : groups_[group].ops)
    ops.push_back(&analysis_->op(p));
  return Segment(analysis_, std::move(ops));
}

Segment SegmentGraph::mergedSegment(size_t a, size_t b) const {
  std::vector<const Op *> ops;
  for (size_t g : {a, b})
    for (size_t p : groups_[g].ops)
      ops.push_back(&analysis_->op(p));
  return Segment(analysis_, std::move(ops));
}

std::vector<size_t> SegmentGraph::neighbours(size_t group) const {
  std::vector<size_t> result;
  const Group &g = groups_[group];
  for (const Value *v : g.inputs)
    if (const Op *producer = analysis_->producer(*v))
      result.push_back(groupOfOp_[analysis_->position(*producer)]);
  // Of the other readers of a tensor the group reads, those next to one of
  // its reading ops in op order: pairing every reader of a tensor read by
  // n groups (a weight of n layer norms) would queue n^2 pairs. Merged
  // siblings become next to the readers beyond them, so a row of siblings
  // still merges pair by pair.
  auto byPosition = [&](const Op *x, size_t p) { return analysis_->position(*x) < p; };
  for (size_t p : g.ops)
    for (const Value *v : analysis_->op(p).operands()) {
      if (v->isLiteral() || v->isScalarInput() ||
          (v->definingOp() && groupOfOp_[analysis_->position(*v->definingOp())] == group))
        continue;
      std::span<const Op *const> users = analysis_->users(*v);
      auto at = std::lower_bound(users.begin(), users.end(), p, byPosition);
      if (at != users.begin())
        result.push_back(groupOfOp_[analysis_->position(**(at - 1))]);
      if (at != users.end() && at + 1 != users.end())
        result.push_back(groupOfOp_[analysis_->position(**(at + 1))]);
    }
  for (const Value *v : g.outputs)
    for (const Op *user : analysis_->users(*v))
      result.push_back(groupOfOp_[analysis_->position(*user)]);
  // Index maps and recomputed casts (other readers of an input) belong to
  // no group.
  std::erase_if(result, [&](size_t other) { return !groups_[other].alive; });
  sortUnique(result);
  result.erase(std::remove(result.begin(), result.end(), group), result.end());
  return result;
}

std::vector<size_t> SegmentGraph::successors(size_t group) const {
  std::vector<size_t> result;
  for (const Value *v : groups_[group].outputs)
    for (const Op *user : analysis_->users(*v)) {
      size_t g = groupOfOp_[analysis_->position(*user)];
      if (g != group)
        result.push_back(g);
    }
  sortUnique(result);
  return result;
}

bool SegmentGraph::readOnlyBy(const Value &value, size_t a, size_t b) const {
  if (analysis_->isStoredOutput(value))
    return false;
  for (const Op *user : analysis_->users(value)) {
    size_t g = groupOfOp_[analysis_->position(*user)];
    if (g != a && g != b)
      return false;
  }
  return true;
}

double SegmentGraph::saving(size_t a, size_t b) const {
  const Group &ga = groups_[a], &gb = groups_[b];
  double saved = 0;
  forEachCommon(ga.inputs, gb.inputs, [&](const Value &v) { saved += bytes_[v.id()]; });
  auto passed = [&](const Value &v) {
    saved += bytes_[v.id()]; // the consumer's read
    if (readOnlyBy(v, a, b))
      saved += bytes_[v.id()]; // the producer's write
  };
  forEachCommon(ga.outputs, gb.inputs, passed);
  forEachCommon(gb.outputs, ga.inputs, passed);
  return saved;
}

std::vector<size_t> SegmentGraph::predecessors(size_t group) const {
  std::vector<size_t> result;
  for (const Value *v : groups_[group].inputs)
    if (const Op *producer = analysis_->producer(*v))
      result.push_back(groupOfOp_[analysis_->position(*producer)]);
  sortUnique(result);
  return result;
}

std::optional<size_t> SegmentGraph::pathStart(size_t from, size_t to) const {
  // Every group on a path from `from` to `to` lies between them in the
  // topological order: the search goes no further.
  if (slotOf_[from] > slotOf_[to])
    return std::nullopt;
  ++stamp_;
  std::vector<size_t> stack;
  for (size_t start : successors(from)) {
    if (start == to || visited_[start] == stamp_ || slotOf_[start] > slotOf_[to])
      continue;
    stack.assign(1, start);
    visited_[start] = stamp_;
    while (!stack.empty()) {
      size_t g = stack.back();
      stack.pop_back();
      for (size_t next : successors(g)) {
        if (next == to)
          return start;
        if (visited_[next] != stamp_ && slotOf_[next] < slotOf_[to]) {
          visited_[next] = stamp_;
          stack.push_back(next);
        }
      }
    }
  }
  return std::nullopt;
}

std::optional<size_t> SegmentGraph::cycleThrough(size_t a, size_t b) const {
  if (std::optional<size_t> through = pathStart(a, b))
    return through;
  return pathStart(b, a);
}

// Between the slots of u and v (u first), the groups u reaches go after the
// merged group and those reaching v before it; no group is both (the merge
// closes no cycle), and the others keep their slots. Costs the size of that
// stretch of the order, not of the graph.
void SegmentGraph::reorderForMerge(size_t u, size_t v, size_t merged) {
  const size_t lo = slotOf_[u], hi = slotOf_[v];
  auto within = [&](bool forward) {
    std::vector<size_t> found, stack = {forward ? u : v};
    ++stamp_;
    while (!stack.empty()) {
      size_t g = stack.back();
      stack.pop_back();
      for (size_t x : forward ? successors(g) : predecessors(g))
        if (visited_[x] != stamp_ && slotOf_[x] > lo && slotOf_[x] < hi) {
          visited_[x] = stamp_;
          found.push_back(x);
          stack.push_back(x);
        }
    }
    return found;
  };
  std::vector<size_t> after = within(true), before = within(false);
  auto bySlot = [&](size_t x, size_t y) { return slotOf_[x] < slotOf_[y]; };
  std::sort(after.begin(), after.end(), bySlot);
  std::sort(before.begin(), before.end(), bySlot);
  std::vector<size_t> slots = {lo, hi};
  for (const auto *list : {&after, &before})
    for (size_t g : *list)
      slots.push_back(slotOf_[g]);
  std::sort(slots.begin(), slots.end());
  // The last slot stays empty: one group fewer.
  std::vector<size_t> placed = before;
  placed.push_back(merged);
  placed.insert(placed.end(), after.begin(), after.end());
  for (size_t i = 0; i < placed.size(); ++i)
    slotOf_[placed[i]] = slots[i];
}

size_t SegmentGraph::merge(size_t a, size_t b) {
  size_t keep = firstOp(a) < firstOp(b) ? a : b;
  size_t gone = keep == a ? b : a;
  // Reordered while both groups still have their own inputs and outputs.
  if (slotOf_[a] < slotOf_[b])
    reorderForMerge(a, b, keep);
  else
    reorderForMerge(b, a, keep);
  Group &k = groups_[keep], &g = groups_[gone];
  for (size_t p : g.ops)
    groupOfOp_[p] = keep;
  std::vector<size_t> ops;
  ops.reserve(k.ops.size() + g.ops.size());
  std::merge(k.ops.begin(), k.ops.end(), g.ops.begin(), g.ops.end(), std::back_inserter(ops));
  k.ops = std::move(ops);
  g = Group{};
  g.alive = false;
  ++k.version;
  deriveInputsAndOutputs(k);
  return keep;
}

} // namespace fuserc
