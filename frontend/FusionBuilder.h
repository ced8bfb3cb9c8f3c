// Semantic analysis: turns parsed fusions (from either frontend) into the
// Fusion IR — name resolution, attribute checking against ops.td, shape and
// dtype inference, layout and output checks — reporting every error as a
// diagnostic at the construct it is about.
#pragma once

#include "frontend/AST.h"
#include "ir/Fusion.h"
#include "support/Diagnostics.h"

#include <span>

namespace fuserc {

// Appends one IR fusion per AST fusion to `module`. Returns false when any
// error was reported (the module then holds only the fusions without errors).
bool buildFusions(std::span<const ast::Fusion> fusions, DiagnosticEngine &diag, Module &module);

} // namespace fuserc
