// Pointwise kernels: the emitter, with its argument struct, variants and
// host launch block (see PointwiseKernel.h).
#include "codegen/pointwise/PointwiseKernel.h"

#include "codegen/core/CudaTypes.h"
#include "codegen/core/IndexChecks.h"
#include "codegen/core/KernelContext.h"
#include "codegen/core/ValueEmitter.h"
#include "codegen/pointwise/PointwiseResizeVariant.h"
#include "ir/DType.h"
#include "schedulers/KernelGenerator.h"

#include <algorithm>
#include <optional>

namespace fuserc {
namespace {

constexpr int kMaxRank = 8;
constexpr int kBlock = 256;
// Vectors per thread per step in the vec variants, one block per 256
// vectors: more vectors per thread cost occupancy and waves; other block
// sizes, store kinds and grids looping over the vectors were no faster
// (bench/README.md, "Measurements behind the code's constants").
constexpr int kUnroll = 1;

class PointwiseEmitter : public InputReader {
public:
  PointwiseEmitter(const KernelContext &cx, const IterationSchedule &schedule)
      : cx_(cx), schedule_(schedule) {}

  EmittedKernel run() {
    collectTensors();
    const Value &ref = *reference_;
    rank_ = ref.rank();
    if (rank_ > static_cast<size_t>(kMaxRank))
      throw CodegenError("segment " + std::to_string(cx_.segment.id) + ": rank " +
                         std::to_string(rank_) + " is above the supported " +
                         std::to_string(kMaxRank));
    order_ = cx_.analysis.storedLayout(ref);
    std::vector<const Op *> ops(cx_.segment.segment.ops().begin(), cx_.segment.segment.ops().end());
    fast_ = ValueEmitter::supportsCoordinateFree(ops);
    vmax_ = 16;
    for (const KernelTensor &t : tensors_)
      vmax_ = std::min(vmax_, 16 / static_cast<int>(dtypeBytes(t.storage)));
    vmax_ = std::min(vmax_, 8);
    if (!fast_)
      resize_.emplace(PointwiseKernelShape{cx_.segment.segment, cx_.analysis, tensors_, scalars_,
                                           ref, order_, symbols(), cx_.base, kBlock},
                      vmax_);

    EmittedKernel out;
    out.source = argsStruct("") + "\n";
    if (fast_) {
      for (int v : vectorWidths())
        for (bool wide : {false, true})
          out.source += fastKernel(v, wide, false);
      if (flat())
        for (bool wide : {false, true})
          out.source += fastKernel(vmax_, wide, true);
    }
    if (rvec())
      out.source += resize_->source();
    for (bool wide : {false, true})
      out.source += generalKernel(wide);
    fillPlan(out.plan);
    return out;
  }

  InputRead read(const Value &input, const Coords &coords) override {
    if (input.isScalarInput())
      return "a.s" + std::to_string(scalarIndex(input));
    size_t t = tensorIndex(input, false);
    if (lanes_)
      return InputRead::lane("t" + std::to_string(t) + "_l[j]", "v", lanes_, tensors_[t].storage);
    std::string offset = "0";
    for (size_t d = 0; d < coords.size(); ++d)
      offset +=
          " + " + coords[d] + " * (I)a.st[" + std::to_string(t) + "][" + std::to_string(d) + "]";
    return InputRead::load("((const " + cudaStorageType(tensors_[t].storage) + " *)a.ptr[" +
                           std::to_string(t) + "])[" + offset + "]");
  }

private:
  // Whether the rvec variants exist (segments that need coordinates).
  bool rvec() const { return resize_ && resize_->available(); }

  // Whether the flat variant exists: vectors, and every tensor of the
  // reference's shape (a broadcast input would need the collapsed dims).
  bool flat() const {
    if (!fast_ || vmax_ <= 1)
      return false;
    for (const KernelTensor &t : tensors_)
      if (t.value->shape() != reference_->shape())
        return false;
    return true;
  }

  std::vector<int> vectorWidths() const {
    std::vector<int> widths{1};
    if (vmax_ > 1)
      widths.push_back(vmax_);
    return widths;
  }

  // Inputs first (in value order), then the stored outputs, which must all
  // have the reference's shape (one iteration space).
  void collectTensors() {
    KernelOperands operands =
        collectKernelOperands(cx_.fusion, cx_.segment, cx_.workspace, "pointwise");
    tensors_ = std::move(operands.tensors);
    scalars_ = std::move(operands.scalars);
    reference_ = &iterationReference(schedule_, cx_.segment);
  }

  size_t tensorIndex(const Value &v, bool written) const {
    return kernelTensorIndex(tensors_, v, written, cx_.analysis);
  }

  size_t scalarIndex(const Value &v) const {
    return static_cast<size_t>(std::find(scalars_.begin(), scalars_.end(), &v) - scalars_.begin());
  }

  std::vector<std::string> symbols() const { return cx_.fusion.fusion->symbols(); }

  std::string kernelSymbolExtent(const Extent &e) const {
    return kernelExtentCode(e, cx_.fusion.fusion->symbols());
  }

  // The argument struct; `prefix` names it in host code (FUSERC_NAME_...).
  std::string argsStruct(const std::string &prefix) const {
    const size_t nt = std::max<size_t>(tensors_.size(), 1);
    const size_t ns = std::max<size_t>(symbols().size(), 1);
    std::string s = "typedef struct {\n";
    s += "  void *ptr[" + std::to_string(nt) + "];\n";
    s += "  long long st[" + std::to_string(nt) + "][" + std::to_string(kMaxRank) + "];\n";
    s += "  long long size[" + std::to_string(kMaxRank) + "];\n";
    s += "  long long numel;\n";
    s += "  long long sym[" + std::to_string(ns) + "];\n";
    s += "  long long f_ext[" + std::to_string(kMaxRank) + "];\n";
    s += "  long long f_st[" + std::to_string(nt) + "][" + std::to_string(kMaxRank) + "];\n";
    s += "  long long f_inner_st[" + std::to_string(nt) + "];\n";
    s += "  long long f_inner, f_chunks;\n";
    s += "  int f_nouter, pad_;\n";
    // Magic numbers for 32-bit division by the extents (i32 variants).
    s += "  unsigned f_cpr_mul, f_cpr_shift;\n";
    s += "  unsigned f_mul[" + std::to_string(kMaxRank) + "], f_shift[" + std::to_string(kMaxRank) +
         "];\n";
    s += "  unsigned g_mul[" + std::to_string(kMaxRank) + "], g_shift[" + std::to_string(kMaxRank) +
         "];\n";
    for (size_t k = 0; k < scalars_.size(); ++k)
      s += "  " + cudaComputeType(scalars_[k]->dtype()) + " s" + std::to_string(k) + ";\n";
    if (rvec())
      s += resize_->argsMembers();
    if (segmentChecksIndices(cx_.segment.segment))
      s += indexFlagMember();
    s += "} " + prefix + cx_.base + "_args;\n";
    return s;
  }

  std::string indexTypedef(bool wide) const {
    return std::string("  typedef ") + (wide ? "long long" : "int") + " I;\n";
  }

  std::string kernelName(const std::string &variant, bool wide) const {
    return cx_.base + "_" + variant + (wide ? "_i64" : "_i32");
  }

  // The vec<V> variants address every tensor through the collapsed dims
  // (f_ext, f_st), broadcast inner dims included. The flat<V> variant is
  // the case of one collapsed dim where every tensor has stride 1 (all
  // dense, in the same layout): offsets are the vector's own, so a thread
  // spends its instructions on its elements: dense pointwise kernels are
  // bound by issue slots before bandwidth (bench/README.md).
  std::string fastKernel(int vector, bool wide, bool dense) {
    lanes_ = vector;
    ValueEmitter emitter([&](const Value &v) { return !cx_.segment.segment.defines(v); }, *this,
                         [&](const Extent &e) { return kernelSymbolExtent(e); }, "I", true);
    std::vector<std::pair<size_t, std::string>> stores;
    for (size_t t = 0; t < tensors_.size(); ++t)
      if (tensors_[t].written)
        stores.push_back({t, storedValue(emitter, t, {})});
    lanes_ = 0;

    const std::string V = std::to_string(vector), U = std::to_string(kUnroll),
                      B = std::to_string(kBlock);
    std::string s = "extern \"C\" __global__ void __launch_bounds__(" + B + ") " +
                    kernelName((dense ? "flat" : "vec") + V, wide) + "(const " + cx_.base +
                    "_args a) {\n";
    s += indexTypedef(wide);
    if (!dense)
      s += "  const I cpr = (I)a.f_inner / " + V + ";\n";
    // Each thread takes U vectors a block apart (coalesced), loads them all
    // before computing, so several loads per thread are in flight.
    s += "  for (I base = (I)blockIdx.x * " + B + " * " + U +
         " + threadIdx.x; base < (I)a.f_chunks; base += (I)gridDim.x * " + B + " * " + U + ") {\n";
    s += "    I col[" + U + "];\n    bool ok[" + U + "];\n";
    for (size_t t = 0; t < tensors_.size(); ++t)
      s += "    I o" + std::to_string(t) + "[" + U + "];\n";
    s += "#pragma unroll\n";
    s += "    for (int j = 0; j < " + U + "; ++j) {\n";
    s += "      const I k = base + j * " + B + ";\n";
    s += "      ok[j] = k < (I)a.f_chunks;\n";
    if (dense) {
      s += "      col[j] = k * " + V + ";\n";
      for (size_t t = 0; t < tensors_.size(); ++t)
        s += "      o" + std::to_string(t) + "[j] = 0;\n";
      s += "    }\n";
    } else {
      s += "      I r = 0;\n";
      s += "      if (a.f_nouter == 0) {\n";
      s += "        col[j] = k * " + V + ";\n";
      s += "      } else {\n";
      s += wide ? "        r = k / cpr;\n"
                : "        r = (I)fuserc_udiv32((unsigned)k, a.f_cpr_mul, a.f_cpr_shift);\n";
      s += "        col[j] = (k - r * cpr) * " + V + ";\n";
      s += "      }\n";
      for (size_t t = 0; t < tensors_.size(); ++t)
        s += "      o" + std::to_string(t) + "[j] = 0;\n";
      s += "#pragma unroll\n";
      s += "      for (int d = " + std::to_string(kMaxRank - 1) + "; d >= 0; --d) {\n";
      s += "        if (d >= a.f_nouter) continue;\n";
      s += "        I q, c;\n";
      s += "        if (d == 0) {\n";
      s += "          q = 0;\n          c = r;\n";
      s += "        } else {\n";
      s += wide ? "          q = r / (I)a.f_ext[d];\n"
                : "          q = (I)fuserc_udiv32((unsigned)r, a.f_mul[d], a.f_shift[d]);\n";
      s += "          c = r - q * (I)a.f_ext[d];\n        }\n";
      s += "        r = q;\n";
      for (size_t t = 0; t < tensors_.size(); ++t)
        s += "        o" + std::to_string(t) + "[j] += c * (I)a.f_st[" + std::to_string(t) +
             "][d];\n";
      s += "      }\n    }\n";
    }
    for (size_t t = 0; t < tensors_.size(); ++t) {
      const std::string T = cudaStorageType(tensors_[t].storage), ts = std::to_string(t);
      const std::string bytes =
          std::to_string(vector * static_cast<int>(dtypeBytes(tensors_[t].storage)));
      s += "    __align__(16) " + T + " t" + ts + "_l[" + U + "][" + V + "];  // " +
           tensors_[t].what + "\n";
      if (tensors_[t].written)
        continue;
      s += "#pragma unroll\n";
      s += "    for (int j = 0; j < " + U + "; ++j) {\n";
      s += "      if (!ok[j]) continue;\n";
      if (dense) {
        s += "      *(fuserc_bytes" + bytes + " *)t" + ts + "_l[j] = *(const fuserc_bytes" + bytes +
             " *)((const " + T + " *)a.ptr[" + ts + "] + col[j]);\n    }\n";
        continue;
      }
      s += "      if (a.f_inner_st[" + ts + "]) {\n";
      s += "        *(fuserc_bytes" + bytes + " *)t" + ts + "_l[j] = *(const fuserc_bytes" + bytes +
           " *)((const " + T + " *)a.ptr[" + ts + "] + o" + ts + "[j] + col[j]);\n";
      s += "      } else {\n";
      s += "        const " + T + " b = ((const " + T + " *)a.ptr[" + ts + "])[o" + ts + "[j]];\n";
      s += "#pragma unroll\n";
      s += "        for (int v = 0; v < " + V + "; ++v) t" + ts + "_l[j][v] = b;\n";
      s += "      }\n    }\n";
    }
    s += "#pragma unroll\n";
    s += "    for (int j = 0; j < " + U + "; ++j) {\n";
    s += "#pragma unroll\n";
    s += "      for (int v = 0; v < " + V + "; ++v) {\n";
    s += emitter.body(8);
    for (const auto &[t, var] : stores)
      s += "        t" + std::to_string(t) + "_l[j][v] = " + var + ";\n";
    s += "      }\n    }\n";
    s += "#pragma unroll\n";
    s += "    for (int j = 0; j < " + U + "; ++j) {\n";
    s += "      if (!ok[j]) continue;\n";
    for (const auto &[t, var] : stores) {
      const std::string T = cudaStorageType(tensors_[t].storage), ts = std::to_string(t);
      const std::string bytes =
          std::to_string(vector * static_cast<int>(dtypeBytes(tensors_[t].storage)));
      s += "      *(fuserc_bytes" + bytes + " *)((" + T + " *)a.ptr[" + ts + "] + o" + ts +
           "[j] + col[j]) = *(const fuserc_bytes" + bytes + " *)t" + ts + "_l[j];\n";
    }
    s += "    }\n  }\n}\n\n";
    return s;
  }

  // The expression stored into tensor t, converted for storage. A value
  // that is a cast to the storage's f16/bf16 is stored from the cast's
  // input, so it is rounded once (by the store) rather than twice.
  std::string storedValue(ValueEmitter &emitter, size_t t, const Coords &coords) {
    const Value &v = *tensors_[t].value;
    const DType storage = tensors_[t].storage;
    const Op *op = v.definingOp();
    if (op && op->kind() == OpKind::Cast && storage == v.dtype() &&
        (storage == DType::F16 || storage == DType::BF16) && cx_.segment.segment.contains(*op)) {
      const Value &in = *op->operand(0);
      std::string var = emitter.emit(in, coords);
      return cudaToStorage(cudaConvert(var, in.isLiteral() ? in.dtype() : mathOf(in), DType::F32),
                           storage);
    }
    return cudaToStorage(cudaConvert(emitter.emit(v, coords), mathOf(v), storageMath(t)), storage);
  }

  static DType mathOf(const Value &v) {
    return v.dtype() == DType::F16 || v.dtype() == DType::BF16 ? DType::F32 : v.dtype();
  }
  // The dtype a stored value is converted to before its storage conversion:
  // outputs round to their dtype; workspace copies of f16/bf16 stay f32.
  DType storageMath(size_t t) const {
    return tensors_[t].storage == tensors_[t].value->dtype() ? tensors_[t].value->dtype()
                                                             : tensors_[t].storage;
  }

  std::string generalKernel(bool wide) {
    Coords coords;
    for (size_t d = 0; d < rank_; ++d)
      coords.push_back("c" + std::to_string(d));
    ValueEmitter emitter([&](const Value &v) { return !cx_.segment.segment.defines(v); }, *this,
                         [&](const Extent &e) { return kernelSymbolExtent(e); }, "I", false);
    std::vector<std::pair<size_t, std::string>> stores;
    for (size_t t = 0; t < tensors_.size(); ++t)
      if (tensors_[t].written)
        stores.push_back({t, storedValue(emitter, t, coords)});

    std::string s = "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kBlock) +
                    ") " + kernelName("gen", wide) + "(const " + cx_.base + "_args a) {\n";
    s += indexTypedef(wide);
    s += "  for (I lin = (I)blockIdx.x * " + std::to_string(kBlock) +
         " + threadIdx.x; lin < (I)a.numel; lin += (I)gridDim.x * " + std::to_string(kBlock) +
         ") {\n";
    s += "    I rem = lin;\n";
    for (size_t k = rank_; k-- > 0;) {
      const std::string d = std::to_string(order_[k]);
      if (!k) {
        s += "    const I c" + d + " = rem;\n";
        continue;
      }
      s += "    const I q" + d + " = " +
           (wide ? "rem / (I)a.size[" + d + "]"
                 : "(I)fuserc_udiv32((unsigned)rem, a.g_mul[" + d + "], a.g_shift[" + d + "])") +
           ";\n";
      s += "    const I c" + d + " = rem - q" + d + " * (I)a.size[" + d + "];\n";
      s += "    rem = q" + d + ";\n";
    }
    s += emitter.body(4);
    for (const auto &[t, var] : stores) {
      std::string offset = "0";
      for (size_t d = 0; d < rank_; ++d)
        offset += " + c" + std::to_string(d) + " * (I)a.st[" + std::to_string(t) + "][" +
                  std::to_string(d) + "]";
      s += "    ((" + cudaStorageType(tensors_[t].storage) + " *)a.ptr[" + std::to_string(t) +
           "])[" + offset + "] = " + var + ";\n";
    }
    s += "  }\n}\n\n";
    return s;
  }

  // The host block: fill the arguments, pick a variant, launch.
  std::string hostLaunch() const {
    auto sym = [](const std::string &s) { return "sym_" + s; };
    const std::string nt = std::to_string(tensors_.size());
    std::string s = "{\n";
    s += "  FUSERC_NAME_" + cx_.base + "_args a;\n";
    const std::string slots = std::to_string(std::max<size_t>(tensors_.size(), 1));
    if (fast_) {
      s += "  long long it_st[" + slots + "][" + std::to_string(kMaxRank) + "];\n";
      s += "  long long it_ext[" + std::to_string(kMaxRank) + "];\n";
      s += "  int esize[" + slots + "];\n";
      s += "  int written[" + slots + "];\n";
    }
    s += "  const char *kernel;\n";
    s += "  unsigned long long work;\n";
    s += rvec() ? "  int vec = 0, rvec = 0, wide = 0;\n" : "  int vec = 0, wide = 0;\n";
    if (flat())
      s += "  int flat = 0;\n";
    s += "  memset(&a, 0, sizeof a);\n";
    if (segmentChecksIndices(cx_.segment.segment))
      s += indexFlagHostCode();
    if (fast_)
      s += "  memset(it_st, 0, sizeof it_st);\n";
    s += hostSymbolAndScalarArguments(symbols(), scalars_);
    const Value &ref = *reference_;
    s += "  a.numel = 1;\n";
    for (size_t d = 0; d < rank_; ++d) {
      s += "  a.size[" + std::to_string(d) + "] = " + extentToCode(ref.shape()[d], sym) + ";\n";
      s += "  a.numel *= a.size[" + std::to_string(d) + "];\n";
    }
    for (size_t t = 0; t < tensors_.size(); ++t) {
      const KernelTensor &kt = tensors_[t];
      const std::string ts = std::to_string(t);
      s += hostTensorArguments(t, kt);
      if (!fast_)
        continue;
      s += "  esize[" + ts + "] = " + std::to_string(dtypeBytes(kt.storage)) + ";\n";
      s += "  written[" + ts + "] = " + (kt.written ? "1" : "0") + ";\n";
      // Strides over the iteration dims in memory order, right-aligned
      // broadcasting (fast variants only read tensors that way).
      const size_t r = kt.value->rank();
      for (size_t k = 0; k < rank_; ++k) {
        const size_t j = static_cast<size_t>(order_[k]);
        if (j + r < rank_)
          continue;
        const size_t i = j + r - rank_;
        if (kt.value->shape()[i].isConstant(1))
          continue;
        s += "  it_st[" + ts + "][" + std::to_string(k) + "] = " + kt.strides[i] + ";\n";
      }
    }
    for (size_t k = 0; fast_ && k < rank_; ++k)
      s += "  it_ext[" + std::to_string(k) + "] = a.size[" + std::to_string(order_[k]) + "];\n";
    s += "  if (a.numel > 0) {\n";
    if (fast_)
      s += "  vec = fuserc_pw_plan(" + nt + ", " + std::to_string(rank_) +
           ", it_ext, it_st, a.ptr, esize, written, " + std::to_string(vmax_) +
           ", a.f_ext, a.f_st, a.f_inner_st, &a.f_inner, &a.f_nouter, &a.f_chunks);\n";
    s += "  if (vec) {\n";
    s += "    int d;\n";
    s += "    fuserc_pw_magic(a.f_inner / vec, &a.f_cpr_mul, &a.f_cpr_shift);\n";
    s += "    for (d = 0; d < a.f_nouter; ++d)\n";
    s += "      fuserc_pw_magic(a.f_ext[d], &a.f_mul[d], &a.f_shift[d]);\n";
    s += "  }\n";
    if (rvec())
      s += resize_->hostSelect();
    for (size_t d = 0; d < rank_; ++d)
      s += "  fuserc_pw_magic(a.size[" + std::to_string(d) + "], &a.g_mul[" + std::to_string(d) +
           "], &a.g_shift[" + std::to_string(d) + "]);\n";
    s += "  wide = !fuserc_pw_fits32(" + nt + ", " + std::to_string(rank_) +
         ", a.size, a.st, a.numel);\n";
    s += rvec() ? "  work = (unsigned long long)(rvec ? a.numel / " +
                      std::to_string(resize_->lanes()) + " : a.numel);\n"
                : "  work = (unsigned long long)(vec ? a.f_chunks : a.numel);\n";
    std::string choose;
    if (flat()) {
      s += "  if (vec == " + std::to_string(vmax_) + " && a.f_nouter == 0) {\n";
      s += "    int t;\n";
      s += "    flat = 1;\n";
      s += "    for (t = 0; t < " + nt + "; ++t)\n";
      s += "      if (a.f_inner_st[t] != 1)\n        flat = 0;\n";
      s += "  }\n";
      choose += "flat ? (wide ? \"" + kernelName("flat" + std::to_string(vmax_), true) + "\" : \"" +
                kernelName("flat" + std::to_string(vmax_), false) + "\") : ";
    }
    if (fast_) {
      for (int v : vectorWidths())
        choose += "vec == " + std::to_string(v) + " ? (wide ? \"" +
                  kernelName("vec" + std::to_string(v), true) + "\" : \"" +
                  kernelName("vec" + std::to_string(v), false) + "\") : ";
    }
    if (rvec())
      choose += "rvec ? (wide ? \"" + resize_->kernelName(true) + "\" : \"" +
                resize_->kernelName(false) + "\") : ";
    choose += "(wide ? \"" + kernelName("gen", true) + "\" : \"" + kernelName("gen", false) + "\")";
    s += "  kernel = " + choose + ";\n";
    s += "  st = FUSERC_NAME_launch_kernel(kernel, fuserc_pw_blocks(work, vec ? " +
         std::to_string(kBlock * kUnroll) + " : " + std::to_string(kBlock) + "), 1, 1, " +
         std::to_string(kBlock) + ", 0, &a, stream);\n";
    s += "  if (st != FUSERC_NAME_OK)\n    return st;\n";
    s += "  }\n";
    s += "}\n";
    return s;
  }

  void fillPlan(KernelPlan &plan) const {
    plan.name = cx_.base;
    plan.scheduler =
        cx_.segment.scheduler ? std::string(cx_.segment.scheduler->name()) : "pointwise";
    plan.segment = static_cast<int>(cx_.segment.id);
    for (const Op *op : cx_.segment.segment.ops())
      plan.ops.push_back(cx_.analysis.name(*op->result()));
    plan.parameters = schedule_.fields();
    plan.parameters.insert(plan.parameters.end(),
                           {{"block", int64_t{kBlock}},
                            {"vectors_per_thread", int64_t{fast_ ? kUnroll : 1}},
                            {"max_vector", int64_t{fast_ || rvec() ? vmax_ : 1}}});
    if (fast_)
      for (int v : vectorWidths())
        for (bool wide : {false, true})
          plan.variants.push_back({kernelName("vec" + std::to_string(v), wide),
                                   std::to_string(v) + " contiguous element" + (v > 1 ? "s" : "") +
                                       " per thread along the collapsed "
                                       "innermost dim, " +
                                       (wide ? "64" : "32") + "-bit indices"});
    if (flat())
      for (bool wide : {false, true})
        plan.variants.push_back({kernelName("flat" + std::to_string(vmax_), wide),
                                 std::to_string(vmax_) +
                                     " contiguous elements per thread, every tensor dense in "
                                     "the same layout (offsets are the element's own), " +
                                     (wide ? "64" : "32") + "-bit indices"});
    if (rvec())
      for (bool wide : {false, true})
        plan.variants.push_back({resize_->kernelName(wide), resize_->description(wide)});
    for (bool wide : {false, true})
      plan.variants.push_back(
          {kernelName("gen", wide), std::string("one element per thread, coordinates from the "
                                                "linear index, ") +
                                        (wide ? "64" : "32") + "-bit indices"});
    plan.selection =
        fast_ ? "dims contiguous in every tensor are collapsed; when every tensor then has "
                "stride 0 or 1 on the innermost dim, a vec variant runs, with " +
                    std::to_string(vmax_) +
                    " elements per thread when the innermost extent, every outer stride and "
                    "every pointer allow it (else 1)" +
                    (flat() ? "; flat" + std::to_string(vmax_) +
                                  " instead when that leaves one dim and every tensor has "
                                  "stride 1 on it"
                            : std::string()) +
                    "; otherwise gen. i32 when every index and offset is below 2^31, else i64."
        : rvec()
            ? resize_->selection() +
                  "; otherwise gen. i32 when every index and offset is below 2^31, else i64."
            : "gen always" +
                  (resize_ ? " (no rvec variant: " + resize_->refusal() + ")" : std::string()) +
                  "; i32 when every index and offset is below 2^31, else i64.";
    plan.launchGeometry = "block " + std::to_string(kBlock) + "; grid min(ceil(vectors / " +
                          std::to_string(kBlock * kUnroll) + "), 1048576) (" +
                          (rvec() ? "rvec" : "vec") +
                          ") or min(ceil("
                          "elements / " +
                          std::to_string(kBlock) + "), 1048576) (gen), with a grid-stride loop";
    plan.bytesMoved = kernelBytesMoved(tensors_);
    plan.argsStruct = argsStruct("FUSERC_NAME_");
    plan.hostLaunch = hostLaunch();
  }

  const KernelContext &cx_;
  const IterationSchedule &schedule_;
  std::vector<KernelTensor> tensors_;
  std::vector<const Value *> scalars_;
  const Value *reference_ = nullptr;
  size_t rank_ = 0;
  Layout order_;
  bool fast_ = false;
  int vmax_ = 1;
  int lanes_ = 0; // vec variants: reads come from registers, vectors of lanes_ elements
  std::optional<ResizeVectorVariant> resize_; // segments that need coordinates
};

} // namespace

EmittedKernel emitPointwiseKernel(const KernelRequest &request, const IterationSchedule &schedule) {
  const KernelContext cx(request);
  return PointwiseEmitter(cx, schedule).run();
}

} // namespace fuserc
