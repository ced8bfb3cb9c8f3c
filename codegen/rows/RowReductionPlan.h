// Internal to the row reduction generator (RowReductionKernel.h): the
// variants, the tensors a kernel reads and writes, and what the kernel
// emitter hands the host side, which writes the argument struct, the host
// launch block (variant selection by row length) and the KernelPlan.
#pragma once

#include "codegen/core/KernelTensors.h"
#include "schedulers/KernelGenerator.h"
#include "schedulers/KernelPlan.h"
#include "schedulers/SchedulerChecks.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace fuserc {

inline constexpr int kRowMaxRank = 8;

// One general variant: `threads` per row, `items` elements per thread held
// in registers (0: looped over the row), `rowsPerBlock` rows per block.
// General variants address every element through its strides.
struct RowVariant {
  const char *suffix;
  int threads;
  int items;
  int rowsPerBlock;

  int block() const { return threads * rowsPerBlock; }
  int64_t maxLength() const { return static_cast<int64_t>(threads) * items; }
  bool looped() const { return items == 0; }
};

// Ordered as the host tries them: the first persistent variant whose
// capacity holds the row wins, the looped one takes the rest (and L == 0).
inline constexpr RowVariant kRowVariants[] = {
    {"warp32x4", 32, 4, 4},
    {"block256x4", 256, 4, 1},
    {"loop512", 512, 0, 1},
};

// One persistent contiguous variant: `threads` per row, each holding
// `elements` of the row in registers (as elements / W vectors of W),
// `rowsPerBlock` rows per block. Contiguous variants run when every
// streamed tensor holds each row contiguously (checked at launch); each is
// compiled for the widest vector W the tensors allow and for W = 1
// (misaligned rows, or L not a multiple of the width).
struct RowFastVariant {
  const char *suffix;
  int threads;
  int elements;
  int rowsPerBlock;

  int block() const { return threads * rowsPerBlock; }
  int vectors(int width) const { return elements / width; }
  int64_t maxLength() const { return static_cast<int64_t>(threads) * elements; }
};

// Threads per SM the persistent contiguous variants ask the compiler to
// leave room for (__launch_bounds__'s minimum blocks): with fewer, too few
// loads are in flight while rows reduce (bench/README.md, "Measurements
// behind the code's constants"). Variants holding more than
// kRowNarrowMaxElements elements per thread of each of H > 1 tensors' rows
// ask for 1024 / H: as many bytes in flight, without spilling.
inline constexpr int kRowMinThreadsPerSM = 1024;

// t1x8 keeps rows of up to 8 elements (tiny reductions, decode-size
// batches of them) in one thread each: no lane of a group idles.
inline constexpr RowFastVariant kRowFastVariants[] = {
    {"t1x8", 1, 8, 256},     {"g8x8", 8, 8, 32},      {"w32x8", 32, 8, 8},
    {"w32x16", 32, 16, 8},   {"w32x32", 32, 32, 4},   {"b128x16", 128, 16, 1},
    {"b128x32", 128, 32, 1}, {"b256x32", 256, 32, 1}, {"b512x32", 512, 32, 1},
};

// At vectors of 1 where the kernel has wider ones (rows not a multiple of
// the width, or misaligned), only the contiguous variants holding at most
// this many elements per thread: those holding 32 spilled and ran far below
// the alternatives (bench/README.md). Longer rows at vectors of 1 take the
// cached variants, whose vectors start at the vector boundary before the
// row wherever the tensors' rows start equally far past one.
inline constexpr int kRowNarrowMaxElements = 16;
// Headed kernels (RowKernel::generatesHeaded) take rows of more than this
// many positions: shorter ones ran faster at vectors of 1, all 32 lanes of
// a warp loading (bench/README.md).
inline constexpr int64_t kRowHeadedAbove = 256;

// The contiguous variants for rows above kRowCachedAbove
// (RowCachedVariant.cpp): a block of `threads` per row streams it,
// kRowCachedUnroll vectors per thread per step, one pass per phase; the
// cached streams (RowStream) are first copied into dynamic shared memory,
// so the passes read them from there. The host sizes the cache at launch
// (args `cache`, in row positions): the whole row where the shared memory
// left to each of `blocksPerSM` blocks of a multiprocessor holds it, else
// its first part, the rest re-read from global memory in every pass. It
// takes the first variant whose cache holds at least 3/4 of the row, else
// the last.
//
// Vectors of W here start at the vector boundary at or before the row's
// start (the row spans `head` + L positions from there), the partial ones
// at both ends loaded and stored element by element: rows of any length
// and start take vectors of W when every streamed pointer is aligned to W
// elements and every streamed tensor's rows start equally far past a
// vector boundary.
struct RowCachedVariant {
  const char *suffix;
  int threads;
  int blocksPerSM;
};

// Two blocks of 512 threads per multiprocessor (m512), each caching what
// its half of the shared memory holds, then one of 1024 (m1024) caching
// what all of it holds: the shapes that measured fastest. They start above
// kRowCachedAbove, where m512 overtakes a block of 1024 holding the row in
// registers (bench/README.md, "Measurements behind the code's constants").
inline constexpr RowCachedVariant kRowCachedVariants[] = {{"m512", 512, 2}, {"m1024", 1024, 1}};
// Under the default budget the cached variants at the widest vector run
// one kernel of this name (RowKernel::sharesCachedKernel): its threads (the
// variant's) and L2 policies (the last variant's hints, else L2's default)
// set at launch.
inline constexpr const char *kRowSharedCachedKernel = "m";
// The cluster variant (sm_90 and newer): the cached streaming kernel of a
// block of `threads` with each row split into C equal slices, one per CTA
// of a thread-block cluster of C, each CTA caching its slice in its share
// (1 / blocksPerSM) of a multiprocessor's shared memory and combining its
// phases' partials with the other CTAs' through distributed shared memory.
// The host takes it, on devices with clusters and where the kernel has
// code for them (PTX version 9.0 or newer), for rows neither cached
// variant holds 3/4 of, with the fewest CTAs (2, 4 or 8, at most
// kRowClusterMax) whose caches hold 3/4 of the row, else 8. Each combine
// is a cluster barrier that waits for the slowest CTA, so more CTAs cost
// more than re-reading the uncached quarter (bench/README.md).
inline constexpr RowCachedVariant kRowClusterVariant = {"c512", 512, 2};
// The split variant: rows too few to give every multiprocessor a block
// (rows * 2 <= kRowSplitTargetBlocks) and longer than kRowCachedAbove are
// each split into S slices, one block of `threads` per slice (grid rows x
// S), streaming it as the cached variants do without a cache; each block
// leaves its partials in workspace scratch and the row's last block to
// finish merges the S partials in split order (a fixed tree, so the result
// does not depend on which block is last) and writes the row's outputs.
// Generated where every reduction of the segment is a sum, mean, prod, max,
// min or var (Welford state per thread, block and slice) whose input reads
// no other reduction's result (one phase) and no output is per element. S =
// min(kRowSplitTargetBlocks / rows, L / kRowSplitMinSlice): a constant target rather than the
// device's SM count, so results are the same on every GPU.
inline constexpr RowCachedVariant kRowSplitVariant = {"s512", 512, 2};
// The grid variant: the rows of a segment the split variant does not take
// (several phases, or per-element outputs: a normalization) when they are
// as few and as long as the split variant's, split into S slices the same
// way, one block of `threads` per slice, every block of the grid resident
// at once (a cooperative launch). Each block streams its slice as the
// cluster variant does, caching it in its share of a multiprocessor's
// shared memory; at each combine every block leaves its partial in
// workspace scratch, counts itself in its row's count and waits until all
// S have, then joins the S partials in slice order (the same fixed tree in
// every block, so the row's blocks agree). Taken where the device holds the
// grid at once, else the cached or cluster variants run.
inline constexpr RowCachedVariant kRowGridVariant = {"g512", 512, 2};
// The grid variant takes rows from this many bytes read and written along
// the row (every streamed tensor along it: L x their element sizes), or at
// vectors of 1: below it one block per row (m512) ran faster than the
// grid's launch, count and waits (bench/README.md).
inline constexpr int64_t kRowGridMinRowBytes = 256 * 1024;
inline constexpr int kRowSplitTargetBlocks = 264; // 2 per SM of a 132-SM H100 / H200
inline constexpr int64_t kRowSplitMinSlice = 4096;
static_assert(kRowSplitTargetBlocks <= kRowSplitVariant.threads, "one partial per merging thread");
inline constexpr int kRowClusterMax = 8;
// The threads the shared cached kernel starts from, on rows the register
// variants hold only at wider vectors (kRowNarrowMaxElements): the fewest
// of 128, 256 and 512 that cover the row in one step; then halved, to 32 at
// least, while rows * threads exceed the target (the 2048 threads each SM
// of a 132-SM H100 / H200 holds; a constant, so that results are the same
// on every GPU): many rows stream faster with fewer threads each, each
// looping over more of its row (bench/README.md).
inline constexpr int kRowShortCachedThreads = 128;
inline constexpr int64_t kRowShortCachedTargetThreads = int64_t{kRowSplitTargetBlocks} * 1024;
// Vectors per thread per step in the cached variants (bench/README.md).
inline constexpr int kRowCachedUnroll = 4;
inline constexpr int64_t kRowCachedAbove = 16384;
// The cached variants count row positions in 32 bits: longer rows take the
// general variants.
inline constexpr int64_t kRowCachedMaxLength = int64_t(1) << 30;
// Shared memory the cache leaves to the kernel's static scratch (the
// block reduction's slots).
inline constexpr int kRowCachedReserve = 1024;

// Column partials (RowColumnPartials.cpp): kernels with column reductions
// run one wave of blocks, each leaving a partial row per column reduction
// in workspace scratch: as many blocks as __launch_bounds__ guarantees
// each SM of a 132-SM H100 / H200 holds, 2 at most (a constant per
// variant, so that results are the same on every GPU; RowKernel::
// columnBlocks). The merge kernel joins them with blocks of
// kRowColumnMergeBlock threads, kRowColumnMergeWidth columns per block.
inline constexpr int kRowColumnSMs = 132;
inline constexpr int kRowColumnBlocks = 2 * kRowColumnSMs; // the most of any variant
inline constexpr int kRowRegistersPerSM = 65536;
inline constexpr int kRowMaxRegisters = 255; // a thread's, at most
// Column-partial kernels holding at most this many rows' worth of
// registers per element (RowKernel::heldRows: an RMSNorm backward's x, dy
// and dw) load their next row while this one reduces; more (a layer norm
// backward's dw and db) ran slower with it than without (bench/README.md).
inline constexpr int kRowPrefetchMaxHeld = 4;
inline constexpr int kRowColumnMergeBlock = 256;
inline constexpr int kRowColumnMergeWidth = 32;

// One tensor the kernel reads or writes, and whether it holds one element
// per row (a reduced shape) rather than one per row element.
struct RowTensor : KernelTensor {
  bool perRow = false;
  // A written output over the columns (ReductionRows::overColumns): the
  // column merge kernel stores it, the row variants do not.
  bool perColumn = false;
  // Whether it is a written output with an element per row element.
  bool perElement() const { return written && !perRow && !perColumn; }
};

// How a tensor the contiguous variants stream relates to the rows: for
// each domain dim, the tensor dim it is (-1: none, the tensor is broadcast
// along it). A stream `alongRow` maps a reduced dim of extent other than 1;
// the others hold one element per row.
struct RowStream {
  std::vector<int> map;
  bool alongRow = false;
  // Whether it maps a kept dim: its rows differ (else it is the same for
  // every row, as a per-column weight is).
  bool perRow(const std::vector<size_t> &keptDims) const {
    return std::any_of(keptDims.begin(), keptDims.end(), [&](size_t d) { return map[d] >= 0; });
  }
  // An input along the row whose rows differ (it maps a kept dim) and that
  // a reduction phase reads: the cached variants keep its row in shared
  // memory unless they pass over it once (RowKernel::onePass). (A
  // per-column weight is the same for every row: it stays in L2.)
  bool cached = false;
};

struct RowKernel {
  const SegmentedFusion *fusion = nullptr;
  const ScheduledSegment *segment = nullptr;
  std::string base; // "<fusion>_k<segment>"
  ReductionRows rows;
  std::vector<size_t> keptDims, reducedDims; // memory order, outermost first
  std::vector<RowTensor> tensors;            // inputs, then written outputs
  std::vector<const Value *> scalars;
  // Per tensor, how the contiguous variants stream it (nothing: read
  // through its strides). Empty when no contiguous variant is generated.
  std::vector<std::optional<RowStream>> streams;
  int vector = 1; // the widest vector the contiguous variants use
  // Variants at the widest vector that derive each lane's coordinates from
  // its vector's first (RowReductionEmitter::emitSharingLanes) need, for
  // each reduced dim in `laneChecks`, the product of the extents inner to
  // it (the innermost: its own extent) to be a multiple of the vector,
  // checked at launch; and the cached ones (`cachedLanesShared`) rows
  // starting on a vector boundary.
  std::set<size_t> laneChecks;
  bool cachedLanesShared = false;
  VariantBudget budget = VariantBudget::Default;
  // Whether the cached variants at vectors of `width` run one kernel
  // (kRowSharedCachedKernel): under the default budget, at the widest
  // vector. Vectors of 1 keep a kernel per variant: their per-element index
  // arithmetic, with the threads known only at launch, measured slower
  // (bench/README.md).
  bool sharesCachedKernel(int width) const {
    return budget == VariantBudget::Default && generatesCached() && width > 1 && width == vector;
  }
  // Whether the shared cached kernel also takes the rows the register
  // variants hold only at the widest vector, with threads by length.
  bool sizesSharedKernel() const {
    return sharesCachedKernel(vector) && registersUpTo(1) < kRowCachedAbove;
  }
  bool contiguous() const { return !streams.empty(); }
  // Whether the kernel accumulates column reductions (RowColumnPartials.cpp):
  // only the register and general variants are generated, on a grid of at
  // most kRowColumnBlocks blocks, followed by the merge kernel.
  bool columnPartials() const { return !rows.columns.empty(); }
  // Bytes of column reduction c's partials: a row per block.
  Extent columnPartialBytes(size_t c) const;
  // The blocks per SM contiguous variant v's __launch_bounds__ asks room
  // for (kRowMinThreadsPerSM threads, fewer where each holds many rows).
  int minBlocksPerSM(const RowFastVariant &v) const;
  // The grid cap of contiguous variant v with column partials: the blocks
  // that run at once on every SM, at most kRowColumnBlocks: those its
  // launch bounds ask room for, or that fit at 255 registers a thread.
  int columnBlocks(const RowFastVariant &v) const {
    const int fit = kRowRegistersPerSM / (v.block() * 256);
    return kRowColumnSMs * std::clamp(std::max(minBlocksPerSM(v), fit), 1, 2);
  }
  // Whether the cached variants pass over each row once (one reduction, not
  // a var, no per-element output): they cache nothing, which would be
  // copied into shared memory only to be read once from there.
  bool onePass() const;
  // Whether stream t is cached, and the bytes the cached streams hold per
  // row position.
  bool cached(size_t t) const {
    return contiguous() && streams[t] && streams[t]->cached && !onePass();
  }
  int cachedBytes() const;
  // The row lengths the host may see: L itself where every reduced extent
  // is static, else any. Only the variants the selection can pick for one
  // of them are generated (generates, generatesCached).
  int64_t minLength = 0, maxLength = std::numeric_limits<int64_t>::max();
  // Whether contiguous variant v is generated at vectors of `width`.
  bool generates(const RowFastVariant &v, int width) const;
  // Whether contiguous variant v has a "headed" kernel at the widest
  // vector (rowKernelName's `_h<W>_`): one for rows that start off a vector
  // boundary or whose length the width does not divide, which would
  // otherwise run at vectors of 1. Its vectors start at the boundary at or
  // before the row's start (`head` positions before it), the variant is
  // picked by L + W - 1 positions, the partial vectors at the row's ends
  // load whole where they lie inside the tensor and are masked, and store
  // element by element. A stream the same for every row (a weight) starts
  // its row on a boundary: rows whose head is not 0 load it element by
  // element. The variants holding more than kRowHeadedAbove positions up to
  // registersUpTo(1) (where the variants at vectors of 1 ran such rows);
  // not with column partials.
  bool generatesHeaded(const RowFastVariant &v) const;
  // Whether some headed kernel is generated.
  bool runsHeaded() const;
  bool generates(const RowVariant &v) const;
  // Whether contiguous variant v runs at vectors of `width` (the widest, or
  // 1 up to kRowNarrowMaxElements elements per thread), whatever the length.
  bool runs(const RowFastVariant &v, int width) const {
    return width == vector || vector == 1 || v.elements <= kRowNarrowMaxElements;
  }
  // Rows' worth of 16-bit registers a thread holds per element it runs:
  // the cached streams' and two per column reduction (minBlocksPerSM).
  int heldRows() const;
  // The longest row a contiguous variant at vectors of `width` takes; longer
  // ones take the cached variants.
  int64_t registersUpTo(int width) const;
  // The cached variants (and the cluster, split and grid ones): rows above
  // registersUpTo(1).
  bool generatesCached() const;
  // Whether any contiguous variant is generated.
  bool generatesContiguous() const;
  // Whether the cluster variant is generated: rows with a cache to split.
  bool clustered() const { return generatesCached() && cachedBytes() > 0; }
  // Whether the split variant is generated (kRowSplitVariant), and where
  // the fusion's scratch starts in the workspace.
  bool split = false;
  Extent scratchOffset;
  // Whether the grid variant is generated (kRowGridVariant): where the
  // split one is not, for rows above kRowCachedAbove.
  bool grid = false;
  // The split variant's scratch: kRowSplitTargetBlocks partials of every
  // reduction (splitPartialBytes(i) for reduction i), then a count per row
  // (rows <= kRowSplitTargetBlocks / 2). The grid variant's:
  // kRowSplitTargetBlocks slots of 8 bytes per combine of a row
  // (gridCombines), then a count per row.
  Extent scratchBytes() const;
  int64_t splitPartialBytes(size_t i) const;
  // The grid variant's combines per row: one per reduction, two per var
  // (its mean, then its squared deviations).
  int gridCombines() const;
  // Bytes read and written per row position: the element sizes of the
  // streamed tensors along the row.
  int rowPositionBytes() const;
  // The vector widths each contiguous variant is generated for: `vector`,
  // then 1 (rows or pointers that are not aligned) where vector > 1.
  std::vector<int> vectorWidths() const {
    return vector > 1 ? std::vector<int>{vector, 1} : std::vector<int>{1};
  }
};

std::string rowKernelName(const RowKernel &k, const RowVariant &v);
std::string rowKernelName(const RowKernel &k, const RowFastVariant &v, int vector,
                          bool headed = false);
std::string rowKernelName(const RowKernel &k, const RowCachedVariant &v, int vector);
std::string rowColumnMergeName(const RowKernel &k);
// The argument struct; `prefix` names it in host code (FUSERC_NAME_...).
std::string rowArgsStruct(const RowKernel &k, const std::string &prefix);
// The host launch block: fill the arguments, pick a variant by row length,
// launch (RowHostLaunch.cpp).
std::string rowHostLaunch(const RowKernel &k);
// Everything but the source: parameters, variants, selection, host launch.
void fillRowPlan(const RowKernel &k, KernelPlan &plan);

} // namespace fuserc
