// A fusion split into segments, each with the scheduler that claimed it:
// what segmentation (passes/Segmentation.h) produces and code generation,
// the dumps and the manifest read. Also the tensors passed between
// segments and the boundaries where segments could have merged.
#pragma once

#include "ir/Fusion.h"
#include "schedulers/Scheduler.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fuserc {

inline constexpr int64_t kDefaultExtent = 1024;
// The segment of an index map or a recomputed cast (FusionAnalysis::
// isRecomputed): none computes it.
inline constexpr size_t kNoSegment = static_cast<size_t>(-1);

// A scheduler's reason for not taking a group.
struct Rejection {
  std::string scheduler;
  std::string reason;
};

struct ScheduledSegment {
  size_t id;
  Segment segment;
  const Scheduler *scheduler;
  // The scheduler's decisions for this segment (Scheduler::schedule), made
  // by the pipeline's schedule stage; null before it, and for segments that
  // need no kernel.
  std::shared_ptr<const Schedule> schedule;
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
  DType storage; // f32 for f16 / bf16 values in the workspace, but casts to them
  Extent bytes;  // numElements * bytes of `storage`
};

// Two segments that could have been one: one reads what the other
// produces, or both read the same tensor (of a tensor's readers, each with
// the next in launch order).
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
  std::vector<size_t> segmentOfOp;        // by op position; kNoSegment if recomputed
  // Why no scheduler took the whole fusion; empty when one did.
  std::vector<Rejection> wholeFusion;
  std::vector<CrossingTensor> crossing; // by value id
  std::vector<SegmentBoundary> boundaries;
  // In-place outputs whose input is also read other than element by
  // element: how segmentation ordered those reads before the write, one
  // sentence each.
  std::vector<std::string> inPlaceOrders;
  // Values each reading segment computes again instead of reading them
  // from another segment (passes/Recomputation.h), one sentence each.
  std::vector<std::string> recomputations;
  Extent workspaceBytes; // sum of the workspace tensors' bytes

  // The crossing tensor `value` is, if it is one.
  const CrossingTensor *crossingOf(const Value &value) const;
};

// The schedule stage: each segment that needs a kernel gets its
// scheduler's schedule (Scheduler::schedule), once.
void makeSchedules(SegmentedFusion &fusion);

} // namespace fuserc
