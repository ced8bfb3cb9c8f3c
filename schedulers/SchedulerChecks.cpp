// Acceptance checks shared by the built-in schedulers (see SchedulerChecks.h).
#include "schedulers/SchedulerChecks.h"

#include "schedulers/OpFamilies.h"
#include "schedulers/TwoPassScatter.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

namespace fuserc {

std::optional<std::string> findComposite(const Segment &segment) {
  for (const Op *op : segment.ops())
    if (isComposite(*op))
      return segment.analysis().describe(*op) +
             " is a composite op; canonicalization decomposes it before scheduling";
  return std::nullopt;
}

std::optional<std::string> findScan(const Segment &segment) {
  for (const Op *op : segment.ops())
    if (isScan(*op))
      return segment.analysis().describe(*op) + " is a scan";
  return std::nullopt;
}

std::optional<std::string> checkKernelTensors(const Segment &segment) {
  const size_t tensors = segment.inputs().size() + segment.writtenOutputs().size();
  if (tensors <= kMaxKernelTensors)
    return std::nullopt;
  return "it reads and writes " + std::to_string(tensors) + " tensors, more than the " +
         std::to_string(kMaxKernelTensors) + " one kernel's arguments can hold";
}

std::optional<std::string> findReduction(const Segment &segment) {
  for (const Op *op : segment.ops())
    if (isReduction(*op))
      return segment.analysis().describe(*op) + " is a reduction";
  return std::nullopt;
}

std::optional<std::string> findSmallReduction(const Segment &segment) {
  for (const Op *op : segment.ops())
    if (isSmallReduction(*op))
      return segment.analysis().describe(*op) +
             " is a small reduction, which pointwise kernels compute element by element";
  return std::nullopt;
}

std::optional<std::string> checkOneIterationSpace(const Segment &segment, std::string_view kernel) {
  const FusionAnalysis &a = segment.analysis();
  std::span<const Value *const> outputs = segment.writtenOutputs();
  for (const Value *out : outputs)
    if (out->shape() != outputs.front()->shape())
      return "outputs " + a.quoted(*outputs.front()) + " " + typeString(*outputs.front()) +
             " and " + a.quoted(*out) + " " + typeString(*out) + " have different shapes; " +
             std::string(kernel) + " writes one iteration space";
  return std::nullopt;
}

namespace {

// `value` followed down the segment's permutes and elementwise ops (to
// their first operand of the result's shape): the value reached, and for
// each dim of `value` the dim of that value it is.
std::pair<const Value *, std::vector<size_t>> permuteRoot(const Segment &segment,
                                                          const Value &value) {
  std::vector<size_t> dims(value.rank());
  std::iota(dims.begin(), dims.end(), size_t{0});
  const Value *v = &value;
  for (const Op *op = v->definingOp(); op && segment.contains(*op); op = v->definingOp()) {
    if (op->kind() == OpKind::Permute) {
      const std::vector<int64_t> &perm = op->attrs().axes("dims");
      for (size_t &d : dims)
        d = static_cast<size_t>(perm[d]);
      v = op->operand(0);
      continue;
    }
    if (!isElementwise(*op))
      break;
    auto same = std::find_if(op->operands().begin(), op->operands().end(), [&](const Value *x) {
      return !x->isLiteral() && x->shape() == v->shape();
    });
    if (same == op->operands().end())
      break;
    v = *same;
  }
  return {v, std::move(dims)};
}

} // namespace

std::optional<std::vector<size_t>> permutedDims(const Segment &segment, const Value &value,
                                                const Value &reference) {
  auto [valueRoot, valueDims] = permuteRoot(segment, value);
  auto [referenceRoot, referenceDims] = permuteRoot(segment, reference);
  if (valueRoot != referenceRoot)
    return std::nullopt;
  std::vector<size_t> referenceOfRoot(referenceDims.size());
  for (size_t d = 0; d < referenceDims.size(); ++d)
    referenceOfRoot[referenceDims[d]] = d;
  std::vector<size_t> dims;
  for (size_t d : valueDims)
    dims.push_back(referenceOfRoot[d]);
  return dims;
}

std::optional<std::string> checkOneSpaceUpToPermutes(const Segment &segment,
                                                     std::string_view kernel) {
  const FusionAnalysis &a = segment.analysis();
  std::span<const Value *const> outputs = segment.writtenOutputs();
  for (const Value *out : outputs)
    if (out->shape() != outputs.front()->shape() && !permutedDims(segment, *out, *outputs.front()))
      return "outputs " + a.quoted(*outputs.front()) + " " + typeString(*outputs.front()) +
             " and " + a.quoted(*out) + " " + typeString(*out) +
             " have different shapes, and neither permutes the other's values; " +
             std::string(kernel) + " writes one iteration space";
  return std::nullopt;
}

std::variant<ScanLanes, std::string> findScanLanes(const Segment &segment) {
  const FusionAnalysis &a = segment.analysis();
  ScanLanes lanes;
  for (const Op *op : segment.ops()) {
    if (!isScan(*op))
      continue;
    const auto dim = static_cast<size_t>(op->attrs().integer("dim"));
    if (lanes.scans.empty()) {
      lanes.domain = op->result()->shape();
      lanes.dim = dim;
    } else if (op->result()->shape() != lanes.domain || dim != lanes.dim) {
      const Op &first = *lanes.scans.front();
      return a.describe(first) + " scans dim " + std::to_string(lanes.dim) + " of " +
             shapeString(lanes.domain) + " and " + a.describe(*op) + " dim " + std::to_string(dim) +
             " of " + shapeString(op->result()->shape()) +
             "; a scan kernel carries one set of lanes";
    }
    lanes.scans.push_back(op);
  }
  if (lanes.scans.empty())
    return std::string("it has no scan");
  return lanes;
}

bool ReductionRows::isReducedShape(const std::vector<Extent> &shape) const {
  return squeezedShape(shape) == reduced;
}

bool ReductionRows::isDomainShape(const std::vector<Extent> &shape) const {
  return squeezedShape(shape) == squeezedDomain;
}

bool ReductionRows::isOverColumns(const Value &v) const {
  return std::find(overColumns.begin(), overColumns.end(), &v) != overColumns.end();
}

namespace {

// Rows made of the reductions of `segment` that reduce `axes` of `domain`,
// the others taken as column reductions; or why they cannot be, with
// `columnsMatch` set when every other reduction reduces the kept axes (the
// reads of their results are what failed).
std::variant<ReductionRows, std::string> rowsWithColumns(const Segment &segment,
                                                         const std::vector<Extent> &domain,
                                                         const std::vector<int64_t> &axes,
                                                         bool &columnsMatch) {
  columnsMatch = false;
  const FusionAnalysis &a = segment.analysis();
  ReductionRows rows;
  rows.domain = domain;
  rows.axes = axes;
  std::vector<int64_t> kept;
  for (size_t d = 0; d < domain.size(); ++d)
    if (std::find(axes.begin(), axes.end(), int64_t(d)) == axes.end() && !domain[d].isConstant(1))
      kept.push_back(static_cast<int64_t>(d));
  std::vector<Extent> columns;
  for (size_t d = 0; d < domain.size(); ++d)
    if (std::find(kept.begin(), kept.end(), int64_t(d)) == kept.end())
      columns.push_back(domain[d]);
  rows.columnShape = squeezedShape(columns);
  std::unordered_set<const Value *> overColumns;
  for (const Op *op : segment.ops()) {
    if (!isReduction(*op))
      continue;
    const bool sameDomain = op->operand(0)->shape() == domain;
    std::vector<int64_t> along;
    for (int64_t d : op->attrs().axes("axes"))
      if (sameDomain && !domain[static_cast<size_t>(d)].isConstant(1))
        along.push_back(d);
    if (!sameDomain || (op->attrs().axes("axes") != axes && along != kept))
      return a.quoted(*op->result()) + " reduces axes " + axesString(op->attrs().axes("axes")) +
             " of " + typeString(*op->operand(0)) + ", neither the rows' axes " + axesString(axes) +
             " of " + shapeString(domain) + " nor the others";
  }
  columnsMatch = true;
  for (const Op *op : segment.ops()) {
    const bool readsColumns =
        std::any_of(op->operands().begin(), op->operands().end(),
                    [&](const Value *v) { return overColumns.count(v) != 0; });
    if (isReduction(*op) && !readsColumns) {
      const Value &input = *op->operand(0);
      std::vector<int64_t> opAxes = op->attrs().axes("axes");
      if (input.shape() == domain && opAxes == axes) {
        rows.reductions.push_back(op);
        continue;
      }
      // Along the kept axes (and any static 1 dims) of the same domain,
      // checked above.
      rows.columns.push_back(op);
      overColumns.insert(op->result());
      rows.overColumns.push_back(op->result());
      continue;
    }
    if (!readsColumns)
      continue;
    if (isReduction(*op) || squeezedShape(op->result()->shape()) != rows.columnShape)
      return a.describe(*op) + " " + typeString(*op->result()) +
             " reads a column reduction's result but is not over the columns " +
             shapeString(rows.columnShape) + ": the columns are reduced only after every row";
    overColumns.insert(op->result());
    rows.overColumns.push_back(op->result());
  }
  if (rows.reductions.empty())
    return std::string("no reduction reduces the rows' axes");
  std::vector<Extent> reduced;
  for (size_t d = 0; d < domain.size(); ++d)
    if (std::find(axes.begin(), axes.end(), int64_t(d)) == axes.end())
      reduced.push_back(domain[d]);
  rows.reduced = squeezedShape(reduced);
  rows.squeezedDomain = squeezedShape(domain);
  return rows;
}

} // namespace

std::variant<ReductionRows, std::string> findNormalizationRows(const Segment &segment) {
  auto plain = findReductionRows(segment, "a persistent kernel normalizes one set of rows");
  if (std::holds_alternative<ReductionRows>(plain))
    return plain;
  // Each reduction's (domain, axes) in turn as the rows': the first that
  // leaves the others column reductions read only over the columns. Where
  // none does, the reason of the first whose other reductions reduce its
  // kept axes (their results are read over the rows), else why the
  // reductions disagree.
  std::string reason = std::get<std::string>(plain);
  bool matched = false;
  for (const Op *op : segment.ops()) {
    if (!isReduction(*op))
      continue;
    bool columnsMatch = false;
    auto found =
        rowsWithColumns(segment, op->operand(0)->shape(), op->attrs().axes("axes"), columnsMatch);
    if (std::holds_alternative<ReductionRows>(found))
      return found;
    if (columnsMatch && !matched) {
      reason = std::get<std::string>(found);
      matched = true;
    }
  }
  return reason;
}

std::variant<ReductionRows, std::string> findReductionRows(const Segment &segment,
                                                           std::string_view oneKernel) {
  const FusionAnalysis &a = segment.analysis();
  ReductionRows rows;
  for (const Op *op : segment.ops()) {
    if (!isReduction(*op))
      continue;
    const Value &input = *op->operand(0);
    const std::vector<int64_t> &axes = op->attrs().axes("axes");
    if (rows.reductions.empty()) {
      rows.domain = input.shape();
      rows.axes = axes;
    } else if (input.shape() != rows.domain || axes != rows.axes) {
      const Op &first = *rows.reductions.front();
      return a.quoted(*first.result()) + " reduces axes " + axesString(rows.axes) + " of " +
             typeString(*first.operand(0)) + " but " + a.quoted(*op->result()) + " reduces axes " +
             axesString(axes) + " of " + typeString(input) + "; " + std::string(oneKernel);
    }
    rows.reductions.push_back(op);
  }
  if (rows.reductions.empty())
    return std::string("the segment has no reduction");
  std::vector<Extent> reduced;
  for (size_t d = 0; d < rows.domain.size(); ++d)
    if (std::find(rows.axes.begin(), rows.axes.end(), static_cast<int64_t>(d)) == rows.axes.end())
      reduced.push_back(rows.domain[d]);
  rows.reduced = squeezedShape(reduced);
  rows.squeezedDomain = squeezedShape(rows.domain);
  return rows;
}

// Segmentation asks schedulers about many candidate segments of a big
// fusion, so these walks take time in the segment's size, not the fusion's:
// the per-value state is kept for the segment's values only.
std::vector<bool> dependsOnReduction(const Segment &segment) {
  std::unordered_set<const Value *> reaches;
  std::vector<bool> depends;
  for (const Op *op : segment.ops()) {
    bool d = isReduction(*op);
    for (const Value *operand : op->operands())
      d = d || reaches.count(operand);
    if (d)
      reaches.insert(op->result());
    depends.push_back(d);
  }
  return depends;
}

size_t reductionStages(const Segment &segment) { return chainedStages(segment, isReduction); }

size_t chainedStages(const Segment &segment, bool (*counts)(const Op &)) {
  std::unordered_map<const Value *, size_t> stages; // values that read a counted op
  size_t most = 0;
  for (const Op *op : segment.ops()) {
    size_t s = 0;
    for (const Value *operand : op->operands())
      if (auto it = stages.find(operand); it != stages.end())
        s = std::max(s, it->second);
    s += counts(*op) ? 1 : 0;
    if (s) {
      stages[op->result()] = s;
      most = std::max(most, s);
    }
  }
  return most;
}

std::optional<std::string> findOpsOfOtherKernels(const Segment &segment) {
  if (auto reason = findComposite(segment))
    return reason;
  if (auto reason = findScan(segment))
    return reason;
  if (auto reason = findSmallReduction(segment))
    return reason;
  if (auto reason = checkKernelTensors(segment))
    return reason;
  return refuseTwoPassScatter(segment);
}

} // namespace fuserc
