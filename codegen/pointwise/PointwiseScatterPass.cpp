// Pointwise kernels with a two-pass scatter (schedulers/TwoPassScatter.h):
// what the fill computes and reads, and the update pass over the index.
//
// The update pass is one kernel run in three phases over the index's
// positions, deterministic for duplicate positions: (0) each position
// clears the claim of the element it writes, (1) claims it with
// atomicMax(position along dim + 1), (2) the position whose claim stands,
// the last of its line in row-major order (the documented duplicate rule),
// recomputes the written values that read the scatter from its source and
// stores them there. Claims are 32-bit words in the workspace's scratch
// area, one per element of the scatter's result. Up to kOneBlockPositions
// positions run as one block, the phases separated by __syncthreads; more
// run as launches over the whole grid, phase 0 replaced by zeroing every
// claim unless they outnumber the positions 16 to 1. When the index is the
// same on every line (index_copy's expanded rows), claims are one per
// position along dim, and phases 0 and 1 run over one line. Work is linear in the index's
// positions, as the fill is in the result's elements. Lines of at most
// kScanPositions positions (a decode step's KV-cache rows) need no claims:
// phase 2 alone runs, each position skipped when a later one of its line
// writes the same target (scan mode, one launch instead of two or three).
#include "codegen/core/CudaTypes.h"
#include "codegen/core/ElementwiseCode.h"
#include "codegen/core/IndexChecks.h"
#include "codegen/core/VariantHook.h"
#include "codegen/pointwise/PointwiseEmitter.h"
#include "ir/DType.h"
#include "schedulers/KernelGenerator.h"

#include <algorithm>
#include <numeric>

namespace fuserc::pointwise {
namespace {

// `text`'s lines, each after `pad`.
std::string indented(const std::string &text, const std::string &pad) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    out += pad + text.substr(start, end - start) + "\n";
    start = end == std::string::npos ? text.size() : end + 1;
  }
  return out;
}

// Positions one block runs, all three phases in one launch.
constexpr int kOneBlockPositions = 1024;

// Scan mode: the most positions along dim a line may have, and, unless the
// index is the same on every line (its later positions then one cached
// word per row), the most positions in all: each position reads up to
// kScanPositions - 1 later ones, which should come from L2.
constexpr int kScanPositions = 32;
constexpr long long kScanIndexPositions = 1LL << 20;

// Whether the scatter's index names the same position on every line: a
// broadcast (expand, broadcast_in_dim) of a tensor of extent 1 in every dim
// but `dim`, as index_copy's rows expanded over the columns. Then a line's
// winners are every line's, and one claim per position along dim serves.
bool indexSameOnEveryLine(const Op &scatter) {
  const Value &index = *scatter.operand(1);
  const size_t dim = static_cast<size_t>(scatter.attrs().integer("dim"));
  const Op *op = index.definingOp();
  if (!op || (op->info().shapeRule != ShapeRule::Expand &&
              op->info().shapeRule != ShapeRule::BroadcastInDim))
    return false;
  const Value &from = *op->operand(0);
  std::vector<bool> varies(index.rank(), false);
  for (size_t i = 0; i < from.rank(); ++i) {
    const size_t r = op->info().shapeRule == ShapeRule::Expand
                         ? i + index.rank() - from.rank()
                         : static_cast<size_t>(op->attrs().axes("broadcast_dims")[i]);
    varies[r] = !from.shape()[i].isConstant(1);
  }
  for (size_t d = 0; d < index.rank(); ++d)
    if (d != dim && varies[d] && !index.shape()[d].isConstant(1))
      return false;
  return true;
}

} // namespace

// The ops the fill computes: those the written values need with the
// scatter replaced by its background. Records the values it loads.
std::vector<const Op *> PointwiseEmitter::splitAtScatter(const std::vector<const Op *> &ops) {
  scatter_ = findTwoPassScatter(cx_.segment.segment);
  if (!scatter_)
    return ops;
  const Op &scatter = *scatter_->scatter;
  std::set<const Op *> needed;
  std::set<const Value *> seen;
  std::vector<const Value *> work;
  for (const KernelTensor &t : tensors_)
    if (t.written)
      work.push_back(t.value);
  while (!work.empty()) {
    const Value *v = work.back();
    work.pop_back();
    if (v == scatter.result())
      v = scatter.operand(0);
    if (v->isLiteral() || !seen.insert(v).second)
      continue;
    if (!v->definingOp() || loadsFromTensor(cx_.segment.segment, throughOps_, *v)) {
      fillLoads_.insert(v);
      continue;
    }
    needed.insert(v->definingOp());
    for (const Value *operand : v->definingOp()->operands())
      work.push_back(operand);
  }
  lineConstant_ = indexSameOnEveryLine(scatter);
  fillIsIdentity_ = updatesBackgroundInPlace();
  std::vector<const Op *> fill;
  std::copy_if(ops.begin(), ops.end(), std::back_inserter(fill),
               [&](const Op *op) { return needed.count(op) > 0; });
  return fill;
}

// Whether the fill would copy the scatter's background onto itself: every
// tensor the segment writes is the scatter's result, stored only into the
// buffer of its background, an input it updates in place.
bool PointwiseEmitter::updatesBackgroundInPlace() const {
  const Value &result = *scatter_->scatter->result(), &background = *scatter_->scatter->operand(0);
  if (!background.isInput() || cx_.analysis.outputView(result) || cx_.fusion.crossingOf(result))
    return false;
  for (const KernelTensor &t : tensors_)
    if (t.written && t.value != &result)
      return false;
  std::span<const FusionOutput *const> outputs = cx_.analysis.outputsOf(result);
  return !outputs.empty() &&
         std::all_of(outputs.begin(), outputs.end(), [&](const FusionOutput *o) {
           return o->kind == OutputKind::InPlace && o->aliases == &background;
         });
}

// Whether the fill loads input tensor t (every input, without a scatter).
bool PointwiseEmitter::fillReads(size_t t) const {
  return !tensors_[t].written && (!scatter_ || fillLoads_.count(tensors_[t].value) > 0);
}

std::string PointwiseEmitter::scatterArgsMembers() const {
  const std::string R = std::to_string(kMaxRank);
  return "  long long u_size[" + R + "], u_slot[" + R + "];\n  long long u_numel;\n" +
         "  unsigned u_mul[" + R + "], u_shift[" + R + "];\n  unsigned *u_claim;\n" +
         "  int u_first, u_last, u_unique, u_scan;\n";
}

// Kernel statements from the index's value `target` at position p to the
// target coordinate `tc`: a position out of range (or outside x in another
// dim) writes nothing, and is reported where `report` holds (IndexChecks.h);
// compared in 64 bits, so that no large index wraps into range.
std::string PointwiseEmitter::scatterTarget(const std::string &target, const std::string &report,
                                            const std::string &pad) const {
  const Op &op = *scatter_->scatter;
  const Value &x = *op.operand(0), &index = *op.operand(1);
  const size_t dim = static_cast<size_t>(op.attrs().integer("dim"));
  std::string outside = "tl < 0 || tl >= " + kernelExtentValueCode(x.shape()[dim], symbols());
  for (size_t d = 0; d < index.rank(); ++d)
    if (d != dim && index.shape()[d] != x.shape()[d])
      outside += " || p" + std::to_string(d) + " >= " + kernelExtentCode(x.shape()[d], symbols());
  return pad + "const long long tl = (long long)(" + target + ");\n" + pad + "if (" + outside +
         ") {\n" + pad + "  if (" + report + ")\n" + pad + "    fuserc_index_error(" +
         indexFlagInKernel() + ", " + std::to_string(indexCheckCode(op)) + ");\n" + pad +
         "  continue;\n" + pad + "}\n" + pad + "const I tc = (I)tl;\n";
}

// Scan mode's phase-2 statements (a.u_scan): `continue` when a later
// position of the line, p with p_dim = j > p_dim, writes the same target, the
// duplicate rule without claims. The index is emitted at those positions by
// an emitter of its own, its variables named from `firstName` on.
std::string PointwiseEmitter::scatterLaterWriter(int firstName, const std::string &pad) {
  const Op &op = *scatter_->scatter;
  const size_t dim = static_cast<size_t>(op.attrs().integer("dim"));
  const std::string D = std::to_string(dim);
  Coords at;
  for (size_t d = 0; d < op.operand(1)->rank(); ++d)
    at.push_back(d == dim ? "j" : "p" + std::to_string(d));
  ValueEmitter emitter(
      [&](const Value &v) { return loadsFromTensor(cx_.segment.segment, throughOps_, v); }, *this,
      symbols(), "I", false);
  emitter.startNamesAt(firstName);
  const std::string target = emitter.emit(*op.operand(1), at);
  const std::string body = emitter.takeBody(static_cast<int>(pad.size()) + 4);
  // No early exit: the later positions' loads are independent, in flight
  // together.
  return pad + "if (a.u_scan) {\n" + pad + "  bool later = false;\n" + pad +
         "  #pragma unroll 4\n" + pad + "  for (I j = p" + D + " + 1; j < (I)a.u_size[" + D +
         "]; ++j) {\n" + body + pad + "    later |= (long long)(" + target + ") == tl;\n" + pad +
         "  }\n" + pad + "  if (later)\n" + pad + "    continue;\n" + pad + "}";
}

std::vector<size_t> PointwiseEmitter::scatterUpdatedTensors() const {
  std::set<const Value *> reads{scatter_->scatter->result()};
  for (const Op *chained : scatter_->chain)
    reads.insert(chained->result());
  std::vector<size_t> updated;
  for (size_t t = 0; t < tensors_.size(); ++t)
    if (tensors_[t].written && reads.count(tensors_[t].value))
      updated.push_back(t);
  return updated;
}

std::string PointwiseEmitter::scatterKernel(bool wide) {
  const Op &op = *scatter_->scatter;
  const Value &index = *op.operand(1), &src = *op.operand(2);
  const Value &result = *op.result();
  const size_t dim = static_cast<size_t>(op.attrs().integer("dim"));
  const size_t rank = index.rank();
  const std::string D = std::to_string(dim), B = std::to_string(kBlock);
  Coords p;
  for (size_t d = 0; d < rank; ++d)
    p.push_back("p" + std::to_string(d));
  ValueEmitter emitter(
      [&](const Value &v) { return loadsFromTensor(cx_.segment.segment, throughOps_, v); }, *this,
      symbols(), "I", false);
  const std::string target = emitter.emit(index, p);
  const std::string indexBody = emitter.takeBody(6);
  // At the element it writes, the scatter is its source's element, and
  // every written value reading it is recomputed from there.
  const std::string value = emitter.emit(src, src.isRankZero() ? Coords{} : p);
  emitter.bind(result, cudaConvert(value, src.isLiteral() ? src.dtype() : mathDType(src.dtype()),
                                   mathDType(result.dtype())));
  Coords c = p;
  c[dim] = "tc";
  std::vector<std::pair<size_t, std::string>> stores;
  for (size_t t : scatterUpdatedTensors())
    stores.push_back({t, storedValue(emitter, t, c)});
  const std::string updateBody = emitter.takeBody(6);

  std::string s = "extern \"C\" __global__ void __launch_bounds__(" + B + ") " +
                  kernelName("scatter", wide) + "(const " + cx_.base + "_args a) {\n";
  s += indexTypedef(wide);
  s += "  for (int phase = a.u_first; phase <= a.u_last; ++phase) {\n";
  s += "    for (I lin = (I)blockIdx.x * " + B +
       " + threadIdx.x; lin < (I)a.u_numel; lin += " + "(I)gridDim.x * " + B + ") {\n";
  std::vector<size_t> dims(rank);
  std::iota(dims.begin(), dims.end(), size_t{0});
  s += decomposeLinear(dims, "p", "a.u_size", "a.u", wide, "      ");
  s += indexBody;
  s += scatterTarget(target, "phase == 1 || a.u_unique || a.u_scan", "      ");
  std::string slot = "0";
  for (size_t d = 0; d < rank; ++d)
    slot += " + " + c[d] + " * (I)a.u_slot[" + std::to_string(d) + "]";
  s += "      unsigned *claim = a.u_claim + (" + slot + ");\n";
  s += "      const unsigned mine = (unsigned)p" + D + " + 1u;\n";
  s += "      if (phase == 0) {\n        __stcg(claim, 0u);\n        continue;\n      }\n";
  s += "      if (phase == 1) {\n        atomicMax(claim, mine);\n        continue;\n      }\n";
  // A launch of its own sees the claims through L1; one block running
  // every phase reads them from L2, past its own L1 lines.
  s += scatterLaterWriter(emitter.namesUsed(), "      ");
  s += " else if (!a.u_unique && (a.u_first == a.u_last ? *claim : __ldcg(claim)) != mine) {\n"
       "        continue;\n      }\n";
  s += updateBody;
  for (const auto &[t, var] : stores) {
    std::string offset = "0";
    for (size_t d = 0; d < rank; ++d)
      offset += " + " + c[d] + " * (I)a.st[" + std::to_string(t) + "][" + std::to_string(d) + "]";
    s += "      ((" + cudaStorageType(tensors_[t].storage) + " *)a.ptr[" + std::to_string(t) +
         "])[" + offset + "] = " + var + ";\n";
  }
  s += "    }\n";
  s += "    if (a.u_first != a.u_last)\n      __syncthreads();\n";
  s += "  }\n}\n\n";
  return s;
}

// The host block of a scatter that updates its background in place: the
// arguments, then the update pass alone.
std::string PointwiseEmitter::scatterOnlyHostLaunch() const {
  auto sym = [](const std::string &s) { return "sym_" + s; };
  std::string s = "{\n";
  s += "  FUSERC_NAME_" + cx_.base + "_args a;\n";
  s += "  const char *kernel;\n  int wide, claims_only = 0;\n";
  s += "  memset(&a, 0, sizeof a);\n";
  s += indexFlagHostCode();
  s += hostSymbolAndScalarArguments(symbols(), scalars_);
  s += "  a.numel = 1;\n";
  for (size_t d = 0; d < rank_; ++d) {
    s += "  a.size[" + std::to_string(d) + "] = " + extentToCode(reference_->shape()[d], sym) +
         ";\n";
    s += "  a.numel *= a.size[" + std::to_string(d) + "];\n";
  }
  for (size_t t = 0; t < tensors_.size(); ++t)
    s += hostTensorArguments(t, tensors_[t]);
  s += "  wide = !fuserc_pw_fits32(" + std::to_string(tensors_.size()) + ", " +
       std::to_string(rank_) + ", a.size, a.st, a.numel);\n";
  // The testing hook's one alternative: claims in place of scan mode.
  s += variantHookPick(cx_.base, 1, "  ") + variantHookForce(0, {scatterClaimsAlternative()}, "  ");
  return s + scatterHostLaunch() + "}\n";
}

// The update pass's kernels: the scalar one, and the row variant when it
// exists.
std::string PointwiseEmitter::scatterKernels() {
  std::string s;
  for (bool wide : {false, true})
    s += scatterKernel(wide);
  if (scatterRowLanes())
    for (bool wide : {false, true})
      s += scatterRowKernel(wide);
  return s;
}

// Host statements after the fill's launch (KernelPlan.h's contract; `a`,
// `wide`, `kernel` and `st` are the fill's).
std::string PointwiseEmitter::scatterHostLaunch() const {
  auto sym = [](const std::string &s) { return "sym_" + s; };
  const Op &op = *scatter_->scatter;
  const Value &result = *op.result(), &index = *op.operand(1);
  const size_t rank = index.rank();
  const size_t dim = static_cast<size_t>(op.attrs().integer("dim"));
  const std::string R = std::to_string(rank), B = std::to_string(kBlock),
                    one = std::to_string(kOneBlockPositions);
  auto launch = [&](const std::string &args, const std::string &grid, const std::string &pad) {
    return pad + "st = FUSERC_NAME_launch_kernel(kernel, " + grid + ", 1, 1, " + B + ", 0, &" +
           args + ", stream);\n" + pad + "if (st != FUSERC_NAME_OK)\n" + pad + "  return st;\n";
  };
  auto magic = [&](const std::string &args, const std::string &pad) {
    std::string m;
    for (size_t d = 0; d < rank; ++d)
      m += pad + "fuserc_pw_magic(" + args + ".u_size[" + std::to_string(d) + "], &" + args +
           ".u_mul[" + std::to_string(d) + "], &" + args + ".u_shift[" + std::to_string(d) +
           "]);\n";
    return m;
  };
  std::string s = "  a.u_numel = 1;\n";
  for (size_t d = 0; d < rank; ++d) {
    const std::string ds = std::to_string(d);
    s += "  a.u_size[" + ds + "] = " + extentToCode(index.shape()[d], sym) + ";\n";
    s += "  a.u_numel *= a.u_size[" + ds + "];\n";
  }
  // Claims: one per element of the result, row-major; with an index the
  // same on every line, one per position along dim.
  for (size_t d = rank; d-- > 0;) {
    const std::string target = "  a.u_slot[" + std::to_string(d) + "] = ";
    if (lineConstant_)
      s += target + (d == dim ? "1" : "0") + ";\n";
    else if (d == rank - 1)
      s += target + "1;\n";
    else
      s += target + "a.u_slot[" + std::to_string(d + 1) + "] * (" +
           extentToCode(result.shape()[d + 1], sym) + ");\n";
  }
  s += "  if (a.u_numel > 0) {\n";
  s += "    FUSERC_NAME_" + cx_.base + "_args c;\n";
  s += "    int phase = 0;\n";
  s += "    const long long claims = " +
       (lineConstant_ ? extentToCode(result.shape()[dim], sym)
                      : "a.u_slot[0] * (" + extentToCode(result.shape()[0], sym) + ")") +
       ";\n";
  s += "    const int uwide = wide || !fuserc_pw_fits32(" + std::to_string(tensors_.size()) + ", " +
       R + ", a.u_size, a.st, a.u_numel);\n";
  s += magic("a", "    ");
  s += "    a.u_claim = (unsigned *)(ws + " + extentToCode(cx_.scratchOffset, sym) + ");\n";
  s += "    kernel = uwide ? \"" + kernelName("scatter", true) + "\" : \"" +
       kernelName("scatter", false) + "\";\n";
  // Phase 2 over every position: by vectors of a row where it can.
  std::string phase2 = "a.u_first = a.u_last = 2;\n";
  if (const int lanes = scatterRowLanes()) {
    const std::string V = std::to_string(lanes);
    phase2 += "{\n  int rows;\n" + scatterRowSelect() + "  if (rows)\n";
    phase2 += "    kernel = uwide ? \"" + kernelName("scatter_rows" + V, true) + "\" : \"" +
              kernelName("scatter_rows" + V, false) + "\";\n";
    phase2 += launch("a",
                     "fuserc_pw_blocks((unsigned long long)(rows ? a.u_numel / " + V +
                         " : a.u_numel), " + B + ")",
                     "  ") +
              "}\n";
  } else {
    phase2 += launch("a", "fuserc_pw_blocks((unsigned long long)a.u_numel, " + B + ")", "");
  }
  // One position per line: no duplicates, so no claims; few: scan mode.
  const std::string along = "a.u_size[" + std::to_string(dim) + "]";
  s += "    a.u_unique = " + along + " == 1;\n";
  s += "    a.u_scan = !claims_only && !a.u_unique && " + along +
       " <= " + std::to_string(kScanPositions) +
       (lineConstant_ ? "" : " && a.u_numel <= " + std::to_string(kScanIndexPositions) + "LL") +
       ";\n";
  s += "    if (a.u_unique || a.u_scan) {\n" + indented(phase2, "      ") + "    } else ";
  s += "if (a.u_numel <= " + one + ") {\n";
  s += "      a.u_first = 0;\n      a.u_last = 2;\n";
  s += launch("a", "1", "      ");
  s += "    } else {\n";
  // Phases 0 and 1 run over `c`: the positions of one line when the index
  // is the same on every line, else all of them.
  s += "      c = a;\n";
  if (lineConstant_) {
    for (size_t d = 0; d < rank; ++d)
      if (d != dim)
        s += "      c.u_size[" + std::to_string(d) + "] = 1;\n";
    s += "      c.u_numel = c.u_size[" + std::to_string(dim) + "];\n";
    s += magic("c", "      ");
  }
  // Zeroing every claim is one sequential pass, where phase 0 writes one
  // scattered word per position (a sector each when the targets are
  // random): it is done unless the claims outnumber the positions 16 to 1.
  s += "      if (claims <= 16 * c.u_numel) {\n";
  s += "        st = FUSERC_NAME_zero_words(a.u_claim, (size_t)claims, stream);\n";
  s += "        if (st != FUSERC_NAME_OK)\n          return st;\n";
  s += "        phase = 1;\n      }\n";
  s += "      if (c.u_numel <= " + one + ") {\n";
  s += "        c.u_first = phase;\n        c.u_last = 1;\n";
  s += launch("c", "1", "        ");
  s += "      } else {\n";
  s += "        for (; phase < 2; ++phase) {\n";
  s += "          c.u_first = c.u_last = phase;\n";
  s += launch("c", "fuserc_pw_blocks((unsigned long long)c.u_numel, " + B + ")", "          ");
  s += "        }\n      }\n";
  s += indented(phase2, "      ");
  s += "    }\n  }\n";
  return s;
}

void PointwiseEmitter::addScatterToPlan(KernelPlan &plan) const {
  const Op &op = *scatter_->scatter;
  const std::string name = cx_.analysis.quoted(*op.result());
  for (bool wide : {false, true})
    plan.variants.push_back({kernelName("scatter", wide), "the update pass of scatter " + name +
                                                              ": one index position per thread, " +
                                                              (wide ? "64" : "32") +
                                                              "-bit indices"});
  if (const int lanes = scatterRowLanes()) {
    const std::string V = std::to_string(lanes);
    for (bool wide : {false, true})
      plan.variants.push_back(
          {kernelName("scatter_rows" + V, wide),
           "phase 2 of the update pass of scatter " + name + ": " + V +
               " positions of a row per thread, one claim, the source and the outputs moved by "
               "vector, " +
               (wide ? "64" : "32") + "-bit indices"});
    plan.selection += " Phase 2 runs scatter_rows" + V +
                      " when the index's innermost extent is a multiple of " + V +
                      " and every tensor it moves by vector is contiguous there and aligned.";
  }
  plan.selection += " Then the update pass of scatter " + name +
                    " over its index: i64 when an element, an offset or the index's positions "
                    "reach 2^31.";
  const std::string one = std::to_string(kOneBlockPositions), B = std::to_string(kBlock);
  plan.launchGeometry +=
      "; then the update pass: one position per line or (scan mode) at most " +
      std::to_string(kScanPositions) + " per line" +
      (lineConstant_ ? "" : " and " + std::to_string(kScanIndexPositions) + " in all") +
      ", phase 2 alone, each position checking the later ones of its line; else up to " + one +
      " index positions one block of " + B +
      " running its three phases; more: phases 0 and 1 over " +
      (lineConstant_ ? "one line's positions" : "every position") + " (one block up to " + one +
      ", else min(ceil(positions / " + B +
      "), 1048576) blocks each; phase 0 a memset of every claim unless they outnumber those "
      "positions 16 to 1), then phase 2 over every position";
  const size_t dim = static_cast<size_t>(op.attrs().integer("dim"));
  plan.scratchBytes =
      (lineConstant_ ? op.result()->shape()[dim] : numElements(op.result()->shape())) * int64_t{4};
  plan.parameters.push_back(
      {"scatter_claims",
       std::string(lineConstant_ ? "one per position along dim" : "one per element")});
}

} // namespace fuserc::pointwise
