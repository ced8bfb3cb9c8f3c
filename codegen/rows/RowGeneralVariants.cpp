// Row-reduction kernels, general variants: every element is addressed
// through its tensor's strides, so any layout and any read (permuted,
// shifted, gathered) works. The host runs them when a contiguous variant
// does not apply (see RowReductionEmitter.h).
#include "codegen/core/BlockReduce.h"
#include "codegen/core/CudaTypes.h"
#include "codegen/rows/RowReductionEmitter.h"

namespace fuserc {

std::string RowReductionEmitter::generalKernel(const RowVariant &v) {
  registers_.clear();
  const std::string B = std::to_string(v.block()), T = std::to_string(v.threads);
  std::string s = "// segment " + std::to_string(cx_.segment.id) + " (" +
                  std::string(cx_.segment.scheduler->name()) + "), general variant " + v.suffix +
                  "\n";
  s += "extern \"C\" __global__ void __launch_bounds__(" + B + ") " + rowKernelName(k_, v) +
       "(const " + k_.base + "_args a) {\n";
  s += "  typedef long long I;\n";
  s += "  const I L = (I)a.len;\n";
  s += sharedScratch(v.threads);
  s += "  const int tid = (int)threadIdx.x % " + T + ";\n";
  if (k_.columnPartials()) {
    if (v.looped())
      s += loopedColumnStart(v);
    else
      s += columnAccumulators(v.items, 1, "  ");
  }
  s += "  for (I row = (I)blockIdx.x * " + std::to_string(v.rowsPerBlock) + " + (I)threadIdx.x / " +
       T + "; row < (I)a.rows; row += (I)gridDim.x * " + std::to_string(v.rowsPerBlock) + ") {\n";
  s += decompose("row", k_.keptDims, "", "row_rest", "    ");
  s += v.looped() ? generalLoopedBody(v) : generalPersistentBody(v);
  s += "  }\n";
  // Every thread reaches the flush: its row slot's accumulators joined
  // through shared memory.
  if (k_.columnPartials() && !v.looped())
    s += flushColumns(v.threads, v.rowsPerBlock, v.items, 1, "  ");
  s += "}\n\n";
  return s;
}

std::string RowReductionEmitter::generalPersistentBody(const RowVariant &v) {
  const std::string pad = "    ";
  std::string s;
  std::vector<Coords> items;
  for (int j = 0; j < v.items; ++j) {
    const std::string J = std::to_string(j), tag = "_" + J;
    s += pad + "const I k" + J + " = (I)tid + " + std::to_string(j * v.threads) + ";\n";
    s += pad + "const bool ok" + J + " = k" + J + " < L;\n";
    s += decompose("(ok" + J + " ? k" + J + " : L - 1)", k_.reducedDims, tag, "k_rest" + tag, pad);
    items.push_back(domainCoords(tag));
  }
  ValueEmitter emitter = newEmitter();
  size_t taken = 0;
  for (size_t i = 0; i < k_.rows.reductions.size(); ++i) {
    const Op &op = *k_.rows.reductions[i];
    const std::string I = std::to_string(i);
    const DType acc = reductionAccumulator(op.result()->dtype());
    const std::string A = cudaComputeType(acc);
    s += pad + "// phase " + I + ": " + cx_.analysis.describe(op) + "\n";
    std::vector<std::string> values;
    for (const Coords &at : items)
      values.push_back(toAccumulator(op, emitter.emit(*op.operand(0), at)));
    s += take(emitter, taken, 4);
    const std::string p = "p" + I;
    s += pad + A + " " + p + " = " + reductionIdentity(op.kind(), acc) + ";\n";
    for (int j = 0; j < v.items; ++j)
      s += pad + "if (ok" + std::to_string(j) + ") " + p + " = " +
           accumulated(op, i, values[static_cast<size_t>(j)]) + ";\n";
    std::string squares;
    for (int j = 0; j < v.items; ++j)
      squares += pad + "if (ok" + std::to_string(j) + ") { const " + A +
                 " d = " + deviation(op, i, values[static_cast<size_t>(j)]) + "; q" + I +
                 " += d * d; }\n";
    s += endPhase(op, i, v.threads, squares, pad);
  }
  // Outputs: per element at every item, per row once.
  s += pad + "// outputs\n";
  std::vector<std::string> stores;
  for (size_t t = 0; t < k_.tensors.size(); ++t) {
    if (!k_.tensors[t].written || k_.tensors[t].perColumn)
      continue;
    const std::vector<Extent> &shape = k_.tensors[t].value->shape();
    if (k_.tensors[t].perRow) {
      Coords at = valueCoords(shape, domainCoords(""), true);
      stores.push_back("if (tid == 0) " + storeStatement(t, at, storedValue(emitter, t, at)));
      continue;
    }
    for (int j = 0; j < v.items; ++j) {
      Coords at = valueCoords(shape, items[static_cast<size_t>(j)], false);
      stores.push_back("if (ok" + std::to_string(j) + ") " +
                       storeStatement(t, at, storedValue(emitter, t, at)));
    }
  }
  // Column partials: each item's value joined into its accumulator.
  for (size_t c = 0; c < k_.rows.columns.size(); ++c) {
    const Op &op = *k_.rows.columns[c];
    const std::string C = std::to_string(c);
    for (int j = 0; j < v.items; ++j) {
      const std::string x = toAccumulator(op, emitter.emit(*op.operand(0), items[size_t(j)]));
      const std::string slot = "cp" + C + "[" + std::to_string(j) + "][0]";
      stores.push_back("if (ok" + std::to_string(j) + ") " + slot + " = " +
                       reductionCombiner(op.kind()) + "()(" + slot + ", " + x + ");");
    }
  }
  s += take(emitter, taken, 4);
  for (const std::string &st : stores)
    s += pad + st + "\n";
  return s;
}

// One block-stride loop over the row: `body(emitter, coords)` returns the
// statements after the emitted ones (a fresh emitter per loop body).
template <typename Body>
std::string RowReductionEmitter::generalRowLoop(const RowVariant &v, Body body) {
  const std::string pad = "      ";
  std::string s = "    for (I k = (I)tid; k < L; k += " + std::to_string(v.threads) + ") {\n";
  s += decompose("k", k_.reducedDims, "", "k_rest", pad);
  ValueEmitter emitter = newEmitter();
  std::string tail = body(emitter, domainCoords(""));
  s += emitter.body(6);
  s += tail;
  s += "    }\n";
  return s;
}

std::string RowReductionEmitter::generalLoopedBody(const RowVariant &v) {
  const std::string pad = "    ";
  std::string s;
  for (size_t i = 0; i < k_.rows.reductions.size(); ++i) {
    const Op &op = *k_.rows.reductions[i];
    const std::string I = std::to_string(i);
    const DType acc = reductionAccumulator(op.result()->dtype());
    const std::string A = cudaComputeType(acc);
    const std::string p = "p" + I;
    s += pad + "// phase " + I + ": " + cx_.analysis.describe(op) + "\n";
    s += pad + A + " " + p + " = " + reductionIdentity(op.kind(), acc) + ";\n";
    s += generalRowLoop(v, [&](ValueEmitter &e, const Coords &at) {
      return pad + "  " + p + " = " +
             accumulated(op, i, toAccumulator(op, e.emit(*op.operand(0), at))) + ";\n";
    });
    std::string squares;
    if (op.kind() == OpKind::Var)
      squares = generalRowLoop(v, [&](ValueEmitter &e, const Coords &at) {
        std::string x = toAccumulator(op, e.emit(*op.operand(0), at));
        return pad + "  {\n" + pad + "    const " + A + " d = " + deviation(op, i, x) + ";\n" +
               pad + "    q" + I + " += d * d;\n" + pad + "  }\n";
      });
    s += endPhase(op, i, v.threads, squares, pad);
  }
  return s + generalOutputs(v);
}

// The looped variant's outputs: per-element ones in one more loop over the
// row, per-row ones by the row's first thread.
std::string RowReductionEmitter::generalOutputs(const RowVariant &v) {
  const std::string pad = "    ";
  std::string s = pad + "// outputs\n";
  bool perElement = k_.columnPartials(), perRow = false;
  for (const RowTensor &t : k_.tensors) {
    perElement = perElement || (t.perElement());
    perRow = perRow || (t.written && t.perRow);
  }
  if (perElement)
    s += generalRowLoop(v, [&](ValueEmitter &e, const Coords &at) {
      std::vector<std::string> stores;
      for (size_t t = 0; t < k_.tensors.size(); ++t) {
        if (!k_.tensors[t].perElement())
          continue;
        Coords c = valueCoords(k_.tensors[t].value->shape(), at, false);
        stores.push_back(storeStatement(t, c, storedValue(e, t, c)));
      }
      // Column partials: straight into this block's partial row, whose
      // position k only this thread touches.
      for (size_t c = 0; c < k_.rows.columns.size(); ++c) {
        const Op &op = *k_.rows.columns[c];
        const std::string A = cudaComputeType(columnAccumulator(c));
        const std::string at_k =
            "((" + A + " *)a.cpart[" + std::to_string(c) + "])[(I)blockIdx.x * L + k]";
        stores.push_back(at_k + " = " + reductionCombiner(op.kind()) + "()(" + at_k + ", " +
                         toAccumulator(op, e.emit(*op.operand(0), at)) + ");");
      }
      std::string tail;
      for (const std::string &st : stores)
        tail += pad + "  " + st + "\n";
      return tail;
    });
  if (perRow) {
    ValueEmitter e = newEmitter();
    std::vector<std::string> stores;
    for (size_t t = 0; t < k_.tensors.size(); ++t) {
      if (!k_.tensors[t].written || !k_.tensors[t].perRow)
        continue;
      Coords c = valueCoords(k_.tensors[t].value->shape(), domainCoords(""), true);
      stores.push_back(storeStatement(t, c, storedValue(e, t, c)));
    }
    s += pad + "if (tid == 0) {\n" + e.body(6);
    for (const std::string &st : stores)
      s += pad + "  " + st + "\n";
    s += pad + "}\n";
  }
  return s;
}

} // namespace fuserc
