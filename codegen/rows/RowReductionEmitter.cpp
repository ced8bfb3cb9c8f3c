// Row-reduction kernels, device side: the rows and tensors of a segment,
// which tensors the contiguous variants stream, and the emission helpers
// every variant shares (see RowReductionEmitter.h).
#include "codegen/rows/RowReductionEmitter.h"

#include "codegen/core/BlockReduce.h"
#include "codegen/core/CudaTypes.h"
#include "codegen/core/ElementwiseCode.h"
#include "codegen/core/ReductionValues.h"
#include "codegen/rows/RowReductionKernel.h"
#include "ir/DType.h"
#include "ir/Printer.h"
#include "schedulers/KernelGenerator.h"
#include "schedulers/OpFamilies.h"
#include "schedulers/SchedulerChecks.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <limits>
#include <regex>
#include <set>
#include <sstream>

namespace fuserc {

RowReductionEmitter::RowReductionEmitter(const KernelContext &cx, const ReductionSchedule &schedule)
    : cx_(cx), schedule_(schedule) {
  k_.fusion = &cx.fusion;
  k_.segment = &cx.segment;
  k_.base = cx.base;
  k_.budget = cx.variants;
}

EmittedKernel RowReductionEmitter::run() {
  findRows();
  collectTensors();
  findStreams();
  findLengths();
  k_.split = splitApplies() && k_.generatesCached();
  k_.grid = !k_.split && k_.generatesCached() && k_.maxLength > kRowCachedAbove;
  k_.scratchOffset = cx_.scratchOffset;
  const std::string common = blockReduceCuda() + rowArgsStruct(k_, "") + "\n";
  // Five groups of variants, each a compile unit of its own where the
  // kernel has more than one: the variants holding rows in registers at the
  // widest vector, those at vectors of 1 (and the general ones), the ones
  // caching rows in shared memory, the cluster and split ones, and the grid
  // ones (as long to compile as the cluster ones: apart, they compile in
  // parallel).
  std::string registers, wide, narrow, cached, clustered, gridded, general;
  std::set<std::string> emitted; // the shared cached kernel once
  for (const RowFastVariant &v : kRowFastVariants)
    for (int vector : k_.vectorWidths())
      if (k_.generates(v, vector)) {
        const std::string kernel =
            emitSharingLanes(vector, false, [&] { return contiguousKernel(v, vector); });
        registers += kernel;
        (vector > 1 ? wide : narrow) += kernel;
      }
  // Headed rows' lanes compute their own coordinates.
  for (const RowFastVariant &v : kRowFastVariants)
    if (k_.generatesHeaded(v)) {
      const std::string kernel = emitSharingLanes(
          k_.vector, false, [&] { return contiguousKernel(v, k_.vector, true); }, false);
      registers += kernel;
      wide += kernel;
    }
  if (k_.generatesCached()) {
    cached = rowCacheHelpersCuda();
    for (const RowCachedVariant &v : kRowCachedVariants)
      for (int vector : k_.vectorWidths())
        if (emitted.insert(rowKernelName(k_, v, vector)).second)
          cached += emitSharingLanes(vector, true, [&] { return cachedKernel(v, vector); });
  }
  if (k_.clustered()) {
    clustered += clusterReduceCuda();
    for (int vector : k_.vectorWidths())
      clustered +=
          emitSharingLanes(vector, true, [&] { return cachedKernel(kRowClusterVariant, vector); });
  }
  if (k_.split)
    for (int vector : k_.vectorWidths())
      clustered +=
          emitSharingLanes(vector, true, [&] { return cachedKernel(kRowSplitVariant, vector); });
  if (k_.grid) {
    gridded += gridReduceCuda();
    for (int vector : k_.vectorWidths())
      gridded +=
          emitSharingLanes(vector, true, [&] { return cachedKernel(kRowGridVariant, vector); });
  }
  for (const RowVariant &v : kRowVariants)
    if (k_.generates(v))
      general += generalKernel(v);
  if (k_.columnPartials())
    general += columnMergeKernel();
  EmittedKernel out;
  out.source = common + registers + cached + clustered + gridded + general;
  // The cached group starts with the row cache's helpers; the cluster,
  // split and grid variants' units need their own copy (the helpers are
  // guarded).
  std::vector<std::string> groups;
  for (const std::string *group : {&wide, &narrow, &cached, &clustered, &gridded})
    if (!group->empty())
      groups.push_back(common +
                       (group == &clustered || group == &gridded ? rowCacheHelpersCuda() : "") +
                       *group);
  if (groups.size() > 1) {
    // The general variants join the unit of the register variants at 1,
    // else the first.
    groups[narrow.empty() || wide.empty() ? 0 : 1] += general;
    out.parts = std::move(groups);
  }
  fillRowPlan(k_, out.plan);
  return out;
}

// A row's length where every reduced extent is static (checked at launch):
// the variants for other lengths are not generated.
void RowReductionEmitter::findLengths() {
  int64_t length = 1;
  for (size_t d : k_.reducedDims) {
    const std::optional<int64_t> extent = k_.rows.domain[d].constant();
    if (!extent)
      return;
    length = *extent == 0 || length <= std::numeric_limits<int64_t>::max() / *extent
                 ? length * *extent
                 : std::numeric_limits<int64_t>::max();
  }
  k_.minLength = k_.maxLength = length;
}

InputRead RowReductionEmitter::read(const Value &input, const Coords &coords) {
  if (auto it = registers_.find(&input); it != registers_.end())
    return it->second;
  if (input.isScalarInput())
    return scalarArgRead(k_.scalars, input);
  const size_t t = tensorIndex(input);
  const std::string ts = std::to_string(t);
  if (item_) {
    if (std::optional<std::vector<int>> map = directMap(input, coords, item_->domain)) {
      std::optional<RowStream> &stream = k_.streams[t];
      if (discovering_ && !stream) {
        // A tensor along some of the row's dims but broadcast along others
        // (GroupNorm's per-channel weights over a group's rows) is no
        // stream: it is read per element, from L1.
        bool along = false, broadcastAlong = false;
        for (size_t d = 0; d < map->size(); ++d)
          if (isReducedDim(d) && !k_.rows.domain[d].isConstant(1))
            ((*map)[d] >= 0 ? along : broadcastAlong) = true;
        if (!(along && broadcastAlong))
          stream = RowStream{*map, along};
      }
      if (stream && stream->map == *map) {
        used_.insert(t);
        if (!stream->alongRow)
          return InputRead::load("t" + ts + "_r");
        return InputRead::lane("t" + ts + "_l[" + std::to_string(item_->j) + "]",
                               std::to_string(item_->v), item_->width, k_.tensors[t].storage);
      }
    }
  }
  std::string offset = "0";
  for (size_t d = 0; d < coords.size(); ++d)
    offset += " + " + coords[d] + " * (I)a.st[" + ts + "][" + std::to_string(d) + "]";
  return InputRead::load("((const " + cudaStorageType(k_.tensors[t].storage) + " *)a.ptr[" + ts +
                         "])[" + offset + "]");
}

// The rows: the reduced axes must be the innermost dims in memory of every
// reduction's input (static 1 dims aside).
void RowReductionEmitter::findRows() {
  if (schedule_.rows.reductions.empty())
    throw CodegenError("segment " + std::to_string(cx_.segment.id) + " has no reduction");
  k_.rows = schedule_.rows;
  const std::vector<Extent> &domain = k_.rows.domain;
  if (domain.size() > static_cast<size_t>(kRowMaxRank))
    throw CodegenError("rank " + std::to_string(domain.size()) + " is above the supported " +
                       std::to_string(kRowMaxRank));
  auto reduced = [&](int64_t d) {
    return std::find(k_.rows.axes.begin(), k_.rows.axes.end(), d) != k_.rows.axes.end();
  };
  for (const Op *op : k_.rows.reductions) {
    const Value &in = *op->operand(0);
    const Layout layout = cx_.analysis.storedLayout(in);
    std::vector<int64_t> real; // memory order without static 1 dims
    for (int64_t d : layout)
      if (!domain[static_cast<size_t>(d)].isConstant(1))
        real.push_back(d);
    const size_t inner = static_cast<size_t>(std::count_if(real.begin(), real.end(), reduced));
    if (!std::all_of(real.end() - static_cast<std::ptrdiff_t>(inner), real.end(), reduced))
      throw CodegenError(cx_.analysis.quoted(*op->result()) + " reduces axes " +
                         axesString(k_.rows.axes) + " of " + typeString(in) +
                         ", which are not innermost in memory (layout " + layoutString(layout) +
                         "); outer and mixed reductions are not generated yet");
  }
  const Layout order = cx_.analysis.storedLayout(*k_.rows.reductions.front()->operand(0));
  for (int64_t d : order)
    (reduced(d) ? k_.reducedDims : k_.keptDims).push_back(static_cast<size_t>(d));
}

// Inputs first (in value order), then the stored outputs, each over the
// rows (per element) or reduced (per row).
void RowReductionEmitter::collectTensors() {
  // An index map is streamed through its strides when its innermost
  // dim in memory is a reduced one (it runs along the row, as GroupNorm's
  // reshaped input does); else it is read through its view ops from its
  // base, as a view inside the segment is.
  const std::vector<Extent> &domain = k_.rows.domain;
  auto acrossRows = [&](const Value &map) {
    const Layout order = cx_.analysis.storedLayout(map);
    for (auto d = order.rbegin(); d != order.rend(); ++d) {
      const size_t dim = static_cast<size_t>(*d);
      if (map.shape()[dim].isConstant(1))
        continue;
      return map.rank() > domain.size() ||
             std::find(k_.rows.axes.begin(), k_.rows.axes.end(),
                       static_cast<int64_t>(dim + domain.size() - map.rank())) ==
                 k_.rows.axes.end();
    }
    return false;
  };
  KernelOperands operands =
      collectKernelOperands(cx_.fusion, cx_.segment, cx_.workspace, "row reduction", acrossRows);
  k_.scalars = std::move(operands.scalars);
  throughOps_ = std::move(operands.throughOps);
  for (KernelTensor &t : operands.tensors) {
    // Over the columns first: with a square domain a column shape is also
    // the rows' reduced shape.
    const bool perColumn = t.written && k_.rows.isOverColumns(*t.value);
    const bool perRow = t.written && !perColumn && k_.rows.isReducedShape(t.value->shape());
    if (t.written && !perRow && !perColumn && !k_.rows.isDomainShape(t.value->shape()))
      throw CodegenError(cx_.analysis.quoted(*t.value) + " " + typeString(*t.value) +
                         " is neither over the rows " + shapeString(k_.rows.domain) +
                         " nor reduced");
    RowTensor rt{std::move(t), perRow};
    rt.perColumn = perColumn;
    k_.tensors.push_back(std::move(rt));
  }
}

// Emits one item of every phase and output with a throwaway emitter: the
// inputs read there at the item's own coordinates (through elementwise ops
// and broadcasts only) are streamed, as are the per-element outputs.
void RowReductionEmitter::findStreams() {
  k_.streams.assign(k_.tensors.size(), std::nullopt);
  item_ = Item{0, 0, domainCoords("_0_0")};
  discovering_ = true;
  for (size_t i = 0; i < k_.rows.reductions.size(); ++i)
    registers_[k_.rows.reductions[i]->result()] = "r" + std::to_string(i);
  ValueEmitter emitter = newEmitter();
  used_.clear();
  for (const Op *op : k_.rows.reductions)
    emitter.emit(*op->operand(0), item_->domain);
  for (const Op *op : k_.rows.columns)
    emitter.emit(*op->operand(0), item_->domain);
  for (size_t t : used_) {
    RowStream &stream = *k_.streams[t];
    for (size_t d : k_.keptDims)
      if (stream.alongRow && stream.map[d] >= 0 && !k_.rows.domain[d].isConstant(1))
        stream.cached = true;
  }
  for (size_t t = 0; t < k_.tensors.size(); ++t) {
    const RowTensor &kt = k_.tensors[t];
    if (!kt.perElement())
      continue;
    const Coords at = valueCoords(kt.value->shape(), item_->domain, false);
    emitter.emit(*kt.value, at);
    std::optional<std::vector<int>> map = directMap(*kt.value, at, item_->domain);
    if (!map)
      throw CodegenError("internal: an output's coordinates are not the rows'");
    k_.streams[t] = RowStream{*map, true};
  }
  discovering_ = false;
  item_.reset();
  registers_.clear();
  used_.clear();
  k_.vector = 8;
  bool any = false;
  for (size_t t = 0; t < k_.tensors.size(); ++t)
    if (k_.streams[t] && k_.streams[t]->alongRow) {
      any = true;
      k_.vector = std::min(k_.vector, 16 / static_cast<int>(dtypeBytes(k_.tensors[t].storage)));
    }
  if (!any)
    k_.vector = 1;
}

size_t RowReductionEmitter::tensorIndex(const Value &v) const {
  for (size_t i = 0; i < k_.tensors.size(); ++i)
    if (k_.tensors[i].value == &v && !k_.tensors[i].written)
      return i;
  throw CodegenError("internal: no kernel tensor for " + cx_.analysis.quoted(v));
}

bool RowReductionEmitter::isReductionResult(const Value &v) const {
  auto produces = [&](const Op *op) { return op->result() == &v; };
  return std::any_of(k_.rows.reductions.begin(), k_.rows.reductions.end(), produces) ||
         std::any_of(k_.rows.columns.begin(), k_.rows.columns.end(), produces);
}

bool RowReductionEmitter::isReducedDim(size_t d) const {
  return std::count(k_.reducedDims.begin(), k_.reducedDims.end(), d) != 0;
}

Coords RowReductionEmitter::domainCoords(const std::string &tag) const {
  Coords c;
  for (size_t d = 0; d < k_.rows.domain.size(); ++d)
    c.push_back("c" + std::to_string(d) + (isReducedDim(d) ? tag : ""));
  return c;
}

Coords RowReductionEmitter::valueCoords(const std::vector<Extent> &shape, const Coords &domainAt,
                                        bool perRow) const {
  return coordsInDomain(shape, k_.rows.domain, domainAt,
                        [&](size_t d) { return perRow && isReducedDim(d); });
}

std::optional<std::vector<int>> RowReductionEmitter::directMap(const Value &input,
                                                               const Coords &coords,
                                                               const Coords &domainAt) const {
  std::vector<int> map(k_.rows.domain.size(), -1);
  for (size_t i = 0; i < coords.size(); ++i) {
    if (coords[i] == "0" && input.shape()[i].isConstant(1))
      continue;
    auto it = std::find(domainAt.begin(), domainAt.end(), coords[i]);
    if (it == domainAt.end())
      return std::nullopt;
    const size_t d = static_cast<size_t>(it - domainAt.begin());
    if (map[d] >= 0)
      return std::nullopt;
    map[d] = static_cast<int>(i);
  }
  return map;
}

std::string RowReductionEmitter::decompose(const std::string &index,
                                           const std::vector<size_t> &dims, const std::string &tag,
                                           const std::string &rem, const std::string &pad) {
  return decomposeIndexCode(index, dims, tag, rem, pad);
}

std::string RowReductionEmitter::positionCoords(const std::string &index, const std::string &tag,
                                                const std::string &pad) const {
  // Each coordinate straight from the position, so that the compiler drops
  // those no read uses: a weight broadcast over the inner dims costs one
  // division.
  const std::vector<size_t> &dims = k_.reducedDims;
  if (dims.empty())
    return "";
  const std::string k = "k_at" + tag;
  std::string s = pad + "const unsigned " + k + " = (unsigned)" + index + ";\n";
  std::string inner; // the product of the extents inner to the dim, as code
  std::optional<int64_t> innerValue = 1;
  for (size_t n = dims.size(); n-- > 0;) {
    const std::string d = std::to_string(dims[n]);
    const std::optional<int64_t> extent = k_.rows.domain[dims[n]].constant();
    const std::string e = extent ? std::to_string(*extent) + "u" : "(unsigned)a.size[" + d + "]";
    const std::string quotient = inner.empty() ? k : "(" + k + " / " + inner + ")";
    s += pad + "const I c" + d + tag + " = (I)" +
         (n == 0 ? quotient : "(" + quotient + " % " + e + ")") + ";\n";
    innerValue =
        innerValue && extent ? std::optional<int64_t>(*innerValue * *extent) : std::nullopt;
    inner = innerValue ? std::to_string(*innerValue) + "u"
                       : (inner.empty() ? e : "(" + inner + " * " + e + ")");
  }
  return s;
}

std::string RowReductionEmitter::sharedLaneCoords(const std::string &J, const std::string &first,
                                                  int vector, const std::string &pad) const {
  const std::string lane0 = "_" + J + "_0";
  std::string s = positionCoords(first, lane0, pad);
  for (int e = 1; e < vector; ++e)
    for (size_t d : k_.reducedDims) {
      const std::string c = "c" + std::to_string(d);
      s += pad + "const I " + c + "_" + J + "_" + std::to_string(e) + " = " + c + lane0 +
           (d == k_.reducedDims.back() ? " + " + std::to_string(e) : "") + ";\n";
    }
  return s;
}

std::set<size_t> RowReductionEmitter::positionDimsRead(const std::string &kernel) const {
  std::set<size_t> dims;
  const std::regex declaration("^\\s*const I c[0-9]+_[0-9]+_[0-9]+ = ");
  const std::regex use("\\bc([0-9]+)_[0-9]+_[0-9]+\\b");
  std::istringstream lines(kernel);
  for (std::string line; std::getline(lines, line);) {
    if (std::regex_search(line, declaration))
      continue;
    for (std::sregex_iterator it(line.begin(), line.end(), use), end; it != end; ++it) {
      const size_t d = std::stoul((*it)[1].str());
      if (isReducedDim(d))
        dims.insert(d);
    }
  }
  return dims;
}

Extent RowReductionEmitter::laneBoundary(size_t d) const {
  const std::vector<size_t> &dims = k_.reducedDims;
  if (d == dims.back())
    return k_.rows.domain[d];
  Extent inner = 1;
  for (auto it = std::find(dims.begin(), dims.end(), d) + 1; it != dims.end(); ++it)
    inner = inner * k_.rows.domain[*it];
  return inner;
}

// The expression stored into tensor t, converted for storage (a cast to
// f16 / bf16 of the segment is stored from its input: rounded once).
std::string RowReductionEmitter::storedValue(ValueEmitter &emitter, size_t t,
                                             const Coords &coords) {
  const Value &v = *k_.tensors[t].value;
  const Op *op = v.definingOp();
  return storedExpression(emitter, v, k_.tensors[t].storage,
                          op && cx_.segment.segment.contains(*op) && !isReductionResult(v), coords);
}

std::string RowReductionEmitter::perRowStores(ValueEmitter &emitter, size_t &taken,
                                              const std::string &condition,
                                              const std::string &pad) {
  // Every value first, then the stores: an output written in place into an
  // input must not change it before another output has read it.
  std::string s, stores;
  for (size_t t = 0; t < k_.tensors.size(); ++t) {
    if (!k_.tensors[t].written || !k_.tensors[t].perRow)
      continue;
    Coords at = valueCoords(k_.tensors[t].value->shape(), domainCoords(""), true);
    const std::string value = storedValue(emitter, t, at), held = "out" + std::to_string(t);
    s += take(emitter, taken, 4);
    s += pad + "const " + cudaStorageType(k_.tensors[t].storage) + " " + held + " = " + value +
         ";\n";
    stores += pad + "if (" + condition + ") " + storeStatement(t, at, held) + "\n";
  }
  return s + stores;
}

std::string RowReductionEmitter::storeStatement(size_t t, const Coords &coords,
                                                const std::string &value) const {
  return fuserc::storeStatement(t, k_.tensors[t].storage, coords, value);
}

ValueEmitter RowReductionEmitter::newEmitter() {
  ValueEmitter emitter(
      [&](const Value &v) {
        return loadsFromTensor(cx_.segment.segment, throughOps_, v) || isReductionResult(v);
      },
      *this, cx_.fusion.fusion->symbols(), "I", false);
  // A divisor computed from the row's reductions (and scalars) alone, at
  // coordinates naming no reduced dim's c<d>: the same over the row, and
  // so in every phase. Not one read from a tensor: an earlier phase reads
  // it at the row's element coordinates and would divide there (seed
  // 57359: softmax over rows of 1 of a quotient, whose max phase divided
  // and whose output phase multiplied by the reciprocal, 1 + 2^-15).
  emitter.setInvariant([this](const Value &divisor, const Coords &coords) {
    if (!computedFromReductions(divisor))
      return false;
    for (const std::string &c : coords)
      for (size_t d : k_.reducedDims) {
        const std::string name = "c" + std::to_string(d);
        for (size_t at = c.find(name); at != std::string::npos; at = c.find(name, at + 1)) {
          const size_t end = at + name.size();
          if ((at == 0 || !std::isalnum(static_cast<unsigned char>(c[at - 1]))) &&
              (end == c.size() || !std::isdigit(static_cast<unsigned char>(c[end]))))
            return false;
        }
      }
    return true;
  });
  return emitter;
}

bool RowReductionEmitter::everyLeaf(const Value &v,
                                    const std::function<bool(const Value &)> &accept) const {
  std::vector<const Value *> work{&v};
  std::set<const Value *> seen;
  while (!work.empty()) {
    const Value *value = work.back();
    work.pop_back();
    if (!seen.insert(value).second)
      continue;
    const Op *producer = value->definingOp();
    if (isReductionResult(*value) || !producer || !cx_.segment.segment.contains(*producer)) {
      if (!accept(*value))
        return false;
      continue;
    }
    for (const Value *operand : producer->operands())
      work.push_back(operand);
  }
  return true;
}

bool RowReductionEmitter::computedFromReductions(const Value &v) const {
  return everyLeaf(v, [&](const Value &leaf) {
    return leaf.isLiteral() || leaf.isScalarInput() || isReductionResult(leaf);
  });
}

// The statements `emitter` appended since the last call (persistent
// variants keep one emitter, so values stay in registers across phases).
std::string RowReductionEmitter::take(const ValueEmitter &emitter, size_t &taken, int indent) {
  std::string all = emitter.body(indent);
  std::string fresh = all.substr(taken);
  taken = all.size();
  return fresh;
}

std::string RowReductionEmitter::bytesType(int vector, DType storage) {
  return "fuserc_bytes" + std::to_string(vector * static_cast<int>(dtypeBytes(storage)));
}

// A reduction input value, as its accumulator type.
std::string RowReductionEmitter::toAccumulator(const Op &op, const std::string &var) {
  return reductionInputAsAccumulator(op, var);
}

std::string RowReductionEmitter::combineAcross(int threads, const std::string &partial, DType acc,
                                               const std::string &combiner) {
  const std::string c = combiner + "()";
  if (threads <= 32)
    return "fuserc_group_reduce<" + std::to_string(threads) + ">(" + partial + ", " + c + ")";
  return "fuserc_block_reduce<" + std::to_string(threads / 32) + ">(" + partial + ", " + c +
         ", red_" + std::string(dtypeName(acc)) + ")";
}

std::string RowReductionEmitter::combineRow(int threads, const std::string &partial, DType acc,
                                            const std::string &combiner) {
  // A kernel whose threads per row are set at launch (T, up to `threads`)
  // combines over the warps it has.
  const std::string block = launchedThreads_
                                ? "fuserc_block_reduce_warps(" + partial + ", " + combiner +
                                      "(), red_" + std::string(dtypeName(acc)) + ", T >> 5)"
                                : combineAcross(threads, partial, acc, combiner);
  if (grid_) {
    // Combine c's slots: kRowSplitTargetBlocks of 8 bytes (RowKernel::scratchBytes).
    const int c = combines_++;
    const std::string A = cudaComputeType(acc);
    return "fuserc_grid_reduce<" + std::to_string(threads / 32) + ">(" + block + ", " + combiner +
           "(), " + combinerIdentity(combiner, acc) + ", (" + A + " *)(a.slots + " +
           std::to_string(int64_t{c} * kRowSplitTargetBlocks * 8) +
           ") + row * (I)ctas, cta, ctas, a.count + row, " + std::to_string(c + 1) +
           " * (int)ctas, red_" + std::string(dtypeName(acc)) + ")";
  }
  if (!cluster_)
    return block;
  return "fuserc_cluster_reduce(" + block + ", " + combiner + "(), cl_" +
         std::string(dtypeName(acc)) + " + cl_at + " + std::to_string(combines_++) + ")";
}

std::string RowReductionEmitter::accumulated(const Op &op, size_t i, const std::string &x) {
  const std::string p = "p" + std::to_string(i);
  if (op.kind() == OpKind::Var)
    return roundedAdd(reductionAccumulator(op.result()->dtype()), p, x);
  return reductionCombiner(op.kind()) + "()(" + p + ", " + x + ")";
}

std::string RowReductionEmitter::deviation(const Op &op, size_t i, const std::string &x) {
  return roundedSub(reductionAccumulator(op.result()->dtype()), x, "m" + std::to_string(i));
}

// The row register of reduction i from its combined accumulator(s).
std::string RowReductionEmitter::finish(const Op &op, size_t i, const std::string &value) {
  const DType result = op.result()->dtype();
  const std::string reg = "r" + std::to_string(i);
  registers_[op.result()] = reg;
  const DType acc = reductionAccumulator(result);
  return "const " + cudaComputeType(result) + " " + reg + " = " +
         cudaConvert(value, acc, mathDType(result)) + ";  // " + cx_.analysis.name(*op.result()) +
         "\n";
}

std::string RowReductionEmitter::endPhase(const Op &op, size_t i, int threads,
                                          const std::string &squares, const std::string &pad) {
  const std::string I = std::to_string(i), p = "p" + I;
  const DType acc = reductionAccumulator(op.result()->dtype());
  const std::string A = cudaComputeType(acc);
  std::string s =
      pad + p + " = " + combineRow(threads, p, acc, reductionCombiner(op.kind())) + ";\n";
  if (op.kind() == OpKind::Var) {
    const std::string m = "m" + I, q = "q" + I;
    s += pad + "const " + A + " " + m + " = " + p + " / (" + A + ")L;\n";
    s += pad + A + " " + q + " = " + reductionIdentity(OpKind::Sum, acc) + ";\n";
    s += squares;
    s += pad + q + " = " + combineRow(threads, q, acc, "fuserc_red_add") + ";\n";
    s += pad + finish(op, i, varianceOf(op, q, A));
  } else {
    s += pad + finish(op, i, op.kind() == OpKind::Mean ? p + " / (" + A + ")L" : p);
  }
  return s;
}

// For the accumulators a kernel uses: its shared scratch (block variants).
std::string RowReductionEmitter::sharedScratch(int threads) const {
  if (threads <= 32)
    return "";
  std::vector<DType> accs;
  for (const Op *op : k_.rows.reductions) {
    DType acc = reductionAccumulator(op->result()->dtype());
    if (std::find(accs.begin(), accs.end(), acc) == accs.end())
      accs.push_back(acc);
  }
  std::string s;
  for (DType acc : accs)
    s += "  __shared__ " + cudaComputeType(acc) + " red_" + std::string(dtypeName(acc)) + "[" +
         std::to_string(threads / 32) + "];\n";
  return s;
}

std::string RowReductionEmitter::varianceOf(const Op &op, const std::string &squares,
                                            const std::string &A) {
  const int64_t correction = op.attrs().find("correction") ? op.attrs().integer("correction") : 1;
  return squares + " / (" + A + ")fuserc_max(L - " + std::to_string(correction) + "LL, 0LL)";
}

EmittedKernel emitRowReductionKernel(const KernelRequest &request,
                                     const ReductionSchedule &schedule) {
  const KernelContext cx(request);
  return RowReductionEmitter(cx, schedule).run();
}

} // namespace fuserc
