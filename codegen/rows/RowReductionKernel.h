// Code generation for segments the "normalization" and "reduction"
// schedulers claim, when every reduction reduces the same axes and those
// axes are innermost in memory ("row" reductions; outer and middle plain
// reductions go to ColumnReductionKernel.h).
//
// A row is the L elements one reduction result covers; rows are the kept
// coordinates. Reductions run in phases, in fusion order: each phase
// computes its input over the row, combines per-thread partials across the
// lanes / block, and leaves the result in a per-row register that later
// phases and the outputs read. Per-element outputs are stored after the
// last phase; per-row outputs once per row by the row's first thread.
//
// Two families of variants, picked at launch (RowReductionPlan.h lists
// them and the manifest states the rule):
//   contiguous  every tensor read along the row at the row's own elements,
//               and every per-element output, holds each row as one run of
//               stride 1. Rows are read in vectors of up to 16 bytes, kept
//               in registers across phases (8 lanes to 512 threads per
//               row, up to 16384 elements), or, longer, streamed through a
//               cache in shared memory (as much of the row as fits).
//               Other reads (permuted, shifted, gathered) go through
//               strides. A division by a row's value becomes one reciprocal
//               per row.
//   general     any layout: every element through its strides.
#pragma once

#include "codegen/core/KernelTensors.h"
#include "schedulers/KernelPlan.h"

namespace fuserc {

EmittedKernel emitRowReductionKernel(const KernelRequest &request,
                                     const ReductionSchedule &schedule);

} // namespace fuserc
