// The built-in schedules (see BuiltinSchedules.h).
#include "schedulers/BuiltinSchedules.h"

namespace fuserc {
namespace {

std::vector<int64_t> asNumbers(const std::vector<size_t> &dims) {
  return std::vector<int64_t>(dims.begin(), dims.end());
}

} // namespace

IterationSchedule::IterationSchedule(std::string family, const SegmentedFusion &fusion,
                                     const ScheduledSegment &segment)
    : family_(std::move(family)) {
  std::span<const Value *const> written = segment.segment.writtenOutputs();
  if (written.empty())
    return;
  reference = written.front();
  referenceName = fusion.analysis->name(*reference);
  order = fusion.analysis->storedLayout(*reference);
}

std::vector<ScheduleField> IterationSchedule::fields() const {
  return {{"reference", referenceName}, {"iteration_order", order}};
}

ReductionSchedule::ReductionSchedule(const SegmentedFusion &fusion, const ScheduledSegment &segment,
                                     bool normalizes)
    : normalization(normalizes) {
  auto found = findReductionRows(segment.segment, "a reduction kernel reduces one set of axes");
  if (auto *found_rows = std::get_if<ReductionRows>(&found))
    rows = std::move(*found_rows);
  if (rows.reductions.empty())
    return; // not a segment the reduction schedulers accept; the generator refuses
  grouping = groupReductionDims(*fusion.analysis, rows);
  kind = !normalizes && grouping.kind != ReductionGrouping::Kind::Inner ? Family::Columns
                                                                        : Family::Rows;
}

std::vector<ScheduleField> ReductionSchedule::fields() const {
  return {{"reduced_axes", rows.axes},
          {"memory_order", grouping.order},
          {"outer_kept_dims", asNumbers(grouping.outerKept)},
          {"reduced_dims", asNumbers(grouping.reduced)},
          {"inner_kept_dims", asNumbers(grouping.innerKept)},
          {"normalization", normalization}};
}

} // namespace fuserc
