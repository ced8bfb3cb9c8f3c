// Code generation for segments the "normalization" and "reduction"
// schedulers claim, when every reduction reduces the same axes and those
// axes are innermost in memory ("row" reductions; others raise a
// CodegenError saying they are not generated yet).
//
// A row is the L elements one reduction result covers; rows are the kept
// coordinates. Reductions run in phases, in fusion order: each phase
// computes its input over the row, combines per-thread partials across
// the warp / block, and leaves the result in a per-row register that later
// phases and the outputs read. Variants, picked at launch from L:
//
//   warp32x4      L <= 128: a warp per row, 4 rows per block, 4 elements
//                 per lane kept in registers across phases;
//   block256x4    L <= 1024: a block of 256 per row, 4 elements per thread;
//   block512x16   L <= 8192: a block of 512 per row, 16 per thread (up to
//                 128 registers, where 1024 threads allow 64 and spill);
//   block1024x16  L <= 16384: a block of 1024 per row, 16 per thread;
//   loop512       any L (and L == 0): a block of 512 per row looping over
//                 the row, every phase re-reading its inputs.
//
// Per-element outputs are stored after the last phase; per-row outputs once
// per row by the row's first thread. Indices are 64-bit.
#pragma once

#include "codegen/KernelPlan.h"
#include "codegen/KernelTensors.h"

namespace fuserc {

EmittedKernel emitRowReductionKernel(const SegmentedFusion &segmented,
                                     const ScheduledSegment &segment,
                                     const WorkspaceOffsets &workspace);

} // namespace fuserc
