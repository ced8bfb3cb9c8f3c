// The schedule stage over a segmented fusion (see SegmentedFusion.h).
#include "schedulers/SegmentedFusion.h"

namespace fuserc {

const CrossingTensor *SegmentedFusion::crossingOf(const Value &value) const {
  for (const CrossingTensor &t : crossing)
    if (t.value == &value)
      return &t;
  return nullptr;
}

void makeSchedules(SegmentedFusion &fusion) {
  for (ScheduledSegment &segment : fusion.segments)
    if (segment.scheduler->needsKernel())
      segment.schedule = segment.scheduler->schedule(fusion, segment);
}

} // namespace fuserc
