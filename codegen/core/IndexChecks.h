// Out-of-range indices at run time. gather and index_select read, and
// scatter writes, at positions an index tensor holds; the kernels clamp a
// read into range (they must not fault) and ignore a scatter position out
// of range, and report either through a flag, so the launch can return
// NAME_ERROR_INDEX_OUT_OF_RANGE instead of wrong results in silence.
//
// The flag is the first 4 bytes of the workspace (which then reserves its
// first 256 bytes for it). A kernel whose segment has such an op gets
// `int *index_error` in its argument struct, which its host block sets to
// `(int *)ws`; the op writes its code (below) there when it meets an index
// out of range (any writer may win: any nonzero code reports). The launch
// zeroes the flag before its kernels and reads it back after them, which
// synchronizes the stream: such fusions' launches return when the kernels
// are done.
#pragma once

#include "schedulers/KernelPlan.h"
#include "schedulers/SegmentedFusion.h"

#include <string>
#include <vector>

namespace fuserc {

// Whether `op` indexes by a tensor's values (gather, index_select, scatter).
bool isIndexingOp(const Op &op);
// The flag code of an indexing op: nonzero, unique in its fusion.
int indexCheckCode(const Op &op);
// Whether a segment's kernel needs the flag.
bool segmentChecksIndices(const Segment &segment);
// The indexing ops of the fusion's kernels, in op order; empty when none.
std::vector<IndexCheck> fusionIndexChecks(const SegmentedFusion &segmented);

// The workspace bytes the flag reserves, ahead of everything else.
constexpr int64_t kIndexFlagBytes = 256;
// The argument-struct member, and the host statement setting it.
std::string indexFlagMember();
std::string indexFlagHostCode();
// How kernel code names the flag (every kernel's arguments are `a`).
inline const char *indexFlagInKernel() { return "a.index_error"; }

} // namespace fuserc
