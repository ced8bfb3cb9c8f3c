// The built-in schedules (see BuiltinSchedules.h).
#include "schedulers/BuiltinSchedules.h"

#include "schedulers/OpFamilies.h"

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
  auto found =
      normalizes ? findNormalizationRows(segment.segment)
                 : findReductionRows(segment.segment, "a reduction kernel reduces one set of axes");
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

ScanSchedule::ScanSchedule(const SegmentedFusion &fusion, const ScheduledSegment &segment) {
  auto found = findScanLanes(segment.segment);
  if (auto *found_lanes = std::get_if<ScanLanes>(&found))
    lanes = std::move(*found_lanes);
  std::span<const Value *const> written = segment.segment.writtenOutputs();
  if (lanes.scans.empty() || written.empty())
    return; // not a segment the scan scheduler accepts; the generator refuses
  reference = written.front();
  referenceName = fusion.analysis->name(*reference);
  order = fusion.analysis->storedLayout(*reference);
  chained = chainedStages(segment.segment, isScan) > 1;
  for (auto d = order.rbegin(); d != order.rend(); ++d)
    if (!lanes.domain[static_cast<size_t>(*d)].isConstant(1) ||
        static_cast<size_t>(*d) == lanes.dim) {
      alongRows = static_cast<size_t>(*d) == lanes.dim;
      break;
    }
}

std::vector<ScheduleField> ScanSchedule::fields() const {
  return {{"scanned_dim", static_cast<int64_t>(lanes.dim)},
          {"reference", referenceName},
          {"memory_order", order},
          {"along_rows", alongRows}};
}

} // namespace fuserc
