// Segmentation (see Segmentation.h): the whole-fusion check, the greedy
// merge of groups, and the description of the result (segments in launch
// order, crossing tensors, boundaries with their reasons).
#include "passes/Segmentation.h"

#include "passes/AliasAnalysis.h"
#include "passes/SegmentGraph.h"
#include "schedulers/FusionAnalysis.h"

#include <map>
#include <queue>
#include <set>

namespace fuserc {
namespace {

// The dtype a value passed between segments is kept in: f32 for f16 and
// bf16 values, which are rounded only where stored as outputs, except a
// cast to f16 or bf16, whose values that dtype holds exactly.
DType storageDType(const Value &v) {
  const DType t = v.dtype();
  if (t != DType::F16 && t != DType::BF16)
    return t;
  const Op *op = v.definingOp();
  return op && op->kind() == OpKind::Cast ? t : DType::F32;
}

// Bytes of every value by id (scalars and literals: 0), with unbound
// symbols at kDefaultExtent.
std::vector<double> valueBytes(const Fusion &fusion, const SymbolBindings &shapes) {
  std::vector<double> bytes(fusion.values().size(), 0);
  for (const auto &value : fusion.values())
    if (!value->isLiteral() && !value->isScalarInput())
      bytes[value->id()] =
          countedElements(value->shape(), shapes) * dtypeBytes(storageDType(*value));
  return bytes;
}

const Scheduler *firstAccepting(const Segment &segment,
                                std::span<const Scheduler *const> schedulers) {
  for (const Scheduler *s : schedulers)
    if (s->canSchedule(segment))
      return s;
  return nullptr;
}

std::vector<Rejection> rejections(const Segment &segment,
                                  std::span<const Scheduler *const> schedulers) {
  std::vector<Rejection> result;
  for (const Scheduler *s : schedulers) {
    Verdict v = s->canSchedule(segment);
    result.push_back({std::string(s->name()), v ? "accepts" : v.reason()});
  }
  return result;
}

// A pair of groups to try merging, as it was when queued.
struct Candidate {
  double saving;
  size_t earlier, later; // first ops of the two groups
  size_t a, b;
  unsigned versionA, versionB;
};

// Largest saving first; among equal savings, the pair starting earliest.
struct LaterCandidateFirst {
  bool operator()(const Candidate &x, const Candidate &y) const {
    if (x.saving != y.saving)
      return x.saving < y.saving;
    if (x.earlier != y.earlier)
      return x.earlier > y.earlier;
    return x.later > y.later;
  }
};

class Segmenter {
public:
  Segmenter(const Fusion &fusion, const SegmentationOptions &options, DiagnosticEngine &diag)
      : fusion_(fusion), options_(options), diag_(diag),
        analysis_(std::make_shared<FusionAnalysis>(fusion)),
        graph_(analysis_, valueBytes(fusion, options.shapes)) {}

  std::optional<SegmentedFusion> run() {
    result_.fusion = &fusion_;
    result_.analysis = analysis_;
    result_.segmentOfOp.assign(fusion_.ops().size(), kNoSegment);
    if (fusion_.ops().empty())
      return std::move(result_);

    findInPlaceReads();
    Segment whole = Segment::wholeFusion(analysis_);
    if (whole.ops().empty()) // only index maps and casts, of no output: nothing runs
      return std::move(result_);
    if (const Scheduler *s = accepting(whole)) {
      for (const Op *op : whole.ops())
        result_.segmentOfOp[analysis_->position(*op)] = 0;
      result_.segments.push_back({0, std::move(whole), s, nullptr});
      return std::move(result_);
    }
    result_.wholeFusion = rejectionsOf(whole);

    if (!scheduleSingleOps())
      return std::nullopt;
    mergeGreedily();
    if (!describeResult())
      return std::nullopt;
    return std::move(result_);
  }

private:
  // An in-place output and the reads of its input that its kernel may not
  // make (readsOtherThanElementwise): they go to kernels launched before.
  struct InPlaceReads {
    const FusionOutput *output;
    const Op *writer;
    std::vector<InPlaceRead> reads;
  };

  void findInPlaceReads() {
    for (const FusionOutput &out : fusion_.outputs()) {
      if (out.kind != OutputKind::InPlace || !out.aliases || !out.value->definingOp())
        continue;
      std::vector<InPlaceRead> reads = readsOtherThanElementwise(fusion_, *out.aliases);
      if (!reads.empty())
        inPlaceReads_.push_back({&out, out.value->definingOp(), std::move(reads)});
    }
  }

  // "'ms' (mean) reduces 'h' (computed from 'res') over axes [1]": no line
  // number, as the dumps that print it read back to themselves.
  std::string describeRead(const InPlaceRead &read, const Value &x) const {
    return analysis_->describe(*read.op) + " " +
           describeInPlaceRead(read, x, analysis_->name(*read.op->operand(read.operand)));
  }

  // Why `segment` cannot be one kernel whatever its scheduler: it writes an
  // in-place output and makes a read of its input that must come first.
  std::optional<std::string> inPlaceConflict(const Segment &segment) const {
    for (const InPlaceReads &r : inPlaceReads_) {
      if (!segment.contains(*r.writer))
        continue;
      for (const InPlaceRead &read : r.reads)
        if (segment.contains(*read.op))
          return "it would write " + analysis_->quoted(*r.output->value) + " into " +
                 analysis_->quoted(*r.output->aliases) + " in place while " +
                 describeRead(read, *r.output->aliases) +
                 "; that read goes to a kernel launched before the write";
    }
    return std::nullopt;
  }

  const Scheduler *accepting(const Segment &segment) const {
    return inPlaceConflict(segment) ? nullptr : firstAccepting(segment, options_.schedulers);
  }

  std::vector<Rejection> rejectionsOf(const Segment &segment) const {
    if (auto conflict = inPlaceConflict(segment))
      return {{"in-place order", *conflict}};
    return rejections(segment, options_.schedulers);
  }

  bool scheduleSingleOps() {
    schedulerOf_.resize(fusion_.ops().size());
    bool ok = true;
    for (size_t g = 0; g < fusion_.ops().size(); ++g) {
      if (!graph_.alive(g)) // an index map or recomputed cast: computed where read
        continue;
      Segment single = graph_.segment(g);
      schedulerOf_[g] = accepting(single);
      if (schedulerOf_[g])
        continue;
      const Op &op = analysis_->op(g);
      std::string reasons;
      for (const Rejection &r : rejectionsOf(single))
        reasons += "; " + r.scheduler + ": " + r.reason;
      diag_.error(op.loc(), "no scheduler accepts " + analysis_->describe(op) +
                                " on its own, so '" + fusion_.name() + "' cannot be compiled" +
                                reasons);
      ok = false;
    }
    return ok;
  }

  // Queues the pairs of `group` with its neighbours that save something and
  // were not tried at their current versions; with `skipRejected`, also not
  // those a part of `group` was already rejected with (retried later).
  bool queuePairsOf(size_t group, bool onlyLaterIds, bool skipRejected) {
    bool queued = false;
    for (size_t other : graph_.neighbours(group)) {
      if (onlyLaterIds && other < group)
        continue;
      if (skipRejected && rejectedWith_[group].count(other))
        continue;
      auto tried = triedAt_.find(pairKey(group, other));
      if (tried != triedAt_.end() && tried->second == versionsOf(group, other))
        continue;
      double saving = graph_.saving(group, other);
      if (saving <= 0)
        continue;
      size_t f1 = graph_.firstOp(group), f2 = graph_.firstOp(other);
      queue_.push({saving, std::min(f1, f2), std::max(f1, f2), group, other, graph_.version(group),
                   graph_.version(other)});
      queued = true;
    }
    return queued;
  }

  static std::pair<size_t, size_t> pairKey(size_t a, size_t b) {
    return {std::min(a, b), std::max(a, b)};
  }
  std::pair<unsigned, unsigned> versionsOf(size_t a, size_t b) const {
    auto [x, y] = pairKey(a, b);
    return {graph_.version(x), graph_.version(y)};
  }

  // Greedy merging in rounds. Within a round, a group that grows does not
  // retry the partners a part of it was rejected with: growing rarely
  // changes a rejection, and retrying each one after every merge is
  // quadratic in wide fusions. A round ends when the queue is empty; the
  // next retries every neighbouring pair not tried as the groups are now.
  // The last round tries them all and merges nothing, so every boundary
  // that remains was tried and refused.
  void mergeGreedily() {
    rejectedWith_.resize(fusion_.ops().size());
    bool queued = false;
    for (size_t g : graph_.groups())
      queued |= queuePairsOf(g, /*onlyLaterIds=*/true, /*skipRejected=*/false);
    while (queued) {
      while (!queue_.empty()) {
        Candidate c = queue_.top();
        queue_.pop();
        if (!graph_.alive(c.a) || !graph_.alive(c.b) || graph_.version(c.a) != c.versionA ||
            graph_.version(c.b) != c.versionB)
          continue; // one side has changed since: its new pairs are queued
        triedAt_[pairKey(c.a, c.b)] = versionsOf(c.a, c.b);
        const Scheduler *s = accepting(graph_.mergedSegment(c.a, c.b));
        if (!s || graph_.cycleThrough(c.a, c.b)) {
          rejectedWith_[c.a].insert(c.b);
          rejectedWith_[c.b].insert(c.a);
          continue;
        }
        size_t merged = graph_.merge(c.a, c.b);
        size_t gone = merged == c.a ? c.b : c.a;
        for (size_t x : rejectedWith_[gone]) {
          rejectedWith_[x].erase(gone);
          if (x != merged) {
            rejectedWith_[x].insert(merged);
            rejectedWith_[merged].insert(x);
          }
        }
        rejectedWith_[gone].clear();
        rejectedWith_[merged].erase(gone);
        schedulerOf_[merged] = s;
        queuePairsOf(merged, /*onlyLaterIds=*/false, /*skipRejected=*/true);
      }
      queued = false;
      for (size_t g : graph_.groups())
        queued |= queuePairsOf(g, /*onlyLaterIds=*/true, /*skipRejected=*/false);
    }
  }

  // Numbers the groups in launch order and fills in the result. Of the
  // groups ready together, reductions launch first, then by first op: a
  // reduction writes little, while a pointwise segment leaves its outputs'
  // dirty lines in L2, written back during whatever runs next; launched
  // last, that write-back overlaps the caller's next work rather than the
  // reduction's reads (measured in bench/README.md; torch.compile orders
  // the same).
  // An in-place output's segment overwrites its input, so every other
  // segment reading that input launches before it: an edge reader -> writer.
  std::map<size_t, std::set<size_t>> inPlaceOrder() const {
    std::map<size_t, std::set<size_t>> after;
    for (const FusionOutput &out : fusion_.outputs()) {
      if (out.kind != OutputKind::InPlace || !out.aliases || !out.value->definingOp())
        continue;
      const size_t writer = graph_.groupOfOp(analysis_->position(*out.value->definingOp()));
      for (const Op *user : analysis_->users(*out.aliases))
        if (size_t reader = graph_.groupOfOp(analysis_->position(*user)); reader != writer)
          after[reader].insert(writer);
    }
    return after;
  }

  bool describeResult() {
    std::vector<size_t> live = graph_.groups();
    std::map<size_t, std::set<size_t>> after = inPlaceOrder();
    auto successors = [&](size_t g) {
      std::set<size_t> next(after[g].begin(), after[g].end());
      for (size_t s : graph_.successors(g))
        next.insert(s);
      return next;
    };
    std::map<size_t, size_t> indegree;
    for (size_t g : live)
      indegree[g];
    for (size_t g : live)
      for (size_t s : successors(g))
        ++indegree[s];
    auto reduces = [&](size_t g) {
      return schedulerOf_[g] && schedulerOf_[g]->name() == std::string_view("reduction");
    };
    auto launchesLater = [&](size_t x, size_t y) {
      if (reduces(x) != reduces(y))
        return reduces(y);
      return graph_.firstOp(x) > graph_.firstOp(y);
    };
    std::priority_queue<size_t, std::vector<size_t>, decltype(launchesLater)> ready(launchesLater);
    for (size_t g : live)
      if (indegree[g] == 0)
        ready.push(g);
    while (!ready.empty()) {
      size_t g = ready.top();
      ready.pop();
      segmentOfGroup_[g] = result_.segments.size();
      result_.segments.push_back(
          {result_.segments.size(), graph_.segment(g), schedulerOf_[g], nullptr});
      for (size_t s : successors(g))
        if (--indegree[s] == 0)
          ready.push(s);
    }
    if (result_.segments.size() != live.size())
      return inPlaceCannotBeOrdered();
    for (size_t p = 0; p < fusion_.ops().size(); ++p)
      result_.segmentOfOp[p] = analysis_->isRecomputed(analysis_->op(p))
                                   ? kNoSegment
                                   : segmentOfGroup_.at(graph_.groupOfOp(p));
    describeInPlaceOrders();
    describeCrossingTensors();
    describeBoundaries();
    return true;
  }

  // A segment reads an input after the segment updating it in place must
  // have run (it needs that segment's results). The error names such a
  // read: one whose kernel depends on the kernel writing the input.
  bool inPlaceCannotBeOrdered() {
    for (const FusionOutput &out : fusion_.outputs()) {
      if (out.kind != OutputKind::InPlace || !out.aliases)
        continue;
      std::string read;
      if (const Op *writerOp = out.value->definingOp()) {
        const size_t writer = graph_.groupOfOp(analysis_->position(*writerOp));
        std::set<size_t> later;
        std::vector<size_t> pending{writer};
        while (!pending.empty()) {
          const size_t g = pending.back();
          pending.pop_back();
          for (size_t next : graph_.successors(g))
            if (later.insert(next).second)
              pending.push_back(next);
        }
        for (const Op *user : analysis_->users(*out.aliases)) {
          const size_t reader = graph_.groupOfOp(analysis_->position(*user));
          if (reader == writer || !later.count(reader))
            continue;
          std::string op = analysis_->describe(*user);
          if (unsigned line = diag_.lineNumber(user->loc()))
            op.insert(op.size() - 1, ", line " + std::to_string(line));
          read = ": " + op + " reads '" + out.aliases->name() + "' in a kernel that needs '" +
                 out.name + "' first";
          break;
        }
      }
      diag_.error(out.aliasesLoc.isValid() ? out.aliasesLoc : out.loc,
                  "cannot update '" + out.aliases->name() + "' in place with '" + out.name +
                      "': the kernels of '" + fusion_.name() +
                      "' cannot be ordered so that every read of '" + out.aliases->name() +
                      "' comes before the kernel writing it" + read);
    }
    return false;
  }

  void describeInPlaceOrders() {
    for (const InPlaceReads &r : inPlaceReads_) {
      const size_t writer = result_.segmentOfOp[analysis_->position(*r.writer)];
      std::string reads;
      for (const InPlaceRead &read : r.reads)
        reads += std::string(reads.empty() ? "" : "; ") + describeRead(read, *r.output->aliases) +
                 " in segment " +
                 std::to_string(result_.segmentOfOp[analysis_->position(*read.op)]);
      result_.inPlaceOrders.push_back(
          analysis_->quoted(*r.output->value) + " updates " +
          analysis_->quoted(*r.output->aliases) + " in place in segment " + std::to_string(writer) +
          ", after every other segment reading " + analysis_->quoted(*r.output->aliases) +
          "; the reads its kernel could not make first are "
          "elsewhere: " +
          reads);
    }
  }

  size_t segmentOfValue(const Value &v) const {
    return result_.segmentOfOp[analysis_->position(*analysis_->producer(v))];
  }

  void describeCrossingTensors() {
    result_.workspaceBytes = 0;
    for (const ScheduledSegment &seg : result_.segments) {
      for (const Value *v : seg.segment.outputs()) {
        std::set<size_t> consumers;
        for (const Op *user : analysis_->users(*v))
          if (result_.segmentOfOp[analysis_->position(*user)] != seg.id)
            consumers.insert(result_.segmentOfOp[analysis_->position(*user)]);
        if (consumers.empty())
          continue;
        using Kind = CrossingTensor::Kind;
        CrossingTensor t{v, seg.id, {}, Kind::Workspace, storageDType(*v), 0};
        t.consumers.assign(consumers.begin(), consumers.end());
        if (analysis_->isStoredOutput(*v) && t.storage == v->dtype())
          t.kind = Kind::Output;
        else if (analysis_->isFusionOutput(*v) && !analysis_->isStoredOutput(*v))
          t.kind = Kind::View;
        if (t.kind != Kind::Workspace)
          t.storage = v->dtype();
        t.bytes = numElements(v->shape()) * Extent(dtypeBytes(t.storage));
        if (t.kind == Kind::Workspace)
          result_.workspaceBytes = result_.workspaceBytes + t.bytes;
        result_.crossing.push_back(std::move(t));
      }
    }
    std::sort(result_.crossing.begin(), result_.crossing.end(),
              [](const CrossingTensor &x, const CrossingTensor &y) {
                return x.value->id() < y.value->id();
              });
  }

  void describeBoundaries() {
    std::map<std::pair<size_t, size_t>, SegmentBoundary> pairs;
    auto boundary = [&](size_t x, size_t y) -> SegmentBoundary & {
      SegmentBoundary &b = pairs[{std::min(x, y), std::max(x, y)}];
      b.first = std::min(x, y);
      b.second = std::max(x, y);
      return b;
    };
    std::map<const Value *, std::vector<size_t>, bool (*)(const Value *, const Value *)> readers(
        [](const Value *x, const Value *y) { return x->id() < y->id(); });
    for (const ScheduledSegment &seg : result_.segments)
      for (const Value *v : seg.segment.inputs()) {
        if (analysis_->producer(*v))
          boundary(segmentOfValue(*v), seg.id).passed.push_back(v);
        if (!v->isScalarInput())
          readers[v].push_back(seg.id);
      }
    // Segments reading one tensor: each with the next reader in launch
    // order (every pair of a weight's n readers would be n^2 boundaries,
    // each checked by every scheduler).
    for (const auto &[v, segs] : readers)
      for (size_t i = 0; i + 1 < segs.size(); ++i)
        boundary(segs[i], segs[i + 1]).shared.push_back(v);

    std::vector<size_t> groupOfSegment(result_.segments.size());
    for (const auto &[group, segment] : segmentOfGroup_)
      groupOfSegment[segment] = group;
    for (auto &[key, b] : pairs) {
      size_t ga = groupOfSegment[b.first], gb = groupOfSegment[b.second];
      if (std::optional<size_t> through = graph_.cycleThrough(ga, gb))
        b.cycleThrough = segmentOfGroup_.at(*through);
      else
        b.rejections = rejectionsOf(graph_.mergedSegment(ga, gb));
      result_.boundaries.push_back(std::move(b));
    }
  }

  const Fusion &fusion_;
  const SegmentationOptions &options_;
  DiagnosticEngine &diag_;
  std::shared_ptr<const FusionAnalysis> analysis_;
  SegmentGraph graph_;
  std::vector<const Scheduler *> schedulerOf_; // by group
  std::priority_queue<Candidate, std::vector<Candidate>, LaterCandidateFirst> queue_;
  std::map<std::pair<size_t, size_t>, std::pair<unsigned, unsigned>> triedAt_;
  std::vector<std::set<size_t>> rejectedWith_; // by group: groups it was refused with
  std::map<size_t, size_t> segmentOfGroup_;
  SegmentedFusion result_;
  std::vector<InPlaceReads> inPlaceReads_;
};

} // namespace

double countedElements(const std::vector<Extent> &shape, const SymbolBindings &shapes) {
  SymbolBindings bindings = shapes;
  for (const Extent &e : shape)
    for (const std::string &symbol : e.symbols())
      bindings.emplace(symbol, kDefaultExtent);
  double elements = 1;
  for (const Extent &e : shape)
    elements *= static_cast<double>(e.evaluate(bindings).value_or(kDefaultExtent));
  return elements;
}

std::optional<SegmentedFusion>
segmentFusion(const Fusion &fusion, const SegmentationOptions &options, DiagnosticEngine &diag) {
  return Segmenter(fusion, options, diag).run();
}

} // namespace fuserc
