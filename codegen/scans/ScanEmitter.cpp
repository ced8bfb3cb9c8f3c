// Scan kernels (see ScanKernel.h): the device code of the `_lanes` kernel,
// its argument struct, the host block that picks the group size and
// launches it, and the plan.
#include "codegen/core/BlockReduce.h"
#include "codegen/core/CudaTypes.h"
#include "codegen/core/ElementwiseCode.h"
#include "codegen/core/IndexChecks.h"
#include "codegen/core/KernelContext.h"
#include "codegen/core/KernelTensors.h"
#include "codegen/core/ReductionValues.h"
#include "codegen/core/ValueEmitter.h"
#include "codegen/core/VariantHook.h"
#include "codegen/scans/ScanKernel.h"
#include "ir/Limits.h"
#include "ir/Printer.h"
#include "schedulers/OpFamilies.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace fuserc {
namespace {

constexpr int kBlock = 256;
constexpr int64_t kMaxBlocks = 1 << 20;
constexpr size_t kMaxRank = limits::kMaxRank;
// Elements per thread and chunk, all loaded before the scan needs them:
// along rows 8; across rows, where a thread walks its line alone, 16.
constexpr int kAlongRowsElements = 8;
constexpr int kAcrossRowsElements = 16;
// Lines split along the scanned dim when they are too few to fill the GPU:
// up to kMaxSplits pieces while the warps stay under kSplitWarps, each
// piece at least 8 chunks long. A first kernel (_totals) writes each
// piece's totals, in which the pieces after it start; so pieces * lines
// stays under kSplitWarps * 32 and the totals fit in kMaxTotals.
constexpr int kMaxSplits = 64;
constexpr int64_t kSplitWarps = 16384;
constexpr int64_t kMaxTotals = kSplitWarps * 32;

// Whether a coordinate expression is one a whole line shares: a line
// coordinate c<d> (or a literal). Anything else (a position p<k>, or an
// expression the emitter built, such as a gathered index) is computed per
// element.
bool sharedByTheLine(const std::string &expr) {
  if (expr.empty())
    return false;
  const size_t digits = expr[0] == 'c' ? 1 : 0;
  if (digits == 1 && expr.size() == 1)
    return false;
  return std::all_of(expr.begin() + static_cast<std::ptrdiff_t>(digits), expr.end(),
                     [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
}

class ScanEmitter : public InputReader {
public:
  ScanEmitter(const KernelContext &cx, const ScanSchedule &schedule)
      : cx_(cx), schedule_(schedule), lanes_(schedule.lanes),
        v_(schedule.alongRows ? kAlongRowsElements : kAcrossRowsElements) {}

  EmittedKernel run() {
    if (lanes_.scans.empty() || !schedule_.reference)
      throw CodegenError("segment " + std::to_string(cx_.segment.id) +
                         " has no scan or writes nothing");
    if (lanes_.domain.size() > kMaxRank)
      throw CodegenError("rank " + std::to_string(lanes_.domain.size()) +
                         " is above the supported " + std::to_string(kMaxRank));
    KernelOperands operands = collectKernelOperands(cx_.fusion, cx_.segment, cx_.workspace, "scan");
    tensors_ = std::move(operands.tensors);
    scalars_ = std::move(operands.scalars);
    throughOps_ = std::move(operands.throughOps);
    for (const KernelTensor &t : tensors_)
      if (t.written && t.value->shape() != lanes_.domain)
        throw CodegenError(cx_.analysis.quoted(*t.value) + " " + typeString(*t.value) +
                           " is not shaped like the scanned " + shapeString(lanes_.domain));
    EmittedKernel out;
    out.source = blockReduceCuda() + argsStruct("") + "\n" + kernel(false);
    if (splittable())
      out.source += "\n" + kernel(true);
    fillPlan(out.plan);
    return out;
  }

  InputRead read(const Value &input, const Coords &coords) override {
    if (auto scan = scanIndex(input); scan < lanes_.scans.size()) {
      auto element = elementOf_.find(coords.at(lanes_.dim));
      if (element == elementOf_.end())
        throw CodegenError("internal: " + cx_.analysis.quoted(input) +
                           " is read away from the elements its scan computed");
      return "r" + std::to_string(scan) + "_" + std::to_string(element->second);
    }
    if (input.isScalarInput())
      return scalarArgRead(scalars_, input);
    const size_t t = kernelTensorIndex(tensors_, input, false, cx_.analysis);
    return InputRead::load("((const " + cudaStorageType(tensors_[t].storage) + " *)a.ptr[" +
                           std::to_string(t) + "])[" + offsetCode(t, coords) + "]");
  }

private:
  std::vector<std::string> symbols() const { return cx_.fusion.fusion->symbols(); }

  // Whether lines may be split in pieces (ScanSchedule::chained).
  bool splittable() const { return !schedule_.chained; }

  size_t scanIndex(const Value &v) const {
    for (size_t j = 0; j < lanes_.scans.size(); ++j)
      if (lanes_.scans[j]->result() == &v)
        return j;
    return lanes_.scans.size();
  }

  // The dims a line index enumerates: all but the scanned one and static
  // 1s, in the reference's memory order (innermost fastest).
  std::vector<size_t> lineDims() const {
    std::vector<size_t> dims;
    for (int64_t d : schedule_.order) {
      const auto u = static_cast<size_t>(d);
      if (u != lanes_.dim && !lanes_.domain[u].isConstant(1))
        dims.push_back(u);
    }
    return dims;
  }

  // Element k of a thread's chunk: position p<k> along the scanned dim.
  Coords elementCoords(int k) const {
    Coords c;
    for (size_t d = 0; d < lanes_.domain.size(); ++d)
      c.push_back(d == lanes_.dim                  ? "p" + std::to_string(k)
                  : lanes_.domain[d].isConstant(1) ? "0"
                                                   : "c" + std::to_string(d));
    return c;
  }

  // The element offset of kernel tensor `t` at `coords`: the terms that do
  // not vary along the line are summed once per line (lb<n>), the rest per
  // element.
  std::string offsetCode(size_t t, const Coords &coords) {
    std::string invariant = "0", varying;
    for (size_t d = 0; d < coords.size(); ++d) {
      if (coords[d] == "0")
        continue;
      const std::string term =
          coords[d] + " * (I)a.st[" + std::to_string(t) + "][" + std::to_string(d) + "]";
      if (sharedByTheLine(coords[d]))
        invariant += " + " + term;
      else
        varying += " + " + term;
    }
    auto [it, added] = lineBases_.try_emplace(invariant, "lb" + std::to_string(lineBases_.size()));
    if (added)
      lineBaseOrder_.push_back(invariant);
    return it->second + varying;
  }

  // ---- device code ----

  std::string argsStruct(const std::string &prefix) const {
    const std::string nt = std::to_string(std::max<size_t>(tensors_.size(), 1));
    const std::string ns = std::to_string(std::max<size_t>(symbols().size(), 1));
    const std::string R = std::to_string(kMaxRank);
    std::string s = "typedef struct {\n";
    s += "  void *ptr[" + nt + "];\n";
    s += "  long long st[" + nt + "][" + R + "];  /* strides per tensor dim */\n";
    s += "  long long size[" + R + "];\n";
    s += "  long long len, lines;  /* the scanned extent; the lines along it */\n";
    s += "  int group, pad_;       /* lanes per line: a power of two up to 32 */\n";
    s += "  long long splits, span;  /* pieces per line, positions per piece */\n";
    s += "  void *totals;          /* per scan, per piece and line: its total */\n";
    s += "  long long sym[" + ns + "];\n";
    return s + argsStructEnd(scalars_, "", cx_.segment.segment, prefix + cx_.base);
  }

  // The _lanes kernel, or with `totals` the _totals kernel, which scans the
  // same pieces without storing and writes each piece's totals.
  std::string kernel(bool totals) {
    const std::string V = std::to_string(v_);
    for (int k = 0; k < v_; ++k)
      elementOf_["p" + std::to_string(k)] = k;
    const std::string body = chunkBody(totals); // first: it names the line bases
    std::string s = "// segment " + std::to_string(cx_.segment.id) + " (" +
                    std::string(cx_.segment.scheduler->name()) + ")\n";
    s += "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kBlock) + ") " +
         kernelName(totals) + "(const " + cx_.base + "_args a) {\n";
    s += "  typedef long long I;\n";
    // Per warp, a chunk's scan values pass through shared memory from the
    // order they are loaded in (element k*G + sub of the chunk in thread
    // sub: coalesced) to the order they are scanned in (elements sub*V to
    // sub*V + V - 1: consecutive), and back; one pad word per 32 keeps
    // both orders free of bank conflicts.
    s += "  __shared__ __align__(8) unsigned char smem[" +
         std::to_string(kBlock / 32 * bufferWords() * maxAccBytes()) + "];\n";
    s += "  unsigned char *const chunk_buf = smem + (threadIdx.x >> 5) * " +
         std::to_string(bufferWords() * maxAccBytes()) + ";\n";
    s += "  const I L = (I)a.len, lines = (I)a.lines, S = (I)a.splits, span = (I)a.span;\n";
    s += "  const int G = a.group, lane = (int)(threadIdx.x & 31), sub = lane & (G - 1);\n";
    s += "  const int group_at = (lane / G) * G * " + V + ";  // the group's slots in chunk_buf\n";
    s += "  const I per_warp = 32 / G;\n";
    s += "  const I warp = ((I)blockIdx.x * blockDim.x + threadIdx.x) >> 5;\n";
    s += "  const I warps = ((I)gridDim.x * blockDim.x) >> 5;\n";
    s += "  // Whole warps iterate together: every lane takes part in the shuffles.\n";
    s += "  // Pieces of one split are neighbours: so are their lines in memory.\n";
    s += "  for (I first = warp * per_warp; first < lines * S; first += warps * per_warp) {\n";
    s += "    I piece = first + lane / G;\n";
    s += "    const bool live = piece < lines * S;\n";
    s += "    if (!live)\n      piece = lines * S - 1;\n";
    s += "    const I split = piece / lines, line = piece - split * lines;\n";
    s += "    const I begin = split * span, end = begin + span < L ? begin + span : L;\n";
    s += decomposeIndexCode("line", lineDims(), "", "line_rest", "    ");
    for (const std::string &invariant : lineBaseOrder_)
      s += "    const I " + lineBases_.at(invariant) + " = " + invariant + ";\n";
    for (size_t j = 0; j < lanes_.scans.size(); ++j) {
      const Op &op = *lanes_.scans[j];
      const DType acc = reductionAccumulator(op.result()->dtype());
      const std::string J = std::to_string(j), A = cudaComputeType(acc);
      s += "    " + A + " carry" + J + " = " + reductionIdentity(scanKind(op), acc) + ";  // " +
           cx_.analysis.describe(op) + "\n";
      if (!totals && splittable())
        s += "    for (I before = 0; before < split; ++before)  // the pieces before, in order\n"
             "      carry" +
             J + " = " + reductionCombiner(scanKind(op)) + "()(carry" + J + ", " +
             totalsAt(j, "before") + ");\n";
    }
    s += "    for (I base = begin; base < end; base += (I)G * " + V + ") {\n";
    for (int k = 0; k < v_; ++k) {
      const std::string K = std::to_string(k);
      // Positions past the end compute the last element again (in range),
      // and take no part in the scan nor the stores.
      s += "      const I q" + K + " = base + (I)" + K + " * G + sub, p" + K + " = q" + K +
           " < end ? q" + K + " : end - 1;\n";
    }
    s += body;
    s += "    }\n";
    if (totals) {
      s += "    if (live && sub == 0) {\n";
      for (size_t j = 0; j < lanes_.scans.size(); ++j)
        s += "      " + totalsAt(j, "split") + " = carry" + std::to_string(j) + ";\n";
      s += "    }\n";
    }
    s += "  }\n}\n";
    return s;
  }

  // Scan j's total of piece `split` of the current line in the totals area.
  std::string totalsAt(size_t j, const std::string &split) const {
    const std::string A = cudaComputeType(reductionAccumulator(lanes_.scans[j]->result()->dtype()));
    return "((" + A + " *)((unsigned char *)a.totals + " + std::to_string(j) + "LL * " +
           std::to_string(kMaxTotals * 8) + "LL))[" + split + " * lines + line]";
  }

  // Words of chunk_buf per warp: 32 * V slots and their pads.
  int bufferWords() const { return 32 * v_ + v_; }

  int maxAccBytes() const {
    int bytes = 4;
    for (const Op *op : lanes_.scans)
      bytes = std::max(bytes, dtypeBytes(reductionAccumulator(op->result()->dtype())));
    return bytes;
  }

  static OpKind scanKind(const Op &op) {
    return op.kind() == OpKind::Cumprod ? OpKind::Prod : OpKind::Sum;
  }

  // One chunk: each scan in turn (its inputs, its scan, its results as
  // registers r<j>_<k>), then every store.
  std::string chunkBody(bool totals) {
    const std::string pad = "      ", V = std::to_string(v_);
    ValueEmitter emitter(
        [&](const Value &v) {
          return loadsFromTensor(cx_.segment.segment, throughOps_, v) ||
                 scanIndex(v) < lanes_.scans.size();
        },
        *this, symbols(), "I", false);
    std::string s;
    size_t taken = 0;
    auto flush = [&] {
      const std::string body = emitter.body(static_cast<int>(pad.size()));
      s += body.substr(taken);
      taken = body.size();
    };
    for (size_t j = 0; j < lanes_.scans.size(); ++j) {
      const Op &op = *lanes_.scans[j];
      const DType acc = reductionAccumulator(op.result()->dtype());
      const std::string A = cudaComputeType(acc), J = std::to_string(j);
      const std::string C = reductionCombiner(scanKind(op)) + "()";
      const std::string identity = reductionIdentity(scanKind(op), acc);
      std::vector<std::string> x;
      for (int k = 0; k < v_; ++k)
        x.push_back(
            reductionInputAsAccumulator(op, emitter.emit(*op.operand(0), elementCoords(k))));
      flush();
      const std::string buf = "((" + A + " *)chunk_buf)";
      auto slot = [&](const std::string &at) {
        return buf + "[(" + at + ") + ((" + at + ") >> 5)]";
      };
      s += pad + "// " + cx_.analysis.describe(op) +
           ": each thread's consecutive elements, then the threads before it in its group, "
           "then the chunks before\n";
      for (int k = 0; k < v_; ++k) {
        const std::string K = std::to_string(k);
        s += pad + slot("group_at + " + K + " * G + sub") + " = q" + K + " < end ? " + x[k] +
             " : " + identity + ";\n";
      }
      s += pad + "__syncwarp();\n";
      s += pad + "{\n";
      s += pad + "  " + A + " v[" + V + "];\n";
      s += pad + "  v[0] = " + slot("group_at + sub * " + V) + ";\n";
      s += pad + "  for (int m = 1; m < " + V + "; ++m)\n";
      s +=
          pad + "    v[m] = " + C + "(v[m - 1], " + slot("group_at + sub * " + V + " + m") + ");\n";
      s += pad + "  " + A + " t = v[" + std::to_string(v_ - 1) + "];\n";
      s += pad + "  for (int o = 1; o < G; o <<= 1) {\n";
      s += pad + "    const " + A + " y = __shfl_up_sync(0xffffffffu, t, o, G);\n";
      s += pad + "    if (sub >= o)\n";
      s += pad + "      t = " + C + "(y, t);\n";
      s += pad + "  }\n";
      s += pad + "  " + A + " before = __shfl_up_sync(0xffffffffu, t, 1, G);\n";
      s += pad + "  if (sub == 0)\n";
      s += pad + "    before = " + identity + ";\n";
      s += pad + "  const " + A + " prefix = " + C + "(carry" + J + ", before);\n";
      s += pad + "  for (int m = 0; m < " + V + "; ++m)\n";
      s += pad + "    " + slot("group_at + sub * " + V + " + m") + " = " + C + "(prefix, v[m]);\n";
      s += pad + "  carry" + J + " = " + C + "(carry" + J +
           ", __shfl_sync(0xffffffffu, t, G - 1, G));\n";
      s += pad + "}\n";
      s += pad + "__syncwarp();\n";
      const DType result = op.result()->dtype();
      for (int k = 0; k < v_; ++k)
        s += pad + "const " + cudaComputeType(mathDType(result)) + " r" + J + "_" +
             std::to_string(k) + " = " +
             cudaConvert(slot("group_at + " + std::to_string(k) + " * G + sub"), acc,
                         mathDType(result)) +
             ";\n";
      s += pad + "__syncwarp();  // chunk_buf is free again\n";
    }
    std::vector<std::string> stores;
    for (size_t t = 0; t < tensors_.size() && !totals; ++t) {
      if (!tensors_[t].written)
        continue;
      const Value &v = *tensors_[t].value;
      const Op *def = v.definingOp();
      const bool fold =
          def && cx_.segment.segment.contains(*def) && scanIndex(v) == lanes_.scans.size();
      for (int k = 0; k < v_; ++k) {
        const Coords at = elementCoords(k);
        const std::string value = storedExpression(emitter, v, tensors_[t].storage, fold, at);
        stores.push_back("if (live && q" + std::to_string(k) + " < end)\n" + pad + "  ((" +
                         cudaStorageType(tensors_[t].storage) + " *)a.ptr[" + std::to_string(t) +
                         "])[" + offsetCode(t, at) + "] = " + value + ";");
      }
    }
    flush();
    for (const std::string &st : stores)
      s += pad + st + "\n";
    return s;
  }

  std::string kernelName(bool totals = false) const {
    return cx_.base + (totals ? "_totals" : "_lanes");
  }

  // ---- host side ----

  std::string hostLaunch() const {
    auto sym = [](const std::string &s) { return "sym_" + s; };
    const std::string V = std::to_string(v_), B = std::to_string(kBlock);
    std::string s = "{\n";
    s += "  FUSERC_NAME_" + cx_.base + "_args a;\n";
    s += "  const char *kernel = \"" + kernelName() + "\";\n";
    s += "  long long blocks;\n";
    s += "  memset(&a, 0, sizeof a);\n";
    if (segmentChecksIndices(cx_.segment.segment))
      s += indexFlagHostCode();
    s += hostSymbolAndScalarArguments(symbols(), scalars_);
    s += "  a.lines = 1;\n";
    for (size_t d = 0; d < lanes_.domain.size(); ++d) {
      const std::string D = std::to_string(d);
      s += "  a.size[" + D + "] = " + extentToCode(lanes_.domain[d], sym) + ";\n";
      s += d == lanes_.dim ? "  a.len = a.size[" + D + "];\n" : "  a.lines *= a.size[" + D + "];\n";
    }
    for (size_t t = 0; t < tensors_.size(); ++t)
      s += hostTensorArguments(t, tensors_[t]);
    s += "  if (a.len > 0 && a.lines > 0) {\n";
    s += "    a.group = 1;\n";
    if (schedule_.alongRows)
      s += "    while (a.group < 32 && (long long)a.group * " + V +
           " < a.len)\n"
           "      a.group *= 2;\n";
    s += "    a.splits = 1;\n";
    const std::string W = "((a.lines + 32 / a.group - 1) / (32 / a.group))"; // warps, unsplit
    const std::string piece = "(long long)a.group * " + V;                   // a chunk's positions
    if (splittable())
      s += "    while (a.splits < " + std::to_string(kMaxSplits) + " && " + W +
           " * a.splits * 2 <= " + std::to_string(kSplitWarps) + "LL && a.len >= a.splits * 8 * " +
           piece + ")\n" + "      a.splits *= 2;\n";
    // The testing hook's alternatives (codegen/core/VariantHook.h): one
    // thread per line, whole warps per line, and where lines may be split:
    // unsplit, and in two.
    std::vector<ForcedVariant> forced{{"", "a.group = 1;"}, {"", "a.group = 32;"}};
    if (splittable()) {
      forced.push_back({"", "a.splits = 1;"});
      forced.push_back({"a.lines <= " + std::to_string(kMaxTotals / 2) + "LL", "a.splits = 2;"});
    }
    s += variantHookPick(cx_.base, forced.size(), "    ");
    s += variantHookForce(0, forced, "    ");
    // Pieces of whole chunks; none empty.
    s += "    a.span = ((a.len + a.splits - 1) / a.splits + " + piece + " - 1) / (" + piece +
         ") * (" + piece + ");\n";
    s += "    a.splits = (a.len + a.span - 1) / a.span;\n";
    s += "    blocks = ((a.lines * a.splits + 32 / a.group - 1) / (32 / a.group) + " +
         std::to_string(kBlock / 32 - 1) + ") / " + std::to_string(kBlock / 32) + ";\n";
    s += "    if (blocks > " + std::to_string(kMaxBlocks) +
         "LL)\n      blocks = " + std::to_string(kMaxBlocks) + "LL;\n";
    if (splittable()) {
      s += "    if (a.splits > 1) {\n";
      s += "      a.totals = ws + " + extentToCode(cx_.scratchOffset, sym) + ";\n";
      s += "      st = FUSERC_NAME_launch_kernel(\"" + kernelName(true) +
           "\", (unsigned)blocks, 1, 1, " + B + ", 0, &a, stream);\n";
      s += "      if (st != FUSERC_NAME_OK)\n        return st;\n";
      s += "    }\n";
    }
    s += variantHookLaunched("kernel", "    ");
    s += "    st = FUSERC_NAME_launch_kernel(kernel, (unsigned)blocks, 1, 1, " + B +
         ", 0, &a, stream);\n";
    s += "    if (st != FUSERC_NAME_OK)\n      return st;\n";
    s += "  }\n}\n";
    return s;
  }

  void fillPlan(KernelPlan &plan) const {
    plan.name = cx_.base;
    plan.scheduler = std::string(cx_.segment.scheduler->name());
    plan.segment = static_cast<int>(cx_.segment.id);
    for (const Op *op : cx_.segment.segment.ops())
      plan.ops.push_back(cx_.analysis.name(*op->result()));
    std::string scans, accumulate;
    for (const Op *op : lanes_.scans) {
      scans += (scans.empty() ? "" : " ") + cx_.analysis.name(*op->result()) + "(" +
               std::string(op->info().name) + ")";
      accumulate += (accumulate.empty() ? "" : " ") +
                    std::string(dtypeName(reductionAccumulator(op->result()->dtype())));
    }
    plan.parameters = schedule_.fields();
    plan.parameters.insert(plan.parameters.end(), {{"block", int64_t{kBlock}},
                                                   {"elements_per_thread", int64_t{v_}},
                                                   {"scans", scans},
                                                   {"accumulate", accumulate}});
    plan.variants.push_back(
        {kernelName(), "G lanes of a warp per line, chunks of G * " + std::to_string(v_) +
                           " elements loaded coalesced and scanned " + std::to_string(v_) +
                           " consecutive ones per thread through shared memory, 64-bit indices"});
    if (splittable()) {
      plan.variants.push_back({kernelName(true),
                               "the same pieces scanned without stores, each piece's totals "
                               "written to the scratch area; launched first when lines are split"});
      plan.scratchBytes = Extent(kMaxTotals * 8 * static_cast<int64_t>(lanes_.scans.size()));
    }
    plan.selection =
        (schedule_.alongRows
             ? "G is the smallest power of two up to 32 with G * " + std::to_string(v_) +
                   " >= the scanned extent"
             : std::string("G = 1 (the scanned dim is not innermost: neighbouring threads walk "
                           "neighbouring lines)")) +
        (splittable()
             ? "; lines split in S pieces, S doubled from 1 while S < " +
                   std::to_string(kMaxSplits) +
                   ", ceil(lines * G / 32) * 2S <= " + std::to_string(kSplitWarps) +
                   " and the scanned extent >= 8 chunks per piece; with S > 1 the totals kernel "
                   "runs first and each piece starts from the totals of the pieces before it, "
                   "in order"
             : "; lines are not split (a scan reads another's result)");
    plan.launchGeometry = "block " + std::to_string(kBlock) + "; grid min(ceil(lines * S * G / " +
                          std::to_string(kBlock) + "), " + std::to_string(kMaxBlocks) +
                          "), a grid-stride loop over line pieces";
    plan.bytesMoved = kernelBytesMoved(tensors_);
    plan.argsStruct = argsStruct("FUSERC_NAME_");
    plan.hostLaunch = hostLaunch();
  }

  const KernelContext &cx_;
  const ScanSchedule &schedule_;
  const ScanLanes &lanes_;
  int v_;
  std::vector<KernelTensor> tensors_;
  std::vector<const Value *> scalars_;
  std::vector<const Value *> throughOps_; // computed from tensors outside the segment
  std::map<std::string, int> elementOf_;  // "p<k>" -> k
  // Line-invariant offset sums -> their variables, in order of first use.
  std::map<std::string, std::string> lineBases_;
  std::vector<std::string> lineBaseOrder_;
};

} // namespace

EmittedKernel emitScanKernel(const KernelRequest &request, const ScanSchedule &schedule) {
  const KernelContext cx(request);
  return ScanEmitter(cx, schedule).run();
}

} // namespace fuserc
