// The schedules of the built-in schedulers: what each decides for a
// segment, once, and hands to its generator in codegen/.
//
//   pointwise, transpose  the written output whose elements the threads
//                         walk (every written output has its shape) and
//                         its memory order;
//   scan                  the scans' lanes, and whether they run along the
//                         reference output's innermost dim;
//   rows, columns         the reduction's rows (the reductions, their
//                         domain and axes) and how its dims group in memory,
//                         which picks the family: reduced dims innermost in
//                         memory make rows, kept dims inside them columns
//                         (reduction segments only; a normalization keeps
//                         its rows on chip and is always rows).
#pragma once

#include "schedulers/ReductionGrouping.h"
#include "schedulers/Schedule.h"
#include "schedulers/SchedulerChecks.h"
#include "schedulers/SegmentedFusion.h"

#include <memory>

namespace fuserc {

// One thread (or vector lane) per element of one written output.
class IterationSchedule : public Schedule {
public:
  // `family` is "pointwise" or "transpose".
  IterationSchedule(std::string family, const SegmentedFusion &fusion,
                    const ScheduledSegment &segment);

  std::string_view family() const override { return family_; }
  std::vector<ScheduleField> fields() const override;

  // The segment's first written output; null when it writes nothing (the
  // generator refuses). Every written output has its shape: the
  // schedulers check one iteration space.
  const Value *reference = nullptr;
  std::string referenceName;
  Layout order; // the reference's memory order, outermost first

private:
  std::string family_;
};

class ReductionSchedule final : public Schedule {
public:
  enum class Family { Rows, Columns };
  // `segment` must be one the normalization or reduction scheduler
  // accepted (its reductions share one set of rows).
  ReductionSchedule(const SegmentedFusion &fusion, const ScheduledSegment &segment,
                    bool normalizes);

  std::string_view family() const override { return kind == Family::Rows ? "rows" : "columns"; }
  std::vector<ScheduleField> fields() const override;

  ReductionRows rows;
  ReductionGrouping grouping;
  Family kind = Family::Rows;
  bool normalization = false; // a reduction result is used again over its rows
};

// A scan segment's lanes and how they lie in memory: along the scanned
// dim (the reference output's innermost non-1 dim: `alongRows`), a group
// of threads shares each lane; across it, each thread runs its own lane.
class ScanSchedule final : public Schedule {
public:
  // `segment` must be one the scan scheduler accepted.
  ScanSchedule(const SegmentedFusion &fusion, const ScheduledSegment &segment);
  std::string_view family() const override { return "scan"; }
  std::vector<ScheduleField> fields() const override;
  ScanLanes lanes;
  const Value *reference = nullptr; // the first written output
  std::string referenceName;
  Layout order;           // the reference's memory order, outermost first
  bool alongRows = false; // the scanned dim is innermost in that order
  // A scan reads, through ops of the segment, another's result: a piece of
  // its lane would need the other's prefix before its own totals, so the
  // lines are not split.
  bool chained = false;
};
} // namespace fuserc
