// What the manifest says about one fusion's segmentation (passes/
// Segmentation.h), in names and words only, so the manifest writer — and
// its tests — need no SegmentedFusion: the segments with their scheduler and
// ops, the index maps no segment computes, the outputs stored through views, the tensors passed
// between them, and why neighbouring segments, or the whole fusion, could not be one kernel.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace fuserc {

struct SegmentedFusion;

struct SegmentSummary {
  struct Rejection {
    std::string scheduler;
    std::string reason;
  };
  struct Op {
    std::string value; // the result's name, as dumps print it ("t1")
    std::string op;    // "add"
  };
  struct Segment {
    size_t id = 0;
    std::string scheduler;
    std::vector<Op> ops;
    std::vector<std::string> reads, writes, views;
  };
  struct IndexMap { // a view no kernel computes: kernels read its base through it
    std::string value, op, base, offset;
    std::vector<std::string> strides;
  };
  struct OutputView { // an output a kernel writes as another value through a view
    std::string output, stored;
    std::vector<std::string> strides; // of `stored` over the output's memory
  };
  struct Tensor {
    std::string name;
    std::string dtype;   // the value's
    std::string storage; // as kept between segments (f32 for f16 and bf16)
    size_t producer = 0;
    std::vector<size_t> consumers;
    std::string kind;  // "workspace", "output" (read back), "view" (read through)
    std::string bytes; // formula
  };
  struct Boundary {
    size_t first = 0, second = 0;
    std::vector<std::string> passed; // produced by one, read by the other
    std::vector<std::string> shared; // read by both
    std::optional<size_t> cycleThrough;
    std::vector<Rejection> rejections; // when no cycle: every scheduler's reason
  };

  std::string fusion;
  std::vector<Rejection> wholeFusion; // empty when one scheduler took it all
  std::vector<Segment> segments;
  std::vector<IndexMap> indexMaps;
  std::vector<OutputView> outputViews;
  std::vector<Tensor> tensors;
  std::vector<Boundary> boundaries;
};

SegmentSummary summarizeSegments(const SegmentedFusion &segmented);

} // namespace fuserc
