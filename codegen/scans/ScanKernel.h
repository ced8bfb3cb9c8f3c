// Code generation for the scan scheduler: one kernel per segment, `_lanes`,
// in which a group of G lanes of a warp (G a power of two up to 32, picked
// at launch) walks each line of the scanned dim in chunks of G * V
// elements:
//
//   - thread `sub` of the group computes elements k * G + sub of the chunk
//     (k < V: neighbouring threads, neighbouring elements, so loads and
//     stores are coalesced), the prologue consumer-first at their
//     coordinates;
//   - the scan's inputs pass through the warp's shared memory to threads
//     that each hold V consecutive elements, which scan them in registers;
//     the group scans the threads' totals with shuffles, and each element
//     adds the carry of the chunks before and the totals of the threads
//     before it; the results go back through shared memory;
//   - the epilogue and the stores run at the elements loaded.
//
// Along rows (the scanned dim innermost in memory) G grows with the line's
// length; across rows G is 1 and neighbouring threads walk neighbouring
// lines, which are adjacent in memory. Several scans of one segment
// (chained or side by side) run one after another inside each chunk, each
// with its own carry. Offsets that do not change along a line are summed
// once per line.
//
// Lines too few to fill the GPU are split in pieces: `_totals` scans each
// piece without storing and writes its totals, and each piece of `_lanes`
// starts from the totals of the pieces before it (not where a scan reads
// another's result, whose pieces would need that prefix first).
#pragma once
#include "schedulers/BuiltinSchedules.h"
#include "schedulers/KernelGenerator.h"

namespace fuserc {

EmittedKernel emitScanKernel(const KernelRequest &request, const ScanSchedule &schedule);

} // namespace fuserc
