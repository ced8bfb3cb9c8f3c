// Row-reduction kernels, the split variant (s512, RowReductionPlan.h): which
// segments it applies to, and its end of a row, where each block leaves its
// partials in scratch and the row's last block merges them. Its streaming
// is the cached variant's over a slice of the row (RowCachedVariant.cpp).
#include "codegen/core/BlockReduce.h"
#include "codegen/core/CudaTypes.h"
#include "codegen/rows/RowReductionEmitter.h"

namespace fuserc {

bool RowReductionEmitter::splitApplies() const {
  if (!k_.contiguous())
    return false;
  for (const RowTensor &t : k_.tensors)
    if (t.written && !t.perRow)
      return false;
  for (const Op *op : k_.rows.reductions) {
    const OpKind kind = op->kind();
    if (kind != OpKind::Sum && kind != OpKind::Mean && kind != OpKind::Prod &&
        kind != OpKind::Max && kind != OpKind::Min)
      return false;
    // One phase: its input is computed from no reduction's result.
    if (!everyLeaf(*op->operand(0), [&](const Value &leaf) { return !isReductionResult(leaf); }))
      return false;
  }
  return true;
}

std::string RowReductionEmitter::splitMerge(int threads, const std::string &pad) {
  const std::string in = pad + "  ";
  std::string s = pad + "// this block's partials to scratch; the row's last block to finish\n";
  s += pad + "// merges the row's partials in split order\n";
  s += pad + "if (tid == 0) {\n";
  for (size_t i = 0; i < k_.rows.reductions.size(); ++i) {
    const std::string A =
        cudaComputeType(reductionAccumulator(k_.rows.reductions[i]->result()->dtype()));
    s += in + "((" + A + " *)a.part[" + std::to_string(i) + "])[row * (I)ctas + (I)cta] = p" +
         std::to_string(i) + ";\n";
  }
  s += pad + "}\n";
  s += pad + "__threadfence();\n" + pad + "__syncthreads();\n";
  s += pad + "if (tid == 0)\n";
  s += pad + "  last_split = atomicAdd(&a.count[row], 1) == (int)ctas - 1;\n";
  s += pad + "__syncthreads();\n";
  s += pad + "if (last_split) {\n";
  s += in + "__threadfence();\n";
  for (size_t i = 0; i < k_.rows.reductions.size(); ++i) {
    const Op &op = *k_.rows.reductions[i];
    const DType acc = reductionAccumulator(op.result()->dtype());
    const std::string A = cudaComputeType(acc), I = std::to_string(i), g = "g" + I;
    // Read past L1 (__ldcg), which may hold stale lines.
    s += in + A + " " + g + " = tid < (int)ctas ? __ldcg(&((const " + A + " *)a.part[" + I +
         "])[row * (I)ctas + (I)tid]) : " + reductionIdentity(op.kind(), acc) + ";\n";
    s += in + g + " = " + combineAcross(threads, g, acc, reductionCombiner(op.kind())) + ";\n";
    s += in + finish(op, i, op.kind() == OpKind::Mean ? g + " / (" + A + ")L" : g);
  }
  ValueEmitter rowEmitter = newEmitter();
  size_t taken = 0;
  s += perRowStores(rowEmitter, taken, "tid == 0", in);
  s += pad + "}\n";
  return s;
}

} // namespace fuserc
