// Recomputation (see Recomputation.h): the plan of which crossing values
// each consumer segment computes again, the rebuilt fusion holding those
// copies, and the choice between the two segmentations.
#include "passes/Recomputation.h"

#include "schedulers/FusionAnalysis.h"
#include "schedulers/OpFamilies.h"
#include "schedulers/SegmentedFusion.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace fuserc {
namespace {

double bytesOf(const Value &v, DType storage, const SymbolBindings &shapes) {
  return countedElements(v.shape(), shapes) * static_cast<double>(dtypeBytes(storage));
}

// The tensor a kernel loads to read `v` when no segment computes it: the
// input or index map under its recomputed casts.
const Value &memoryRead(const FusionAnalysis &a, const Value &v) {
  const Value *at = &v;
  while (a.isRecomputedCast(*at))
    at = at->definingOp()->operand(0);
  return *at;
}

// Global-memory bytes every kernel of `sf` reads and writes, as the
// segmenter's traffic model counts them, with each tensor in the dtype it
// is stored in.
double traffic(const SegmentedFusion &sf, const SymbolBindings &shapes) {
  const FusionAnalysis &a = *sf.analysis;
  double bytes = 0;
  for (const ScheduledSegment &s : sf.segments) {
    for (const Value *v : s.segment.inputs()) {
      if (v->isScalarInput())
        continue;
      const CrossingTensor *t = a.producer(*v) ? sf.crossingOf(*v) : nullptr;
      bytes += t ? bytesOf(*v, t->storage, shapes) : bytesOf(*v, memoryRead(a, *v).dtype(), shapes);
    }
    for (const Value *v : s.segment.writtenOutputs()) {
      for (const FusionOutput *o : a.outputsOf(*v))
        if (o->kind != OutputKind::View)
          bytes += bytesOf(*v, v->dtype(), shapes);
      if (const CrossingTensor *t = sf.crossingOf(*v);
          t && t->kind == CrossingTensor::Kind::Workspace)
        bytes += bytesOf(*v, t->storage, shapes);
    }
  }
  return bytes;
}

// A crossing value to compute again in each of its consumer segments.
struct Plan {
  const Value *root;
  std::vector<size_t> consumers; // segment ids
  std::set<size_t> ops;          // positions of the ops computing it
  std::vector<const Value *> reads;
  std::string replaced; // what the copies save, for the dump
};

class Planner {
public:
  Planner(const SegmentedFusion &sf, const SymbolBindings &shapes)
      : sf_(sf), a_(*sf.analysis), shapes_(shapes) {
    for (const FusionOutput &o : a_.fusion().outputs())
      if (o.aliases)
        updated_.insert(o.aliases);
  }

  std::vector<Plan> run() {
    std::vector<Plan> plans;
    for (const CrossingTensor &t : sf_.crossing)
      if (std::optional<Plan> p = plan(t))
        plans.push_back(std::move(*p));
    return plans;
  }

private:
  std::optional<Plan> plan(const CrossingTensor &t) {
    if (t.kind == CrossingTensor::Kind::View)
      return std::nullopt;
    for (size_t c : t.consumers)
      if (sf_.segments[c].scheduler->name() == std::string_view("alias"))
        return std::nullopt;
    Plan p{t.value, t.consumers, {}, {}, {}};
    if (!walk(*t.value, p))
      return std::nullopt;
    const double stored = bytesOf(*t.value, t.storage, shapes_);
    double storing = stored * static_cast<double>(t.consumers.size());
    if (t.kind == CrossingTensor::Kind::Workspace)
      storing += stored;
    double recomputing = 0;
    for (size_t c : t.consumers)
      for (const Value *r : p.reads)
        if (!readsAlready(c, *r))
          recomputing += bytesOf(*r, r->dtype(), shapes_);
    if (!(recomputing < storing))
      return std::nullopt;
    p.replaced = t.kind == CrossingTensor::Kind::Workspace ? "passed through the workspace"
                                                           : "read back from the output";
    return p;
  }

  // Adds the ops computing `v` to `p`, and the tensors they load; false
  // when some op is not elementwise, or there are too many.
  bool walk(const Value &v, Plan &p) {
    if (v.isLiteral() || v.isScalarInput())
      return true;
    if (v.isInput() || a_.indexMap(v) || a_.isRecomputedCast(v)) {
      const Value &r = memoryRead(a_, v);
      const Value *base = r.isInput() ? &r : a_.indexMap(r)->base;
      if (updated_.count(base))
        return false;
      if (std::find(p.reads.begin(), p.reads.end(), &r) == p.reads.end())
        p.reads.push_back(&r);
      return true;
    }
    const Op *op = v.definingOp();
    const ShapeRule rule = op->info().shapeRule;
    if (!isElementwise(*op) && rule != ShapeRule::Expand && rule != ShapeRule::BroadcastInDim)
      return false;
    if (!p.ops.insert(a_.position(*op)).second)
      return true;
    if (p.ops.size() > kMaxRecomputedOps)
      return false;
    for (const Value *operand : op->operands())
      if (!walk(*operand, p))
        return false;
    return true;
  }

  bool readsAlready(size_t segment, const Value &r) const {
    for (const Value *v : sf_.segments[segment].segment.inputs())
      if (!a_.producer(*v) && &memoryRead(a_, *v) == &r)
        return true;
    return false;
  }

  const SegmentedFusion &sf_;
  const FusionAnalysis &a_;
  const SymbolBindings &shapes_;
  std::set<const Value *> updated_;
};

// A copy of the source fusion in which each planned consumer segment reads
// its own copy of the planned values. Ops are nodes (position, copy): copy
// 0 is the original, copy c + 1 the one segment c computes; only nodes the
// outputs need are built.
class Rebuilder {
public:
  Rebuilder(const SegmentedFusion &sf, const std::vector<Plan> &plans)
      : sf_(sf), a_(*sf.analysis), source_(a_.fusion()) {
    for (const Plan &p : plans)
      for (size_t c : p.consumers) {
        copied_[c].insert(p.ops.begin(), p.ops.end());
        roots_[{a_.position(*p.root->definingOp()), c + 1}] = &p;
      }
  }

  struct Copy {
    const Plan *plan;
    const Value *value; // in the new fusion
  };

  std::unique_ptr<Fusion> run(std::vector<Copy> &copies) {
    auto target = std::make_unique<Fusion>(source_.name(), source_.loc());
    findLive();
    map_.assign(source_.values().size(), nullptr);
    for (const Value *input : source_.inputs())
      map_[input->id()] =
          input->isScalarInput()
              ? target->addScalarInput(input->name(), input->dtype(), input->loc())
              : target->addTensorInput(input->name(), input->dtype(), input->shape(),
                                       input->layout(), input->isStrided(), input->loc());
    // Copies are named after their value with `_rc`, unique among the
    // names the new fusion keeps; a value that is a copy already (a dump
    // read back) gives its copies the same names again.
    std::set<std::string> names;
    for (const Value *input : source_.inputs())
      names.insert(input->name());
    for (const Node &node : live_)
      if (node.second == 0 && !a_.op(node.first).result()->name().empty())
        names.insert(a_.op(node.first).result()->name());
    for (const Node &node : live_) {
      const Op &op = a_.op(node.first);
      std::vector<Value *> operands;
      for (const Value *w : op.operands())
        operands.push_back(mapped(*target, *w, node));
      const Value &old = *op.result();
      std::string name = node.second == 0 ? old.name() : "";
      auto root = roots_.find(node);
      if (root != roots_.end())
        name = uniqueName(copyBase(a_.name(old)) + "_rc", names);
      Value *v = target
                     ->addOp(op.kind(), std::move(operands), op.attrs(), {old.dtype(), old.shape()},
                             name, op.loc())
                     ->result();
      target->setLayout(v, old.layout(), old.layoutOrigin());
      built_[node] = v;
      if (node.second == 0)
        map_[old.id()] = v;
      if (root != roots_.end())
        copies.push_back({root->second, v});
    }
    for (FusionOutput output : source_.outputs()) {
      output.remapValues([&](const Value *v) { return map_.at(v->id()); });
      target->addOutput(std::move(output));
    }
    return target;
  }

private:
  using Node = std::pair<size_t, size_t>; // op position, copy

  // The node that node `reader` reads operand `w` from (w computed by an op).
  Node operandNode(const Value &w, Node reader) const {
    const size_t q = a_.position(*w.definingOp());
    size_t segment = reader.second == 0 ? sf_.segmentOfOp[reader.first] : reader.second - 1;
    if (segment != kNoSegment) {
      auto it = copied_.find(segment);
      if (it != copied_.end() && it->second.count(q))
        return {q, segment + 1};
    }
    return {q, 0};
  }

  void findLive() {
    std::vector<Node> pending;
    auto need = [&](const Value *v) {
      if (v->definingOp() && live_.insert(Node{a_.position(*v->definingOp()), 0}).second)
        pending.push_back({a_.position(*v->definingOp()), 0});
    };
    for (const FusionOutput &o : source_.outputs()) {
      need(o.value);
      if (o.aliases)
        need(o.aliases);
    }
    while (!pending.empty()) {
      const Node node = pending.back();
      pending.pop_back();
      for (const Value *w : a_.op(node.first).operands()) {
        if (!w->definingOp())
          continue;
        const Node from = operandNode(*w, node);
        if (live_.insert(from).second)
          pending.push_back(from);
      }
    }
  }

  Value *mapped(Fusion &target, const Value &w, Node reader) {
    if (w.isLiteral()) {
      auto it = literals_.find(w.id());
      if (it == literals_.end())
        it = literals_.emplace(w.id(), target.addLiteral(w.literal(), w.loc())).first;
      return it->second;
    }
    if (!w.definingOp())
      return map_.at(w.id());
    return built_.at(operandNode(w, reader));
  }

  // `name` without a copy's suffix (`_rc`, `_rc2`, ...).
  static std::string copyBase(const std::string &name) {
    size_t end = name.size();
    while (end > 0 && std::isdigit(static_cast<unsigned char>(name[end - 1])))
      --end;
    return end >= 3 && name.compare(end - 3, 3, "_rc") == 0 ? name.substr(0, end - 3) : name;
  }

  static std::string uniqueName(const std::string &base, std::set<std::string> &names) {
    std::string name = base;
    for (int k = 2; names.count(name); ++k)
      name = base + std::to_string(k);
    names.insert(name);
    return name;
  }

  const SegmentedFusion &sf_;
  const FusionAnalysis &a_;
  const Fusion &source_;
  std::map<size_t, std::set<size_t>> copied_; // segment -> op positions it copies
  std::map<Node, const Plan *> roots_;
  std::set<Node> live_; // ordered: positions ascending, the original first
  std::map<Node, Value *> built_;
  std::map<size_t, Value *> literals_;
  std::vector<Value *> map_; // source value id -> its original in the new fusion
};

std::string nameList(const FusionAnalysis &a, const std::vector<const Value *> &values) {
  std::string s;
  for (const Value *v : values)
    s += (s.empty() ? "" : ", ") + a.name(*v);
  return s.empty() ? "literals" : s;
}

} // namespace

std::optional<SegmentedFusion> segmentRecomputing(std::unique_ptr<Fusion> &fusion,
                                                  const SegmentationOptions &options,
                                                  DiagnosticEngine &diag) {
  std::optional<SegmentedFusion> best = segmentFusion(*fusion, options, diag);
  if (!best)
    return best;
  // What each kept copy recomputes, by the copy's name: a later round
  // renumbers segments, so each copy's segment is looked up at the end.
  std::vector<std::pair<std::string, std::string>> copied;
  for (int round = 0; round < kMaxRecomputeRounds; ++round) {
    std::vector<Plan> plans = Planner(*best, options.shapes).run();
    if (plans.empty())
      break;
    std::vector<Rebuilder::Copy> copies;
    std::unique_ptr<Fusion> rebuilt = Rebuilder(*best, plans).run(copies);
    // The rebuilt fusion holds ops that were each accepted already; should
    // its segmentation fail, the one that worked stays.
    std::string ignored;
    llvm::raw_string_ostream sink(ignored);
    DiagnosticEngine quiet(sink);
    std::optional<SegmentedFusion> next = segmentFusion(*rebuilt, options, quiet);
    if (!next || next->segments.size() > best->segments.size() ||
        !(traffic(*next, options.shapes) < traffic(*best, options.shapes)))
      break;
    const FusionAnalysis &old = *best->analysis;
    for (const Rebuilder::Copy &c : copies) {
      const size_t n = c.plan->ops.size();
      copied.emplace_back(c.value->name(), "is computed there from " +
                                               nameList(old, c.plan->reads) + " (" +
                                               std::to_string(n) + (n == 1 ? " op" : " ops") +
                                               ") instead of " + c.plan->replaced);
    }
    best = std::move(next);
    fusion = std::move(rebuilt);
  }
  for (const auto &[name, what] : copied) {
    const Value *v = fusion->findValue(name);
    if (!v || !v->definingOp())
      continue;
    const size_t segment = best->segmentOfOp[best->analysis->position(*v->definingOp())];
    if (segment != kNoSegment)
      best->recomputations.push_back("'" + name + "' in segment " + std::to_string(segment) + " " +
                                     what);
  }
  return best;
}

} // namespace fuserc
