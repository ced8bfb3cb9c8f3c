// Which architectures of a compile unit can share one PTX, as nvcc's
// `-gencode arch=compute_80,code=[sm_80,sm_90]` does: NVRTC's front end and
// optimizer (most of a compile) run once, for the oldest architecture of a
// group, and ptxas assembles that PTX for each architecture of it.
//
// Two architectures share when the unit's source cannot tell them apart:
// every test of __CUDA_ARCH__ in it is a `__CUDA_ARCH__ >= N` that both pass
// or both fail (fuserc's preludes and generators test only this way; the
// cluster variants' `>= 900` keeps sm_90 on its own beside sm_80). Any
// other test of __CUDA_ARCH__ (or <nv/target>'s NV_PROVIDES_SM_*, the
// feature-set macros), or an architecture with a feature suffix (sm_90a),
// gives each architecture its own compile. The toolkit headers'
// own tests pick among equivalent implementations, so PTX for the oldest
// architecture computes the same results on the newer ones.
#pragma once

#include <string>
#include <vector>

namespace fuserc {

// `archs` ("sm_80", ...) oldest first, split into groups that share one PTX,
// each oldest first, in order.
std::vector<std::vector<std::string>> ptxSharingGroups(const std::string &source,
                                                       const std::vector<std::string> &archs);

// The virtual architecture a group's PTX is compiled for: "sm_80" ->
// "compute_80".
std::string virtualArch(const std::string &arch);

} // namespace fuserc
