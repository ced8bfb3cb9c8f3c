// The YAML form of fusions (docs/language.md, "YAML form"), loaded with yaml-cpp into the same
// syntax tree as the text form. Op statements written as strings are parsed
// in place by the text parser, so their diagnostics point into the YAML file.
#pragma once

#include "frontend/AST.h"
#include "support/Diagnostics.h"

#include <optional>
#include <vector>

namespace fuserc {

// Parses the YAML buffer `bufferId` of `diag`'s SourceMgr; nullopt after
// reporting an error.
std::optional<std::vector<ast::Fusion>> parseFusionYaml(unsigned bufferId, DiagnosticEngine &diag);

} // namespace fuserc
