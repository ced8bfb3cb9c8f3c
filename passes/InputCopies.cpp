// Input copies: see InputCopies.h.
#include "passes/InputCopies.h"

#include "passes/FusionRewriter.h"

namespace fuserc {

size_t materializeInputCopies(Fusion &fusion) {
  FusionRewriter rewriter(fusion);
  size_t copies = 0;
  for (FusionOutput &out : fusion.mutableOutputs()) {
    if (out.kind != OutputKind::NewBuffer || !out.value->isInput())
      continue;
    rewriter.setLoc(out.loc);
    Attributes attrs;
    attrs.set("dtype", out.value->dtype());
    // A cast to the operand's own dtype is the copy; no pass after this one
    // folds it. tryAdd cannot fail for a cast (null would leave the output
    // to FusionCodegen's check).
    Value *copy = rewriter.tryAdd(OpKind::Cast, {out.value}, std::move(attrs));
    if (!copy)
      continue;
    fusion.setLayout(copy, out.layout, "copy of input '" + out.value->name() + "'");
    out.copies = out.value;
    out.value = copy;
    ++copies;
  }
  return copies;
}

} // namespace fuserc
