// Internal to the transpose generator (TransposeKernel.h): the emitter its
// variants share. TransposeEmitter.cpp analyses the segment (the tiled dims
// A and B, which tensors go through shared-memory tiles, which reads and
// writes can be vectors); TransposePlan.cpp writes the argument struct,
// host block and plan; TransposeScalarVariant.cpp writes the tile32 kernels
// (one element per access, any strides) and TransposeVectorVariant.cpp the
// vector ones (tiles of 64, 16-byte accesses on both sides, chosen at
// launch).
#pragma once

#include "codegen/core/KernelContext.h"
#include "codegen/core/KernelTensors.h"
#include "codegen/core/ValueEmitter.h"
#include "schedulers/KernelPlan.h"

#include <optional>
#include <string>
#include <vector>

namespace fuserc::transpose {

inline constexpr int kMaxRank = 8;
inline constexpr int kBlock = 256; // threads per block
inline constexpr int kWarps = kBlock / 32;
inline constexpr int kScalarTile = 32; // scalar variant: tiles of 32 x 32
inline constexpr int kVectorTile = 64; // vector variant: tiles of 64 x 64
inline constexpr int kMaxVectorBytes = 16;
// Blocks per SM the vector variant asks registers for with vectors of 8
// (2-byte data); 4 measured faster than none or 8 (bench/README.md).
inline constexpr int kMinBlocksV8 = 4;
inline constexpr int64_t kMaxTileBytes = 40960; // shared memory for the tiles, all together

// A tensor read (or, for an output, written) at coordinates that are
// reference coordinates c<d> or 0: through a shared-memory tile when it is
// contiguous along A, as vectors along B in the vector variant when it is
// contiguous along B.
struct Access {
  size_t tensor = 0;
  Coords coords; // per tensor dim: "c<k>", "0", or anything (discovery)
  bool output = false;
};

class TransposeEmitter : public InputReader {
public:
  TransposeEmitter(const KernelContext &cx, const IterationSchedule &schedule);
  EmittedKernel run();
  InputRead read(const Value &input, const Coords &coords) override;

private:
  // Analysis and the kernel head (TransposeEmitter.cpp).
  void chooseTiles();
  void chooseVectors();
  std::optional<size_t> innermostRead(size_t t, const Coords &coords) const;
  bool isReferenceCoord(const std::string &c) const;
  std::optional<size_t> outputTile(size_t t) const;
  std::string offset(size_t t, const Coords &coords) const;
  // The reference coordinates naming written tensor t's dims (its values
  // are computed there), and where it is stored: those, or 0 along static 1s.
  Coords storedAt(size_t t) const;
  Coords outputCoords(size_t t) const;
  static std::string coord(size_t dim) { return "c" + std::to_string(dim); }
  static std::string tileName(size_t k) { return "tile" + std::to_string(k); }
  std::string emitBody(const std::string &tileAt, const std::string &element,
                       const std::string &pad);
  std::string scalarName(bool wide) const;
  std::string vectorName(bool wide) const;
  std::string vectorTileName() const; // "tile64v4", "tile64x128v8"
  // The kernel's first lines: shared tiles of `tile`, the tile loop, and
  // the batch coordinates of each tile.
  std::string kernelHead(const std::string &name, int tileA, int tileB, bool wide) const;

  // The host side (TransposePlan.cpp): the argument struct (`prefix` names
  // it in host code, FUSERC_NAME_...), the launch block, the plan.
  std::string argsStruct(const std::string &prefix) const;
  std::string hostLaunch() const;
  void fillPlan(KernelPlan &plan) const;

  // The scalar variant (TransposeScalarVariant.cpp).
  std::string scalarKernel(bool wide);
  // The vector variant (TransposeVectorVariant.cpp), and the host's test
  // that its vectors are aligned and whole.
  std::string vectorKernel(bool wide);
  // Whether the vector kernel packs input tile k (packed_): 2-byte
  // elements, tiles of 64 x 64, vectors of 8. Its staging statements and
  // the column vector a computing thread loads.
  bool packable(size_t k) const;
  std::string packedStaging(size_t k) const;
  std::string packedColumn(size_t k, const std::string &a) const;
  std::string vectorCondition() const;

  const KernelContext &cx_;
  const IterationSchedule &schedule_;
  std::vector<KernelTensor> tensors_;
  std::vector<const Value *> scalars_;
  std::vector<const Value *> throughOps_; // computed from tensors outside the segment
  const Value *reference_ = nullptr;
  size_t rank_ = 0;
  Layout order_;
  size_t dimB_ = 0;
  std::optional<size_t> dimA_;
  bool discovering_ = false;
  std::vector<std::vector<size_t>> storedDims_; // written tensor -> reference dim per dim
  std::vector<Access> reads_;                   // discovery: every tensor read
  std::vector<Access> tiles_;
  int64_t tileBytes_ = 0;
  // Vector variant: elements per vector (0: no vector variant), and the
  // reads along B it loads as vectors.
  int vector_ = 0;
  int vectorTileA_ = kVectorTile, vectorTileB_ = kVectorTile; // extents along A and B
  std::vector<Access> vectorReads_;
  // Where the element being emitted reads input tiles ("[bL][aL]") and
  // vector registers ("[p][v]"; empty: scalar variant).
  std::string tileAt_, vectorAt_;
  // The vector kernel being emitted: which tiles hold 2-byte elements
  // packed in pairs along B (packedTile), and the element of their column
  // vector u<k> a value reads ("[v]").
  std::vector<bool> packed_;
  std::string packedAt_;
  bool packed(size_t k) const { return k < packed_.size() && packed_[k]; }
};

} // namespace fuserc::transpose
