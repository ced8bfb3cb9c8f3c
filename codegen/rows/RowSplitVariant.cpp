// Row-reduction kernels, the split variant (s512, RowReductionPlan.h): which
// segments it applies to, and its end of a row, where each block leaves its
// partials in scratch and the row's last block merges them. Its streaming
// is the cached variant's over a slice of the row (RowCachedVariant.cpp).
#include "codegen/core/BlockReduce.h"
#include "codegen/core/CudaTypes.h"
#include "codegen/rows/RowReductionEmitter.h"

#include <set>

namespace fuserc {

bool RowReductionEmitter::splitApplies() const {
  if (!k_.contiguous())
    return false;
  for (const RowTensor &t : k_.tensors)
    if (t.perElement())
      return false;
  for (const Op *op : k_.rows.reductions) {
    const OpKind kind = op->kind();
    if (kind != OpKind::Sum && kind != OpKind::Mean && kind != OpKind::Prod &&
        kind != OpKind::Max && kind != OpKind::Min && kind != OpKind::Var)
      return false;
    // One phase: its input is computed from no reduction's result.
    if (!everyLeaf(*op->operand(0), [&](const Value &leaf) { return !isReductionResult(leaf); }))
      return false;
  }
  return true;
}

namespace {

// The shared slots fuserc_welford_block joins an accumulator `A`'s warps in
// (declared by splitAccumulators).
std::string welfordSlots(const std::string &A) { return "wf_" + A + "_m, wf_" + A + "_q, wf_n"; }

} // namespace

std::string RowReductionEmitter::splitAccumulators(const std::string &pad) const {
  std::string s;
  std::set<std::string> slots;
  for (size_t i = 0; i < k_.rows.reductions.size(); ++i) {
    const Op &op = *k_.rows.reductions[i];
    const DType acc = reductionAccumulator(op.result()->dtype());
    const std::string A = cudaComputeType(acc), I = std::to_string(i);
    s += pad + "// phase " + I + ": " + cx_.analysis.describe(op) + "\n";
    if (op.kind() != OpKind::Var) {
      s += pad + A + " p" + I + " = " + reductionIdentity(op.kind(), acc) + ";\n";
      continue;
    }
    // A var keeps the thread's mean, sum of squared deviations and count.
    const std::string zero = reductionIdentity(OpKind::Sum, acc);
    s += pad + A + " p" + I + " = " + zero + ", q" + I + " = " + zero + ";\n";
    s += pad + "int n" + I + " = 0;\n";
    slots.insert(A);
  }
  const std::string NW = std::to_string(kRowSplitVariant.threads / 32);
  for (const std::string &A : slots)
    s += pad + "__shared__ " + A + " wf_" + A + "_m[" + NW + "], wf_" + A + "_q[" + NW + "];\n";
  if (!slots.empty())
    s += pad + "__shared__ int wf_n[" + NW + "];\n";
  return s;
}

std::string RowReductionEmitter::splitVarVector(const Op &op, size_t i,
                                                const std::vector<std::string> &xs, int checkedJ,
                                                const std::string &pad) const {
  const DType acc = reductionAccumulator(op.result()->dtype());
  const std::string A = cudaComputeType(acc), I = std::to_string(i);
  const int width = static_cast<int>(xs.size());
  auto ok = [&](int e) {
    return checkedJ < 0 ? std::string() : "if (" + cachedOk(checkedJ, e, width) + ") ";
  };
  // The vector's values: their mean and squared deviations from it, joined
  // to the thread's (one division per vector, not per element).
  std::string s = pad + "{\n";
  s += pad + "  " + A + " vs = " + reductionIdentity(OpKind::Sum, acc) + ";\n";
  s += pad + "  int vn = " + (checkedJ < 0 ? std::to_string(width) : "0") + ";\n";
  for (int e = 0; e < width; ++e)
    s += pad + "  " + ok(e) + "{ vs = " + roundedAdd(acc, "vs", xs[e]) + ";" +
         (checkedJ < 0 ? "" : " ++vn;") + " }\n";
  s += pad + "  if (vn > 0) {\n";
  s += pad + "    const " + A + " vm = vs / (" + A + ")vn;\n";
  s += pad + "    " + A + " vq = " + reductionIdentity(OpKind::Sum, acc) + ";\n";
  for (int e = 0; e < width; ++e)
    s += pad + "    " + ok(e) + "{ const " + A + " d = " + roundedSub(acc, xs[e], "vm") +
         "; vq += d * d; }\n";
  s += pad + "    fuserc_welford_join(p" + I + ", q" + I + ", n" + I + ", vm, vq, vn);\n";
  s += pad + "  }\n" + pad + "}\n";
  return s;
}

std::string RowReductionEmitter::splitCombine(int threads, const std::string &pad) const {
  std::string s;
  const std::string NW = std::to_string(threads / 32);
  for (size_t i = 0; i < k_.rows.reductions.size(); ++i) {
    const Op &op = *k_.rows.reductions[i];
    const DType acc = reductionAccumulator(op.result()->dtype());
    const std::string I = std::to_string(i), p = "p" + I, A = cudaComputeType(acc);
    if (op.kind() == OpKind::Var)
      s += pad + "fuserc_welford_block<" + NW + ">(" + p + ", q" + I + ", n" + I + ", " +
           welfordSlots(A) + ");\n";
    else
      s += pad + p + " = " + combineAcross(threads, p, acc, reductionCombiner(op.kind())) + ";\n";
  }
  return s;
}

std::string RowReductionEmitter::splitMerge(int threads, int vector, const std::string &pad) {
  const std::string in = pad + "  ";
  const std::string T = std::to_string(kRowSplitTargetBlocks);
  std::string s = pad + "// this block's partials to scratch; the row's last block to finish\n";
  s += pad + "// merges the row's partials in split order\n";
  s += pad + "if (tid == 0) {\n";
  for (size_t i = 0; i < k_.rows.reductions.size(); ++i) {
    const Op &op = *k_.rows.reductions[i];
    const std::string A = cudaComputeType(reductionAccumulator(op.result()->dtype()));
    const std::string I = std::to_string(i), at = "[row * (I)ctas + (I)cta]";
    s += in + "((" + A + " *)a.part[" + I + "])" + at + " = p" + I + ";\n";
    if (op.kind() == OpKind::Var) // a var's sums of squared deviations after its means
      s += in + "((" + A + " *)a.part[" + I + "] + " + T + ")" + at + " = q" + I + ";\n";
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
    auto part = [&](const std::string &offset) {
      return "__ldcg(&((const " + A + " *)a.part[" + I + "] + " + offset +
             ")[row * (I)ctas + (I)tid])";
    };
    if (op.kind() == OpKind::Var) {
      // Split tid's count: the row's elements among its positions.
      const std::string zero = reductionIdentity(OpKind::Sum, acc);
      const std::string from = g + "_from", to = g + "_to";
      s += in + "I " + from + " = (I)tid * slice;\n";
      s += in + "const I " + to + " = span < " + from + " + slice ? span : " + from + " + slice;\n";
      if (vector > 1)
        s += in + from + " = " + from + " > (I)head ? " + from + " : (I)head;\n";
      s += in + "int " + g + "_n = tid < (int)ctas && " + to + " > " + from + " ? (int)(" + to +
           " - " + from + ") : 0;\n";
      s += in + A + " " + g + " = " + g + "_n ? " + part("0") + " : " + zero + ";\n";
      s += in + A + " " + g + "_q = " + g + "_n ? " + part(T) + " : " + zero + ";\n";
      s += in + "fuserc_welford_block<" + std::to_string(threads / 32) + ">(" + g + ", " + g +
           "_q, " + g + "_n, " + welfordSlots(A) + ");\n";
      s += in + finish(op, i, varianceOf(op, g + "_q", A));
      continue;
    }
    s += in + A + " " + g + " = tid < (int)ctas ? " + part("0") + " : " +
         reductionIdentity(op.kind(), acc) + ";\n";
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
