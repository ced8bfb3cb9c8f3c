// The transpose generator's vector variant (TransposeEmitter.h): tiles of
// 64 x 64 and every access to a tensor along its contiguous dim a vector of
// V elements (16 bytes for the widest dtype). A thread holds vector `lv` of
// tile rows `lr + p * R` (p < P): L = 64 / V threads cover a row, R = 256 /
// L rows a pass. Staging reads input tiles with the vectors along A; the
// compute phase walks vectors along B, loading the reads contiguous along B
// as vectors and storing the outputs contiguous along B as vectors, and
// reads tiles element by element down their columns; output tiles are
// written back with the vectors along A. With L lanes per row and rows of
// 65 elements, the column reads are free of bank conflicts for 2-byte
// elements and 2-way for 4-byte ones.
//
// 2-byte input tiles (vectors of 8) are packed instead: a thread stages
// rows 2 ra and 2 ra + 1 and stores words of the two elements of each
// column (8 word stores, not 16 of 2 bytes), in rows along A swizzled by
// 16-byte chunks, so the computing thread loads its 8 elements along B as
// one 16-byte vector (not 8 loads of 2 bytes); both sides are free of bank
// conflicts (packedStaging), cutting a thread's shared-memory instructions
// where the kernel is bound by issue slots.
//
// Tiles of 64 x 64 measured faster than other shapes, persistent blocks
// prefetching the next tile, or more blocks per SM (except the 4 of
// kMinBlocksV8 for 2-byte vectors). A block finds its tile by magic-number
// division rather than `/` and `%` (i32 variants), which measured faster.
// Loads and stores are plain: evict-first (streaming) accesses measured
// slower. The figures are in bench/README.md, "Measurements behind the
// code's constants".
//
// It runs when A and B are multiples of V and each such tensor has stride 1
// along its contiguous dim, other strides multiples of V and an aligned
// pointer, so every vector is whole and aligned (vectorCondition).
#include "codegen/core/CudaTypes.h"
#include "codegen/transpose/TransposeEmitter.h"
#include "ir/DType.h"

#include <algorithm>

namespace fuserc::transpose {
namespace {

// "*(fuserc_bytesN *)" for a vector of `v` elements of `storage`.
std::string bytesType(int v, DType storage) {
  return "fuserc_bytes" + std::to_string(v * static_cast<int>(dtypeBytes(storage)));
}

} // namespace

// One function on purpose: it prints one kernel's text top to bottom, in
// the order the generated CUDA reads.
std::string TransposeEmitter::vectorKernel(bool wide) {
  const int V = vector_, TA = vectorTileA_, TB = vectorTileB_;
  // Vectors along A (staging, writing): LA threads a row, RA rows a pass,
  // PA passes; along B (computing): LB, RB, PB.
  const int LA = TA / V, RA = kBlock / LA, PA = TB / RA;
  const int LB = TB / V, RB = kBlock / LB, PB = TA / RB;
  const std::string A = std::to_string(*dimA_), B = std::to_string(dimB_), Vs = std::to_string(V);
  std::vector<size_t> inputs, outputs;
  for (size_t k = 0; k < tiles_.size(); ++k)
    (tiles_[k].output ? outputs : inputs).push_back(k);
  // Tile rows and columns of pass p (vector element v) in either mapping.
  packed_.assign(tiles_.size(), false);
  for (size_t k : inputs)
    packed_[k] = packable(k);
  const bool pairs = std::find(packed_.begin(), packed_.end(), true) != packed_.end();
  // With packed tiles a thread stages rows 2 ra and 2 ra + 1 (PA = 2).
  auto rowA = [&](int p) {
    return pairs ? "2 * ra + " + std::to_string(p) : "ra + " + std::to_string(p * RA);
  };
  auto columnA = [&](int v) { return "va * " + Vs + " + " + std::to_string(v); };
  auto rowB = [&](int p) { return "rb + " + std::to_string(p * RB); };
  auto columnB = [&](int v) { return "vb * " + Vs + " + " + std::to_string(v); };
  // Opens a block declaring c<A> and c<B> (the vectors along `alongA` or
  // B) for pass p, setting ok[p] when the vector is inside.
  auto at = [&](int p, bool alongA) {
    const std::string ps = std::to_string(p);
    const std::string a = alongA ? "va * " + Vs : rowB(p), b = alongA ? rowA(p) : "vb * " + Vs;
    return "    {\n      const I c" + A + " = ta * " + std::to_string(TA) + " + " + a +
           ";\n      const I c" + B + " = tb * " + std::to_string(TB) + " + " + b + ";\n      ok[" +
           ps + "] = c" + A + " < eA && c" + B + " < eB;\n      if (ok[" + ps + "]) {\n";
  };
  const std::string close = "      }\n    }\n";
  auto vectorLoad = [&](const std::string &to, const Access &x) {
    const DType storage = tensors_[x.tensor].storage;
    return "*(" + bytesType(V, storage) + " *)" + to + " = *(const " + bytesType(V, storage) +
           " *)((const " + cudaStorageType(storage) + " *)a.ptr[" + std::to_string(x.tensor) +
           "] + " + offset(x.tensor, x.coords) + ");\n";
  };
  auto vectorStore = [&](size_t t, const Coords &coords, const std::string &from) {
    const DType storage = tensors_[t].storage;
    return "*(" + bytesType(V, storage) + " *)((" + cudaStorageType(storage) + " *)a.ptr[" +
           std::to_string(t) + "] + " + offset(t, coords) + ") = *(const " + bytesType(V, storage) +
           " *)" + from + ";\n";
  };
  auto registers = [&](const std::string &name, size_t t, int passes) {
    return "    __align__(16) " + cudaStorageType(tensors_[t].storage) + " " + name + "[" +
           std::to_string(passes) + "][" + Vs + "];\n";
  };

  std::string s = kernelHead(vectorName(wide), TA, TB, wide);
  s += "    const int va = threadIdx.x % " + std::to_string(LA) + ", ra = threadIdx.x / " +
       std::to_string(LA) + ";\n";
  s += "    const int vb = threadIdx.x % " + std::to_string(LB) + ", rb = threadIdx.x / " +
       std::to_string(LB) + ";\n";
  s += "    bool ok[" + std::to_string(std::max(PA, PB)) + "];\n";
  // Stage the input tiles, vectors along A.
  for (size_t k : inputs)
    s += registers("l" + std::to_string(k), tiles_[k].tensor, PA);
  for (int p = 0; p < PA && !inputs.empty(); ++p) {
    s += at(p, true);
    for (size_t k : inputs)
      s += "        " +
           vectorLoad("l" + std::to_string(k) + "[" + std::to_string(p) + "]", tiles_[k]);
    s += close;
  }
  std::vector<size_t> unpacked;
  for (size_t k : inputs) {
    if (packed(k))
      s += packedStaging(k);
    else
      unpacked.push_back(k);
  }
  for (int p = 0; p < PA && !unpacked.empty(); ++p) {
    s += "    if (ok[" + std::to_string(p) + "]) {\n";
    for (size_t k : unpacked)
      for (int v = 0; v < V; ++v)
        s += "      " + tileName(k) + "[" + rowA(p) + "][" + columnA(v) + "] = l" +
             std::to_string(k) + "[" + std::to_string(p) + "][" + std::to_string(v) + "];\n";
    s += "    }\n";
  }
  if (!inputs.empty())
    s += "    __syncthreads();\n";
  // Compute, vectors along B: the vector loads, every value, then the stores.
  for (size_t t = 0; t < tensors_.size(); ++t)
    if (tensors_[t].written)
      s += registers("o" + std::to_string(t), t, PB);
  for (size_t j = 0; j < vectorReads_.size(); ++j)
    s += registers("d" + std::to_string(j), vectorReads_[j].tensor, PB);
  for (int p = 0; p < PB; ++p) {
    const std::string ps = std::to_string(p);
    s += at(p, false);
    for (size_t j = 0; j < vectorReads_.size(); ++j)
      s += "        " + vectorLoad("d" + std::to_string(j) + "[" + ps + "]", vectorReads_[j]);
    for (size_t k : inputs)
      if (packed(k))
        s += packedColumn(k, rowB(p));
    for (int v = 0; v < V; ++v) {
      const std::string vs = std::to_string(v);
      vectorAt_ = "[" + ps + "][" + vs + "]";
      packedAt_ = "[" + vs + "]";
      s += "        {\n          const I c" + B + " = tb * " + std::to_string(TB) + " + vb * " +
           Vs + " + " + vs + ";\n";
      s += emitBody("[" + columnB(v) + "][" + rowB(p) + "]", vectorAt_, "          ");
      s += "        }\n";
    }
    s += close;
  }
  vectorAt_.clear();
  packedAt_.clear();
  for (int p = 0; p < PB; ++p) {
    const std::string ps = std::to_string(p);
    s += at(p, false);
    for (size_t t = 0; t < tensors_.size(); ++t) {
      if (!tensors_[t].written)
        continue;
      const std::string o = "o" + std::to_string(t) + "[" + ps + "]";
      if (std::optional<size_t> k = outputTile(t)) {
        for (int v = 0; v < V; ++v)
          s += "        " + tileName(*k) + "[" + columnB(v) + "][" + rowB(p) + "] = " + o + "[" +
               std::to_string(v) + "];\n";
      } else {
        s += "        " + vectorStore(t, outputCoords(t), o);
      }
    }
    s += close;
  }
  // Write the output tiles, vectors along A.
  if (!outputs.empty())
    s += "    __syncthreads();\n";
  for (int p = 0; p < PA && !outputs.empty(); ++p) {
    s += at(p, true);
    for (size_t k : outputs) {
      const std::string w = "w" + std::to_string(k);
      s += "  " + registers(w, tiles_[k].tensor, 1);
      for (int v = 0; v < V; ++v)
        s += "        " + w + "[0][" + std::to_string(v) + "] = " + tileName(k) + "[" + rowA(p) +
             "][" + columnA(v) + "];\n";
      s += "        " + vectorStore(tiles_[k].tensor, tiles_[k].coords, w + "[0]");
    }
    s += close;
  }
  if (!tiles_.empty())
    s += "    __syncthreads();\n";
  s += "  }\n}\n\n";
  packed_.clear();
  return s;
}

// packedStaging has each thread stage exactly two tile rows: two passes of
// kBlock / (64 / 8) rows (PA = 2 in vectorKernel).
bool TransposeEmitter::packable(size_t k) const {
  return !tiles_[k].output && dtypeBytes(tensors_[tiles_[k].tensor].storage) == 2 && vector_ == 8 &&
         vectorTileA_ == 64 && vectorTileB_ == 64 &&
         2 * (kBlock / (vectorTileA_ / vector_)) == vectorTileB_;
}

// Rows 2 ra and 2 ra + 1 of input tile k (vectors l<k>[0] and [1] at
// columns 8 va ...) into the tile as words of the two elements of a column,
// word (a, ra) at column (ra / 4 ^ a / 8 % 8) * 4 + ra % 4 of row a: a
// warp's stores of one element fall in distinct banks, and a column's
// words for rows 8 j ... 8 j + 7 are 16 contiguous bytes (chunk j ^ a / 8
// % 8), which the computing threads of a quarter-warp read in distinct
// banks. Both rows are inside or neither (eB is a multiple of 8).
std::string TransposeEmitter::packedStaging(size_t k) const {
  const std::string ks = std::to_string(k), l = "l" + ks;
  std::string s = "    if (ok[0]) {  // " + tileName(k) + ": pairs of rows as words\n";
  s += "      const unsigned *r0 = (const unsigned *)" + l + "[0], *r1 = (const unsigned *)" + l +
       "[1];\n";
  s += "      const int at = (((ra >> 2) ^ va) << 2) | (ra & 3);\n";
  for (int e = 0; e < 8; ++e)
    s += "      " + tileName(k) + "[va * 8 + " + std::to_string(e) + "][at] = __byte_perm(r0[" +
         std::to_string(e / 2) + "], r1[" + std::to_string(e / 2) + "], " +
         (e % 2 ? "0x7632" : "0x5410") + ");\n";
  return s + "    }\n";
}

// u<k>: the 8 elements of input tile k at row `a` (along A) and columns 8
// vb ... 8 vb + 7 (along B), one 16-byte load (packedStaging's layout).
std::string TransposeEmitter::packedColumn(size_t k, const std::string &a) const {
  const std::string ks = std::to_string(k), T = cudaStorageType(tensors_[tiles_[k].tensor].storage);
  return "        __align__(16) " + T + " u" + ks + "[8];\n        *(fuserc_bytes16 *)u" + ks +
         " = *(const fuserc_bytes16 *)&" + tileName(k) + "[" + a + "][(vb ^ (((" + a +
         ") >> 3) & 7)) << 2];\n";
}

// Each tiled or vector tensor: stride 1 along the dim read at c<along>
// (which it must use once), other strides multiples of V, aligned pointer.
std::string TransposeEmitter::vectorCondition() const {
  const std::string V = std::to_string(vector_);
  std::string s = "a.size[" + std::to_string(*dimA_) + "] % " + V + " == 0 && a.size[" +
                  std::to_string(dimB_) + "] % " + V + " == 0";
  auto add = [&](size_t t, const Coords &coords, size_t along) {
    const std::string ts = std::to_string(t);
    if (std::count(coords.begin(), coords.end(), coord(along)) != 1) {
      s += " && 0";
      return;
    }
    for (size_t d = 0; d < coords.size(); ++d) {
      const std::string st = "a.st[" + ts + "][" + std::to_string(d) + "]";
      if (coords[d] == coord(along))
        s += " && " + st + " == 1";
      else if (coords[d] != "0")
        s += " && " + st + " % " + V + " == 0";
    }
    s += " && (unsigned long long)(uintptr_t)a.ptr[" + ts + "] % " +
         std::to_string(vector_ * static_cast<int>(dtypeBytes(tensors_[t].storage))) + " == 0";
  };
  for (const Access &k : tiles_)
    add(k.tensor, k.coords, *dimA_);
  for (const Access &r : vectorReads_)
    add(r.tensor, r.coords, dimB_);
  for (size_t t = 0; t < tensors_.size(); ++t)
    if (tensors_[t].written && !outputTile(t))
      add(t, outputCoords(t), dimB_);
  return "(" + s + ")";
}

} // namespace fuserc::transpose
