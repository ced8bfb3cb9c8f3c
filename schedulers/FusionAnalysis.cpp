// Per-fusion facts for segmentation and scheduling (see FusionAnalysis.h).
#include "schedulers/FusionAnalysis.h"

#include "schedulers/OpFamilies.h"

namespace fuserc {

FusionAnalysis::FusionAnalysis(const Fusion &fusion)
    : fusion_(fusion), names_(fusion), dims_(fusion) {
  const size_t numValues = fusion.values().size();
  opPosition_.assign(numValues, 0);
  users_.resize(numValues);
  outputs_.resize(numValues);
  for (size_t i = 0; i < fusion.ops().size(); ++i) {
    const Op *op = fusion.ops()[i].get();
    opPosition_[op->result()->id()] = i;
    for (const Value *operand : op->operands()) {
      // An op reading a value twice (mul(x, x)) is one user: its pushes for
      // one value are consecutive.
      std::vector<const Op *> &users = users_[operand->id()];
      if (users.empty() || users.back() != op)
        users.push_back(op);
    }
  }
  for (const FusionOutput &output : fusion.outputs())
    outputs_[output.value->id()].push_back(&output);
  findRecomputedValues();
  findOutputViews();
}

void FusionAnalysis::findRecomputedValues() {
  indexMaps_.resize(fusion_.values().size());
  recomputedCasts_.assign(fusion_.values().size(), 0);
  std::vector<char> updated(fusion_.values().size(), 0);
  for (const FusionOutput &output : fusion_.outputs())
    if (output.aliases)
      updated[output.aliases->id()] = 1;
  for (const auto &op : fusion_.ops()) {
    const ShapeRule rule = op->info().shapeRule;
    const bool cast = op->kind() == OpKind::Cast;
    if (isFusionOutput(*op->result()) || !(cast || (isViewOp(*op) && rule != ShapeRule::Expand &&
                                                    rule != ShapeRule::BroadcastInDim)))
      continue;
    const Value &x = *op->operand(0);
    if (cast) {
      recomputedCasts_[op->result()->id()] =
          (x.isInput() && !x.isScalarInput() && !updated[x.id()]) || indexMaps_[x.id()] ||
          recomputedCasts_[x.id()];
      continue;
    }
    std::optional<IndexMap> from;
    if (x.isInput() && !x.isScalarInput() && !updated[x.id()])
      from = IndexMap{&x, inputView(x)};
    else if (indexMaps_[x.id()])
      from = indexMaps_[x.id()];
    if (!from)
      continue;
    ViewStep step = viewThroughOp(*op, from->view);
    if (step.view)
      indexMaps_[op->result()->id()] = IndexMap{from->base, std::move(*step.view)};
  }
}

void FusionAnalysis::findOutputViews() {
  outputViews_.resize(fusion_.values().size());
  outputViewOps_.assign(fusion_.values().size(), 0);
  for (const FusionOutput &output : fusion_.outputs()) {
    const Value *y = output.value;
    if (output.kind != OutputKind::NewBuffer || outputsOf(*y).size() != 1 || !users(*y).empty() ||
        !y->definingOp() || !isReshapeLike(*y->definingOp()) || isRecomputed(*y->definingOp()) ||
        !isPermutation(output.layout, y->rank()))
      continue;
    // Walk down the chain of reshapes, each value read once, to the first
    // value another op computes.
    std::vector<const Value *> chain{y};
    const Value *v = y->definingOp()->operand(0);
    while (v->definingOp() && isReshapeLike(*v->definingOp()) && users(*v).size() == 1 &&
           !isFusionOutput(*v) && !isRecomputed(*v->definingOp())) {
      chain.push_back(v);
      v = v->definingOp()->operand(0);
    }
    if (!v->definingOp() || isRecomputed(*v->definingOp()) || users(*v).size() != 1 ||
        isFusionOutput(*v) || outputViews_[v->id()])
      continue;
    StridedView view{0, y->shape(), denseStrides(y->shape(), output.layout), output.layout};
    bool expressible = true;
    for (const Value *link : chain) {
      ViewStep step = reshapeView(view, link->definingOp()->operand(0)->shape());
      if (!step.view) {
        expressible = false;
        break;
      }
      view = std::move(*step.view);
    }
    if (!expressible)
      continue;
    outputViews_[v->id()] = OutputView{&output, std::move(view)};
    for (const Value *link : chain)
      outputViewOps_[link->id()] = 1;
    users_[v->id()].clear();
  }
}

const OutputView *FusionAnalysis::outputView(const Value &value) const {
  const auto &view = outputViews_[value.id()];
  return view ? &*view : nullptr;
}

const Value &FusionAnalysis::storedBeneath(const Value &value) const {
  const Value *v = &value;
  while (isOutputViewOfStored(*v))
    v = v->definingOp()->operand(0);
  return *v;
}

const IndexMap *FusionAnalysis::indexMap(const Value &value) const {
  const auto &map = indexMaps_[value.id()];
  return map ? &*map : nullptr;
}

bool FusionAnalysis::isDense(const Value &value) const {
  if (value.isInput())
    return !value.isStrided();
  const IndexMap *map = indexMap(value);
  if (!map)
    return true;
  if (map->base->isStrided())
    return false;
  const std::vector<Extent> dense = denseStrides(value.shape(), map->view.order);
  for (size_t d = 0; d < value.rank(); ++d)
    if (!value.shape()[d].isConstant(1) && !(map->view.strides[d] == dense[d]))
      return false;
  return true;
}

bool FusionAnalysis::isStoredOutput(const Value &value) const {
  if (outputView(value))
    return true;
  for (const FusionOutput *o : outputs_[value.id()])
    if (o->kind != OutputKind::View)
      return true;
  return false;
}

Layout FusionAnalysis::storedLayout(const Value &value) const {
  if (const IndexMap *map = indexMap(value))
    return map->view.order;
  if (const OutputView *view = outputView(value))
    return view->view.order;
  const auto &outputs = outputs_[value.id()];
  if (!outputs.empty() && isPermutation(outputs.front()->layout, value.rank()))
    return outputs.front()->layout;
  if (isPermutation(value.layout(), value.rank()))
    return value.layout();
  return rowMajorLayout(value.rank());
}

std::optional<InnermostDim> FusionAnalysis::innermostDim(const Value &value) const {
  if (value.isScalarInput() || value.isLiteral())
    return std::nullopt;
  const Layout layout = storedLayout(value);
  std::optional<InnermostDim> innermost;
  size_t loopDims = 0;
  for (auto it = layout.rbegin(); it != layout.rend(); ++it) {
    const size_t dim = static_cast<size_t>(*it);
    if (value.shape()[dim].isConstant(1))
      continue;
    if (!innermost)
      innermost = InnermostDim{dim, dims_.classOf(value, dim)};
    ++loopDims;
  }
  return loopDims >= 2 ? innermost : std::nullopt;
}

bool FusionAnalysis::variesAlong(const Value &value, size_t loopClass) const {
  for (size_t d = 0; d < value.rank(); ++d)
    if (!value.shape()[d].isConstant(1) && dims_.classOf(value, d) == loopClass)
      return true;
  return false;
}

std::string FusionAnalysis::describe(const Op &op) const {
  return quoted(*op.result()) + " (" + std::string(op.info().name) + ")";
}

} // namespace fuserc
