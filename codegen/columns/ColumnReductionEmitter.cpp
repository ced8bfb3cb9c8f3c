// Column-reduction kernels, device side: the emitter, which finds the
// columns, tensors and accumulators of a segment and writes the CUDA of
// every variant (see ColumnReductionKernel.h; the host side is in
// ColumnReductionPlan.cpp). The plan needs only the ColumnKernel the emitter
// fills in (ColumnReductionPlan.h), so the emitter class stays here.
#include "codegen/columns/ColumnReductionKernel.h"

#include "codegen/columns/ColumnReductionPlan.h"
#include "codegen/core/BlockReduce.h"
#include "codegen/core/CudaTypes.h"
#include "codegen/core/ElementwiseCode.h"
#include "codegen/core/KernelContext.h"
#include "codegen/core/ReductionValues.h"
#include "codegen/core/ValueEmitter.h"
#include "ir/DType.h"
#include "ir/Printer.h"
#include "schedulers/KernelGenerator.h"
#include "schedulers/OpFamilies.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace fuserc {
namespace {

class ColumnReductionEmitter : public InputReader {
public:
  ColumnReductionEmitter(const KernelContext &cx, const ReductionSchedule &schedule)
      : cx_(cx), schedule_(schedule) {
    k_.fusion = &cx.fusion;
    k_.segment = &cx.segment;
    k_.base = cx.base;
    k_.scratchOffset = cx.scratchOffset;
  }

  EmittedKernel run() {
    findColumns();
    collectTensors();
    findPartials();
    findLanes();
    EmittedKernel out;
    out.source = blockReduceCuda() + columnDeviceHelpers() + columnArgsStruct(k_, "") + "\n";
    for (const ColumnVariant &v : k_.variants())
      out.source += tileKernel(v);
    fillColumnPlan(k_, out.plan);
    return out;
  }

  InputRead read(const Value &input, const Coords &coords) override {
    if (auto it = registers_.find(&input); it != registers_.end())
      return it->second;
    if (input.isScalarInput())
      return scalarArgRead(k_.scalars, input);
    const size_t t = tensorIndex(input);
    if (lanes_) {
      k_.tensors[t].lanes = true;
      return InputRead::load("t" + std::to_string(t) + "_l[u][v]");
    }
    std::string offset = "0";
    for (size_t d = 0; d < coords.size(); ++d)
      offset +=
          " + " + coords[d] + " * (I)a.st[" + std::to_string(t) + "][" + std::to_string(d) + "]";
    return InputRead::load("((const " + cudaStorageType(k_.tensors[t].storage) + " *)a.ptr[" +
                           std::to_string(t) + "])[" + offset + "]");
  }

private:
  // ---- the columns, tensors and accumulators ----

  void findColumns() {
    if (schedule_.rows.reductions.empty())
      throw CodegenError("segment " + std::to_string(cx_.segment.id) + " has no reduction");
    k_.rows = schedule_.rows;
    if (k_.rows.domain.size() > static_cast<size_t>(kColumnMaxRank))
      throw CodegenError("rank " + std::to_string(k_.rows.domain.size()) +
                         " is above the supported " + std::to_string(kColumnMaxRank));
    k_.grouping = schedule_.grouping;
    if (k_.grouping.kind != ReductionGrouping::Kind::Outer) {
      const Op &first = *k_.rows.reductions.front();
      throw CodegenError(cx_.analysis.quoted(*first.result()) + " reduces axes " +
                         axesString(k_.rows.axes) + " of " + typeString(*first.operand(0)) +
                         ", whose kept and reduced dims interleave in memory order (layout " +
                         layoutString(k_.grouping.order) +
                         "); a column reduction needs the memory order [outer kept dims]"
                         "[reduced dims][inner kept dims], and other layouts are not "
                         "generated yet");
    }
    kept_ = k_.grouping.outerKept;
    kept_.insert(kept_.end(), k_.grouping.innerKept.begin(), k_.grouping.innerKept.end());
  }

  void collectTensors() {
    KernelOperands operands =
        collectKernelOperands(cx_.fusion, cx_.segment, cx_.workspace, "column reduction");
    k_.scalars = std::move(operands.scalars);
    throughOps_ = std::move(operands.throughOps);
    for (KernelTensor &t : operands.tensors) {
      if (t.written && !k_.rows.isReducedShape(t.value->shape()))
        throw CodegenError(cx_.analysis.quoted(*t.value) + " " + typeString(*t.value) +
                           " is not reduced; a column reduction kernel writes only reduced "
                           "outputs");
      k_.tensors.push_back(ColumnTensor{std::move(t), false});
    }
  }

  void findPartials() {
    for (size_t i = 0; i < k_.rows.reductions.size(); ++i) {
      const Op &op = *k_.rows.reductions[i];
      const DType acc = reductionAccumulator(op.result()->dtype());
      if (op.kind() == OpKind::Var) {
        k_.partials.push_back({i, cx_.analysis.name(*op.result()) + " (var) mean", acc});
        k_.partials.push_back({i, cx_.analysis.name(*op.result()) + " (var) m2", acc});
      } else {
        k_.partials.push_back(
            {i, cx_.analysis.name(*op.result()) + " (" + std::string(op.info().name) + ")", acc});
      }
    }
  }

  // The tile variants need an elementwise prologue; emitting it once in
  // lane mode marks the tensors it reads, whose widths bound the vector.
  void findLanes() {
    std::vector<const Op *> prologue;
    std::set<const Value *> seen;
    std::vector<const Value *> pending;
    for (const Op *op : k_.rows.reductions)
      pending.push_back(op->operand(0));
    while (!pending.empty()) {
      const Value *v = pending.back();
      pending.pop_back();
      if (loadsFromTensor(cx_.segment.segment, throughOps_, *v) || !seen.insert(v).second)
        continue;
      prologue.push_back(v->definingOp());
      for (const Value *operand : v->definingOp()->operands())
        pending.push_back(operand);
    }
    k_.tiled = ValueEmitter::supportsCoordinateFree(prologue);
    if (!k_.tiled)
      return;
    ValueEmitter emitter = newEmitter(true);
    for (const Op *op : k_.rows.reductions)
      emitter.emit(*op->operand(0), {});
    int vmax = 4;
    bool any = false;
    for (const ColumnTensor &t : k_.tensors)
      if (t.lanes && !sameAcrossColumns(k_, t)) {
        vmax = std::min(any ? vmax : 8, 16 / static_cast<int>(dtypeBytes(t.storage)));
        any = true;
      }
    k_.maxVector = std::max(vmax, 1);
  }

  size_t tensorIndex(const Value &v) const {
    for (size_t i = 0; i < k_.tensors.size(); ++i)
      if (k_.tensors[i].value == &v && !k_.tensors[i].written)
        return i;
    throw CodegenError("internal: no kernel tensor for " + cx_.analysis.quoted(v));
  }

  bool isReductionResult(const Value &v) const {
    return std::any_of(k_.rows.reductions.begin(), k_.rows.reductions.end(),
                       [&](const Op *op) { return op->result() == &v; });
  }

  ValueEmitter newEmitter(bool lanes) {
    lanes_ = lanes;
    return ValueEmitter(
        [&](const Value &v) {
          return loadsFromTensor(cx_.segment.segment, throughOps_, v) || isReductionResult(v);
        },
        *this, cx_.fusion.fusion->symbols(), "I", lanes);
  }

  // ---- coordinates ----

  bool isReducedDim(size_t d) const {
    const auto &r = k_.grouping.reduced;
    return std::find(r.begin(), r.end(), d) != r.end();
  }

  // Domain coordinates: c<d> for every dim but static 1s (0).
  Coords domainCoords() const {
    Coords c;
    for (size_t d = 0; d < k_.rows.domain.size(); ++d)
      c.push_back(k_.rows.domain[d].isConstant(1) ? "0" : "c" + std::to_string(d));
    return c;
  }

  // Coordinates of a reduced-shape value: its non-1 dims take the kept
  // non-1 domain dims in order; its 1 dims take 0.
  Coords reducedCoords(const std::vector<Extent> &shape) const {
    Coords all;
    for (size_t d = 0; d < k_.rows.domain.size(); ++d)
      all.push_back("c" + std::to_string(d));
    return coordsInDomain(shape, k_.rows.domain, all, [&](size_t d) { return isReducedDim(d); });
  }

  static std::string decompose(const std::string &index, const std::vector<size_t> &dims,
                               const std::string &rem, const std::string &pad) {
    return decomposeIndexCode(index, dims, "", rem, pad);
  }

  // ---- values ----

  std::string accType(size_t j) const { return cudaComputeType(k_.partials[j].acc); }

  const Op &reductionOf(size_t j) const { return *k_.rows.reductions[k_.partials[j].reduction]; }

  bool isVarMean(size_t j) const {
    return reductionOf(j).kind() == OpKind::Var &&
           (j == 0 || k_.partials[j - 1].reduction != k_.partials[j].reduction);
  }

  // The statements folding the values `x` (one per reduction, accumulator
  // typed) into the per-thread accumulators q<j>[v].
  std::string accumulate(const std::vector<std::string> &x, const std::string &pad) const {
    std::string s;
    for (size_t j = 0; j < k_.partials.size(); ++j) {
      const Op &op = reductionOf(j);
      const std::string J = std::to_string(j), X = x[k_.partials[j].reduction];
      if (op.kind() != OpKind::Var)
        s += pad + "q" + J + "[v] = " + reductionCombiner(op.kind()) + "()(q" + J + "[v], " + X +
             ");\n";
      else if (isVarMean(j))
        s += pad + "fuserc_welford_push(q" + J + "[v], q" + std::to_string(j + 1) + "[v], " + X +
             ", inv_" + std::string(dtypeName(k_.partials[j].acc)) + ");\n";
    }
    return s;
  }

  // Per row of a thread (var only): the count and its inverses.
  std::string countRow(const std::string &pad) const {
    std::set<DType> accs;
    for (size_t j = 0; j < k_.partials.size(); ++j)
      if (isVarMean(j))
        accs.insert(k_.partials[j].acc);
    if (accs.empty())
      return "";
    std::string s = pad + "++wn;\n";
    for (DType acc : accs) {
      const std::string A = cudaComputeType(acc);
      s += pad + "const " + A + " inv_" + std::string(dtypeName(acc)) + " = fuserc_col_inverse((" +
           A + ")wn);\n";
    }
    return s;
  }

  std::string storedValue(ValueEmitter &emitter, size_t t, const Coords &coords) {
    const Value &v = *k_.tensors[t].value;
    const Op *op = v.definingOp();
    const bool fold = op && cx_.segment.segment.contains(*op) && !isReductionResult(v);
    return storedExpression(emitter, v, k_.tensors[t].storage, fold, coords);
  }

  std::string storeStatement(size_t t, const Coords &coords, const std::string &value) const {
    return fuserc::storeStatement(t, k_.tensors[t].storage, coords, value);
  }

  // Column `col`'s results from its combined accumulators g<j> (of L rows):
  // the reduced values, the epilogue, every store.
  std::string finishColumn(const std::string &col, const std::string &pad) {
    registers_.clear();
    std::string s = decompose(col, kept_, "col_rest", pad);
    for (size_t j = 0; j < k_.partials.size(); ++j) {
      const Op &op = reductionOf(j);
      if (op.kind() == OpKind::Var && !isVarMean(j))
        continue;
      const size_t i = k_.partials[j].reduction;
      const std::string A = accType(j), g = "g" + std::to_string(j);
      std::string value = g;
      if (op.kind() == OpKind::Mean)
        value = g + " / (" + A + ")L";
      if (op.kind() == OpKind::Var) {
        const int64_t correction =
            op.attrs().find("correction") ? op.attrs().integer("correction") : 1;
        value = "g" + std::to_string(j + 1) + " / (" + A + ")fuserc_max(L - " +
                std::to_string(correction) + "LL, 0LL)";
      }
      const DType result = op.result()->dtype();
      const std::string reg = "red" + std::to_string(i);
      registers_[op.result()] = reg;
      s += pad + "const " + cudaComputeType(result) + " " + reg + " = " +
           cudaConvert(value, k_.partials[j].acc, mathDType(result)) + ";  // " +
           cx_.analysis.name(*op.result()) + "\n";
    }
    ValueEmitter emitter = newEmitter(false);
    std::vector<std::string> stores;
    for (size_t t = 0; t < k_.tensors.size(); ++t) {
      if (!k_.tensors[t].written)
        continue;
      Coords at = reducedCoords(k_.tensors[t].value->shape());
      stores.push_back(storeStatement(t, at, storedValue(emitter, t, at)));
    }
    s += emitter.body(static_cast<int>(pad.size()));
    for (const std::string &st : stores)
      s += pad + st + "\n";
    return s;
  }

  // ---- kernels ----

  int maxAccBytes() const {
    int bytes = 4;
    for (const ColumnPartial &p : k_.partials)
      bytes = std::max(bytes, dtypeBytes(p.acc));
    return bytes;
  }

  std::string tileKernel(const ColumnVariant &v) {
    const std::string V = std::to_string(v.vector), W = std::to_string(v.width());
    std::string s = "// segment " + std::to_string(cx_.segment.id) + " (" +
                    std::string(cx_.segment.scheduler->name()) + "), variant " + v.suffix() + "\n";
    s += "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kColumnBlock) + ") " +
         columnKernelName(k_, v) + "(const " + k_.base + "_args a) {\n";
    s += "  typedef long long I;\n";
    s += "  const I L = (I)a.len;\n";
    // Room for a slot array (sharedSlots), or for a var's two.
    const int slots = sharedSlots(v) * (hasVar() ? 2 : 1);
    const std::string X = std::to_string(kColumnThreadsX), B = std::to_string(kColumnBlock);
    s += "  __shared__ __align__(16) unsigned char smem[" + std::to_string(slots * maxAccBytes()) +
         "];\n";
    if (hasVar())
      s += "  __shared__ long long smem_n[" + B + "];  // a var's counts\n";
    s += "  __shared__ int last_split;\n";
    s += "  const int tid = (int)threadIdx.x, tx = tid % " + X + ", ty = tid / " + X + ";\n";
    s +=
        "  // kl lanes of a warp across a tile's columns (fewer than " + X + " for few columns),\n";
    s += "  // the warp's others down the rows: column lane cx, row lane ry of ys\n";
    s += "  const int kl = (int)a.lanes, cx = tx % kl, ry = ty * (" + X + " / kl) + tx / kl;\n";
    s += "  const int ys = " + B + " / kl, w = kl * " + V +
         ";  // rows per step, columns per tile\n";
    s += "  const I row_begin = (I)blockIdx.y * (I)a.chunk;\n";
    s += "  const I row_end = row_begin + (I)a.chunk < L ? row_begin + (I)a.chunk : L;\n";
    s += "  for (I tile = blockIdx.x; tile < (I)a.tiles; tile += gridDim.x) {\n";
    s += "    const I col = tile * w + cx * " + V + ";\n";
    for (size_t j = 0; j < k_.partials.size(); ++j) {
      const Op &op = reductionOf(j);
      const DType acc = k_.partials[j].acc;
      const std::string ident = op.kind() == OpKind::Var ? reductionIdentity(OpKind::Sum, acc)
                                                         : reductionIdentity(op.kind(), acc);
      s += "    " + accType(j) + " q" + std::to_string(j) + "[" + V + "];  // " +
           k_.partials[j].what + "\n";
      s += "    for (int v = 0; v < " + V + "; ++v)\n      q" + std::to_string(j) +
           "[v] = " + ident + ";\n";
    }
    s += "    I wn = 0;\n";
    s += "    (void)wn;\n";
    s += "    if (col < (I)a.cols) {\n";
    s += decompose("col", kept_, "col_rest", "      ");
    s += v.general ? generalRows() : tileRows(v);
    s += "    }\n";
    s += combineRowPartials(v);
    s += "  }\n}\n\n";
    return s;
  }

  // The general variant's row loop: coordinates per row, one column.
  std::string generalRows() {
    const std::string pad = "        ";
    std::string s = "      for (I row = row_begin + ry; row < row_end; row += ys) {\n";
    s += "        const int v = 0;\n";
    s += decompose("row", k_.grouping.reduced, "row_rest", pad);
    ValueEmitter emitter = newEmitter(false);
    std::vector<std::string> x;
    for (const Op *op : k_.rows.reductions)
      x.push_back(reductionInputAsAccumulator(*op, emitter.emit(*op->operand(0), domainCoords())));
    s += countRow(pad);
    s += emitter.body(8);
    s += accumulate(x, pad);
    s += "      }\n";
    return s;
  }

  // The tile variants' row loop: per lane tensor a pointer moving down the
  // rows; kColumnUnroll rows loaded before any is used, then one at a time.
  std::string tileRows(const ColumnVariant &v) {
    const std::string V = std::to_string(v.vector);
    ValueEmitter emitter = newEmitter(true);
    std::vector<std::string> x;
    for (const Op *op : k_.rows.reductions)
      x.push_back(reductionInputAsAccumulator(*op, emitter.emit(*op->operand(0), {})));
    lanes_ = false;
    const std::string U = std::to_string(kColumnUnroll);
    std::string s = "      const I kcol = col % (I)a.kcols;\n";
    for (size_t t = 0; t < k_.tensors.size(); ++t) {
      if (!k_.tensors[t].lanes)
        continue;
      const std::string T = std::to_string(t), type = cudaStorageType(k_.tensors[t].storage);
      std::string offset = "kcol * (I)a.ks[" + T + "] + (row_begin + ry) * (I)a.rs[" + T + "]";
      for (size_t d : k_.grouping.outerKept)
        offset += " + c" + std::to_string(d) + " * (I)a.dst[" + T + "][" + std::to_string(d) + "]";
      s += "      const " + type + " *t" + T + "_p = (const " + type + " *)a.ptr[" + T + "] + " +
           offset + ";  // " + k_.tensors[t].what + "\n";
      s += "      const I t" + T + "_s = (I)ys * (I)a.rs[" + T + "];\n";
      s += "      __align__(16) " + type + " t" + T + "_l[" + std::to_string(kColumnUnroll) + "][" +
           V + "];\n";
    }
    s += "      I row = row_begin + ry;\n";
    s += "      for (; row + " + std::to_string(kColumnUnroll - 1) +
         " * ys < row_end; row += " + U + " * ys) {\n";
    s += loadRows(v, kColumnUnroll) + computeRows(v, kColumnUnroll, emitter, x);
    s += advance(U);
    s += "      }\n";
    s += "      for (; row < row_end; row += ys) {\n";
    s += loadRows(v, 1) + computeRows(v, 1, emitter, x);
    s += advance("1");
    s += "      }\n";
    return s;
  }

  std::string advance(const std::string &rows) const {
    std::string s;
    for (size_t t = 0; t < k_.tensors.size(); ++t)
      if (k_.tensors[t].lanes)
        s += "        t" + std::to_string(t) + "_p += " + rows + " * t" + std::to_string(t) +
             "_s;\n";
    return s;
  }

  std::string loadRows(const ColumnVariant &v, int rows) const {
    std::string s;
    const std::string pad = "        ";
    for (size_t t = 0; t < k_.tensors.size(); ++t) {
      if (!k_.tensors[t].lanes)
        continue;
      const std::string T = std::to_string(t);
      for (int u = 0; u < rows; ++u) {
        const std::string at =
            "t" + T + "_p[" + (u ? std::to_string(u) + " * t" + T + "_s" : "0") + "]";
        if (v.vector == 1) {
          s += pad + "t" + T + "_l[" + std::to_string(u) + "][0] = " + at + ";\n";
          continue;
        }
        const std::string fill = "for (int v = 0; v < " + std::to_string(v.vector) + "; ++v) t" +
                                 T + "_l[" + std::to_string(u) + "][v] = " + at + ";\n";
        if (sameAcrossColumns(k_, k_.tensors[t])) {
          s += pad + fill;
          continue;
        }
        const std::string bytes =
            "fuserc_bytes" + std::to_string(v.vector * dtypeBytes(k_.tensors[t].storage));
        s += pad + "if (a.ks[" + T + "])\n";
        s += pad + "  *(" + bytes + " *)t" + T + "_l[" + std::to_string(u) + "] = *(const " +
             bytes + " *)&" + at + ";\n";
        s += pad + "else\n" + pad + "  " + fill;
      }
    }
    return s;
  }

  std::string computeRows(const ColumnVariant &v, int rows, const ValueEmitter &emitter,
                          const std::vector<std::string> &x) const {
    std::string s = "#pragma unroll\n";
    s += "        for (int u = 0; u < " + std::to_string(rows) + "; ++u) {\n";
    s += countRow("          ");
    s += "#pragma unroll\n";
    s += "          for (int v = 0; v < " + std::to_string(v.vector) + "; ++v) {\n";
    s += emitter.body(12);
    s += accumulate(x, "            ");
    s += "          }\n        }\n";
    return s;
  }

  bool hasVar() const {
    return std::any_of(k_.rows.reductions.begin(), k_.rows.reductions.end(),
                       [](const Op *op) { return op->kind() == OpKind::Var; });
  }

  // Accumulator slots of `smem` per array: a thread's values (a warp's
  // first lanes write V each) or one per thread; a var's squared deviations
  // go to a second array after its means.
  static int sharedSlots(const ColumnVariant &v) {
    return std::max(kColumnThreadsY * v.width(), kColumnBlock);
  }

  // How one stage of a combine goes through shared memory.
  struct SharedJoin {
    std::string writes;   // the threads writing a slot
    std::string eachSlot; // a loop over the slots a writer writes, or ""
    std::string at;       // the slot written
    // Partial j's value for the written slot, and a var's count there (j
    // its mean partial) unless countOf gives the joined slots' counts.
    std::function<std::string(size_t j)> value, count;
    std::string joined; // how many slots each column joins
    // The count of joined slot i, when computed rather than written.
    std::string (*countOf)(const std::string &i) = nullptr;
  };

  // Every partial combined over a stage: writers fill their slots, then
  // each combining thread joins the `joined` slots i * w + tid of column tid
  // into g<j>, in order. A var's means and squared deviations (partials
  // j - 1 and j) travel together, merged with their counts.
  std::string joinThroughShared(const ColumnVariant &v, const SharedJoin &stage,
                                const std::string &pad) const {
    const std::string second = std::to_string(sharedSlots(v)) + " + ";
    std::string s;
    for (size_t j = 0; j < k_.partials.size(); ++j) {
      if (isVarMean(j))
        continue;
      const std::string J = std::to_string(j), A = accType(j);
      const Op &op = reductionOf(j);
      const bool var = op.kind() == OpKind::Var;
      const std::string M = var ? std::to_string(j - 1) : J;
      auto slot = [&](const std::string &i, bool squares) {
        return "((" + A + " *)smem)[" + (squares ? second : "") + i + "]";
      };
      s += pad + "__syncthreads();\n";
      s += pad + "if (" + stage.writes + ") {\n";
      std::string write = slot(stage.at, false) + " = " + stage.value(var ? j - 1 : j) + ";";
      if (var) {
        write += " " + slot(stage.at, true) + " = " + stage.value(j) + ";";
        if (!stage.countOf)
          write += " smem_n[" + stage.at + "] = " + stage.count(j - 1) + ";";
      }
      s += pad + "  " + stage.eachSlot + "{ " + write + " }\n";
      s += pad + "}\n";
      s += pad + "__syncthreads();\n";
      s += pad + "if (combines) {\n";
      const std::string next = "i * w + tid";
      s += pad + "  g" + M + " = " + slot("tid", false) + ";\n";
      if (var) {
        auto count = [&](const std::string &i, const std::string &index) {
          return stage.countOf ? stage.countOf(i) : "smem_n[" + index + "]";
        };
        s += pad + "  g" + J + " = " + slot("tid", true) + ";\n";
        s += pad + "  long long gn = " + count("0", "tid") + ";\n";
        s += pad + "  for (int i = 1; i < " + stage.joined + "; ++i)\n";
        s += pad + "    fuserc_welford_merge(g" + M + ", g" + J + ", gn, " + slot(next, false) +
             ", " + slot(next, true) + ", " + count("i", next) + ");\n";
      } else {
        s += pad + "  for (int i = 1; i < " + stage.joined + "; ++i)\n";
        s += pad + "    g" + J + " = " + reductionCombiner(op.kind()) + "()(g" + J + ", " +
             slot(next, false) + ");\n";
      }
      s += pad + "}\n";
    }
    return s;
  }

  // The block's partials of each column: first the kl < 32 lanes of a warp
  // sharing a column join down the warp (lane i takes lane i + off, a fixed
  // tree), then thread `tid` < w joins column tid's 8 warp partials in row
  // order through shared memory; stored finished when there is one split,
  // as partials otherwise.
  std::string combineRowPartials(const ColumnVariant &v) {
    const std::string V = std::to_string(v.vector);
    std::string s = "    // lanes sharing a column join down the warp\n";
    s += "#pragma unroll\n";
    s += "    for (int v = 0; v < " + V + "; ++v) {\n";
    for (size_t j = 0; j < k_.partials.size(); ++j)
      if (isVarMean(j))
        s += "      long long n" + std::to_string(j) + " = wn;  // the var's count\n";
    s += "      for (int off = " + std::to_string(kColumnThreadsX / 2) +
         "; off >= kl; off >>= 1) {\n";
    for (size_t j = 0; j < k_.partials.size(); ++j) {
      const std::string J = std::to_string(j), A = accType(j);
      const Op &op = reductionOf(j);
      const std::string down = "__shfl_down_sync(0xffffffffu, q" + J + "[v], off)";
      if (op.kind() != OpKind::Var) {
        s += "        q" + J + "[v] = " + reductionCombiner(op.kind()) + "()(q" + J + "[v], " +
             down + ");\n";
      } else if (!isVarMean(j)) {
        const std::string M = std::to_string(j - 1);
        s += "        {\n";
        s += "          const " + A + " mb = __shfl_down_sync(0xffffffffu, q" + M +
             "[v], off), qb = " + down + ";\n";
        s += "          const long long nb = __shfl_down_sync(0xffffffffu, n" + M + ", off);\n";
        s += "          fuserc_welford_merge(q" + M + "[v], q" + J + "[v], n" + M +
             ", mb, qb, nb);\n";
        s += "        }\n";
      }
    }
    s += "      }\n    }\n";
    s += "    // the warps' partials of each column, in row order (lane tx < kl holds\n";
    s += "    // its warp's of columns tx * V to tx * V + V - 1)\n";
    s += "    const bool combines = tid < w && tile * w + tid < (I)a.cols;\n";
    for (size_t j = 0; j < k_.partials.size(); ++j)
      s += "    " + accType(j) + " g" + std::to_string(j) + " = 0;\n";
    SharedJoin warps;
    warps.writes = "tx < kl";
    warps.eachSlot = "for (int v = 0; v < " + V + "; ++v) ";
    warps.at = "ty * w + tx * " + V + " + v";
    warps.value = [](size_t j) { return "q" + std::to_string(j) + "[v]"; };
    warps.joined = std::to_string(kColumnThreadsY);
    warps.countOf = [](const std::string &i) {
      return "fuserc_col_rows(row_begin, row_end, " + i + " * (" + std::to_string(kColumnThreadsX) +
             " / kl), " + std::to_string(kColumnThreadsX) + " / kl, ys)";
    };
    s += joinThroughShared(v, warps, "    ");
    s += "    if (combines) {\n";
    s += "      const I out_col = tile * w + tid;\n";
    s += "      if (a.splits == 1) {\n";
    s += finishColumn("out_col", "        ");
    s += "      } else {\n";
    for (size_t j = 0; j < k_.partials.size(); ++j)
      s += "        ((" + accType(j) + " *)a.part[" + std::to_string(j) +
           "])[(I)blockIdx.y * (I)a.cols + out_col] = g" + std::to_string(j) + ";\n";
    s += "      }\n    }\n";
    return s + lastSplitMerges(v);
  }

  // With S > 1 splits, the tile's last block to finish merges the S
  // partials of each of its columns in split order (so the result does not
  // depend on which block is last) and finishes them. Blocks count
  // themselves in a.count[tile], which the host zeroes before the launch:
  // each block's partials are made visible (fence) before it counts, and
  // the last one fences again before reading the others'. The whole block
  // merges: G = 256 / w groups of threads per column, group mg taking
  // splits mg, mg + G, ... in order, then thread tid < w joins the G groups
  // in order.
  std::string lastSplitMerges(const ColumnVariant &v) {
    const std::string B = std::to_string(kColumnBlock);
    std::string s = "    if (a.splits > 1) {\n";
    s += "      __threadfence();\n";
    s += "      __syncthreads();\n";
    s += "      if (tid == 0)\n";
    s += "        last_split = atomicAdd(&a.count[tile], 1) == (int)a.splits - 1;\n";
    s += "      __syncthreads();\n";
    s += "      if (last_split) {\n";
    s += "        __threadfence();\n";
    s += "        const int groups = " + B + " / w, mc = tid % w, mg = tid / w;\n";
    s += "        const I mcol = tile * w + mc;\n";
    s += mergeSplits("mcol", "        ");
    SharedJoin splits;
    splits.writes = "true";
    splits.at = "mg * w + mc";
    splits.value = [](size_t j) { return "h" + std::to_string(j); };
    splits.count = [](size_t mean) { return "hn" + std::to_string(mean); };
    splits.joined = "groups";
    s += joinThroughShared(v, splits, "        ");
    s += "        if (combines) {\n";
    s += "          const I out_col = tile * w + tid;\n";
    s += finishColumn("out_col", "          ");
    s += "        }\n";
    s += "      }\n    }\n";
    return s;
  }

  // Group mg's merge of column `col`'s split partials s = mg, mg + G, ...
  // in order into h<j>, read from L2 (__ldcg: past the L1 cache, which may
  // hold stale lines); a var's with their counts (hn).
  std::string mergeSplits(const std::string &col, const std::string &pad) const {
    auto part = [&](size_t j, const std::string &split) {
      return "__ldcg(&((const " + accType(j) + " *)a.part[" + std::to_string(j) + "])[" + split +
             " * (I)a.cols + " + col + "])";
    };
    std::string s;
    for (size_t j = 0; j < k_.partials.size(); ++j) {
      const Op &op = reductionOf(j);
      const DType acc = k_.partials[j].acc;
      s += pad + accType(j) + " h" + std::to_string(j) + " = " +
           (op.kind() == OpKind::Var ? reductionIdentity(OpKind::Sum, acc)
                                     : reductionIdentity(op.kind(), acc)) +
           ";\n";
    }
    for (size_t j = 0; j < k_.partials.size(); ++j)
      if (isVarMean(j))
        s += pad + "long long hn" + std::to_string(j) + " = 0;  // the var's count\n";
    s += pad + "if (" + col + " < (I)a.cols) {\n";
    // Unrolled so that several splits' loads are in flight.
    s += "#pragma unroll 8\n";
    s += pad + "  for (I s = mg; s < (I)a.splits; s += groups) {\n";
    for (size_t j = 0; j < k_.partials.size(); ++j) {
      const std::string J = std::to_string(j);
      const Op &op = reductionOf(j);
      if (op.kind() != OpKind::Var)
        s += pad + "    h" + J + " = " + reductionCombiner(op.kind()) + "()(h" + J + ", " +
             part(j, "s") + ");\n";
      else if (!isVarMean(j)) {
        const std::string M = std::to_string(j - 1);
        s += pad + "    fuserc_welford_merge(h" + M + ", h" + J + ", hn" + M + ", " +
             part(j - 1, "s") + ", " + part(j, "s") +
             ", fuserc_col_split_rows(L, (I)a.chunk, s));\n";
      }
    }
    s += pad + "  }\n";
    s += pad + "}\n";
    return s;
  }

  const KernelContext &cx_;
  const ReductionSchedule &schedule_;
  ColumnKernel k_;
  std::vector<const Value *> throughOps_; // computed from tensors outside the segment
  std::vector<size_t> kept_;              // kept dims in memory order: outer, then inner
  bool lanes_ = false;                    // reads come from per-lane registers (tile variants)
  std::map<const Value *, std::string> registers_; // reduction result -> its register
};

} // namespace

EmittedKernel emitColumnReductionKernel(const KernelRequest &request,
                                        const ReductionSchedule &schedule) {
  const KernelContext cx(request);
  return ColumnReductionEmitter(cx, schedule).run();
}

} // namespace fuserc
