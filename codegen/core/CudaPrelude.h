// The CUDA C++ every generated translation unit starts with: integer types,
// f16/bf16 conversions, the fuserc_* math helpers that ops.td's CUDA
// expressions call, index helpers for symbolic extents, and Philox4x32-10
// for rand_like — each matching the reference interpreter's semantics
// (ir/interp/ReferenceMath.h, ir/interp/Philox.h).
#pragma once

#include <string>

namespace fuserc {

const std::string &cudaPrelude();

// The oldest architecture fuserc generates code for: its kernels use sm_80
// instructions (cp.async, L2 cache policies) without older fallbacks.
inline constexpr int kOldestGeneratedArch = 80;

} // namespace fuserc
