// The pointwise generator's svec<V>_i32/i64 variants: V consecutive
// elements of the iteration per thread, whatever the extents, so a vector
// may straddle rows (an odd inner extent such as a vocabulary of 50257, a
// pad to 4097). Tensors dense in the iteration order are loaded and stored
// by vector at the vector's linear index; every other read is per lane at
// the lane's own coordinates, which step from the vector's first element
// with a carry into the outer dims. The last numel % V elements are
// computed one per thread by threads past the last vector. Used where the
// vec, flat and rvec variants cannot run, in place of vec1 and gen (see
// PointwiseEmitter.h).
#include "codegen/core/CudaTypes.h"
#include "codegen/pointwise/PointwiseDenseTensors.h"
#include "codegen/pointwise/PointwiseEmitter.h"
#include "ir/DType.h"

namespace fuserc::pointwise {

// The tensors the variant moves by vector: dense in the iteration order
// with the reference's shape, read by the kernel or written.
void PointwiseEmitter::planStraddle() {
  if (scatter_ || vmax_ < 2 || rank_ == 0)
    return;
  std::set<size_t> vectors;
  bool storesVectors = false;
  for (size_t t = 0; t < tensors_.size(); ++t)
    if ((tensors_[t].written || fillReads(t)) &&
        denseInOrder(tensors_[t], *reference_, order_, cx_.analysis)) {
      vectors.insert(t);
      storesVectors = storesVectors || tensors_[t].written;
    }
  if (storesVectors)
    straddleVectors_ = std::move(vectors);
}

// Statements advancing the coordinates c<d> by one element in the
// reference's memory order: the innermost dim steps, carrying outward.
std::string PointwiseEmitter::straddleStep(const std::string &pad) const {
  // The dims that step: extent-1 dims stay at 0.
  std::vector<size_t> dims;
  for (int64_t dim : order_)
    if (!reference_->shape()[static_cast<size_t>(dim)].isConstant(1))
      dims.push_back(static_cast<size_t>(dim));
  std::string open, close, indent = pad;
  for (size_t k = dims.size(); k-- > 0;) {
    const std::string c = "c" + std::to_string(dims[k]);
    // The outermost never wraps: a vector ends before numel.
    if (k == 0) {
      open += indent + "++" + c + ";\n";
      break;
    }
    const Extent &extent = reference_->shape()[dims[k]];
    open += indent + "if (++" + c + " == " +
            (extent.constant() ? "(I)" + std::to_string(*extent.constant())
                               : "(I)a.size[" + std::to_string(dims[k]) + "]") +
            ") {\n";
    close = indent + "}\n" + close;
    indent += "  ";
    open += indent + c + " = 0;\n";
  }
  return open + close;
}

// The svec kernel with 32-bit or 64-bit (`wide`) indices.
std::string PointwiseEmitter::straddleKernel(bool wide) {
  const std::string V = std::to_string(vmax_), B = std::to_string(kBlock);
  Coords coords;
  for (size_t d = 0; d < rank_; ++d)
    coords.push_back("c" + std::to_string(d));
  const std::vector<size_t> dims(order_.begin(), order_.end());

  // One element's statements (padded by `pad`) and the values stored:
  // svec's lanes read dense tensors from registers, the rest per lane; its
  // tail reads every tensor plainly.
  auto elements = [&](bool straddling, int pad) {
    straddling_ = straddling;
    ValueEmitter emitter(
        [&](const Value &v) { return loadsFromTensor(cx_.segment.segment, throughOps_, v); }, *this,
        symbols(), "I", false);
    std::vector<std::pair<size_t, std::string>> stores;
    for (size_t t = 0; t < tensors_.size(); ++t)
      if (tensors_[t].written)
        stores.push_back({t, storedValue(emitter, t, coords)});
    straddling_ = false;
    return std::make_pair(emitter.body(pad), stores);
  };
  const auto [laneBody, laneStores] = elements(true, 6);

  std::string s = "extern \"C\" __global__ void __launch_bounds__(" + B + ") " +
                  kernelName("svec" + V, wide) + "(const " + cx_.base + "_args a) {\n";
  s += indexTypedef(wide);
  s += "  const I vectors = (I)(a.numel / " + V + ");\n";
  s += "  for (I k = (I)blockIdx.x * " + B + " + threadIdx.x; k < vectors; k += (I)gridDim.x * " +
       B + ") {\n";
  s += "    const I lin = k * " + V + ";\n";
  s += decomposeLinear(dims, "b", "a.size", "a.g", wide, "    ");
  for (size_t d = 0; d < rank_; ++d)
    s += "    I c" + std::to_string(d) + " = b" + std::to_string(d) + ";\n";
  for (size_t t : straddleVectors_) {
    const std::string T = cudaStorageType(tensors_[t].storage), ts = std::to_string(t);
    const std::string bytes =
        "fuserc_bytes" + std::to_string(vmax_ * static_cast<int>(dtypeBytes(tensors_[t].storage)));
    s += "    __align__(16) " + T + " t" + ts + "_l[" + V + "];  // " + tensors_[t].what + "\n";
    if (!tensors_[t].written)
      s += "    *(" + bytes + " *)t" + ts + "_l = *(const " + bytes + " *)((const " + T +
           " *)a.ptr[" + ts + "] + lin);\n";
  }
  s += "#pragma unroll\n";
  s += "    for (int j = 0; j < " + V + "; ++j) {\n";
  s += laneBody;
  for (const auto &[t, var] : laneStores) {
    if (straddleVectors_.count(t)) {
      s += "      t" + std::to_string(t) + "_l[j] = " + var + ";\n";
      continue;
    }
    s += "      " + ownElement(t) + " = " + var + ";\n";
  }
  s += straddleStep("      ");
  s += "    }\n";
  // Outputs are not read again here: streaming stores (evict first) leave
  // the cache to the inputs; workspace slots are read next.
  for (const auto &[t, var] : laneStores) {
    if (!straddleVectors_.count(t))
      continue;
    const std::string T = cudaStorageType(tensors_[t].storage), ts = std::to_string(t);
    const std::string bytes =
        "fuserc_bytes" + std::to_string(vmax_ * static_cast<int>(dtypeBytes(tensors_[t].storage)));
    const std::string address = "(" + bytes + " *)((" + T + " *)a.ptr[" + ts + "] + lin)",
                      stored = "*(const " + bytes + " *)t" + ts + "_l";
    if (tensors_[t].what.rfind("workspace", 0) == 0)
      s += "    *" + address + " = " + stored + ";\n";
    else
      s += "    __stcs(" + address + ", " + stored + ");\n";
  }
  s += "  }\n";

  // The last numel % V elements, one per thread: element j goes to the
  // thread that would take vector `vectors + j` (one without a vector in
  // the last round, unless the grid is full), so no thread waits on two
  // memory round trips.
  const auto [tailBody, tailStores] = elements(false, 4);
  s += "  const I total = (I)gridDim.x * " + B + ";\n";
  s += "  I j = (I)blockIdx.x * " + B + " + (I)threadIdx.x - vectors % total;\n";
  s += "  if (j < 0)\n    j += total;\n";
  s += "  if ((long long)j < a.numel - (long long)vectors * " + V + ") {\n";
  s += "    const I lin = vectors * " + V + " + j;\n";
  s += decomposeLinear(dims, "c", "a.size", "a.g", wide, "    ");
  s += tailBody;
  for (const auto &[t, var] : tailStores)
    s += "    " + ownElement(t) + " = " + var + ";\n";
  s += "  }\n}\n\n";
  return s;
}

// Host statements: `svec_ok` when every tensor moved by vector is dense in
// the iteration order and aligned to its vector.
std::string PointwiseEmitter::straddleHostSelect() const {
  std::string s = "  svec_ok = 1;\n";
  for (size_t t : straddleVectors_) {
    const std::string ts = std::to_string(t);
    s += "  if ((uintptr_t)a.ptr[" + ts + "] % " +
         std::to_string(vmax_ * static_cast<int>(dtypeBytes(tensors_[t].storage))) + " != 0)  /* " +
         tensors_[t].what + " */\n    svec_ok = 0;\n";
  }
  return s + denseInOrderHostCheck(tensors_, straddleVectors_, order_, "svec_ok");
}

} // namespace fuserc::pointwise
