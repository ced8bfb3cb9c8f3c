// Column-reduction kernels, device side: the emitter, which finds the
// columns, tensors and accumulators of a segment and writes the CUDA of
// every variant (see ColumnReductionKernel.h; the host side is in
// ColumnReductionPlan.cpp, the block's combine in
// ColumnReductionCombine.cpp).
#include "codegen/columns/ColumnReductionKernel.h"

#include "codegen/columns/ColumnReductionEmitter.h"
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

EmittedKernel ColumnReductionEmitter::run() {
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

InputRead ColumnReductionEmitter::read(const Value &input, const Coords &coords) {
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

void ColumnReductionEmitter::findColumns() {
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

void ColumnReductionEmitter::collectTensors() {
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

void ColumnReductionEmitter::findPartials() {
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

void ColumnReductionEmitter::findLanes() {
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

size_t ColumnReductionEmitter::tensorIndex(const Value &v) const {
  for (size_t i = 0; i < k_.tensors.size(); ++i)
    if (k_.tensors[i].value == &v && !k_.tensors[i].written)
      return i;
  throw CodegenError("internal: no kernel tensor for " + cx_.analysis.quoted(v));
}

bool ColumnReductionEmitter::isReductionResult(const Value &v) const {
  return std::any_of(k_.rows.reductions.begin(), k_.rows.reductions.end(),
                     [&](const Op *op) { return op->result() == &v; });
}

ValueEmitter ColumnReductionEmitter::newEmitter(bool lanes) {
  lanes_ = lanes;
  return ValueEmitter(
      [&](const Value &v) {
        return loadsFromTensor(cx_.segment.segment, throughOps_, v) || isReductionResult(v);
      },
      *this, cx_.fusion.fusion->symbols(), "I", lanes);
}

bool ColumnReductionEmitter::isReducedDim(size_t d) const {
  const auto &r = k_.grouping.reduced;
  return std::find(r.begin(), r.end(), d) != r.end();
}

Coords ColumnReductionEmitter::domainCoords() const {
  Coords c;
  for (size_t d = 0; d < k_.rows.domain.size(); ++d)
    c.push_back(k_.rows.domain[d].isConstant(1) ? "0" : "c" + std::to_string(d));
  return c;
}

Coords ColumnReductionEmitter::reducedCoords(const std::vector<Extent> &shape) const {
  Coords all;
  for (size_t d = 0; d < k_.rows.domain.size(); ++d)
    all.push_back("c" + std::to_string(d));
  return coordsInDomain(shape, k_.rows.domain, all, [&](size_t d) { return isReducedDim(d); });
}

std::string ColumnReductionEmitter::decompose(const std::string &index,
                                              const std::vector<size_t> &dims,
                                              const std::string &rem, const std::string &pad) {
  return decomposeIndexCode(index, dims, "", rem, pad);
}

bool ColumnReductionEmitter::isVarMean(size_t j) const {
  return reductionOf(j).kind() == OpKind::Var &&
         (j == 0 || k_.partials[j - 1].reduction != k_.partials[j].reduction);
}

std::string ColumnReductionEmitter::accumulate(const std::vector<std::string> &x,
                                               const std::string &pad) const {
  return accumulate(
      x, pad, [](size_t j) { return "q" + std::to_string(j) + "[v]"; },
      [&](size_t j) { return "inv_" + std::string(dtypeName(k_.partials[j].acc)); });
}

std::string
ColumnReductionEmitter::accumulate(const std::vector<std::string> &x, const std::string &pad,
                                   const std::function<std::string(size_t)> &acc,
                                   const std::function<std::string(size_t)> &inverse) const {
  std::string s;
  for (size_t j = 0; j < k_.partials.size(); ++j) {
    const Op &op = reductionOf(j);
    const std::string X = x[k_.partials[j].reduction];
    if (op.kind() != OpKind::Var)
      s += pad + acc(j) + " = " + reductionCombiner(op.kind()) + "()(" + acc(j) + ", " + X + ");\n";
    else if (isVarMean(j))
      s += pad + "fuserc_welford_push(" + acc(j) + ", " + acc(j + 1) + ", " + X + ", " +
           inverse(j) + ");\n";
  }
  return s;
}

std::string ColumnReductionEmitter::countRow(const std::string &pad) const {
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

std::string ColumnReductionEmitter::storedValue(ValueEmitter &emitter, size_t t,
                                                const Coords &coords) {
  const Value &v = *k_.tensors[t].value;
  const Op *op = v.definingOp();
  const bool fold = op && cx_.segment.segment.contains(*op) && !isReductionResult(v);
  return storedExpression(emitter, v, k_.tensors[t].storage, fold, coords);
}

std::string ColumnReductionEmitter::storeStatement(size_t t, const Coords &coords,
                                                   const std::string &value) const {
  return fuserc::storeStatement(t, k_.tensors[t].storage, coords, value);
}

std::string ColumnReductionEmitter::finishColumn(const std::string &col, const std::string &pad,
                                                 const std::string &rows) {
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
      value = g + " / (" + A + ")" + rows;
    if (op.kind() == OpKind::Var) {
      const int64_t correction =
          op.attrs().find("correction") ? op.attrs().integer("correction") : 1;
      value = "g" + std::to_string(j + 1) + " / (" + A + ")fuserc_max(" + rows + " - " +
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

int ColumnReductionEmitter::maxAccBytes() const {
  int bytes = 4;
  for (const ColumnPartial &p : k_.partials)
    bytes = std::max(bytes, dtypeBytes(p.acc));
  return bytes;
}

std::string ColumnReductionEmitter::tileKernel(const ColumnVariant &v) {
  const std::string V = std::to_string(v.vector), W = std::to_string(v.width());
  std::string s = "// segment " + std::to_string(cx_.segment.id) + " (" +
                  std::string(cx_.segment.scheduler->name()) + "), variant " + v.suffix() + "\n";
  s += "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kColumnBlock) + ") " +
       columnKernelName(k_, v) + "(const " + k_.base + "_args a) {\n";
  s += "  typedef long long I;\n";
  s += "  const I L = (I)a.len;\n";
  if (v.packed)
    s += "  const I RL = (I)a.rows;  // L counts packed rows\n";
  // Room for a slot array (sharedSlots), or for a var's two.
  const int slots = sharedSlots(v) * (hasVar() ? 2 : 1);
  const std::string X = std::to_string(kColumnThreadsX), B = std::to_string(kColumnBlock);
  s += "  __shared__ __align__(16) unsigned char smem[" + std::to_string(slots * maxAccBytes()) +
       "];\n";
  if (hasVar())
    s += "  __shared__ long long smem_n[" + B + "];  // a var's counts\n";
  s += "  __shared__ int last_split;\n";
  s += "  const int tid = (int)threadIdx.x, tx = tid % " + X + ", ty = tid / " + X + ";\n";
  s += "  // kl lanes of a warp across a tile's columns (fewer than " + X + " for few columns),\n";
  s += "  // the warp's others down the rows: column lane cx, row lane ry of ys\n";
  s += "  const int kl = (int)a.lanes, cx = tx % kl, ry = ty * (" + X + " / kl) + tx / kl;\n";
  s += "  const int ys = " + B + " / kl, w = kl * " + V + ";  // rows per step, columns per tile\n";
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
    s += "    for (int v = 0; v < " + V + "; ++v)\n      q" + std::to_string(j) + "[v] = " + ident +
         ";\n";
  }
  s += "    I wn = 0;\n";
  s += "    (void)wn;\n";
  s += "    if (col < (I)a.cols) {\n";
  if (v.packed) {
    // A packed column's outer kept coordinates; its place in a vector is kcol.
    s += "      const I pcol = col / " + V + ";  // a.kcols is V\n";
    s += decompose("pcol", k_.grouping.outerKept, "col_rest", "      ");
  } else {
    s += decompose("col", kept_, "col_rest", "      ");
  }
  s += v.general ? generalRows() : tileRows(v);
  s += "    }\n";
  s += combineRowPartials(v);
  s += "  }\n}\n\n";
  return s;
}

ColumnReductionEmitter::AddressedRow ColumnReductionEmitter::addressedRow(int indent) {
  ValueEmitter emitter = newEmitter(false);
  AddressedRow row;
  for (const Op *op : k_.rows.reductions)
    row.x.push_back(
        reductionInputAsAccumulator(*op, emitter.emit(*op->operand(0), domainCoords())));
  row.body = emitter.body(indent);
  return row;
}

std::string ColumnReductionEmitter::generalRows() {
  const std::string pad = "        ";
  std::string s = "      for (I row = row_begin + ry; row < row_end; row += ys) {\n";
  s += "        const int v = 0;\n";
  s += decompose("row", k_.grouping.reduced, "row_rest", pad);
  const AddressedRow row = addressedRow(8);
  s += countRow(pad);
  s += row.body;
  s += accumulate(row.x, pad);
  s += "      }\n";
  return s;
}

std::string ColumnReductionEmitter::tileRows(const ColumnVariant &v) {
  const std::string V = std::to_string(v.vector);
  ValueEmitter emitter = newEmitter(true);
  std::vector<std::string> x;
  for (const Op *op : k_.rows.reductions)
    x.push_back(reductionInputAsAccumulator(*op, emitter.emit(*op->operand(0), {})));
  lanes_ = false;
  const std::string U = std::to_string(kColumnUnroll);
  // A packed tile's lanes start whole vectors of packed columns.
  std::string s =
      v.packed ? "      const I kcol = 0;\n" : "      const I kcol = col % (I)a.kcols;\n";
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
  s += "      for (; row + " + std::to_string(kColumnUnroll - 1) + " * ys < row_end; row += " + U +
       " * ys) {\n";
  s += loadRows(v, kColumnUnroll) + computeRows(v, kColumnUnroll, emitter, x);
  s += advance(U);
  s += "      }\n";
  s += "      for (; row < row_end; row += ys) {\n";
  s += loadRows(v, 1) + computeRows(v, 1, emitter, x);
  s += advance("1");
  s += "      }\n";
  return s;
}

std::string ColumnReductionEmitter::advance(const std::string &rows) const {
  std::string s;
  for (size_t t = 0; t < k_.tensors.size(); ++t)
    if (k_.tensors[t].lanes)
      s += "        t" + std::to_string(t) + "_p += " + rows + " * t" + std::to_string(t) + "_s;\n";
  return s;
}

std::string ColumnReductionEmitter::loadRows(const ColumnVariant &v, int rows) const {
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
      const std::string fill = "for (int v = 0; v < " + std::to_string(v.vector) + "; ++v) t" + T +
                               "_l[" + std::to_string(u) + "][v] = " + at + ";\n";
      // One value per row, unless packed vectors hold several rows (K = 1)
      // and hold 16 bytes of it at most (the host packs no wider).
      const int bytesPerVector = v.vector * dtypeBytes(k_.tensors[t].storage);
      if (sameAcrossColumns(k_, k_.tensors[t]) && (!v.packed || bytesPerVector > 16)) {
        s += pad + fill;
        continue;
      }
      const std::string bytes = "fuserc_bytes" + std::to_string(bytesPerVector);
      s += pad + "if (a.ks[" + T + "])\n";
      s += pad + "  *(" + bytes + " *)t" + T + "_l[" + std::to_string(u) + "] = *(const " + bytes +
           " *)&" + at + ";\n";
      s += pad + "else\n" + pad + "  " + fill;
    }
  }
  return s;
}

std::string ColumnReductionEmitter::computeRows(const ColumnVariant &v, int rows,
                                                const ValueEmitter &emitter,
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

EmittedKernel emitColumnReductionKernel(const KernelRequest &request,
                                        const ReductionSchedule &schedule) {
  const KernelContext cx(request);
  return ColumnReductionEmitter(cx, schedule).run();
}

} // namespace fuserc
