// Code generation for "reduction" segments whose reduced dims are not
// innermost in memory: outer and middle ("column") reductions. In memory
// order the domain is [outer kept A][reduced R][inner kept K]
// (schedulers/ReductionGrouping.h); a column is one (a, k) pair, A*K columns in all, each
// reducing R elements a row stride apart.
//
// Tile kernels: a block of 32 x 8 threads covers 32*V adjacent columns (V
// per thread) and every 8th row of its rows, so each warp reads a whole
// stretch of a row; each thread accumulates its rows in order, 8 rows'
// loads in flight, then the block combines its 8 row partials in shared
// memory in a fixed order. Variants, picked at launch:
//
//   tile_pack<V> K < V inner kept columns dividing V, every read tensor's
//                rows adjacent: 16-byte loads of V / K whole rows, folded
//                into the K columns before the epilogue;
//   tile_vec<V>  every read tensor contiguous (or broadcast) along K and
//                collapsible along R, with pointers, strides and K aligned
//                to V columns: 16-byte loads;
//   tile_vec1    the same addressing, one column per thread;
//   general      any strides and any prologue (coordinates per element);
//                the tile variants exist only for an elementwise prologue.
//
// When the columns alone do not fill the GPU the rows are split over S
// blocks (gridDim.y, S a power of two up to 1024): each writes its partial
// accumulators to workspace scratch [S][A*K] and counts itself done in its
// tile's counter (zeroed by the host before the launch); the tile's last
// block merges the S partials of each column in split order, applies the
// epilogue and stores: one launch, whichever block is last. Results depend
// on the variant, the lanes per column and S, functions of the extents,
// strides and pointer alignment, never of the device or of which block is
// last. var merges Welford (count, mean, M2) partials. Indices are 64-bit.
#pragma once

#include "codegen/core/KernelTensors.h"
#include "schedulers/KernelPlan.h"

namespace fuserc {

// `scratchOffset`: where the fusion's scratch area starts in the workspace.
EmittedKernel emitColumnReductionKernel(const KernelRequest &request,
                                        const ReductionSchedule &schedule);

// Host C code the column-reduction launch blocks call (defined once per
// header).
const std::string &columnReductionHostHelpers();

} // namespace fuserc
