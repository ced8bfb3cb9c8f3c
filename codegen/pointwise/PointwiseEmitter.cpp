// Pointwise kernels, device side: the segment's tensors, which variants
// exist, and the CUDA of the vec<V>, flat<V> and gen kernels (see
// PointwiseEmitter.h; the host side is in PointwisePlan.cpp, the rvec<V>
// kernels in PointwiseResizeVariant.cpp).
#include "codegen/pointwise/PointwiseEmitter.h"

#include "codegen/core/BlockReduce.h"
#include "codegen/core/CudaTypes.h"
#include "codegen/pointwise/PointwiseDenseTensors.h"
#include "codegen/pointwise/PointwiseKernel.h"
#include "ir/DType.h"
#include "schedulers/KernelGenerator.h"
#include "schedulers/OpFamilies.h"

#include <algorithm>

namespace fuserc {
namespace pointwise {

PointwiseEmitter::PointwiseEmitter(const KernelContext &cx, const IterationSchedule &schedule)
    : cx_(cx), schedule_(schedule) {}

EmittedKernel PointwiseEmitter::run() {
  collectTensors();
  const Value &ref = *reference_;
  rank_ = ref.rank();
  if (rank_ > static_cast<size_t>(kMaxRank))
    throw CodegenError("segment " + std::to_string(cx_.segment.id) + ": rank " +
                       std::to_string(rank_) + " is above the supported " +
                       std::to_string(kMaxRank));
  order_ = cx_.analysis.storedLayout(ref);
  std::vector<const Op *> ops(cx_.segment.segment.ops().begin(), cx_.segment.segment.ops().end());
  for (const Op *op : opsReadThrough(cx_.segment.segment, throughOps_))
    ops.push_back(op);
  ops = splitAtScatter(ops);
  fast_ = ValueEmitter::supportsCoordinateFree(ops);
  vmax_ = 16;
  for (size_t t = 0; t < tensors_.size(); ++t)
    if (fillReads(t) || tensors_[t].written)
      vmax_ = std::min(vmax_, 16 / static_cast<int>(dtypeBytes(tensors_[t].storage)));
  vmax_ = std::min(vmax_, 8);
  if (!fast_)
    resize_.emplace(PointwiseKernelShape{cx_.segment.segment, cx_.analysis, tensors_, scalars_,
                                         throughOps_, ref, order_, symbols(), cx_.base, kBlock,
                                         scatter_ ? scatter_->scatter : nullptr},
                    vmax_);

  planStraddle();

  EmittedKernel out;
  // Small reductions combine their elements with the reduction combiners.
  if (std::any_of(ops.begin(), ops.end(), [](const Op *op) { return isSmallReduction(*op); }))
    out.source = blockReduceCuda();
  out.source += argsStruct("") + "\n";
  if (fillIsIdentity_) {
    // The scatter updates its background in place: no fill.
    out.source += scatterKernels();
    fillPlan(out.plan);
    return out;
  }
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
  if (straddle())
    for (bool wide : {false, true})
      out.source += straddleKernel(wide);
  for (bool wide : {false, true})
    out.source += generalKernel(wide);
  if (scatter_)
    out.source += scatterKernels();
  fillPlan(out.plan);
  return out;
}

InputRead PointwiseEmitter::read(const Value &input, const Coords &coords) {
  if (input.isScalarInput())
    return scalarArgRead(scalars_, input);
  size_t t = tensorIndex(input, false);
  if (straddling_ && straddleVectors_.count(t) && ownCoordinates(coords, rank_))
    return InputRead::lane("t" + std::to_string(t) + "_l", "j", vmax_, tensors_[t].storage);
  if (lanes_)
    return InputRead::lane("t" + std::to_string(t) + "_l[j]", "v", lanes_, tensors_[t].storage);
  std::string offset = "0";
  for (size_t d = 0; d < coords.size(); ++d)
    offset +=
        " + " + coords[d] + " * (I)a.st[" + std::to_string(t) + "][" + std::to_string(d) + "]";
  return InputRead::load("((const " + cudaStorageType(tensors_[t].storage) + " *)a.ptr[" +
                         std::to_string(t) + "])[" + offset + "]");
}

// Whether the rvec variants exist (segments that need coordinates).
bool PointwiseEmitter::rvec() const { return resize_ && resize_->available(); }

// Whether the svec variants exist (PointwiseStraddleVariant.cpp).
bool PointwiseEmitter::straddle() const { return !straddleVectors_.empty(); }

// Whether the flat variant exists: vectors, and every tensor of the
// reference's shape (a broadcast input would need the collapsed dims).
bool PointwiseEmitter::flat() const {
  if (!fast_ || vmax_ <= 1)
    return false;
  for (size_t t = 0; t < tensors_.size(); ++t)
    if ((fillReads(t) || tensors_[t].written) && tensors_[t].value->shape() != reference_->shape())
      return false;
  return true;
}

std::vector<int> PointwiseEmitter::vectorWidths() const {
  std::vector<int> widths{1};
  if (vmax_ > 1)
    widths.push_back(vmax_);
  return widths;
}

// Inputs first (in value order), then the stored outputs, which must all
// have the reference's shape (one iteration space).
void PointwiseEmitter::collectTensors() {
  KernelOperands operands =
      collectKernelOperands(cx_.fusion, cx_.segment, cx_.workspace, "pointwise", slicedIndexMap);
  tensors_ = std::move(operands.tensors);
  scalars_ = std::move(operands.scalars);
  throughOps_ = std::move(operands.throughOps);
  reference_ = &iterationReference(schedule_, cx_.segment);
}

size_t PointwiseEmitter::tensorIndex(const Value &v, bool written) const {
  return kernelTensorIndex(tensors_, v, written, cx_.analysis);
}

std::vector<std::string> PointwiseEmitter::symbols() const { return cx_.fusion.fusion->symbols(); }

std::string PointwiseEmitter::indexTypedef(bool wide) const {
  return std::string("  typedef ") + (wide ? "long long" : "int") + " I;\n";
}

std::string PointwiseEmitter::kernelName(const std::string &variant, bool wide) const {
  return cx_.base + "_" + variant + (wide ? "_i64" : "_i32");
}

// The vec<V> variants address every tensor through the collapsed dims
// (f_ext, f_st), broadcast inner dims included. The flat<V> variant is
// the case of one collapsed dim where every tensor has stride 1 (all
// dense, in the same layout): offsets are the vector's own, so a thread
// spends its instructions on its elements: dense pointwise kernels are
// bound by issue slots before bandwidth (bench/README.md).
std::string PointwiseEmitter::fastKernel(int vector, bool wide, bool dense) {
  lanes_ = vector;
  ValueEmitter emitter(
      [&](const Value &v) { return loadsFromTensor(cx_.segment.segment, throughOps_, v); }, *this,
      symbols(), "I", true);
  if (scatter_)
    emitter.substitute(*scatter_->scatter->result(), *scatter_->scatter->operand(0));
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
      s +=
          "        o" + std::to_string(t) + "[j] += c * (I)a.f_st[" + std::to_string(t) + "][d];\n";
    s += "      }\n    }\n";
  }
  for (size_t t = 0; t < tensors_.size(); ++t) {
    const std::string T = cudaStorageType(tensors_[t].storage), ts = std::to_string(t);
    const std::string bytes =
        std::to_string(vector * static_cast<int>(dtypeBytes(tensors_[t].storage)));
    s += "    __align__(16) " + T + " t" + ts + "_l[" + U + "][" + V + "];  // " +
         tensors_[t].what + "\n";
    if (tensors_[t].written || !fillReads(t))
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
std::string PointwiseEmitter::storedValue(ValueEmitter &emitter, size_t t, const Coords &coords) {
  const Value &v = *tensors_[t].value;
  const DType storage = tensors_[t].storage;
  const Op *op = v.definingOp();
  if (op && op->kind() == OpKind::Cast && storage == v.dtype() &&
      (storage == DType::F16 || storage == DType::BF16) && cx_.segment.segment.contains(*op)) {
    const Value &in = *op->operand(0);
    std::string var = emitter.emit(in, coords);
    // One rounding, straight to the stored dtype (also from f64 or integers).
    return cudaToStorage(cudaConvert(var, in.isLiteral() ? in.dtype() : mathOf(in), storage),
                         storage);
  }
  return cudaToStorage(cudaConvert(emitter.emit(v, coords), mathOf(v), storageMath(t)), storage);
}

DType PointwiseEmitter::mathOf(const Value &v) {
  return v.dtype() == DType::F16 || v.dtype() == DType::BF16 ? DType::F32 : v.dtype();
}

// The dtype a stored value is converted to before its storage conversion:
// outputs round to their dtype; workspace copies of f16/bf16 stay f32.
DType PointwiseEmitter::storageMath(size_t t) const {
  return tensors_[t].storage == tensors_[t].value->dtype() ? tensors_[t].value->dtype()
                                                           : tensors_[t].storage;
}

// Statements declaring `const I <name><d>` for `dims` (memory order,
// outermost first) from `lin`, innermost fastest: extents from
// `<sizes>[d]`, divided by magic numbers `<magic>_mul`/`_shift` (i32) or
// plainly (i64).
std::string PointwiseEmitter::decomposeLinear(const std::vector<size_t> &dims,
                                              const std::string &name, const std::string &sizes,
                                              const std::string &magic, bool wide,
                                              const std::string &pad) {
  std::string s = pad + "I rem = lin;\n";
  for (size_t k = dims.size(); k-- > 0;) {
    const std::string d = std::to_string(dims[k]);
    if (!k) {
      s += pad + "const I " + name + d + " = rem;\n";
      continue;
    }
    s += pad + "const I q" + d + " = " +
         (wide ? "rem / (I)" + sizes + "[" + d + "]"
               : "(I)fuserc_udiv32((unsigned)rem, " + magic + "_mul[" + d + "], " + magic +
                     "_shift[" + d + "])") +
         ";\n";
    s += pad + "const I " + name + d + " = rem - q" + d + " * (I)" + sizes + "[" + d + "];\n";
    s += pad + "rem = q" + d + ";\n";
  }
  return s;
}

// Tensor t's element at the coordinates c0, c1, ... (an lvalue).
std::string PointwiseEmitter::ownElement(size_t t) const {
  std::string offset = "0";
  for (size_t d = 0; d < rank_; ++d)
    offset += " + c" + std::to_string(d) + " * (I)a.st[" + std::to_string(t) + "][" +
              std::to_string(d) + "]";
  return "((" + cudaStorageType(tensors_[t].storage) + " *)a.ptr[" + std::to_string(t) + "])[" +
         offset + "]";
}

std::string PointwiseEmitter::generalKernel(bool wide) {
  Coords coords;
  for (size_t d = 0; d < rank_; ++d)
    coords.push_back("c" + std::to_string(d));
  ValueEmitter emitter(
      [&](const Value &v) { return loadsFromTensor(cx_.segment.segment, throughOps_, v); }, *this,
      symbols(), "I", false);
  if (scatter_)
    emitter.substitute(*scatter_->scatter->result(), *scatter_->scatter->operand(0));
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
  s += decomposeLinear(std::vector<size_t>(order_.begin(), order_.end()), "c", "a.size", "a.g",
                       wide, "    ");
  s += emitter.body(4);
  for (const auto &[t, var] : stores)
    s += "    " + ownElement(t) + " = " + var + ";\n";
  s += "  }\n}\n\n";
  return s;
}

} // namespace pointwise

EmittedKernel emitPointwiseKernel(const KernelRequest &request, const IterationSchedule &schedule) {
  const KernelContext cx(request);
  return pointwise::PointwiseEmitter(cx, schedule).run();
}

} // namespace fuserc
