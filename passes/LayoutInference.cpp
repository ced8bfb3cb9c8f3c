// PLACEHOLDER during development. Replaced by the real pass.
#include "passes/LayoutInference.h"

namespace fuserc {

void inferLayouts(Fusion &fusion) {
  for (const auto &op : fusion.ops())
    fusion.setLayout(op->result(), rowMajorLayout(op->result()->rank()), "row-major");
  for (FusionOutput &o : fusion.mutableOutputs()) {
    o.layout = o.pinnedLayout ? *o.pinnedLayout : o.value->layout();
    o.layoutOrigin = o.pinnedLayout ? "pinned" : o.value->layoutOrigin();
  }
}

PrintNotes layoutDumpNotes() { return {}; }

} // namespace fuserc
