// Transpose kernels, device side: the segment's analysis (the tiled dims,
// the tiles, the vectors), the element body and kernel head every variant
// shares (see TransposeEmitter.h; the host side is in TransposePlan.cpp).
#include "codegen/transpose/TransposeEmitter.h"

#include "codegen/core/CudaTypes.h"
#include "codegen/core/ReductionValues.h"
#include "codegen/transpose/TransposeKernel.h"
#include "ir/DType.h"
#include "schedulers/KernelGenerator.h"
#include "schedulers/SchedulerChecks.h"

#include <algorithm>

namespace fuserc {
namespace transpose {
namespace {

// The innermost dim of `layout` whose extent is not a static 1 (the
// innermost one when all are).
size_t innermostOf(const Layout &layout, const std::vector<Extent> &shape) {
  for (auto it = layout.rbegin(); it != layout.rend(); ++it)
    if (!shape[static_cast<size_t>(*it)].isConstant(1))
      return static_cast<size_t>(*it);
  return static_cast<size_t>(layout.back());
}

bool sameAccess(const Access &x, const Access &y) {
  return x.output == y.output && x.tensor == y.tensor && x.coords == y.coords;
}

} // namespace

TransposeEmitter::TransposeEmitter(const KernelContext &cx, const IterationSchedule &schedule)
    : cx_(cx), schedule_(schedule) {}

EmittedKernel TransposeEmitter::run() {
  KernelOperands operands =
      collectKernelOperands(cx_.fusion, cx_.segment, cx_.workspace, "transpose", everyIndexMap);
  tensors_ = std::move(operands.tensors);
  scalars_ = std::move(operands.scalars);
  throughOps_ = std::move(operands.throughOps);
  reference_ = &iterationReference(schedule_, cx_.segment);
  rank_ = reference_->rank();
  if (rank_ > static_cast<size_t>(kMaxRank))
    throw CodegenError("segment " + std::to_string(cx_.segment.id) + ": rank " +
                       std::to_string(rank_) + " is above the supported " +
                       std::to_string(kMaxRank));
  if (rank_ < 2)
    throw CodegenError("segment " + std::to_string(cx_.segment.id) + ": the reference output " +
                       cx_.analysis.quoted(*reference_) + " has fewer than two dims to tile");
  order_ = cx_.analysis.storedLayout(*reference_);
  dimB_ = innermostOf(order_, reference_->shape());
  // Each written tensor's dims named by reference dims: the same ones, or
  // for an output of the reference's values permuted, the permutation.
  storedDims_.resize(tensors_.size());
  for (size_t t = 0; t < tensors_.size(); ++t) {
    const Value &v = *tensors_[t].value;
    if (!tensors_[t].written)
      continue;
    if (v.shape() == reference_->shape()) {
      for (size_t d = 0; d < rank_; ++d)
        storedDims_[t].push_back(d);
    } else if (auto dims = permutedDims(cx_.segment.segment, v, *reference_)) {
      storedDims_[t] = std::move(*dims);
    } else {
      throw CodegenError("segment " + std::to_string(cx_.segment.id) + ": " +
                         cx_.analysis.quoted(v) + " is neither shaped like " +
                         cx_.analysis.quoted(*reference_) + " nor its values permuted");
    }
  }
  // A first emission finds how each input is read; the tiles follow.
  discovering_ = true;
  emitBody("", "", "");
  discovering_ = false;
  chooseTiles();
  chooseVectors();

  EmittedKernel out;
  out.source = argsStruct("") + "\n";
  for (bool wide : {false, true})
    out.source += scalarKernel(wide);
  for (bool wide : {false, true})
    if (vector_)
      out.source += vectorKernel(wide);
  fillPlan(out.plan);
  return out;
}

InputRead TransposeEmitter::read(const Value &input, const Coords &coords) {
  if (input.isScalarInput())
    return scalarArgRead(scalars_, input);
  const size_t t = kernelTensorIndex(tensors_, input, false, cx_.analysis);
  const Access access{t, coords, false};
  if (discovering_) {
    reads_.push_back(access);
    return "0";
  }
  for (size_t k = 0; k < tiles_.size(); ++k)
    if (sameAccess(tiles_[k], access))
      return InputRead::load(packed(k) ? "u" + std::to_string(k) + packedAt_
                                       : tileName(k) + tileAt_);
  for (size_t j = 0; j < vectorReads_.size() && !vectorAt_.empty(); ++j)
    if (sameAccess(vectorReads_[j], access))
      return InputRead::load("d" + std::to_string(j) + vectorAt_);
  return InputRead::load("((const " + cudaStorageType(tensors_[t].storage) + " *)a.ptr[" +
                         std::to_string(t) + "])[" + offset(t, coords) + "]");
}

std::string TransposeEmitter::offset(size_t t, const Coords &coords) const {
  std::string s = "0";
  for (size_t d = 0; d < coords.size(); ++d)
    if (coords[d] != "0")
      s += " + " + coords[d] + " * (I)a.st[" + std::to_string(t) + "][" + std::to_string(d) + "]";
  return s;
}

Coords TransposeEmitter::storedAt(size_t t) const {
  Coords coords;
  for (size_t d : storedDims_[t])
    coords.push_back(coord(d));
  return coords;
}

Coords TransposeEmitter::outputCoords(size_t t) const {
  Coords coords = storedAt(t);
  const Value &v = *tensors_[t].value;
  for (size_t d = 0; d < rank_; ++d)
    if (v.shape()[d].isConstant(1))
      coords[d] = "0";
  return coords;
}

// The reference dim `coords` reads the innermost dim of tensor t at, when
// every coordinate is a reference coordinate or 0.
std::optional<size_t> TransposeEmitter::innermostRead(size_t t, const Coords &coords) const {
  if (coords.empty()) // a rank-0 tensor: one element, no dim to be contiguous in
    return std::nullopt;
  for (const std::string &c : coords)
    if (c != "0" && !isReferenceCoord(c))
      return std::nullopt;
  const Value &v = *tensors_[t].value;
  const size_t inner = innermostOf(cx_.analysis.storedLayout(v), v.shape());
  if (!isReferenceCoord(coords[inner]))
    return std::nullopt;
  return static_cast<size_t>(std::stoul(coords[inner].substr(1)));
}

bool TransposeEmitter::isReferenceCoord(const std::string &c) const {
  for (size_t d = 0; d < rank_; ++d)
    if (c == coord(d))
      return true;
  return false;
}

std::optional<size_t> TransposeEmitter::outputTile(size_t t) const {
  for (size_t k = 0; k < tiles_.size(); ++k)
    if (tiles_[k].output && tiles_[k].tensor == t)
      return k;
  return std::nullopt;
}

// A: the innermost dim of the first stored output, then of the first input
// read, that is not B. Tiles: every input read and every stored output
// contiguous along A, while shared memory lasts (counted for the vector
// variant's larger tiles).
void TransposeEmitter::chooseTiles() {
  std::vector<Access> candidates;
  for (size_t t = 0; t < tensors_.size(); ++t) {
    if (!tensors_[t].written)
      continue;
    const std::optional<size_t> inner = innermostRead(t, outputCoords(t));
    if (inner && *inner != dimB_)
      candidates.push_back({t, outputCoords(t), true});
  }
  // A read that does not vary along B (a bias along A) is read directly:
  // its lanes all read one element.
  for (const Access &r : reads_) {
    std::optional<size_t> inner = innermostRead(r.tensor, r.coords);
    if (!inner || *inner == dimB_ ||
        std::find(r.coords.begin(), r.coords.end(), coord(dimB_)) == r.coords.end())
      continue;
    if (std::none_of(candidates.begin(), candidates.end(),
                     [&](const Access &c) { return sameAccess(c, r); }))
      candidates.push_back(r);
  }
  for (const Access &c : candidates) {
    const size_t inner = *innermostRead(c.tensor, c.coords);
    if (!dimA_)
      dimA_ = inner;
    if (inner != *dimA_)
      continue;
    const int64_t bytes = kVectorTile * (kVectorTile + 1) * dtypeBytes(tensors_[c.tensor].storage);
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

// The vector variant needs every stored output contiguous along A (through
// a tile) or B (stored as vectors); reads contiguous along B become vector
// loads, others stay scalar. Vectors are as wide as the widest of these
// tensors allows in 16 bytes, at most 8 elements.
void TransposeEmitter::chooseVectors() {
  int widest = 1;
  for (const Access &t : tiles_)
    widest = std::max(widest, dtypeBytes(tensors_[t.tensor].storage));
  for (size_t t = 0; t < tensors_.size(); ++t) {
    if (!tensors_[t].written || outputTile(t))
      continue;
    if (innermostRead(t, outputCoords(t)) != dimB_)
      return;
    widest = std::max(widest, dtypeBytes(tensors_[t].storage));
  }
  for (const Access &r : reads_) {
    if (innermostRead(r.tensor, r.coords) != dimB_ ||
        std::any_of(tiles_.begin(), tiles_.end(),
                    [&](const Access &k) { return sameAccess(k, r); }))
      continue;
    if (std::none_of(vectorReads_.begin(), vectorReads_.end(),
                     [&](const Access &k) { return sameAccess(k, r); }))
      vectorReads_.push_back(r);
    widest = std::max(widest, dtypeBytes(tensors_[r.tensor].storage));
  }
  vector_ = std::min(8, kMaxVectorBytes / widest);
  if (vector_ < 2)
    vector_ = 0;
}

// The statements computing one element's stored values at the coordinates
// c<d> into o<t><element> (one per written tensor), the values' reads of
// input tiles at `tileAt` ("[bL][aL]").
std::string TransposeEmitter::emitBody(const std::string &tileAt, const std::string &element,
                                       const std::string &pad) {
  tileAt_ = tileAt;
  ValueEmitter emitter(
      [&](const Value &v) { return loadsFromTensor(cx_.segment.segment, throughOps_, v); }, *this,
      cx_.fusion.fusion->symbols(), "I", false);
  std::vector<std::string> values;
  for (size_t t = 0; t < tensors_.size(); ++t) {
    if (!tensors_[t].written)
      continue;
    const Value &v = *tensors_[t].value;
    const Op *op = v.definingOp();
    values.push_back("o" + std::to_string(t) + element + " = " +
                     storedExpression(emitter, v, tensors_[t].storage,
                                      op && cx_.segment.segment.contains(*op), storedAt(t)) +
                     ";");
  }
  std::string s = emitter.body(static_cast<int>(pad.size()));
  for (const std::string &value : values)
    s += pad + value + "\n";
  return s;
}

std::string TransposeEmitter::scalarName(bool wide) const {
  return cx_.base + "_tile" + std::to_string(kScalarTile) + (wide ? "_i64" : "_i32");
}

std::string TransposeEmitter::vectorTileName() const {
  const std::string TA = std::to_string(vectorTileA_), TB = std::to_string(vectorTileB_);
  return "tile" + (TA == TB ? TA : TA + "x" + TB) + "v" + std::to_string(vector_);
}

std::string TransposeEmitter::vectorName(bool wide) const {
  return cx_.base + "_" + vectorTileName() + (wide ? "_i64" : "_i32");
}

std::string TransposeEmitter::kernelHead(const std::string &name, int tileA, int tileB,
                                         bool wide) const {
  const std::string TA = std::to_string(tileA), TB = std::to_string(tileB);
  const std::string A = std::to_string(*dimA_), B = std::to_string(dimB_);
  std::string s =
      "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kBlock) +
      (name == vectorName(wide) && vector_ == 8 ? ", " + std::to_string(kMinBlocksV8) : "") + ") " +
      name + "(const " + cx_.base + "_args a) {\n";
  s += std::string("  typedef ") + (wide ? "long long" : "int") + " I;\n";
  for (size_t k = 0; k < tiles_.size(); ++k)
    if (packed(k))
      s += "  __shared__ __align__(16) unsigned " + tileName(k) + "[" + TA + "][" + TB +
           " / 2];  // " + tensors_[tiles_[k].tensor].what + ", pairs along B (swizzled)\n";
    else
      s += "  __shared__ " + cudaStorageType(tensors_[tiles_[k].tensor].storage) + " " +
           tileName(k) + "[" + TB + "][" + TA + " + 1];  // " + tensors_[tiles_[k].tensor].what +
           "\n";
  s += "  const I eA = (I)a.size[" + A + "], eB = (I)a.size[" + B + "];\n";
  s += "  const I tilesA = (eA + " + TA + " - 1) / " + TA + ", tilesB = (eB + " + TB + " - 1) / " +
       TB + ";\n";
  s += "  const I tiles = tilesA * tilesB * (I)a.batch;\n";
  s += "  for (I tile = (I)blockIdx.x; tile < tiles; tile += (I)gridDim.x) {\n";
  s += "    I rem = tile, q;\n";
  // rem's quotient by `extent` into q, `c` its remainder, then rem = q;
  // i32 variants divide by the magic numbers `mul` and `shift`.
  auto divide = [&](const std::string &c, const std::string &extent, const std::string &mul,
                    const std::string &shift) {
    std::string d =
        wide ? "    q = rem / " + extent + ";\n"
             : "    q = (I)fuserc_udiv32((unsigned)rem, a." + mul + ", a." + shift + ");\n";
    return d + "    const I " + c + " = rem - q * " + extent + ";\n    rem = q;\n";
  };
  s += divide("tb", "tilesB", "tb_mul", "tb_shift");
  s += divide("ta", "tilesA", "ta_mul", "ta_shift");
  std::vector<size_t> batch;
  for (auto it = order_.rbegin(); it != order_.rend(); ++it)
    if (static_cast<size_t>(*it) != *dimA_ && static_cast<size_t>(*it) != dimB_)
      batch.push_back(static_cast<size_t>(*it));
  for (size_t k = 0; k < batch.size(); ++k) {
    const std::string ds = std::to_string(batch[k]);
    if (k + 1 == batch.size()) // the outermost: rem is below its extent
      s += "    const I c" + ds + " = rem;\n";
    else
      s += divide("c" + ds, "(I)a.size[" + ds + "]", "d_mul[" + ds + "]", "d_shift[" + ds + "]");
  }
  return s;
}

} // namespace transpose

EmittedKernel emitTransposeKernel(const KernelRequest &request, const IterationSchedule &schedule) {
  const KernelContext cx(request);
  return transpose::TransposeEmitter(cx, schedule).run();
}

} // namespace fuserc
