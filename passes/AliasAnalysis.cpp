// PLACEHOLDER during development. Replaced by the real pass.
#include "passes/AliasAnalysis.h"

namespace fuserc {

bool analyzeAliases(Fusion &fusion, DiagnosticEngine &) {
  for (FusionOutput &o : fusion.mutableOutputs())
    o.kind = o.aliases ? OutputKind::InPlace : OutputKind::NewBuffer;
  return true;
}

PrintNotes aliasDumpNotes() { return {}; }

} // namespace fuserc
