// The IR verifier: checks the invariants every pass may rely on — SSA order,
// operand and attribute schemas, result types that re-inference reproduces,
// valid layouts, well-formed outputs. Run after the frontend and after every
// pass; a failure is an internal error, never a user error.
#pragma once

#include "ir/Fusion.h"

#include <string>
#include <vector>

namespace fuserc {

// Every violated invariant, described; empty when the fusion is valid.
std::vector<std::string> verifyFusion(const Fusion &fusion);

} // namespace fuserc
