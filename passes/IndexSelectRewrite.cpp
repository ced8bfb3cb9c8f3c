// The 0-d index rewrite for canonicalization: index_select(x, i, dim) with a
// 0-d index i selects one entry and keeps the dim (torch.index_select), which
// is index_select(x, unsqueeze(i, dim=0), dim). Kernels then only ever see a
// 1-D index.
#include "passes/CanonicalizeRules.h"

namespace fuserc::canonicalize_detail {

Value *rewriteIndexSelect(FusionRewriter &rewriter, const std::vector<Value *> &operands,
                          const Attributes &attrs) {
  if (operands.size() != 2 || !operands[1]->isRankZero())
    return nullptr;
  Attributes unsqueeze;
  unsqueeze.set("dim", int64_t{0});
  Value *index = rewriter.create(OpKind::Unsqueeze, {operands[1]}, std::move(unsqueeze));
  return rewriter.create(OpKind::IndexSelect, {operands[0], index}, attrs);
}

} // namespace fuserc::canonicalize_detail
