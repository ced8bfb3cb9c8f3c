// Segmentation (docs/passes.md, "Segmentation"): splits each fusion into segments, each
// claimed by the first scheduler (in priority order) that accepts it.
//
// In: a fusion after alias analysis (layouts and output kinds set). Out: a
// SegmentedFusion beside it; the fusion is not changed.
//
//   1. If a scheduler accepts the whole fusion, it is one segment.
//   2. Otherwise every op starts as its own group (each must be accepted by
//      some scheduler, else the fusion cannot be compiled: an error at the
//      op). Pairs of groups that share a tensor — passed from one to the
//      other, or read by both (horizontal) — are merged greedily, the pair
//      that saves the most global-memory bytes first (SegmentGraph.h),
//      when some scheduler accepts the merged group and the graph of
//      groups stays acyclic. Ties go to the pair whose groups start
//      earliest in the fusion, so the result is deterministic. Refused
//      pairs are retried in later rounds once their groups have grown
//      (not after every merge, which is quadratic in wide fusions); the
//      last round refuses every pair that is left. Starting from single
//      ops rather than prebuilt groups (a meta op with its consumers) lets
//      the savings decide which side a consumer joins; the first merges
//      usually build exactly those groups.
//
// Sizes are evaluated with the `--shape` bindings; a symbol without one
// counts as kDefaultExtent (1024), the same for every unbound symbol.
//
// Segments are numbered in a topological order of the segment graph
// (launch order): of the segments ready together, reduction segments first
// (they write little; Segmentation.cpp says why), then the segment whose
// first op comes first.
// A tensor passed between segments lives in a workspace buffer, except
// when it is a fusion output the consumer can read back from the output
// buffer, or a view of an input the consumer reads through. f16 and bf16
// values are kept in f32 in the workspace: they are rounded only where a
// fusion stores its outputs, as in one kernel; casts to f16 or bf16, which
// their dtype holds exactly, are kept in it.
#pragma once

#include "schedulers/SegmentedFusion.h"
#include "support/Diagnostics.h"

#include <optional>
#include <span>

namespace fuserc {

struct SegmentationOptions {
  std::span<const Scheduler *const> schedulers; // priority order
  SymbolBindings shapes;                        // --shape
};

// The elements of `shape` as segmentation counts them: symbols with their
// `--shape` bindings, unbound ones at kDefaultExtent.
double countedElements(const std::vector<Extent> &shape, const SymbolBindings &shapes);

// Segments `fusion`; nullopt after reporting an op no scheduler accepts.
std::optional<SegmentedFusion>
segmentFusion(const Fusion &fusion, const SegmentationOptions &options, DiagnosticEngine &diag);

} // namespace fuserc
