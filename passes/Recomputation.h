// Recomputation (docs/passes.md, "Recomputation"): a value passed between
// segments that a few elementwise ops compute from the fusion's inputs is
// computed again by each segment reading it, instead of stored by its
// producer and read back, where that moves fewer bytes. An RMSNorm
// backward's x * rstd, read by the dx kernel and the dw column sum, no
// longer goes through an f32 workspace tensor: the dw kernel reads x and
// rstd, which cost less.
//
// In: a fusion after alias analysis. Out: its segmentation, and in place of
// the fusion, when recomputing pays, a new fusion (same name, inputs and
// outputs, the same layouts and output kinds) in which each segment reading
// such a value has its own copy of the value's ops, the value's copy named
// after it (`xhat_rc`), with that fusion's segmentation.
//
// A value crossing from one segment into others (through the workspace, or
// read back from an output) is recomputed when:
//   - the ops computing it, walked back to tensor inputs that no output
//     updates in place, index maps, recomputed casts, scalar inputs and
//     literals, are at most kMaxRecomputedOps elementwise ops and
//     broadcasts;
//   - the bytes of those tensors that its consumers do not read already are
//     fewer than the bytes storing it (when in the workspace) and reading
//     it back in every consumer cost;
//   - no consumer is a view segment (no kernel).
// Segmentation then runs again on the new fusion; its result is kept when
// it has no more segments and moves fewer bytes (the copies may land in
// other segments than planned), and the rewrite is tried once more on it,
// up to kMaxRecomputeRounds rewrites. The `segments` dump lists each kept
// copy, the segment computing it, what it reads and what it replaces.
#pragma once

#include "passes/Segmentation.h"

#include <memory>

namespace fuserc {

inline constexpr size_t kMaxRecomputedOps = 12;
inline constexpr int kMaxRecomputeRounds = 3;

// Segments `fusion` (segmentFusion) and recomputes values where that moves
// fewer bytes, replacing `fusion` by the rewritten fusion when it does;
// nullopt (after reporting) when segmentFusion fails on the original.
std::optional<SegmentedFusion> segmentRecomputing(std::unique_ptr<Fusion> &fusion,
                                                  const SegmentationOptions &options,
                                                  DiagnosticEngine &diag);

} // namespace fuserc
