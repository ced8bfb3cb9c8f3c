// Code generation for the scan scheduler: one kernel per segment, `_lanes`,
// in which a group of G lanes of a warp (G a power of two up to 32, picked
// at launch) walks each line of the scanned dim in chunks of G * V
// elements:
//
//   - each thread computes V consecutive elements of the chunk (the
//     prologue, consumer-first at their coordinates) and scans them in
//     registers;
//   - the group scans the threads' totals with shuffles, and each element
//     adds the prefix of the chunks before (the carry) and of the threads
//     before it;
//   - the epilogue and the stores run at the same elements.
//
// Along rows (the scanned dim innermost in memory) G grows with the line's
// length, so a warp reads contiguous memory; across rows G is 1 and
// neighbouring threads walk neighbouring lines, which are adjacent in
// memory. Several scans of one segment (chained or side by side) run one
// after another inside each chunk, each with its own carry.
#pragma once
#include "schedulers/BuiltinSchedules.h"
#include "schedulers/KernelGenerator.h"

namespace fuserc {

EmittedKernel emitScanKernel(const KernelRequest &request, const ScanSchedule &schedule);

} // namespace fuserc
