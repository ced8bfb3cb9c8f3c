// Transpose kernels: argument struct, tiled variants and host launch block
// (see TransposeKernel.h).
#include "codegen/TransposeKernel.h"

#include "codegen/CodegenError.h"
#include "codegen/CudaTypes.h"
#include "codegen/IndexChecks.h"
#include "codegen/ReductionValues.h"
#include "codegen/ValueEmitter.h"
#include "ir/DType.h"

#include <algorithm>
#include <optional>

namespace fuserc {
namespace {

constexpr int kMaxRank = 8;
// Tiles are kTile x kTile elements; a thread handles kTile * kTile / kBlock
// of them. On the H200 (2026-11-21, GB/s of transpose_add f32 8192^2 /
// transpose_3d f16 [64, 512, 768]): tiles of 32 3356 / 1650; of 64 3092 /
// 1163 (84 registers, 3 blocks per SM); tiles of 32 in groups of 32 along A
// (blocks in flight on a square patch) 3158 / 1311; capping the grid at 1056
// to 4224 blocks changed nothing.
constexpr int kTile = 32;
constexpr int kBlock = 256;              // threads: kBlock / 32 warps
constexpr int kWarps = kBlock / 32;      // each thread covers T / kWarps rows
constexpr int64_t kMaxTileBytes = 40960; // shared memory for the tiles, all together

// A shared-memory tile: an input read at coordinates that are reference
// coordinates (or 0), or an output stored through it.
struct Tile {
  size_t tensor = 0;
  Coords coords; // per tensor dim: "c<k>" or "0"
  bool output = false;
};

std::string tileName(size_t k) { return "tile" + std::to_string(k); }

class TransposeEmitter : public InputReader {
public:
  TransposeEmitter(const SegmentedFusion &sf, const ScheduledSegment &seg,
                   const WorkspaceOffsets &workspace)
      : sf_(sf), seg_(seg), analysis_(*sf.analysis), workspace_(workspace) {
    base_ = sf.fusion->name() + "_k" + std::to_string(seg.id);
  }

  EmittedKernel run() {
    collectTensors();
    rank_ = reference_->rank();
    if (rank_ > static_cast<size_t>(kMaxRank))
      throw CodegenError("segment " + std::to_string(seg_.id) + ": rank " + std::to_string(rank_) +
                         " is above the supported " + std::to_string(kMaxRank));
    if (rank_ < 2)
      throw CodegenError("segment " + std::to_string(seg_.id) + ": the reference output " +
                         analysis_.quoted(*reference_) + " has fewer than two dims to tile");
    order_ = analysis_.storedLayout(*reference_);
    dimB_ = innermostOf(order_, reference_->shape());
    // A first emission finds how each input is read; the tiles follow.
    discovering_ = true;
    emitBody();
    discovering_ = false;
    chooseTiles();

    EmittedKernel out;
    out.source = argsStruct("") + "\n";
    for (bool wide : {false, true})
      out.source += kernel(kTile, wide);
    fillPlan(out.plan);
    return out;
  }

  std::string read(const Value &input, const Coords &coords) override {
    if (input.isScalarInput())
      return "a.s" + std::to_string(scalarIndex(input));
    const size_t t = tensorIndex(input, false);
    if (discovering_) {
      reads_.push_back({t, coords, false});
      return "0";
    }
    for (size_t k = 0; k < tiles_.size(); ++k)
      if (!tiles_[k].output && tiles_[k].tensor == t && tiles_[k].coords == coords)
        return "fuserc_load(" + tileName(k) + tileAt_ + ")";
    return "fuserc_load(((const " + cudaStorageType(tensors_[t].storage) + " *)a.ptr[" +
           std::to_string(t) + "])[" + offset(t, coords) + "])";
  }

private:
  void collectTensors() {
    KernelOperands operands = collectKernelOperands(sf_, seg_, workspace_, "transpose");
    tensors_ = std::move(operands.tensors);
    scalars_ = std::move(operands.scalars);
    reference_ = &iterationReference(sf_, seg_);
  }

  size_t tensorIndex(const Value &v, bool written) const {
    return kernelTensorIndex(tensors_, v, written, analysis_);
  }

  size_t scalarIndex(const Value &v) const {
    return static_cast<size_t>(std::find(scalars_.begin(), scalars_.end(), &v) - scalars_.begin());
  }

  // The innermost dim of `layout` whose extent is not a static 1 (the
  // innermost one when all are).
  static size_t innermostOf(const Layout &layout, const std::vector<Extent> &shape) {
    for (auto it = layout.rbegin(); it != layout.rend(); ++it)
      if (!shape[static_cast<size_t>(*it)].isConstant(1))
        return static_cast<size_t>(*it);
    return static_cast<size_t>(layout.back());
  }

  static std::string coord(size_t dim) { return "c" + std::to_string(dim); }

  std::string offset(size_t t, const Coords &coords) const {
    std::string s = "0";
    for (size_t d = 0; d < coords.size(); ++d)
      if (coords[d] != "0")
        s += " + " + coords[d] + " * (I)a.st[" + std::to_string(t) + "][" + std::to_string(d) + "]";
    return s;
  }

  // The reference dim `coords` reads the innermost dim of tensor t at, when
  // every coordinate is a reference coordinate or 0.
  std::optional<size_t> innermostRead(size_t t, const Coords &coords) const {
    for (const std::string &c : coords)
      if (c != "0" && !isReferenceCoord(c))
        return std::nullopt;
    const Value &v = *tensors_[t].value;
    const size_t inner = innermostOf(analysis_.storedLayout(v), v.shape());
    if (!isReferenceCoord(coords[inner]))
      return std::nullopt;
    return static_cast<size_t>(std::stoul(coords[inner].substr(1)));
  }

  bool isReferenceCoord(const std::string &c) const {
    for (size_t d = 0; d < rank_; ++d)
      if (c == coord(d))
        return true;
    return false;
  }

  // A: the innermost dim of the first stored output, then of the first
  // input read, that is not B. Tiles: every input read and every stored
  // output contiguous along A, while shared memory lasts.
  void chooseTiles() {
    std::vector<Tile> candidates;
    for (size_t t = 0; t < tensors_.size(); ++t) {
      if (!tensors_[t].written)
        continue;
      const Value &v = *tensors_[t].value;
      const size_t inner = innermostOf(analysis_.storedLayout(v), v.shape());
      Coords coords;
      for (size_t d = 0; d < rank_; ++d)
        coords.push_back(v.shape()[d].isConstant(1) ? "0" : coord(d));
      if (inner != dimB_ && !v.shape()[inner].isConstant(1))
        candidates.push_back({t, coords, true});
    }
    // A read that does not vary along B (a bias along A) is read directly:
    // its lanes all read one element.
    for (const Tile &r : reads_) {
      std::optional<size_t> inner = innermostRead(r.tensor, r.coords);
      if (!inner || *inner == dimB_ ||
          std::find(r.coords.begin(), r.coords.end(), coord(dimB_)) == r.coords.end())
        continue;
      if (std::none_of(candidates.begin(), candidates.end(), [&](const Tile &c) {
            return !c.output && c.tensor == r.tensor && c.coords == r.coords;
          }))
        candidates.push_back(r);
    }
    for (const Tile &c : candidates) {
      const size_t inner = c.output ? innermostOf(analysis_.storedLayout(*tensors_[c.tensor].value),
                                                  tensors_[c.tensor].value->shape())
                                    : *innermostRead(c.tensor, c.coords);
      if (!dimA_)
        dimA_ = inner;
      if (inner != *dimA_)
        continue;
      const int64_t bytes = kTile * (kTile + 1) * dtypeBytes(tensors_[c.tensor].storage);
      if (tileBytes_ + bytes > kMaxTileBytes)
        break;
      tileBytes_ += bytes;
      tiles_.push_back(c);
    }
    if (!dimA_) // nothing disagrees through plain reads: tile the next dim
      for (auto it = order_.rbegin(); it != order_.rend() && !dimA_; ++it)
        if (static_cast<size_t>(*it) != dimB_)
          dimA_ = static_cast<size_t>(*it);
  }

  // The statements computing one element's stored values at the
  // coordinates c<d> into o<t>[e] (one per written tensor), and the
  // values' reads of input tiles at `at` ("[bL][aL]").
  std::string emitBody(const std::string &e = "0", const std::string &at = "[0][0]",
                       const std::string &pad = "") {
    tileAt_ = at;
    Coords coords;
    for (size_t d = 0; d < rank_; ++d)
      coords.push_back(coord(d));
    ValueEmitter emitter(
        [&](const Value &v) { return !seg_.segment.defines(v); }, *this,
        [&](const Extent &x) { return kernelExtentCode(x, sf_.fusion->symbols()); }, "I", false);
    std::vector<std::string> values;
    for (size_t t = 0; t < tensors_.size(); ++t) {
      if (!tensors_[t].written)
        continue;
      const Value &v = *tensors_[t].value;
      const Op *op = v.definingOp();
      values.push_back("o" + std::to_string(t) + "[" + e + "] = " +
                       storedExpression(emitter, v, tensors_[t].storage,
                                        op && seg_.segment.contains(*op), coords) +
                       ";");
    }
    std::string s = emitter.body(static_cast<int>(pad.size()));
    for (const std::string &value : values)
      s += pad + value + "\n";
    return s;
  }

  std::optional<size_t> outputTile(size_t t) const {
    for (size_t k = 0; k < tiles_.size(); ++k)
      if (tiles_[k].output && tiles_[k].tensor == t)
        return k;
    return std::nullopt;
  }

  std::string argsStruct(const std::string &prefix) const {
    const size_t nt = std::max<size_t>(tensors_.size(), 1);
    const size_t ns = std::max<size_t>(sf_.fusion->symbols().size(), 1);
    const std::string R = std::to_string(kMaxRank);
    std::string s = "typedef struct {\n";
    s += "  void *ptr[" + std::to_string(nt) + "];\n";
    s += "  long long st[" + std::to_string(nt) + "][" + R + "];\n";
    s += "  long long size[" + R + "];\n";
    s += "  long long numel, batch;\n";
    s += "  long long sym[" + std::to_string(ns) + "];\n";
    for (size_t k = 0; k < scalars_.size(); ++k)
      s += "  " + cudaComputeType(scalars_[k]->dtype()) + " s" + std::to_string(k) + ";\n";
    if (segmentChecksIndices(seg_.segment))
      s += indexFlagMember();
    s += "} " + prefix + base_ + "_args;\n";
    return s;
  }

  std::string kernelName(int tile, bool wide) const {
    return base_ + "_tile" + std::to_string(tile) + (wide ? "_i64" : "_i32");
  }

  // One element of a thread's share of the tile: e = i * columns + j, at
  // tile row i * warps + row and column j * 32 + lane. In the compute phase
  // rows run along A and columns (lanes) along B; in the staging and
  // writing phases the other way round.
  struct Element {
    int e;
    std::string row, column;
  };
  static std::vector<Element> elements(int tile) {
    std::vector<Element> out;
    for (int i = 0; i < tile / kWarps; ++i)
      for (int j = 0; j < tile / 32; ++j)
        out.push_back({i * (tile / 32) + j, "row + " + std::to_string(i * kWarps),
                       "lane + " + std::to_string(j * 32)});
    return out;
  }

  // Statements opening a block that declares c<A> = ta * T + `alongA` and
  // c<B> = tb * T + `alongB`, and sets ok[e] when they are inside.
  std::string elementCoords(int tile, int e, const std::string &alongA,
                            const std::string &alongB) const {
    const std::string A = std::to_string(*dimA_), B = std::to_string(dimB_),
                      T = std::to_string(tile), E = std::to_string(e);
    return "    {\n      const I c" + A + " = ta * " + T + " + " + alongA + ";\n      const I c" +
           B + " = tb * " + T + " + " + alongB + ";\n      ok[" + E + "] = c" + A + " < eA && c" +
           B + " < eB;\n";
  }

  // Every load of a phase is issued before its first store: stores through
  // generic pointers could alias the loads, which would otherwise wait.
  std::string kernel(int tile, bool wide) {
    const std::string T = std::to_string(tile);
    const std::string A = std::to_string(*dimA_), B = std::to_string(dimB_);
    const std::vector<Element> elems = elements(tile);
    const std::string E = std::to_string(elems.size());
    std::string s = "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kBlock) +
                    ") " + kernelName(tile, wide) + "(const " + base_ + "_args a) {\n";
    s += std::string("  typedef ") + (wide ? "long long" : "int") + " I;\n";
    for (size_t k = 0; k < tiles_.size(); ++k)
      s += "  __shared__ " + cudaStorageType(tensors_[tiles_[k].tensor].storage) + " " +
           tileName(k) + "[" + T + "][" + T + " + 1];  // " + tensors_[tiles_[k].tensor].what +
           "\n";
    s += "  const int lane = threadIdx.x & 31, row = threadIdx.x >> 5;\n";
    s += "  const I eA = (I)a.size[" + A + "], eB = (I)a.size[" + B + "];\n";
    s += "  const I tilesA = (eA + " + T + " - 1) / " + T + ", tilesB = (eB + " + T + " - 1) / " +
         T + ";\n";
    s += "  const I tiles = tilesA * tilesB * (I)a.batch;\n";
    s += "  for (I tile = (I)blockIdx.x; tile < tiles; tile += (I)gridDim.x) {\n";
    s += "    I rem = tile;\n";
    s += "    const I tb = rem % tilesB;\n    rem /= tilesB;\n";
    s += "    const I ta = rem % tilesA;\n    rem /= tilesA;\n";
    for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
      const size_t d = static_cast<size_t>(*it);
      if (d == *dimA_ || d == dimB_)
        continue;
      const std::string ds = std::to_string(d);
      s += "    const I c" + ds + " = rem % (I)a.size[" + ds + "];\n";
      s += "    rem /= (I)a.size[" + ds + "];\n";
    }
    s += "    bool ok[" + E + "];\n";
    // Stage the input tiles, lanes along A.
    std::vector<size_t> inputs, outputs;
    for (size_t k = 0; k < tiles_.size(); ++k)
      (tiles_[k].output ? outputs : inputs).push_back(k);
    for (size_t k : inputs)
      s += "    " + cudaStorageType(tensors_[tiles_[k].tensor].storage) + " l" + std::to_string(k) +
           "[" + E + "];\n";
    for (const Element &el : elems) {
      if (inputs.empty())
        break;
      const std::string e = std::to_string(el.e);
      s += elementCoords(tile, el.e, el.column, el.row);
      s += "      if (ok[" + e + "]) {\n";
      for (size_t k : inputs)
        s += "        l" + std::to_string(k) + "[" + e + "] = ((const " +
             cudaStorageType(tensors_[tiles_[k].tensor].storage) + " *)a.ptr[" +
             std::to_string(tiles_[k].tensor) + "])[" + offset(tiles_[k].tensor, tiles_[k].coords) +
             "];\n";
      s += "      }\n    }\n";
    }
    for (const Element &el : elems) {
      if (inputs.empty())
        break;
      const std::string e = std::to_string(el.e);
      s += "    if (ok[" + e + "]) {\n";
      for (size_t k : inputs)
        s += "      " + tileName(k) + "[" + el.row + "][" + el.column + "] = l" +
             std::to_string(k) + "[" + e + "];\n";
      s += "    }\n";
    }
    if (!inputs.empty())
      s += "    __syncthreads();\n";
    // Compute, lanes along B: every value first, then the stores.
    for (size_t t = 0; t < tensors_.size(); ++t)
      if (tensors_[t].written)
        s += "    " + cudaStorageType(tensors_[t].storage) + " o" + std::to_string(t) + "[" + E +
             "];\n";
    for (const Element &el : elems) {
      const std::string e = std::to_string(el.e);
      s += elementCoords(tile, el.e, el.row, el.column);
      s += "      if (ok[" + e + "]) {\n";
      s += emitBody(e, "[" + el.column + "][" + el.row + "]", "        ");
      s += "      }\n    }\n";
    }
    for (const Element &el : elems) {
      const std::string e = std::to_string(el.e);
      s += elementCoords(tile, el.e, el.row, el.column);
      s += "      if (ok[" + e + "]) {\n";
      for (size_t t = 0; t < tensors_.size(); ++t) {
        if (!tensors_[t].written)
          continue;
        const std::string value = "o" + std::to_string(t) + "[" + e + "]";
        if (std::optional<size_t> k = outputTile(t))
          s += "        " + tileName(*k) + "[" + el.column + "][" + el.row + "] = " + value + ";\n";
        else
          s += "        " + storeStatement(t, tensors_[t].storage, coordNames(), value) + "\n";
      }
      s += "      }\n    }\n";
    }
    // Write the output tiles, lanes along A.
    if (!outputs.empty())
      s += "    __syncthreads();\n";
    for (const Element &el : elems) {
      if (outputs.empty())
        break;
      const std::string e = std::to_string(el.e);
      s += elementCoords(tile, el.e, el.column, el.row);
      s += "      if (ok[" + e + "]) {\n";
      for (size_t k : outputs) {
        const KernelTensor &t = tensors_[tiles_[k].tensor];
        s += "        ((" + cudaStorageType(t.storage) + " *)a.ptr[" +
             std::to_string(tiles_[k].tensor) + "])[" + offset(tiles_[k].tensor, tiles_[k].coords) +
             "] = " + tileName(k) + "[" + el.row + "][" + el.column + "];\n";
      }
      s += "      }\n    }\n";
    }
    if (!tiles_.empty())
      s += "    __syncthreads();\n";
    s += "  }\n}\n\n";
    return s;
  }

  Coords coordNames() const {
    Coords coords;
    for (size_t d = 0; d < rank_; ++d)
      coords.push_back(coord(d));
    return coords;
  }

  std::string hostLaunch() const {
    auto sym = [](const std::string &s) { return "sym_" + s; };
    const std::string A = std::to_string(*dimA_), B = std::to_string(dimB_),
                      T = std::to_string(kTile);
    std::string s = "{\n";
    s += "  FUSERC_NAME_" + base_ + "_args a;\n";
    s += "  long long tiles;\n";
    s += "  int wide;\n";
    s += "  memset(&a, 0, sizeof a);\n";
    if (segmentChecksIndices(seg_.segment))
      s += indexFlagHostCode();
    const std::vector<std::string> syms = sf_.fusion->symbols();
    for (size_t k = 0; k < syms.size(); ++k)
      s += "  a.sym[" + std::to_string(k) + "] = sym_" + syms[k] + ";\n";
    for (size_t k = 0; k < scalars_.size(); ++k)
      s += "  a.s" + std::to_string(k) + " = in_" + scalars_[k]->name() + ";\n";
    s += "  a.numel = 1;\n  a.batch = 1;\n";
    for (size_t d = 0; d < rank_; ++d) {
      const std::string ds = std::to_string(d);
      s += "  a.size[" + ds + "] = " + extentToCode(reference_->shape()[d], sym) + ";\n";
      s += "  a.numel *= a.size[" + ds + "];\n";
      if (d != *dimA_ && d != dimB_)
        s += "  a.batch *= a.size[" + ds + "];\n";
    }
    for (size_t t = 0; t < tensors_.size(); ++t) {
      const KernelTensor &kt = tensors_[t];
      const std::string ts = std::to_string(t);
      s += "  a.ptr[" + ts + "] = " + kt.pointer + ";  /* " + kt.what + " */\n";
      for (size_t d = 0; d < kt.strides.size(); ++d)
        s += "  a.st[" + ts + "][" + std::to_string(d) + "] = " + kt.strides[d] + ";\n";
    }
    s += "  if (a.numel > 0) {\n";
    s += "    tiles = ((a.size[" + A + "] + " + T + " - 1) / " + T + ") * ((a.size[" + B + "] + " +
         T + " - 1) / " + T + ") * a.batch;\n";
    s += "    wide = !fuserc_pw_fits32(" + std::to_string(tensors_.size()) + ", " +
         std::to_string(rank_) + ", a.size, a.st, a.numel);\n";
    s += "    st = FUSERC_NAME_launch_kernel(wide ? \"" + kernelName(kTile, true) + "\" : \"" +
         kernelName(kTile, false) + "\", tiles < 1048576 ? (unsigned)tiles : 1048576u, 1, 1, " +
         std::to_string(kBlock) + ", 0, &a, stream);\n";
    s += "    if (st != FUSERC_NAME_OK)\n      return st;\n";
    s += "  }\n}\n";
    return s;
  }

  void fillPlan(KernelPlan &plan) const {
    plan.name = base_;
    plan.scheduler = "transpose";
    plan.segment = static_cast<int>(seg_.id);
    for (const Op *op : seg_.segment.ops())
      plan.ops.push_back(analysis_.name(*op->result()));
    std::string staged;
    for (const Tile &tile : tiles_)
      staged += (staged.empty() ? "" : ", ") + tensors_[tile.tensor].what;
    plan.parameters = {{"tile", std::to_string(kTile) + "x" + std::to_string(kTile)},
                       {"block", std::to_string(kBlock)},
                       {"reference", analysis_.name(*reference_)},
                       {"tile_dims", "A = dim " + std::to_string(*dimA_) + ", B = dim " +
                                         std::to_string(dimB_) + " of the reference"},
                       {"through_shared_memory", staged.empty() ? "none" : staged}};
    for (bool wide : {false, true})
      plan.variants.push_back({kernelName(kTile, wide), "tiles of " + std::to_string(kTile) +
                                                            " x " + std::to_string(kTile) + ", " +
                                                            (wide ? "64" : "32") + "-bit indices"});
    plan.selection = "i32 when every index and offset is below 2^31, else i64.";
    plan.launchGeometry = "block " + std::to_string(kBlock) +
                          "; grid min(tiles, 1048576), tiles = ceil(A / T) x ceil(B / T) x the "
                          "other dims, with a grid-stride loop";
    Extent bytes = 0;
    for (const KernelTensor &t : tensors_)
      bytes = bytes + numElements(t.value->shape()) * static_cast<int64_t>(dtypeBytes(t.storage));
    plan.bytesMoved = bytes;
    plan.argsStruct = argsStruct("FUSERC_NAME_");
    plan.hostLaunch = hostLaunch();
  }

  const SegmentedFusion &sf_;
  const ScheduledSegment &seg_;
  const FusionAnalysis &analysis_;
  const WorkspaceOffsets &workspace_;
  std::string base_;
  std::vector<KernelTensor> tensors_;
  std::vector<const Value *> scalars_;
  const Value *reference_ = nullptr;
  size_t rank_ = 0;
  Layout order_;
  size_t dimB_ = 0;
  std::optional<size_t> dimA_;
  bool discovering_ = false;
  std::vector<Tile> reads_; // discovery: every tensor read, as a candidate tile
  std::vector<Tile> tiles_;
  int64_t tileBytes_ = 0;
  std::string tileAt_; // where the element being emitted reads input tiles
};

} // namespace

EmittedKernel emitTransposeKernel(const SegmentedFusion &segmented, const ScheduledSegment &segment,
                                  const WorkspaceOffsets &workspace) {
  return TransposeEmitter(segmented, segment, workspace).run();
}

} // namespace fuserc
