// Code generation for the transpose scheduler: one kernel per segment whose
// tensors disagree on the dimension innermost in memory.
//
// The kernel covers the reference output's shape in tiles of two dims: B,
// the reference's innermost dim in memory, and A, the innermost dim of the
// tensors that disagree with it. Values are computed with the lanes of a
// warp along B, so tensors contiguous along B are read and written
// directly, coalesced. Tensors contiguous along A go through shared memory:
// an input is staged into a tile with the lanes along A (coalesced) before
// the values are computed, and an output is collected in a tile and
// written with the lanes along A after them. The other dims (batch dims)
// are walked one tile at a time. Tensors contiguous along neither A nor B
// are read directly through their strides.
//
// Variants: tile32_i32 / _i64, for tiles of 32 x 32 elements; i32 when every
// index and offset fits in 31 bits.
#pragma once

#include "codegen/core/KernelTensors.h"
#include "schedulers/KernelPlan.h"
#include "schedulers/SegmentedFusion.h"

namespace fuserc {

EmittedKernel emitTransposeKernel(const KernelRequest &request, const IterationSchedule &schedule);

} // namespace fuserc
