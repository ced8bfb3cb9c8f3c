// Internal to the column reduction generator (ColumnReductionKernel.h): the
// tile geometry and variants, the tensors a kernel reads and writes, the
// partial accumulators split blocks leave in scratch, and what the kernel
// emitter hands the host side, which writes the argument struct, the host
// launch block (variant and split count chosen at launch) and the
// KernelPlan.
#pragma once

#include "codegen/core/KernelTensors.h"
#include "schedulers/KernelPlan.h"
#include "schedulers/ReductionGrouping.h"
#include "schedulers/SchedulerChecks.h"

#include <string>
#include <vector>

namespace fuserc {

inline constexpr int kColumnMaxRank = 8;
inline constexpr int kColumnThreadsX = 32; // threads of a block across columns (one warp)
inline constexpr int kColumnThreadsY = 8;  // threads of a block across rows
inline constexpr int kColumnBlock = kColumnThreadsX * kColumnThreadsY;
// Rows whose loads a thread keeps in flight (8 measured faster than 4;
// bench/README.md, "Measurements behind the code's constants").
inline constexpr int kColumnUnroll = 8;
// Blocks sharing one column tile's rows: as many as the target, for a tile
// of few columns over many rows.
inline constexpr int kColumnMaxSplits = 1024;
// The most splits a thread of a tile's last block merges (S * kl * V <=
// kColumnMaxMergeDepth * kColumnBlock).
inline constexpr int kColumnMaxMergeDepth = 16;
// Where each split-partial array starts in the scratch area, in bytes.
inline constexpr int kColumnPartialAlignment = 16;
// Blocks the split count aims for: 2 per SM of a 132-SM H100 / H200 where
// a lane loads 16 bytes per row; twice that for 8 bytes and four times for
// 4 or fewer, so that as many bytes are in flight. A constant
// rather than the device's SM count, so results (which depend on the
// split) are the same on every GPU. Fewer splits mean less partial traffic
// and longer runs of rows per block (bench/README.md).
inline constexpr int kColumnTargetBlocks = 264;
// A launch splits only where one block would take at least this many
// rounds of kColumnUnroll rows per row lane: over fewer, one block ends
// sooner than split blocks that count, fence and merge (bench/README.md).
inline constexpr int kColumnMinRoundsToSplit = 4;
// A split keeps at least kColumnUnroll steps of a block's rows (256 / kl
// rows per step, kl lanes across the columns): at least this many, so a
// launch over R rows splits them at most (R - 1) / (this - 1) ways.
inline constexpr int kColumnMinRowsPerSplit = kColumnUnroll * kColumnThreadsY;
// The most split partials per accumulator a launch keeps (S * columns): S
// doubles only while tiles * S < the target, so S * tiles stays below
// twice that, and a tile is at most kl * vector columns (a target of 4x for
// lanes of 4 bytes or fewer stays within kColumnTargetBlocks * 32 * vector).
inline constexpr int64_t columnMaxSplitColumns(int maxVector) {
  return int64_t{2} * kColumnTargetBlocks * kColumnThreadsX * (maxVector > 1 ? maxVector : 1);
}

// A tile variant: `vector` columns per thread (tile variants) or a general
// one (one column per thread, coordinates per element). A packed one loads
// vectors of whole rows: with K < vector inner kept columns dividing it,
// each vector holds P = vector / K adjacent rows, so the launch runs it over
// "packed columns" (vector per outer kept index, R / P rows) and the block
// folds each column's P packed columns before it finishes them.
struct ColumnVariant {
  bool general = false;
  int vector = 1;
  bool packed = false;

  int width() const { return kColumnThreadsX * vector; } // columns per tile
  std::string suffix() const {
    return general ? "general" : (packed ? "tile_pack" : "tile_vec") + std::to_string(vector);
  }
};

// One tensor the kernel reads or writes. `lanes`: read by the prologue of
// the tile variants (so the host checks its strides for them).
struct ColumnTensor : KernelTensor {
  bool lanes = false;
};

// One accumulator a split block leaves in scratch per column: the running
// value of reduction `reduction` ("sum", ... or a var's "mean" and "m2").
struct ColumnPartial {
  size_t reduction = 0;
  std::string what;
  DType acc = DType::F32;
};

struct ColumnKernel {
  const SegmentedFusion *fusion = nullptr;
  const ScheduledSegment *segment = nullptr;
  std::string base; // "<fusion>_k<segment>"
  ReductionRows rows;
  ReductionGrouping grouping;
  std::vector<ColumnTensor> tensors; // inputs, then written outputs
  std::vector<const Value *> scalars;
  bool tiled = false; // the prologue is elementwise: tile variants exist
  int maxVector = 1;  // columns per thread of the widest tile variant
  std::vector<ColumnPartial> partials;
  Extent scratchOffset;

  // In the order the host tries them.
  std::vector<ColumnVariant> variants() const;
  // Columns (product of the kept extents) and the rows each reduces
  // (product of the reduced extents), symbolic.
  Extent columns() const;
  Extent rowsPerColumn() const;
  // The most splits a launch takes, default or forced:
  // min(kColumnMaxSplits, (R - 1) / (kColumnMinRowsPerSplit - 1)), 1 or 0
  // for fewer rows than two splits need.
  Extent maxSplits() const;
  // Scratch for the split partials of every accumulator, S per column (as
  // many as a launch may use: min(maxSplits * columns,
  // columnMaxSplitColumns), or tile_pack's packed splits times A * V where
  // more), then the split counts (one int per column tile); none where no
  // launch splits.
  Extent scratchBytes() const;
};

std::string columnKernelName(const ColumnKernel &k, const ColumnVariant &v);
// Whether tensor `t` is broadcast along every inner kept dim (a per-row
// scale): the tile variants read one element of it per row, so it does not
// limit their vector.
bool sameAcrossColumns(const ColumnKernel &k, const ColumnTensor &t);
// The argument struct; `prefix` names it in host code (FUSERC_NAME_...).
std::string columnArgsStruct(const ColumnKernel &k, const std::string &prefix);
// Everything but the source: parameters, variants, selection, host launch.
void fillColumnPlan(const ColumnKernel &k, KernelPlan &plan);
// CUDA device helpers every column-reduction kernel uses: Welford pushes
// and merges, rows per thread and per split (ColumnReductionDeviceHelpers.cpp).
const std::string &columnDeviceHelpers();

} // namespace fuserc
