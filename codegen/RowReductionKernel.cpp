// Row-reduction kernels, device side: the rows and tensors of a segment and
// the CUDA of every variant (see RowReductionKernel.h; the host side is in
// RowReductionPlan.cpp).
#include "codegen/RowReductionKernel.h"

#include "codegen/BlockReduce.h"
#include "codegen/CodegenError.h"
#include "codegen/CudaTypes.h"
#include "codegen/RowReductionPlan.h"
#include "codegen/ValueEmitter.h"
#include "ir/DType.h"
#include "ir/Printer.h"
#include "schedulers/OpFamilies.h"
#include "schedulers/SchedulerChecks.h"

#include <algorithm>
#include <map>

namespace fuserc {
namespace {

DType mathOf(const Value &v) {
  return v.dtype() == DType::F16 || v.dtype() == DType::BF16 ? DType::F32 : v.dtype();
}

class RowReductionEmitter : public InputReader {
public:
  RowReductionEmitter(const SegmentedFusion &sf, const ScheduledSegment &seg,
                      const WorkspaceOffsets &workspace)
      : sf_(sf), seg_(seg), analysis_(*sf.analysis), workspace_(workspace) {
    k_.fusion = &sf;
    k_.segment = &seg;
    k_.base = sf.fusion->name() + "_k" + std::to_string(seg.id);
  }

  EmittedKernel run() {
    findRows();
    collectTensors();
    EmittedKernel out;
    out.source = blockReduceCuda() + rowArgsStruct(k_, "") + "\n";
    for (const RowVariant &v : kRowVariants)
      out.source += kernel(v);
    fillRowPlan(k_, out.plan);
    return out;
  }

  std::string read(const Value &input, const Coords &coords) override {
    if (auto it = registers_.find(&input); it != registers_.end())
      return it->second;
    if (input.isScalarInput())
      return "a.s" + std::to_string(scalarIndex(input));
    const size_t t = tensorIndex(input);
    std::string offset = "0";
    for (size_t d = 0; d < coords.size(); ++d)
      offset +=
          " + " + coords[d] + " * (I)a.st[" + std::to_string(t) + "][" + std::to_string(d) + "]";
    return "fuserc_load(((const " + cudaStorageType(k_.tensors[t].storage) + " *)a.ptr[" +
           std::to_string(t) + "])[" + offset + "])";
  }

private:
  // The rows: the reduced axes must be the innermost dims in memory of every
  // reduction's input (static 1 dims aside).
  void findRows() {
    auto found = findReductionRows(seg_.segment, "a row reduction kernel reduces one set of axes");
    if (auto *reason = std::get_if<std::string>(&found))
      throw CodegenError(*reason);
    k_.rows = std::get<ReductionRows>(std::move(found));
    const std::vector<Extent> &domain = k_.rows.domain;
    if (domain.size() > static_cast<size_t>(kRowMaxRank))
      throw CodegenError("rank " + std::to_string(domain.size()) + " is above the supported " +
                         std::to_string(kRowMaxRank));
    auto reduced = [&](int64_t d) {
      return std::find(k_.rows.axes.begin(), k_.rows.axes.end(), d) != k_.rows.axes.end();
    };
    for (const Op *op : k_.rows.reductions) {
      const Value &in = *op->operand(0);
      const Layout layout = analysis_.storedLayout(in);
      std::vector<int64_t> real; // memory order without static 1 dims
      for (int64_t d : layout)
        if (!domain[static_cast<size_t>(d)].isConstant(1))
          real.push_back(d);
      const size_t inner = static_cast<size_t>(std::count_if(real.begin(), real.end(), reduced));
      if (!std::all_of(real.end() - static_cast<std::ptrdiff_t>(inner), real.end(), reduced))
        throw CodegenError(analysis_.quoted(*op->result()) + " reduces axes " +
                           axesString(k_.rows.axes) + " of " + typeString(in) +
                           ", which are not innermost in memory (layout " + layoutString(layout) +
                           "); outer and mixed reductions are not generated yet");
    }
    order_ = analysis_.storedLayout(*k_.rows.reductions.front()->operand(0));
    for (int64_t d : order_)
      (reduced(d) ? k_.reducedDims : k_.keptDims).push_back(static_cast<size_t>(d));
  }

  // Inputs first (in value order), then the stored outputs, each over the
  // rows (per element) or reduced (per row).
  void collectTensors() {
    KernelOperands operands = collectKernelOperands(sf_, seg_, workspace_, "row reduction");
    k_.scalars = std::move(operands.scalars);
    for (KernelTensor &t : operands.tensors) {
      const bool perRow = t.written && k_.rows.isReducedShape(t.value->shape());
      if (t.written && !perRow && !k_.rows.isDomainShape(t.value->shape()))
        throw CodegenError(analysis_.quoted(*t.value) + " " + typeString(*t.value) +
                           " is neither over the rows " + shapeString(k_.rows.domain) +
                           " nor reduced");
      k_.tensors.push_back(RowTensor{std::move(t), perRow});
    }
  }

  size_t tensorIndex(const Value &v) const {
    for (size_t i = 0; i < k_.tensors.size(); ++i)
      if (k_.tensors[i].value == &v && !k_.tensors[i].written)
        return i;
    throw CodegenError("internal: no kernel tensor for " + analysis_.quoted(v));
  }

  size_t scalarIndex(const Value &v) const {
    return static_cast<size_t>(std::find(k_.scalars.begin(), k_.scalars.end(), &v) -
                               k_.scalars.begin());
  }

  bool isReductionResult(const Value &v) const {
    return std::any_of(k_.rows.reductions.begin(), k_.rows.reductions.end(),
                       [&](const Op *op) { return op->result() == &v; });
  }

  std::string kernelSymbolExtent(const Extent &e) const {
    return kernelExtentCode(e, sf_.fusion->symbols());
  }

  std::string kernelName(const RowVariant &v) const { return rowKernelName(k_, v); }

  // ---- kernel bodies ----

  // Coordinates of the rows' domain: kept dims c<d>, reduced dims c<d><tag>.
  Coords domainCoords(const std::string &tag) const {
    Coords c;
    for (size_t d = 0; d < k_.rows.domain.size(); ++d)
      c.push_back("c" + std::to_string(d) +
                  (std::count(k_.reducedDims.begin(), k_.reducedDims.end(), d) ? tag : ""));
    return c;
  }

  // Coordinates for a value of `shape` (the domain or a reduced shape, static
  // 1 dims aside): its non-1 dims take the non-1 domain dims (kept ones only
  // for a per-row value) in order; its 1 dims take 0.
  Coords valueCoords(const std::vector<Extent> &shape, const Coords &domainAt, bool perRow) const {
    std::vector<size_t> dims;
    for (size_t d = 0; d < k_.rows.domain.size(); ++d)
      if (!k_.rows.domain[d].isConstant(1) &&
          !(perRow && std::count(k_.reducedDims.begin(), k_.reducedDims.end(), d)))
        dims.push_back(d);
    Coords at;
    size_t next = 0;
    for (const Extent &e : shape) {
      if (e.isConstant(1))
        at.push_back("0");
      else if (next < dims.size())
        at.push_back(domainAt[dims[next++]]);
      else
        throw CodegenError("internal: shape " + shapeString(shape) + " is not over the rows " +
                           shapeString(k_.rows.domain));
    }
    return at;
  }

  // Statements setting c<d><tag> for `dims` (memory order, outermost first)
  // from the linear index `index`, innermost fastest.
  static std::string decompose(const std::string &index, const std::vector<size_t> &dims,
                               const std::string &tag, const std::string &rem,
                               const std::string &pad) {
    if (dims.empty())
      return "";
    std::string s = pad + "I " + rem + " = " + index + ";\n";
    for (size_t k = dims.size(); k-- > 0;) {
      const std::string d = std::to_string(dims[k]), c = "c" + d + tag;
      if (k == 0) {
        s += pad + "const I " + c + " = " + rem + ";\n";
        continue;
      }
      s += pad + "const I " + c + " = " + rem + " % (I)a.size[" + d + "];\n";
      s += pad + rem + " = " + rem + " / (I)a.size[" + d + "];\n";
    }
    return s;
  }

  // The expression stored into tensor t, converted for storage (a cast to
  // f16 / bf16 of the segment is stored from its input: rounded once).
  std::string storedValue(ValueEmitter &emitter, size_t t, const Coords &coords) {
    const Value &v = *k_.tensors[t].value;
    const DType storage = k_.tensors[t].storage;
    const Op *op = v.definingOp();
    if (op && op->kind() == OpKind::Cast && storage == v.dtype() &&
        (storage == DType::F16 || storage == DType::BF16) && seg_.segment.contains(*op) &&
        !isReductionResult(v)) {
      const Value &in = *op->operand(0);
      std::string var = emitter.emit(in, coords);
      return cudaToStorage(cudaConvert(var, in.isLiteral() ? in.dtype() : mathOf(in), DType::F32),
                           storage);
    }
    const DType math = storage == v.dtype() ? v.dtype() : storage;
    return cudaToStorage(cudaConvert(emitter.emit(v, coords), mathOf(v), math), storage);
  }

  std::string storeStatement(size_t t, const Coords &coords, const std::string &value) const {
    std::string offset = "0";
    for (size_t d = 0; d < coords.size(); ++d)
      offset +=
          " + " + coords[d] + " * (I)a.st[" + std::to_string(t) + "][" + std::to_string(d) + "]";
    return "((" + cudaStorageType(k_.tensors[t].storage) + " *)a.ptr[" + std::to_string(t) + "])[" +
           offset + "] = " + value + ";";
  }

  ValueEmitter newEmitter() {
    return ValueEmitter(
        [&](const Value &v) { return !seg_.segment.defines(v) || isReductionResult(v); }, *this,
        [&](const Extent &e) { return kernelSymbolExtent(e); }, "I", false);
  }

  // The statements `emitter` appended since the last call (persistent
  // variants keep one emitter, so values stay in registers across phases).
  std::string take(const ValueEmitter &emitter, size_t &taken, int indent) const {
    std::string all = emitter.body(indent);
    std::string fresh = all.substr(taken);
    taken = all.size();
    return fresh;
  }

  // A reduction input value, as its accumulator type.
  static std::string toAccumulator(const Op &op, const std::string &var) {
    const Value &in = *op.operand(0);
    const DType result = op.result()->dtype();
    const DType resultMath = result == DType::F16 || result == DType::BF16 ? DType::F32 : result;
    std::string asResult = cudaConvert(var, in.isLiteral() ? in.dtype() : mathOf(in), result);
    return cudaConvert(asResult, resultMath, reductionAccumulator(result));
  }

  std::string combineAcross(const RowVariant &v, const std::string &partial, DType acc,
                            const std::string &combiner) const {
    const std::string c = combiner + "()";
    if (v.threads == 32)
      return "fuserc_warp_reduce(" + partial + ", " + c + ")";
    return "fuserc_block_reduce<" + std::to_string(v.threads / 32) + ">(" + partial + ", " + c +
           ", red_" + std::string(dtypeName(acc)) + ")";
  }

  // The row register of reduction i from its combined accumulator(s).
  std::string finish(const Op &op, size_t i, const std::string &value) {
    const DType result = op.result()->dtype();
    const std::string reg = "r" + std::to_string(i);
    registers_[op.result()] = reg;
    const DType acc = reductionAccumulator(result);
    return "const " + cudaComputeType(result) + " " + reg + " = " +
           cudaConvert(value, acc, result) + ";  // " + analysis_.name(*op.result()) + "\n";
  }

  // For the accumulators a kernel uses: its shared scratch (block variants).
  std::string sharedScratch(const RowVariant &v) const {
    if (v.threads == 32)
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
           std::to_string(v.threads / 32) + "];\n";
    return s;
  }

  std::string kernel(const RowVariant &v) {
    registers_.clear();
    const std::string B = std::to_string(v.block()), T = std::to_string(v.threads);
    std::string s = "// segment " + std::to_string(seg_.id) + " (" +
                    std::string(seg_.scheduler->name()) + "), variant " + v.suffix + "\n";
    s += "extern \"C\" __global__ void __launch_bounds__(" + B + ") " + kernelName(v) + "(const " +
         k_.base + "_args a) {\n";
    s += "  typedef long long I;\n";
    s += "  const I L = (I)a.len;\n";
    s += sharedScratch(v);
    s += "  const int tid = (int)threadIdx.x % " + T + ";\n";
    s += "  for (I row = (I)blockIdx.x * " + std::to_string(v.rowsPerBlock) +
         " + (I)threadIdx.x / " + T + "; row < (I)a.rows; row += (I)gridDim.x * " +
         std::to_string(v.rowsPerBlock) + ") {\n";
    s += decompose("row", k_.keptDims, "", "row_rest", "    ");
    s += v.looped() ? loopedBody(v) : persistentBody(v);
    s += "  }\n}\n\n";
    return s;
  }

  std::string persistentBody(const RowVariant &v) {
    const std::string pad = "    ";
    std::string s;
    std::vector<Coords> items;
    for (int j = 0; j < v.items; ++j) {
      const std::string J = std::to_string(j), tag = "_" + J;
      s += pad + "const I k" + J + " = (I)tid + " + std::to_string(j * v.threads) + ";\n";
      s += pad + "const bool ok" + J + " = k" + J + " < L;\n";
      s +=
          decompose("(ok" + J + " ? k" + J + " : L - 1)", k_.reducedDims, tag, "k_rest" + tag, pad);
      items.push_back(domainCoords(tag));
    }
    ValueEmitter emitter = newEmitter();
    size_t taken = 0;
    for (size_t i = 0; i < k_.rows.reductions.size(); ++i) {
      const Op &op = *k_.rows.reductions[i];
      const std::string I = std::to_string(i);
      const DType acc = reductionAccumulator(op.result()->dtype());
      const std::string A = cudaComputeType(acc), comb = reductionCombiner(op.kind());
      s += pad + "// phase " + I + ": " + analysis_.describe(op) + "\n";
      std::vector<std::string> values;
      for (const Coords &at : items)
        values.push_back(toAccumulator(op, emitter.emit(*op.operand(0), at)));
      s += take(emitter, taken, 4);
      const std::string p = "p" + I;
      s += pad + A + " " + p + " = " + reductionIdentity(op.kind(), acc) + ";\n";
      for (int j = 0; j < v.items; ++j)
        s += pad + "if (ok" + std::to_string(j) + ") " + p + " = " + comb + "()(" + p + ", " +
             values[static_cast<size_t>(j)] + ");\n";
      s += pad + p + " = " + combineAcross(v, p, acc, comb) + ";\n";
      if (op.kind() == OpKind::Var) {
        const std::string m = "m" + I, q = "q" + I;
        s += pad + "const " + A + " " + m + " = " + p + " / (" + A + ")L;\n";
        s += pad + A + " " + q + " = " + reductionIdentity(OpKind::Sum, acc) + ";\n";
        for (int j = 0; j < v.items; ++j) {
          const std::string J = std::to_string(j);
          s += pad + "if (ok" + J + ") {\n";
          s += pad + "  const " + A + " d = " + values[static_cast<size_t>(j)] + " - " + m + ";\n";
          s += pad + "  " + q + " += d * d;\n";
          s += pad + "}\n";
        }
        s += pad + q + " = " + combineAcross(v, q, acc, "fuserc_red_add") + ";\n";
        s += pad + finish(op, i, varianceOf(op, q, A));
      } else {
        s += pad + finish(op, i, op.kind() == OpKind::Mean ? p + " / (" + A + ")L" : p);
      }
    }
    // Outputs: per element at every item, per row once.
    s += pad + "// outputs\n";
    std::vector<std::string> stores;
    for (size_t t = 0; t < k_.tensors.size(); ++t) {
      if (!k_.tensors[t].written)
        continue;
      const std::vector<Extent> &shape = k_.tensors[t].value->shape();
      if (k_.tensors[t].perRow) {
        Coords at = valueCoords(shape, domainCoords(""), true);
        stores.push_back("if (tid == 0) " + storeStatement(t, at, storedValue(emitter, t, at)));
        continue;
      }
      for (int j = 0; j < v.items; ++j) {
        Coords at = valueCoords(shape, items[static_cast<size_t>(j)], false);
        stores.push_back("if (ok" + std::to_string(j) + ") " +
                         storeStatement(t, at, storedValue(emitter, t, at)));
      }
    }
    s += take(emitter, taken, 4);
    for (const std::string &st : stores)
      s += pad + st + "\n";
    return s;
  }

  static std::string varianceOf(const Op &op, const std::string &squares, const std::string &A) {
    const int64_t correction = op.attrs().find("correction") ? op.attrs().integer("correction") : 1;
    return squares + " / (" + A + ")fuserc_max(L - " + std::to_string(correction) + "LL, 0LL)";
  }

  // One grid-stride loop over the row: `body(emitter, coords)` returns the
  // statements after the emitted ones (a fresh emitter per loop body).
  template <typename Body> std::string rowLoop(const RowVariant &v, Body body) {
    const std::string pad = "      ";
    std::string s = "    for (I k = (I)tid; k < L; k += " + std::to_string(v.threads) + ") {\n";
    s += decompose("k", k_.reducedDims, "", "k_rest", pad);
    ValueEmitter emitter = newEmitter();
    std::string tail = body(emitter, domainCoords(""));
    s += emitter.body(6);
    s += tail;
    s += "    }\n";
    return s;
  }

  std::string loopedBody(const RowVariant &v) {
    const std::string pad = "    ";
    std::string s;
    for (size_t i = 0; i < k_.rows.reductions.size(); ++i) {
      const Op &op = *k_.rows.reductions[i];
      const std::string I = std::to_string(i);
      const DType acc = reductionAccumulator(op.result()->dtype());
      const std::string A = cudaComputeType(acc), comb = reductionCombiner(op.kind());
      const std::string p = "p" + I;
      s += pad + "// phase " + I + ": " + analysis_.describe(op) + "\n";
      s += pad + A + " " + p + " = " + reductionIdentity(op.kind(), acc) + ";\n";
      s += rowLoop(v, [&](ValueEmitter &e, const Coords &at) {
        return pad + "  " + p + " = " + comb + "()(" + p + ", " +
               toAccumulator(op, e.emit(*op.operand(0), at)) + ");\n";
      });
      s += pad + p + " = " + combineAcross(v, p, acc, comb) + ";\n";
      if (op.kind() == OpKind::Var) {
        const std::string m = "m" + I, q = "q" + I;
        s += pad + "const " + A + " " + m + " = " + p + " / (" + A + ")L;\n";
        s += pad + A + " " + q + " = " + reductionIdentity(OpKind::Sum, acc) + ";\n";
        s += rowLoop(v, [&](ValueEmitter &e, const Coords &at) {
          std::string x = toAccumulator(op, e.emit(*op.operand(0), at));
          return pad + "  {\n" + pad + "    const " + A + " d = " + x + " - " + m + ";\n" + pad +
                 "    " + q + " += d * d;\n" + pad + "  }\n";
        });
        s += pad + q + " = " + combineAcross(v, q, acc, "fuserc_red_add") + ";\n";
        s += pad + finish(op, i, varianceOf(op, q, A));
      } else {
        s += pad + finish(op, i, op.kind() == OpKind::Mean ? p + " / (" + A + ")L" : p);
      }
    }
    s += pad + "// outputs\n";
    bool perElement = false, perRow = false;
    for (const RowTensor &t : k_.tensors) {
      perElement = perElement || (t.written && !t.perRow);
      perRow = perRow || (t.written && t.perRow);
    }
    if (perElement)
      s += rowLoop(v, [&](ValueEmitter &e, const Coords &at) {
        std::vector<std::string> stores;
        for (size_t t = 0; t < k_.tensors.size(); ++t) {
          if (!k_.tensors[t].written || k_.tensors[t].perRow)
            continue;
          Coords c = valueCoords(k_.tensors[t].value->shape(), at, false);
          stores.push_back(storeStatement(t, c, storedValue(e, t, c)));
        }
        std::string tail;
        for (const std::string &st : stores)
          tail += pad + "  " + st + "\n";
        return tail;
      });
    if (perRow) {
      ValueEmitter e = newEmitter();
      std::vector<std::string> stores;
      for (size_t t = 0; t < k_.tensors.size(); ++t) {
        if (!k_.tensors[t].written || !k_.tensors[t].perRow)
          continue;
        Coords c = valueCoords(k_.tensors[t].value->shape(), domainCoords(""), true);
        stores.push_back(storeStatement(t, c, storedValue(e, t, c)));
      }
      s += pad + "if (tid == 0) {\n" + e.body(6);
      for (const std::string &st : stores)
        s += pad + "  " + st + "\n";
      s += pad + "}\n";
    }
    return s;
  }

  const SegmentedFusion &sf_;
  const ScheduledSegment &seg_;
  const FusionAnalysis &analysis_;
  const WorkspaceOffsets &workspace_;
  RowKernel k_;
  Layout order_;
  std::map<const Value *, std::string> registers_; // reduction result -> row register
};

} // namespace

EmittedKernel emitRowReductionKernel(const SegmentedFusion &segmented,
                                     const ScheduledSegment &segment,
                                     const WorkspaceOffsets &workspace) {
  return RowReductionEmitter(segmented, segment, workspace).run();
}

} // namespace fuserc
