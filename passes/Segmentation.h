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
// fusion stores its outputs, as in one kernel.
#pragma once

#include "ir/Fusion.h"
#include "schedulers/Scheduler.h"
#include "support/Diagnostics.h"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace fuserc {

inline constexpr int64_t kDefaultExtent = 1024;

// A scheduler's reason for not taking a group.
struct Rejection {
  std::string scheduler;
  std::string reason;
};

struct ScheduledSegment {
  size_t id;
  Segment segment;
  const Scheduler *scheduler;
};

// A tensor one segment produces and others read.
struct CrossingTensor {
  enum class Kind {
    Workspace, // stored in the workspace by the producer
    Output,    // a fusion output of the same dtype: read back from its buffer
    View,      // a fusion output that is a view: read through it, from its base
  };
  const Value *value;
  size_t producer;               // segment id
  std::vector<size_t> consumers; // segment ids, ascending
  Kind kind;
  DType storage; // f32 for f16 / bf16 values in the workspace
  Extent bytes;  // numElements * bytes of `storage`
};

// Two segments that could have been one: one reads what the other
// produces, or both read the same tensor.
struct SegmentBoundary {
  size_t first, second;               // segment ids, first < second
  std::vector<const Value *> passed;  // produced by one, read by the other
  std::vector<const Value *> shared;  // read by both from elsewhere
  std::optional<size_t> cycleThrough; // merging would close a cycle through it
  std::vector<Rejection> rejections;  // otherwise: every scheduler's reason
};

struct SegmentedFusion {
  const Fusion *fusion = nullptr;
  std::shared_ptr<const FusionAnalysis> analysis;
  std::vector<ScheduledSegment> segments; // by id
  std::vector<size_t> segmentOfOp;        // by op position
  // Why no scheduler took the whole fusion; empty when one did.
  std::vector<Rejection> wholeFusion;
  std::vector<CrossingTensor> crossing; // by value id
  std::vector<SegmentBoundary> boundaries;
  Extent workspaceBytes; // sum of the workspace tensors' bytes
};

struct SegmentationOptions {
  std::span<const Scheduler *const> schedulers; // priority order
  SymbolBindings shapes;                        // --shape
};

// Segments `fusion`; nullopt after reporting an op no scheduler accepts.
std::optional<SegmentedFusion>
segmentFusion(const Fusion &fusion, const SegmentationOptions &options, DiagnosticEngine &diag);

} // namespace fuserc
