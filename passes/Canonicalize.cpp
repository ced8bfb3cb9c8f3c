// The canonicalize pass's driver (see Canonicalize.h): rebuilds the fusion
// op by op into a new one through a rewriter that applies the rules of
// CanonicalizeRules.h to every op it builds and merges identical ops (CSE),
// then copies over only the ops the outputs need (DCE).
//
// Three things keep the rebuilt fusion equal to the original:
//   - a folded literal stands for a rank-0 op result, but literals are weak
//     in type promotion; where a consumer would type differently with the
//     literal, it gets the op back (materialize);
//   - output names are ABI: two outputs never merge into one value, an
//     output never becomes an input or a literal, and a value that an
//     output merges into takes the output's name;
//   - every rebuilt op has the type the original had (checked).
#include "passes/Canonicalize.h"

#include "ir/Inference.h"
#include "passes/CanonicalizeRules.h"

#include <set>
#include <stdexcept>
#include <unordered_map>

namespace fuserc {
namespace {

using namespace canonicalize_detail;

// Which values (by id) the outputs need, directly or through ops.
std::vector<bool> liveValues(const Fusion &fusion) {
  std::vector<bool> live(fusion.values().size(), false);
  for (const FusionOutput &output : fusion.outputs()) {
    live[output.value->id()] = true;
    if (output.aliases)
      live[output.aliases->id()] = true;
  }
  for (auto it = fusion.ops().rbegin(); it != fusion.ops().rend(); ++it)
    if (live[(*it)->result()->id()])
      for (const Value *operand : (*it)->operands())
        live[operand->id()] = true;
  return live;
}

Value *copyInput(Fusion &into, const Value &input) {
  if (input.isScalarInput())
    return into.addScalarInput(input.name(), input.dtype(), input.loc());
  return into.addTensorInput(input.name(), input.dtype(), input.shape(), input.layout(),
                             input.isStrided(), input.loc());
}

// The outputs of `from`, with their values mapped into the new fusion.
template <typename Map> void copyOutputs(const Fusion &from, Fusion &into, Map map) {
  for (FusionOutput output : from.outputs()) {
    output.remapValues(map);
    into.addOutput(std::move(output));
  }
}

// DCE: a copy of `fusion` with every input but only the ops its outputs
// need, in their order.
std::unique_ptr<Fusion> copyLiveOps(const Fusion &fusion) {
  auto out = std::make_unique<Fusion>(fusion.name(), fusion.loc());
  const std::vector<bool> live = liveValues(fusion);
  std::vector<Value *> map(fusion.values().size(), nullptr);
  auto mapped = [&](const Value *v) {
    Value *&slot = map[v->id()];
    if (!slot && v->isLiteral())
      slot = out->addLiteral(v->literal(), v->loc());
    return slot;
  };
  for (const Value *input : fusion.inputs())
    map[input->id()] = copyInput(*out, *input);
  for (const auto &op : fusion.ops()) {
    const Value *result = op->result();
    if (!live[result->id()])
      continue;
    std::vector<Value *> operands;
    for (const Value *operand : op->operands())
      operands.push_back(mapped(operand));
    map[result->id()] = out->addOp(op->kind(), std::move(operands), op->attrs(),
                                   {result->dtype(), result->shape()}, result->name(), op->loc())
                            ->result();
  }
  copyOutputs(fusion, *out, mapped);
  return out;
}

// The promotion of the operands that decides an op's computation type.
std::vector<DType> operandTyping(const Op &op, std::span<Value *const> operands) {
  std::vector<DType> typing = {promoteOperandTypes(operands)};
  if (op.info().dtypeRule == DTypeRule::Where)
    typing.push_back(promoteOperandTypes(operands.subspan(1)));
  return typing;
}

// The rewriter every op is built through: applies the cast and folding
// rules, then reuses an identical op when there is one (CSE).
// size(x, dim=d) as extent(value=<x's extent d>): x is no longer read.
Attributes sizeAsExtent(const Op &size) {
  Attributes attrs;
  attrs.set("value", size.operand(0)->shape().at(static_cast<size_t>(size.attrs().integer("dim"))));
  attrs.set("dtype", size.attrs().dtype("dtype"));
  return attrs;
}

class CanonicalRewriter : public FusionRewriter {
public:
  using FusionRewriter::FusionRewriter;

  Value *create(OpKind kind, std::vector<Value *> operands, Attributes attrs) override {
    std::string error;
    std::optional<TensorType> type = infer(kind, operands, attrs, &error);
    if (!type)
      throw std::logic_error("canonicalize built an op that does not type-check: " + error);
    if (kind == OpKind::Cast)
      if (Value *simpler = simplifyCast(*this, operands[0], attrs.dtype("dtype")))
        return simpler;
    if (std::optional<Number> folded = foldToLiteral(kind, operands, attrs, *type))
      return literal(*folded);
    std::string key = cseKey(kind, operands, attrs);
    if (auto it = existing_.find(key); it != existing_.end())
      return it->second;
    Value *v = append(kind, std::move(operands), std::move(attrs), std::move(*type));
    existing_.emplace(std::move(key), v);
    return v;
  }

  // A new op of its own, whatever equal ones exist.
  Value *createDistinct(OpKind kind, std::vector<Value *> operands, const Attributes &attrs) {
    std::string error;
    if (Value *v = tryAdd(kind, std::move(operands), attrs, &error))
      return v;
    throw std::logic_error("canonicalize rebuilt an op that does not type-check: " + error);
  }

private:
  std::unordered_map<std::string, Value *> existing_;
};

class Canonicalizer {
public:
  Canonicalizer(const Fusion &source, Fusion &target)
      : source_(source), target_(target), rewriter_(target), map_(source.values().size(), nullptr) {
    for (const FusionOutput &output : source.outputs())
      outputValues_.insert(output.value);
    findSinkPaths();
  }

  void run() {
    for (const Value *input : source_.inputs())
      map_[input->id()] = copyInput(target_, *input);
    const std::vector<bool> live = liveValues(source_);
    for (const auto &op : source_.ops())
      if (live[op->result()->id()])
        rebuild(*op);
    copyOutputs(source_, target_, [&](const Value *v) { return mapped(v); });
  }

private:
  Value *mapped(const Value *v) {
    if (v->isLiteral())
      return rewriter_.literal(v->literal());
    return map_.at(v->id());
  }

  void rebuild(const Op &op) {
    rewriter_.setLoc(op.loc());
    const std::vector<Value *> operands = operandsFor(op);
    Value *v = build(op, operands);
    const Value *old = op.result();
    if (outputValues_.count(old)) {
      // Output names are ABI: an output gets a value of its own.
      if (v->isInput() || v->isLiteral() || claimed_.count(v))
        v = distinctCopy(op, operands, v);
      claimed_.insert(v);
      if (!old->name().empty())
        target_.setName(v, old->name());
    } else if (v->definingOp() && v->name().empty() && !old->name().empty()) {
      target_.setName(v, old->name());
    }
    checkType(op, *v);
    map_[old->id()] = v;
  }

  // Which values flow into an output (a new buffer no op reads) through
  // elementwise ops alone, each the one reader of the value before it:
  // reshapes sink along these paths (ReshapeSinking.cpp), to be stored
  // through the output's view.
  void findSinkPaths() {
    sinkPath_.assign(source_.values().size(), 0);
    std::vector<std::vector<const Op *>> users(source_.values().size());
    for (const auto &op : source_.ops())
      for (const Value *operand : op->operands())
        if (users[operand->id()].empty() || users[operand->id()].back() != op.get())
          users[operand->id()].push_back(op.get());
    std::map<const Value *, int> outputs;
    for (const FusionOutput &output : source_.outputs())
      outputs[output.value] += output.aliases ? 2 : 1;
    for (auto it = source_.ops().rbegin(); it != source_.ops().rend(); ++it) {
      const Value &v = *(*it)->result();
      const auto &readers = users[v.id()];
      const auto out = outputs.find(&v);
      if (out != outputs.end())
        sinkPath_[v.id()] = out->second == 1 && readers.empty();
      else if (readers.size() == 1 && readers.front()->info().shapeRule == ShapeRule::Elementwise)
        sinkPath_[v.id()] = sinkPath_[readers.front()->result()->id()];
    }
  }

  Value *build(const Op &op, const std::vector<Value *> &operands) {
    const DType dtype = op.result()->dtype();
    if (op.info().shapeRule == ShapeRule::Elementwise && sinkPath_[op.result()->id()])
      if (Value *v =
              sinkReshape(rewriter_, op.kind(), operands, op.attrs(), op.result()->shape(), dtype))
        return v;
    if (op.info().composite)
      return decomposeComposite(rewriter_, op.kind(), operands, op.attrs(), dtype);
    if (op.kind() == OpKind::Scatter)
      if (Value *v = rewriteScatter(rewriter_, operands, op.attrs(), dtype))
        return v;
    if (op.kind() == OpKind::IndexSelect)
      if (Value *v = rewriteIndexSelect(rewriter_, operands, op.attrs()))
        return v;
    if (op.kind() == OpKind::Size)
      return rewriter_.create(OpKind::Extent, {}, sizeAsExtent(op));
    return rewriter_.create(op.kind(), operands, op.attrs());
  }

  // `v` (what `op` was rebuilt as) as a new value no other output has: the
  // op itself, or for a rewritten op a copy of the op that produced `v`.
  Value *distinctCopy(const Op &op, const std::vector<Value *> &operands, const Value *v) {
    const bool rewritten = op.info().composite || op.kind() == OpKind::Scatter ||
                           op.kind() == OpKind::IndexSelect || op.kind() == OpKind::Size;
    if (rewritten && v->definingOp()) {
      const Op &def = *v->definingOp();
      return rewriter_.createDistinct(def.kind(), def.operands(), def.attrs());
    }
    return rewriter_.createDistinct(op.kind(), operands, op.attrs());
  }

  // The rebuilt operands of `op`. A folded literal replaces a rank-0 op
  // result; where that changes how `op` types, the op result comes back.
  std::vector<Value *> operandsFor(const Op &op) {
    std::vector<Value *> operands;
    bool folded = false;
    for (const Value *old : op.operands()) {
      operands.push_back(mapped(old));
      folded = folded || (!old->isLiteral() && operands.back()->isLiteral());
    }
    if (folded && !typesAlike(op, operands))
      for (size_t i = 0; i < operands.size(); ++i)
        if (!op.operand(i)->isLiteral() && operands[i]->isLiteral())
          operands[i] = materialize(*op.operand(i));
    return operands;
  }

  bool typesAlike(const Op &op, const std::vector<Value *> &operands) {
    Attributes attrs = op.attrs();
    InferenceResult inferred = inferResultType(op.kind(), operands, attrs);
    const auto *type = std::get_if<TensorType>(&inferred);
    return type && type->dtype == op.result()->dtype() && type->shape == op.result()->shape() &&
           operandTyping(op, operands) == operandTyping(op, op.operands());
  }

  // The op result `old` was folded away from, as an op again.
  Value *materialize(const Value &old) {
    Value *&slot = materialized_[&old];
    if (!slot) {
      const Op &op = *old.definingOp();
      slot = rewriter_.createDistinct(op.kind(), operandsFor(op), op.attrs());
      if (!old.name().empty() && !target_.findValue(old.name()))
        target_.setName(slot, old.name());
      checkType(op, *slot);
    }
    return slot;
  }

  static void checkType(const Op &op, const Value &v) {
    const Value &old = *op.result();
    if (v.dtype() != old.dtype() || v.shape() != old.shape())
      throw std::logic_error("canonicalize rebuilt '" + std::string(op.info().name) + "' as " +
                             std::string(dtypeName(v.dtype())) + shapeString(v.shape()) + ", not " +
                             std::string(dtypeName(old.dtype())) + shapeString(old.shape()));
  }

  const Fusion &source_;
  Fusion &target_;
  CanonicalRewriter rewriter_;
  std::vector<Value *> map_; // source value id -> rebuilt value
  std::set<const Value *> outputValues_;
  std::set<const Value *> claimed_; // rebuilt values some output already uses
  std::map<const Value *, Value *> materialized_;
  std::vector<char> sinkPath_; // by source value id (findSinkPaths)
};

} // namespace

std::unique_ptr<Fusion> canonicalize(const Fusion &fusion) {
  Fusion rebuilt(fusion.name(), fusion.loc());
  Canonicalizer(fusion, rebuilt).run();
  // Once more: ops that decompositions built (the squeeze ending a
  // keepdim=false logsumexp) met no rule that looks at their users, such as
  // reshape sinking. The second rebuild builds each op through the rules.
  std::unique_ptr<Fusion> once = copyLiveOps(rebuilt);
  Fusion again(fusion.name(), fusion.loc());
  Canonicalizer(*once, again).run();
  return copyLiveOps(again);
}

} // namespace fuserc
