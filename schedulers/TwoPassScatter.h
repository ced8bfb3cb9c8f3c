// Two-pass scatters (OpFamilies.h, isTwoPassScatter): what a segment must
// look like for a pointwise kernel to run one, shared by the schedulers
// (which accept or refuse) and the pointwise generator (which emits it).
//
// The kernel runs the segment twice. The fill computes every written value
// with the scatter replaced by its background x, element by element over
// the iteration space. The update pass runs over the index: at each
// position the scatter writes (the last of a line's positions naming it,
// the duplicate rule), it recomputes, from the scatter's source, the
// written values that read the scatter, and stores them there. So every
// value reading the scatter must read it element by element (elementwise
// ops of the scatter's shape), and the update pass must not read an input
// that the fill has already overwritten in place.
#pragma once

#include "schedulers/Segment.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace fuserc {

struct TwoPassScatter {
  const Op *scatter = nullptr;
  // The segment's ops that read the scatter's result, directly or through
  // each other, in segment order (elementwise, of the scatter's shape).
  std::vector<const Op *> chain;
  // The segment's values the update pass reads besides the chain: the
  // index, the source and the chain's other operands.
  std::vector<const Value *> updateReads;
};

// The segment's two-pass scatter, if it has one (the first, in op order).
std::optional<TwoPassScatter> findTwoPassScatter(const Segment &segment);

// Why a pointwise kernel cannot run the segment's two-pass scatter: a
// second one, a value reading it other than element by element, or an
// in-place hazard. Nothing when it can, or when the segment has none.
std::optional<std::string> checkTwoPassScatter(const Segment &segment);

// For the other kernels: "'y' (scatter) ... runs as a fill and an update
// pass", when the segment has a two-pass scatter.
std::optional<std::string> refuseTwoPassScatter(const Segment &segment);

} // namespace fuserc
