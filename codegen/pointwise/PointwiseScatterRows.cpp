// The update pass of a two-pass scatter by rows (PointwiseScatterPass.cpp
// has the rest): when the index is the same on every line (index_copy's
// expanded rows, a KV cache's positions) and the lines run along the
// index's innermost dim, the V positions of a vector share one target and
// one claim, so phase 2 reads the source and writes the outputs by vectors
// of 16 bytes: scatter_rows<V>_i32/i64. The host runs it when the index's
// innermost extent is a multiple of V and every tensor it reads or writes by
// vector is contiguous and aligned there; otherwise the scalar phase 2.
#include "codegen/core/CudaTypes.h"
#include "codegen/core/ElementwiseCode.h"
#include "codegen/pointwise/PointwiseEmitter.h"
#include "ir/DType.h"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>

namespace fuserc::pointwise {
namespace {

class FunctionReader : public InputReader {
public:
  explicit FunctionReader(std::function<InputRead(const Value &, const Coords &)> read)
      : read_(std::move(read)) {}
  InputRead read(const Value &input, const Coords &coords) override { return read_(input, coords); }

private:
  std::function<InputRead(const Value &, const Coords &)> read_;
};

std::string coordsKey(const Coords &coords) {
  std::string key;
  for (const std::string &c : coords)
    key += c + ";";
  return key;
}

} // namespace

// The vector width of the row variant, 0 when it does not exist.
int PointwiseEmitter::scatterRowLanes() const {
  const Op &op = *scatter_->scatter;
  const size_t dim = static_cast<size_t>(op.attrs().integer("dim"));
  const size_t rank = op.operand(1)->rank();
  if (!lineConstant_ || dim == rank - 1)
    return 0;
  // Tensors read by vector have the index's shape (the source) or the
  // result's (the consumers' operands), as the outputs have.
  int lanes = 8;
  for (const KernelTensor &t : tensors_)
    if (t.value != op.operand(1) &&
        (t.value->shape() == op.operand(1)->shape() || t.value->shape() == op.result()->shape()))
      lanes = std::min(lanes, 16 / static_cast<int>(dtypeBytes(t.storage)));
  return lanes > 1 ? lanes : 0;
}

std::string PointwiseEmitter::scatterRowKernel(bool wide) {
  const Op &op = *scatter_->scatter;
  const Value &index = *op.operand(1), &src = *op.operand(2);
  const Value &result = *op.result();
  const size_t dim = static_cast<size_t>(op.attrs().integer("dim"));
  const size_t rank = index.rank(), q = rank - 1;
  const int lanes = scatterRowLanes();
  const std::string V = std::to_string(lanes), B = std::to_string(kBlock);
  Coords p, c;
  for (size_t d = 0; d < rank; ++d)
    p.push_back("p" + std::to_string(d));
  c = p;
  c[dim] = "tc";
  // Lane l's coordinates in the index's space and in the result's.
  std::map<std::string, std::pair<char, int>> laneOf;
  auto atLane = [&](Coords at, int l) {
    at[q] = "(" + at[q] + " + " + std::to_string(l) + ")";
    return at;
  };
  for (int l = 0; l < lanes; ++l) {
    laneOf[coordsKey(atLane(p, l))] = {'p', l};
    laneOf[coordsKey(atLane(c, l))] = {'c', l};
  }
  std::map<std::pair<size_t, char>, std::string> vectors; // (tensor, space) -> its registers
  FunctionReader reader([&](const Value &input, const Coords &coords) -> InputRead {
    auto it = laneOf.find(coordsKey(coords));
    if (input.isScalarInput() || it == laneOf.end() ||
        input.shape() != (it->second.first == 'p' ? index.shape() : result.shape()) ||
        lanes * static_cast<int>(dtypeBytes(tensors_[tensorIndex(input, false)].storage)) > 16)
      return read(input, coords);
    const size_t t = tensorIndex(input, false);
    const std::string name = "u" + std::to_string(t) + it->second.first;
    vectors[{t, it->second.first}] = name;
    rowVectorTensors_.insert(t);
    return InputRead::lane(name, std::to_string(it->second.second), lanes, tensors_[t].storage);
  });
  ValueEmitter emitter(
      [&](const Value &v) { return loadsFromTensor(cx_.segment.segment, throughOps_, v); }, reader,
      symbols(), "I", false);
  const std::string target = emitter.emit(index, p);
  const std::string indexBody = emitter.takeBody(4);
  const std::vector<size_t> updated = scatterUpdatedTensors();
  std::map<size_t, std::vector<std::string>> stores; // tensor -> its lanes' values
  for (int l = 0; l < lanes; ++l) {
    const std::string value = emitter.emit(src, src.isRankZero() ? Coords{} : atLane(p, l));
    emitter.bind(result, cudaConvert(value, src.isLiteral() ? src.dtype() : mathDType(src.dtype()),
                                     mathDType(result.dtype())));
    for (size_t t : updated)
      stores[t].push_back(storedValue(emitter, t, atLane(c, l)));
  }
  for (const auto &[t, values] : stores)
    rowVectorTensors_.insert(t);
  const std::string laneBody = emitter.takeBody(4);

  auto offset = [&](size_t t, const Coords &at) {
    std::string o = "0";
    for (size_t d = 0; d < rank; ++d)
      o += " + " + at[d] + " * (I)a.st[" + std::to_string(t) + "][" + std::to_string(d) + "]";
    return o;
  };
  auto bytes = [&](size_t t) {
    return "fuserc_bytes" +
           std::to_string(lanes * static_cast<int>(dtypeBytes(tensors_[t].storage)));
  };
  std::string s = "extern \"C\" __global__ void __launch_bounds__(" + B + ") " +
                  kernelName("scatter_rows" + V, wide) + "(const " + cx_.base + "_args a) {\n";
  s += indexTypedef(wide);
  s += "  for (I k = (I)blockIdx.x * " + B + " + threadIdx.x; k < (I)(a.u_numel / " + V +
       "); k += (I)gridDim.x * " + B + ") {\n";
  s += "    const I lin = k * " + V + ";\n";
  std::vector<size_t> dims(rank);
  std::iota(dims.begin(), dims.end(), size_t{0});
  s += decomposeLinear(dims, "p", "a.u_size", "a.u", wide, "    ");
  // Vectors at the position's own coordinates (the source) load before its
  // index, so that the two loads are in flight together.
  auto loadVectors = [&](char which) {
    std::string loads;
    for (const auto &[key, name] : vectors) {
      const auto [t, space] = key;
      if (space != which)
        continue;
      const std::string T = cudaStorageType(tensors_[t].storage);
      loads += "    __align__(16) " + T + " " + name + "[" + V + "];\n";
      loads += "    *(" + bytes(t) + " *)" + name + " = *(const " + bytes(t) + " *)((const " + T +
               " *)a.ptr[" + std::to_string(t) + "] + " + offset(t, space == 'p' ? p : c) + ");\n";
    }
    return loads;
  };
  s += loadVectors('p');
  s += indexBody;
  // Phase 1 has reported a position out of range, unless there are no
  // claims (one position per line, or scan mode).
  s += scatterTarget(target, "a.u_unique || a.u_scan", "    ");
  s += scatterLaterWriter(emitter.namesUsed(), "    ");
  s += " else if (!a.u_unique && a.u_claim[tc] != (unsigned)p" + std::to_string(dim) +
       " + 1u) {\n      continue;\n    }\n";
  s += loadVectors('c');
  s += laneBody;
  for (const auto &[t, values] : stores) {
    const std::string T = cudaStorageType(tensors_[t].storage), w = "w" + std::to_string(t);
    s += "    __align__(16) " + T + " " + w + "[" + V + "];\n";
    for (size_t l = 0; l < values.size(); ++l)
      s += "    " + w + "[" + std::to_string(l) + "] = " + values[l] + ";\n";
    s += "    *(" + bytes(t) + " *)((" + T + " *)a.ptr[" + std::to_string(t) + "] + " +
         offset(t, c) + ") = *(const " + bytes(t) + " *)" + w + ";\n";
  }
  s += "  }\n}\n\n";
  return s;
}

// Host: `int rows` set to whether the row variant can run (after `a` is
// filled): the index's innermost extent a multiple of V, and every tensor
// it moves by vector contiguous along its innermost dim, its other strides
// multiples of V and its address aligned to the vector.
std::string PointwiseEmitter::scatterRowSelect() const {
  const size_t rank = scatter_->scatter->operand(1)->rank(), q = rank - 1;
  const std::string V = std::to_string(scatterRowLanes());
  std::string s = "  rows = a.u_size[" + std::to_string(q) + "] % " + V + " == 0;\n";
  for (size_t t : rowVectorTensors_) {
    const std::string ts = std::to_string(t);
    s += "  rows = rows && a.st[" + ts + "][" + std::to_string(q) +
         "] == 1 && (unsigned long long)(uintptr_t)a.ptr[" + ts + "] % " +
         std::to_string(scatterRowLanes() * static_cast<int>(dtypeBytes(tensors_[t].storage))) +
         " == 0";
    for (size_t d = 0; d < q; ++d)
      s += " && a.st[" + ts + "][" + std::to_string(d) + "] % " + V + " == 0";
    s += ";\n";
  }
  return s;
}

} // namespace fuserc::pointwise
