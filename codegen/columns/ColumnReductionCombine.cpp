// Column-reduction kernels: how a tile kernel's block combines its
// threads' partials of each column (down the warp, then through shared
// memory in row order), and how a tile's last split block merges the
// splits' partials in split order (see ColumnReductionEmitter.h).
#include "codegen/columns/ColumnReductionEmitter.h"

#include "codegen/core/BlockReduce.h"
#include "codegen/core/ReductionValues.h"

#include <algorithm>

namespace fuserc {

bool ColumnReductionEmitter::hasVar() const {
  return std::any_of(k_.rows.reductions.begin(), k_.rows.reductions.end(),
                     [](const Op *op) { return op->kind() == OpKind::Var; });
}

int ColumnReductionEmitter::sharedSlots(const ColumnVariant &v) {
  return std::max(kColumnThreadsY * v.width(), kColumnBlock);
}

std::string ColumnReductionEmitter::joinThroughShared(const ColumnVariant &v,
                                                      const SharedJoin &stage,
                                                      const std::string &pad) const {
  const std::string second = std::to_string(sharedSlots(v)) + " + ";
  std::string s;
  for (size_t j = 0; j < k_.partials.size(); ++j) {
    if (isVarMean(j))
      continue;
    const std::string J = std::to_string(j), A = accType(j);
    const Op &op = reductionOf(j);
    const bool var = op.kind() == OpKind::Var;
    const std::string M = var ? std::to_string(j - 1) : J;
    auto slot = [&](const std::string &i, bool squares) {
      return "((" + A + " *)smem)[" + (squares ? second : "") + i + "]";
    };
    s += pad + "__syncthreads();\n";
    s += pad + "if (" + stage.writes + ") {\n";
    std::string write = slot(stage.at, false) + " = " + stage.value(var ? j - 1 : j) + ";";
    if (var) {
      write += " " + slot(stage.at, true) + " = " + stage.value(j) + ";";
      if (!stage.countOf)
        write += " smem_n[" + stage.at + "] = " + stage.count(j - 1) + ";";
    }
    s += pad + "  " + stage.eachSlot + "{ " + write + " }\n";
    s += pad + "}\n";
    s += pad + "__syncthreads();\n";
    s += pad + "if (" + stage.combines + ") {\n";
    const std::string &next = stage.next;
    s += pad + "  g" + M + " = " + slot("tid", false) + ";\n";
    if (var) {
      auto count = [&](const std::string &i, const std::string &index) {
        return stage.countOf ? stage.countOf(i) : "smem_n[" + index + "]";
      };
      s += pad + "  g" + J + " = " + slot("tid", true) + ";\n";
      s += pad + "  long long gn = " + count("0", "tid") + ";\n";
      s += pad + "  for (int i = 1; i < " + stage.joined + "; ++i)\n";
      s += pad + "    fuserc_welford_merge(g" + M + ", g" + J + ", gn, " + slot(next, false) +
           ", " + slot(next, true) + ", " + count("i", next) + ");\n";
    } else {
      s += pad + "  for (int i = 1; i < " + stage.joined + "; ++i)\n";
      s += pad + "    g" + J + " = " + reductionCombiner(op.kind()) + "()(g" + J + ", " +
           slot(next, false) + ");\n";
    }
    s += pad + "}\n";
  }
  return s;
}

std::string ColumnReductionEmitter::combineRowPartials(const ColumnVariant &v) {
  const std::string V = std::to_string(v.vector);
  std::string s = "    // lanes sharing a column join down the warp\n";
  s += "#pragma unroll\n";
  s += "    for (int v = 0; v < " + V + "; ++v) {\n";
  for (size_t j = 0; j < k_.partials.size(); ++j)
    if (isVarMean(j))
      s += "      long long n" + std::to_string(j) + " = wn;  // the var's count\n";
  s +=
      "      for (int off = " + std::to_string(kColumnThreadsX / 2) + "; off >= kl; off >>= 1) {\n";
  for (size_t j = 0; j < k_.partials.size(); ++j) {
    const std::string J = std::to_string(j), A = accType(j);
    const Op &op = reductionOf(j);
    const std::string down = "__shfl_down_sync(0xffffffffu, q" + J + "[v], off)";
    if (op.kind() != OpKind::Var) {
      s += "        q" + J + "[v] = " + reductionCombiner(op.kind()) + "()(q" + J + "[v], " + down +
           ");\n";
    } else if (!isVarMean(j)) {
      const std::string M = std::to_string(j - 1);
      s += "        {\n";
      s += "          const " + A + " mb = __shfl_down_sync(0xffffffffu, q" + M +
           "[v], off), qb = " + down + ";\n";
      s += "          const long long nb = __shfl_down_sync(0xffffffffu, n" + M + ", off);\n";
      s +=
          "          fuserc_welford_merge(q" + M + "[v], q" + J + "[v], n" + M + ", mb, qb, nb);\n";
      s += "        }\n";
    }
  }
  s += "      }\n    }\n";
  s += "    // the warps' partials of each column, in row order (lane tx < kl holds\n";
  s += "    // its warp's of columns tx * V to tx * V + V - 1)\n";
  s += "    const bool combines = tid < w && tile * w + tid < (I)a.cols;\n";
  for (size_t j = 0; j < k_.partials.size(); ++j)
    s += "    " + accType(j) + " g" + std::to_string(j) + " = 0;\n";
  SharedJoin warps;
  warps.writes = "tx < kl";
  warps.eachSlot = "for (int v = 0; v < " + V + "; ++v) ";
  warps.at = "ty * w + tx * " + V + " + v";
  warps.value = [](size_t j) { return "q" + std::to_string(j) + "[v]"; };
  warps.joined = std::to_string(kColumnThreadsY);
  warps.countOf = [](const std::string &i) {
    return "fuserc_col_rows(row_begin, row_end, " + i + " * (" + std::to_string(kColumnThreadsX) +
           " / kl), " + std::to_string(kColumnThreadsX) + " / kl, ys)";
  };
  s += joinThroughShared(v, warps, "    ");
  auto store = [&](const std::string &pad) {
    std::string st;
    for (size_t j = 0; j < k_.partials.size(); ++j)
      st += pad + "((" + accType(j) + " *)a.part[" + std::to_string(j) +
            "])[(I)blockIdx.y * (I)a.cols + out_col] = g" + std::to_string(j) + ";\n";
    return st;
  };
  if (v.packed) {
    // The fold synchronizes the block: outside the combining threads' branch.
    s += "    if (combines && a.splits > 1) {\n";
    s += "      const I out_col = tile * w + tid;\n" + store("      ") + "    }\n";
    // One fold for both ends of a tile, after one split or the last of
    // several (last_split is set only with several): less code to fetch.
    s += lastSplitMerges(v);
    s += "    if (a.splits == 1 || last_split) {\n" + foldPackedColumns(v, "      ") + "    }\n";
    return s;
  }
  s += "    if (combines) {\n";
  s += "      const I out_col = tile * w + tid;\n";
  s += "      if (a.splits == 1) {\n";
  s += finishColumn("out_col", "        ");
  s += "      } else {\n";
  s += store("        ");
  s += "      }\n    }\n";
  return s + lastSplitMerges(v);
}

std::string ColumnReductionEmitter::lastSplitMerges(const ColumnVariant &v) {
  const std::string B = std::to_string(kColumnBlock);
  std::string s = "    if (a.splits > 1) {\n";
  s += "      __threadfence();\n";
  s += "      __syncthreads();\n";
  s += "      if (tid == 0)\n";
  s += "        last_split = atomicAdd(&a.count[tile], 1) == (int)a.splits - 1;\n";
  s += "      __syncthreads();\n";
  s += "      if (last_split) {\n";
  s += "        __threadfence();\n";
  s += "        const int groups = " + B + " / w, mc = tid % w, mg = tid / w;\n";
  s += "        const I mcol = tile * w + mc;\n";
  s += mergeSplits("mcol", "        ");
  SharedJoin splits;
  splits.writes = "true";
  splits.at = "mg * w + mc";
  splits.value = [](size_t j) { return "h" + std::to_string(j); };
  splits.count = [](size_t mean) { return "hn" + std::to_string(mean); };
  splits.joined = "groups";
  s += joinThroughShared(v, splits, "        ");
  if (!v.packed) {
    s += "        if (combines) {\n";
    s += "          const I out_col = tile * w + tid;\n";
    s += finishColumn("out_col", "          ");
    s += "        }\n";
  }
  s += "      }\n    }\n";
  return s;
}

std::string ColumnReductionEmitter::foldPackedColumns(const ColumnVariant &v,
                                                      const std::string &pad) {
  std::string s = pad + "// a column's packed columns: places fk, fk + K, ... of a vector\n";
  const std::string V = std::to_string(v.vector);
  s += pad + "const I fcol = tile * w + tid;\n";
  s += pad + "const int fk = (int)(fcol % " + V + "), kreal = (int)a.kreal;  // a.kcols is V\n";
  s += pad + "const bool folds = combines && fk < kreal;\n";
  s += pad + "const int fp = " + V + " / kreal;  // rows per vector\n";
  SharedJoin fold;
  fold.writes = "combines";
  fold.at = "tid";
  fold.value = [](size_t j) { return "g" + std::to_string(j); };
  fold.joined = "fp";
  // Every packed column holds the same L packed rows.
  fold.countOf = [](const std::string &) { return std::string("L"); };
  fold.combines = "folds";
  fold.next = "tid + i * kreal";
  s += joinThroughShared(v, fold, pad);
  s += pad + "if (folds) {\n";
  s += pad + "  const I out_col = fcol / " + V + " * kreal + fk;\n";
  s += packedTailRows(pad + "  ");
  s += finishColumn("out_col", pad + "  ", "RL");
  s += pad + "}\n";
  return s;
}

std::string ColumnReductionEmitter::packedTailRows(const std::string &pad) {
  const std::string in = pad + "    ";
  std::string s = pad + "if (L * fp < RL) {  // rows past the last whole vector\n";
  s += decompose("out_col", kept_, "col_rest", pad + "  ");
  s += pad + "  for (I row = L * fp; row < RL; ++row) {\n";
  s += decompose("row", k_.grouping.reduced, "row_rest", in);
  const AddressedRow row = addressedRow(static_cast<int>(in.size()));
  s += row.body;
  s += accumulate(
      row.x, in, [](size_t j) { return "g" + std::to_string(j); },
      [&](size_t j) { return "fuserc_col_inverse((" + accType(j) + ")(row + 1))"; });
  s += pad + "  }\n" + pad + "}\n";
  return s;
}

std::string ColumnReductionEmitter::mergeSplits(const std::string &col,
                                                const std::string &pad) const {
  auto part = [&](size_t j, const std::string &split) {
    return "__ldcg(&((const " + accType(j) + " *)a.part[" + std::to_string(j) + "])[" + split +
           " * (I)a.cols + " + col + "])";
  };
  std::string s;
  for (size_t j = 0; j < k_.partials.size(); ++j) {
    const Op &op = reductionOf(j);
    const DType acc = k_.partials[j].acc;
    s += pad + accType(j) + " h" + std::to_string(j) + " = " +
         (op.kind() == OpKind::Var ? reductionIdentity(OpKind::Sum, acc)
                                   : reductionIdentity(op.kind(), acc)) +
         ";\n";
  }
  for (size_t j = 0; j < k_.partials.size(); ++j)
    if (isVarMean(j))
      s += pad + "long long hn" + std::to_string(j) + " = 0;  // the var's count\n";
  s += pad + "if (" + col + " < (I)a.cols) {\n";
  // Unrolled so that several splits' loads are in flight.
  s += "#pragma unroll 8\n";
  s += pad + "  for (I s = mg; s < (I)a.splits; s += groups) {\n";
  for (size_t j = 0; j < k_.partials.size(); ++j) {
    const std::string J = std::to_string(j);
    const Op &op = reductionOf(j);
    if (op.kind() != OpKind::Var)
      s += pad + "    h" + J + " = " + reductionCombiner(op.kind()) + "()(h" + J + ", " +
           part(j, "s") + ");\n";
    else if (!isVarMean(j)) {
      const std::string M = std::to_string(j - 1);
      s += pad + "    fuserc_welford_merge(h" + M + ", h" + J + ", hn" + M + ", " +
           part(j - 1, "s") + ", " + part(j, "s") + ", fuserc_col_split_rows(L, (I)a.chunk, s));\n";
    }
  }
  s += pad + "  }\n";
  s += pad + "}\n";
  return s;
}

} // namespace fuserc
