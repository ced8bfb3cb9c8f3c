// The transpose generator's scalar variant (TransposeEmitter.h): tiles of
// 32 x 32, one element per access, any strides. A thread handles 4
// elements of a tile: rows `row + 8i` (its warp) at column `lane`. In the
// compute phase rows run along A and lanes along B; in the staging and
// writing phases the other way round. Tiles are padded to 33 columns, so
// reading a column of them is free of bank conflicts.
//
// Tiles of 64, or tiles visited in groups along A, measured slower; a
// capped grid changed nothing (bench/README.md, "Measurements behind the
// code's constants").
#include "codegen/core/CudaTypes.h"
#include "codegen/core/ReductionValues.h"
#include "codegen/transpose/TransposeEmitter.h"

namespace fuserc::transpose {
namespace {

// One element of a thread's share: e, its tile row and tile column.
struct Element {
  int e;
  std::string row, column;
};

std::vector<Element> elements() {
  std::vector<Element> out;
  for (int i = 0; i < kScalarTile / kWarps; ++i)
    out.push_back({i, "row + " + std::to_string(i * kWarps), "lane"});
  return out;
}

} // namespace

// Every load of a phase is issued before its first store: stores through
// generic pointers could alias the loads, which would otherwise wait.
std::string TransposeEmitter::scalarKernel(bool wide) {
  const std::string A = std::to_string(*dimA_), B = std::to_string(dimB_),
                    T = std::to_string(kScalarTile);
  const std::vector<Element> elems = elements();
  const std::string E = std::to_string(elems.size());
  // Opens a block declaring c<A> = ta * T + alongA and c<B> = tb * T +
  // alongB, setting ok[e] when they are inside.
  auto at = [&](int e, const std::string &alongA, const std::string &alongB) {
    const std::string es = std::to_string(e);
    return "    {\n      const I c" + A + " = ta * " + T + " + " + alongA + ";\n      const I c" +
           B + " = tb * " + T + " + " + alongB + ";\n      ok[" + es + "] = c" + A + " < eA && c" +
           B + " < eB;\n      if (ok[" + es + "]) {\n";
  };
  const std::string close = "      }\n    }\n";
  std::vector<size_t> inputs, outputs;
  for (size_t k = 0; k < tiles_.size(); ++k)
    (tiles_[k].output ? outputs : inputs).push_back(k);

  std::string s = kernelHead(scalarName(wide), kScalarTile, kScalarTile, wide);
  s += "    const int lane = threadIdx.x & 31, row = threadIdx.x >> 5;\n";
  s += "    bool ok[" + E + "];\n";
  // Stage the input tiles, lanes along A.
  for (size_t k : inputs)
    s += "    " + cudaStorageType(tensors_[tiles_[k].tensor].storage) + " l" + std::to_string(k) +
         "[" + E + "];\n";
  for (const Element &el : elems) {
    if (inputs.empty())
      break;
    s += at(el.e, el.column, el.row);
    for (size_t k : inputs)
      s += "        l" + std::to_string(k) + "[" + std::to_string(el.e) + "] = ((const " +
           cudaStorageType(tensors_[tiles_[k].tensor].storage) + " *)a.ptr[" +
           std::to_string(tiles_[k].tensor) + "])[" + offset(tiles_[k].tensor, tiles_[k].coords) +
           "];\n";
    s += close;
  }
  for (const Element &el : elems) {
    if (inputs.empty())
      break;
    s += "    if (ok[" + std::to_string(el.e) + "]) {\n";
    for (size_t k : inputs)
      s += "      " + tileName(k) + "[" + el.row + "][" + el.column + "] = l" + std::to_string(k) +
           "[" + std::to_string(el.e) + "];\n";
    s += "    }\n";
  }
  if (!inputs.empty())
    s += "    __syncthreads();\n";
  // Compute, lanes along B: every value first, then the stores.
  for (size_t t = 0; t < tensors_.size(); ++t)
    if (tensors_[t].written)
      s += "    " + cudaStorageType(tensors_[t].storage) + " o" + std::to_string(t) + "[" + E +
           "];\n";
  vectorAt_.clear();
  for (const Element &el : elems) {
    s += at(el.e, el.row, el.column);
    s += emitBody("[" + el.column + "][" + el.row + "]", "[" + std::to_string(el.e) + "]",
                  "        ");
    s += close;
  }
  for (const Element &el : elems) {
    s += at(el.e, el.row, el.column);
    for (size_t t = 0; t < tensors_.size(); ++t) {
      if (!tensors_[t].written)
        continue;
      const std::string value = "o" + std::to_string(t) + "[" + std::to_string(el.e) + "]";
      if (std::optional<size_t> k = outputTile(t))
        s += "        " + tileName(*k) + "[" + el.column + "][" + el.row + "] = " + value + ";\n";
      else
        s += "        " + storeStatement(t, tensors_[t].storage, storedAt(t), value) + "\n";
    }
    s += close;
  }
  // Write the output tiles, lanes along A.
  if (!outputs.empty())
    s += "    __syncthreads();\n";
  for (const Element &el : elems) {
    if (outputs.empty())
      break;
    s += at(el.e, el.column, el.row);
    for (size_t k : outputs)
      s += "        ((" + cudaStorageType(tensors_[tiles_[k].tensor].storage) + " *)a.ptr[" +
           std::to_string(tiles_[k].tensor) + "])[" + offset(tiles_[k].tensor, tiles_[k].coords) +
           "] = " + tileName(k) + "[" + el.row + "][" + el.column + "];\n";
    s += close;
  }
  if (!tiles_.empty())
    s += "    __syncthreads();\n";
  s += "  }\n}\n\n";
  return s;
}

} // namespace fuserc::transpose
