// The pointwise rvec variants: planning, kernels and host selection (see
// PointwiseResizeVariant.h).
#include "codegen/pointwise/PointwiseResizeVariant.h"

#include "codegen/core/CudaTypes.h"
#include "codegen/core/ElementwiseCode.h"
#include "codegen/core/LaneValueEmitter.h"
#include "codegen/pointwise/PointwiseDenseTensors.h"
#include "ir/DType.h"
#include "schedulers/KernelGenerator.h"

#include <algorithm>

namespace fuserc {
namespace {

// Reads for the lane emitter: tensors addressed by the argument struct's
// strides; a read along the lane dim is recorded, the host checks that the
// tensor is contiguous and aligned there.
//
// A read is of elements other threads read too when it is not at the
// thread's own coordinates and the tensor is either broadcast over the
// domain (fewer elements) or read at other coordinates as well (rope's
// rotated half): those reads are hinted to stay in cache
// (LaneAddress::reused). Each distinct tuple of coordinates a tensor is
// read at is recorded in `readsAt`; `reread` names the tensors read at
// more than one (from a first emission of the kernel).
class TensorLanes : public LaneReader {
public:
  // `linear`: tensors dense in the reference's iteration order with its
  // shape (checked at launch), addressed from the vector's linear index.
  TensorLanes(const PointwiseKernelShape &kernel, std::map<size_t, std::set<size_t>> &vectorDims,
              const std::set<size_t> &linear, size_t inner,
              std::map<size_t, std::set<std::string>> &readsAt, const std::set<size_t> &reread)
      : kernel_(kernel), vectorDims_(vectorDims), linear_(linear), inner_(inner), readsAt_(readsAt),
        reread_(reread) {}

  std::string scalar(const Value &input) override { return scalarArgRead(kernel_.scalars, input); }

  LaneAddress address(const Value &input, const Coords &coords, int lane) override {
    size_t t = 0;
    while (t < kernel_.tensors.size() &&
           (kernel_.tensors[t].value != &input || kernel_.tensors[t].written))
      ++t;
    if (t == kernel_.tensors.size())
      throw CodegenError("internal: no kernel tensor for " + kernel_.analysis.quoted(input));
    if (lane >= 0)
      vector(t, static_cast<size_t>(lane));
    std::string at;
    for (const std::string &c : coords)
      at += c + ";";
    readsAt_[t].insert(at);
    return {"((const " + cudaStorageType(kernel_.tensors[t].storage) + " *)a.ptr[" +
                std::to_string(t) + "] + " + offset(t, coords, lane) + ")",
            kernel_.tensors[t].storage,
            !pointwise::ownCoordinates(coords, kernel_.reference.rank()) &&
                (reread_.count(t) || broadcast(input))};
  }

  // Whether `input` has fewer elements than the domain, spread over it:
  // of lower rank and another element count, or of its rank with a dim of
  // extent 1 where the domain's is not.
  bool broadcast(const Value &input) const {
    const std::vector<Extent> &domain = kernel_.reference.shape(), &shape = input.shape();
    auto count = [](const std::vector<Extent> &extents) {
      Extent n(1);
      for (const Extent &e : extents)
        n = n * e;
      return n;
    };
    if (shape.size() != domain.size())
      return shape.size() < domain.size() && !(count(shape) == count(domain));
    for (size_t d = 0; d < shape.size(); ++d)
      if (shape[d].isConstant(1) && !domain[d].isConstant(1))
        return true;
    return false;
  }

  // The element offset of `coords` in tensor t; along the lane dim the
  // stride is 1 (checked at launch). A linear tensor read at the vector's
  // coordinates but for a shift along the lane dim is at `lin` (the
  // vector's first element's linear index) plus the shift.
  std::string offset(size_t t, const Coords &coords, int lane) {
    if (linear_.count(t) && lane == static_cast<int>(inner_)) {
      bool shiftedAlongLanes = true;
      for (size_t d = 0; d < coords.size(); ++d)
        shiftedAlongLanes = shiftedAlongLanes && (d == inner_ || coords[d] == coordinate(d));
      if (shiftedAlongLanes) {
        usedLinear_ = true;
        return coords[inner_] == coordinate(inner_)
                   ? "lin"
                   : "(lin - " + coordinate(inner_) + " + " + coords[inner_] + ")";
      }
    }
    std::string s;
    for (size_t d = 0; d < coords.size(); ++d) {
      if (coords[d] == "0")
        continue;
      s += (s.empty() ? "" : " + ") + coords[d];
      if (static_cast<int>(d) != lane)
        s += " * (I)a.st[" + std::to_string(t) + "][" + std::to_string(d) + "]";
    }
    return s.empty() ? "0" : s;
  }

  static std::string coordinate(size_t d) { return "c" + std::to_string(d); }
  bool usedLinear() const { return usedLinear_; }

  // Tensor t is accessed by vector along `dim`: refused when its layout
  // keeps it from being contiguous there (the launch checks the rest).
  void vector(size_t t, size_t dim) {
    const KernelTensor &kt = kernel_.tensors[t];
    const Value &v = *kt.value;
    if (kernel_.analysis.isDense(v)) {
      Layout layout = v.isInput() ? v.layout() : kernel_.analysis.storedLayout(v);
      auto pos = std::find(layout.begin(), layout.end(), static_cast<int64_t>(dim));
      for (auto it = pos; it != layout.end(); ++it)
        if (it != pos && !v.shape()[static_cast<size_t>(*it)].isConstant(1))
          throw LaneRefusal{kt.what + " is not contiguous along dim " + std::to_string(dim)};
    }
    vectorDims_[t].insert(dim);
  }

private:
  const PointwiseKernelShape &kernel_;
  std::map<size_t, std::set<size_t>> &vectorDims_;
  const std::set<size_t> &linear_;
  size_t inner_;
  std::map<size_t, std::set<std::string>> &readsAt_;
  const std::set<size_t> &reread_;
  bool usedLinear_ = false;
};

std::string hostSymbol(const std::string &s) { return "sym_" + s; }

} // namespace

ResizeVectorVariant::ResizeVectorVariant(const PointwiseKernelShape &shape, int lanes)
    : kernel_(shape), lanes_(lanes) {
  const Value &ref = shape.reference;
  if (ref.rank() == 0 || lanes < 2) {
    refusal_ = "the output has no dim to vectorize along";
    return;
  }
  inner_ = static_cast<size_t>(shape.order.back());
  const Extent &innerExtent = ref.shape()[inner_];
  const std::optional<int64_t> rest = Extent::mod(innerExtent, lanes).constant();
  if (rest && *rest != 0) {
    refusal_ = "the innermost extent " + innerExtent.str() + " is not a multiple of " +
               std::to_string(lanes);
    return;
  }
  if (!rest)
    multiples_.push_back({innerExtent, "the innermost extent of " + shape.analysis.name(ref)});
  for (size_t t = 0; t < shape.tensors.size(); ++t)
    if (pointwise::denseInOrder(shape.tensors[t], ref, shape.order, shape.analysis))
      linear_.insert(t);
  try {
    // A first emission (the i64 kernel: its emission changes nothing else)
    // finds the tensors read at more than one tuple of coordinates.
    emitKernel(true);
    for (const auto &[t, tuples] : readsAt_)
      if (tuples.size() > 1)
        reread_.insert(t);
    source_ = emitKernel(false) + emitKernel(true);
  } catch (const LaneRefusal &refusal) {
    refusal_ = refusal.reason;
    source_.clear();
    multiples_.clear();
    vectorDims_.clear();
    linear_.clear();
    readsAt_.clear();
    reread_.clear();
  }
}

std::string ResizeVectorVariant::kernelName(bool wide) const {
  return kernel_.base + "_rvec" + std::to_string(lanes_) + (wide ? "_i64" : "_i32");
}

// One function on purpose: it prints one kernel's text top to bottom, in
// the order the generated CUDA reads.
std::string ResizeVectorVariant::emitKernel(bool wide) {
  const Value &ref = kernel_.reference;
  const size_t rank = ref.rank();
  const std::string V = std::to_string(lanes_), B = std::to_string(kernel_.block);
  std::map<size_t, std::set<size_t>> vectorDims;
  TensorLanes reader(kernel_, vectorDims, linear_, inner_, readsAt_, reread_);
  LaneValueEmitter emitter(
      [&](const Value &v) { return loadsFromTensor(kernel_.segment, kernel_.throughOps, v); },
      reader, kernel_.symbols, [&](const Value &v) { return kernel_.analysis.name(v); }, "I",
      lanes_);
  if (kernel_.scatter)
    emitter.substitute(*kernel_.scatter->result(), *kernel_.scatter->operand(0));
  Coords coords;
  for (size_t d = 0; d < rank; ++d)
    coords.push_back("c" + std::to_string(d));

  // Each stored value, in its storage type; a cast to the storage's
  // f16/bf16 is stored from the cast's input, rounded once by the store.
  std::vector<std::pair<size_t, std::string>> stores;
  for (size_t t = 0; t < kernel_.tensors.size(); ++t) {
    const KernelTensor &kt = kernel_.tensors[t];
    if (!kt.written)
      continue;
    reader.vector(t, inner_);
    const Value &v = *kt.value;
    const Op *op = v.definingOp();
    const std::string l = LaneValueEmitter::laneVariable();
    if (op && op->kind() == OpKind::Cast && kt.storage == v.dtype() &&
        (kt.storage == DType::F16 || kt.storage == DType::BF16) && kernel_.segment.contains(*op)) {
      const Value &in = *op->operand(0);
      LaneValue lanes = emitter.emit(in, coords, static_cast<int>(inner_));
      stores.push_back(
          {t, cudaToStorage(cudaConvert(lanes.at(l),
                                        in.isLiteral() ? in.dtype() : mathDType(in.dtype()),
                                        kt.storage),
                            kt.storage)});
      continue;
    }
    // Workspace copies of f16/bf16 values stay f32; outputs round to their
    // dtype, f16 and bf16 by the store's conversion alone (rounding twice
    // gives the same value, at twice the cost).
    const DType math = kt.storage == v.dtype() ? mathDType(v.dtype()) : kt.storage;
    LaneValue lanes = emitter.emit(v, coords, static_cast<int>(inner_));
    stores.push_back(
        {t, cudaToStorage(cudaConvert(lanes.at(l), mathDType(v.dtype()), math), kt.storage)});
  }
  std::map<size_t, std::string> storeOffsets;
  for (const auto &[t, value] : stores)
    storeOffsets[t] = reader.offset(t, coords, static_cast<int>(inner_));
  if (!wide) {
    for (const auto &[e, what] : emitter.requirements())
      multiples_.push_back({e, what});
    vectorDims_ = vectorDims;
  }

  const std::string inner = std::to_string(inner_);
  std::string s = "extern \"C\" __global__ void __launch_bounds__(" + B + ") " + kernelName(wide) +
                  "(const " + kernel_.base + "_args a) {\n";
  s += std::string("  typedef ") + (wide ? "long long" : "int") + " I;\n";
  // Static extents divide as constants (shifts for powers of two); the
  // others by magic numbers (i32) or plainly (i64).
  auto divide = [&](const std::string &n, const Extent &extent, const std::string &size,
                    const std::string &mul, const std::string &shift) {
    if (std::optional<int64_t> e = extent.constant())
      return wide ? n + " / (I)" + std::to_string(*e)
                  : "(I)((unsigned)" + n + " / " + std::to_string(*e) + "u)";
    return wide ? n + " / (I)" + size
                : "(I)fuserc_udiv32((unsigned)" + n + ", " + mul + ", " + shift + ")";
  };
  const Extent perRow = Extent::floorDiv(ref.shape()[inner_], lanes_);
  s += "  const I cpr = " +
       (perRow.constant() ? "(I)" + std::to_string(*perRow.constant())
                          : "(I)a.size[" + inner + "] / " + V) +
       ";\n";
  s += "  const I vectors = (I)(a.numel / " + V + ");\n";
  s += "  for (I k = (I)blockIdx.x * " + B + " + threadIdx.x; k < vectors; k += (I)gridDim.x * " +
       B + ") {\n";
  if (reader.usedLinear())
    s += "    const I lin = k * " + V + ";\n";
  // Base coordinates of the vector: the lane dim's in steps of V, then
  // the outer dims from innermost to outermost (unused ones are dead code).
  if (rank == 1) {
    s += "    const I c" + inner + " = k * " + V + ";\n";
  } else {
    s += "    I rem = " + divide("k", perRow, "cpr", "a.rv_mul", "a.rv_shift") + ";\n";
    s += "    const I c" + inner + " = (k - rem * cpr) * " + V + ";\n";
    for (size_t k = rank - 1; k-- > 0;) {
      const size_t dim = static_cast<size_t>(kernel_.order[k]);
      const std::string d = std::to_string(dim);
      if (!k) {
        s += "    const I c" + d + " = rem;\n";
        continue;
      }
      s += "    const I q" + d + " = " +
           divide("rem", ref.shape()[dim], "a.size[" + d + "]", "a.g_mul[" + d + "]",
                  "a.g_shift[" + d + "]") +
           ";\n";
      s += "    const I c" + d + " = rem - q" + d + " * (I)a.size[" + d + "];\n";
      s += "    rem = q" + d + ";\n";
    }
  }
  s += emitter.body(4);
  for (const auto &[t, value] : stores) {
    const std::string T = cudaStorageType(kernel_.tensors[t].storage), ts = std::to_string(t);
    const std::string bytes =
        "fuserc_bytes" +
        std::to_string(lanes_ * static_cast<int>(dtypeBytes(kernel_.tensors[t].storage)));
    const std::string l = LaneValueEmitter::laneVariable();
    s += "    __align__(16) " + T + " t" + ts + "_s[" + V + "];  // " + kernel_.tensors[t].what +
         "\n";
    s += "#pragma unroll\n";
    s += "    for (int " + l + " = 0; " + l + " < " + V + "; ++" + l + ") t" + ts + "_s[" + l +
         "] = " + value + ";\n";
    // Outputs are not read again here: streaming stores (evict first)
    // leave the cache to the inputs; workspace slots are read next.
    const std::string address = "(" + bytes + " *)((" + T + " *)a.ptr[" + ts + "] + " +
                                storeOffsets[t] + ")",
                      stored = "*(const " + bytes + " *)t" + ts + "_s";
    if (kernel_.tensors[t].what.rfind("workspace", 0) == 0)
      s += "    *" + address + " = " + stored + ";\n";
    else
      s += "    __stcs(" + address + ", " + stored + ");\n";
  }
  s += "  }\n}\n\n";
  return s;
}

std::string ResizeVectorVariant::argsMembers() const {
  // Magic numbers dividing by the vectors per row (i32 rvec variants).
  return "  unsigned rv_mul, rv_shift;\n";
}

std::string ResizeVectorVariant::hostSelect() const {
  const std::string V = std::to_string(lanes_);
  std::string s = "  rvec = 1;\n";
  for (const auto &[e, what] : multiples_)
    s += "  if (fuserc_mod(" + extentToCode(e, hostSymbol) + ", " + V + ") != 0)  /* " + what +
         " */\n    rvec = 0;\n";
  for (const auto &[t, dims] : vectorDims_) {
    const KernelTensor &kt = kernel_.tensors[t];
    const std::string ts = std::to_string(t);
    const std::string align = std::to_string(lanes_ * static_cast<int>(dtypeBytes(kt.storage)));
    std::string bad = "(uintptr_t)a.ptr[" + ts + "] % " + align + " != 0";
    for (size_t d = 0; d < kt.value->rank(); ++d) {
      const std::string st = "a.st[" + ts + "][" + std::to_string(d) + "]";
      const Extent &extent = kt.value->shape()[d];
      if (dims.count(d))
        bad += " ||\n      " + st + " != 1";
      else if (extent.constant())
        bad += extent.isConstant(1) ? "" : " ||\n      " + st + " % " + V + " != 0";
      else
        bad += " ||\n      (" + extentToCode(extent, hostSymbol) + " != 1 && " + st + " % " + V +
               " != 0)";
    }
    s += "  if (" + bad + ")  /* " + kt.what + " */\n    rvec = 0;\n";
  }
  // Tensors addressed by the linear index: dense in the iteration order.
  s += pointwise::denseInOrderHostCheck(kernel_.tensors, linear_, kernel_.order, "rvec");
  s += "  if (rvec)\n";
  s += "    fuserc_pw_magic(a.size[" + std::to_string(inner_) + "] / " + V +
       ", &a.rv_mul, &a.rv_shift);\n";
  return s;
}

std::string ResizeVectorVariant::selection() const {
  const std::string V = std::to_string(lanes_);
  std::string s = "rvec" + V + " when every tensor read or written by vector (";
  bool first = true;
  for (const auto &[t, dims] : vectorDims_) {
    s += (first ? "" : ", ") + kernel_.tensors[t].what;
    first = false;
  }
  s += ") has stride 1 along the vector dim, its other strides multiples of " + V +
       " and an address aligned to the vector";
  for (size_t i = 0; i < multiples_.size(); ++i)
    s += std::string(i ? ", " : ", and these are multiples of " + V + ": ") + multiples_[i].second +
         " (" + multiples_[i].first.str() + ")";
  return s;
}

std::string ResizeVectorVariant::description(bool wide) const {
  return std::to_string(lanes_) +
         " contiguous elements per thread along the innermost dim, coordinates once per "
         "vector, resizes decided per vector, " +
         (wide ? "64" : "32") + "-bit indices";
}

} // namespace fuserc
