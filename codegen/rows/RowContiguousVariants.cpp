// Row-reduction kernels, persistent contiguous variants: every streamed
// tensor holds each row contiguously (checked at launch), so a thread reads
// `vector` consecutive elements with one load and the row's elements are
// plain offsets from the row's start; the vectors stay in registers across
// phases. (Longer rows: RowCachedVariant.cpp.)
//
// Item (j, v) is element v of a thread's vector j. Reads of streamed
// tensors at an item's own coordinates come from the loaded registers
// (t<t>_l[j][v], or t<t>_r for one element per row); any other read
// (permuted, shifted, gathered) loads through the tensor's strides.
#include "codegen/core/BlockReduce.h"
#include "codegen/core/CudaTypes.h"
#include "codegen/rows/RowReductionEmitter.h"

#include <algorithm>

namespace fuserc {
std::string RowReductionEmitter::contiguousKernel(const RowFastVariant &v, int vector,
                                                  bool headed) {
  registers_.clear();
  const std::string B = std::to_string(v.block()), T = std::to_string(v.threads),
                    R = std::to_string(v.rowsPerBlock);
  std::string s = "// segment " + std::to_string(cx_.segment.id) + " (" +
                  std::string(cx_.segment.scheduler->name()) + "), contiguous variant " + v.suffix +
                  ", vectors of " + std::to_string(vector) +
                  (headed ? " from the boundary at or before the row's start (headed rows)" : "") +
                  "\n";
  headed_ = headed;
  const int minBlocks = k_.minBlocksPerSM(v);
  s += "extern \"C\" __global__ void __launch_bounds__(" + B + ", " + std::to_string(minBlocks) +
       ") " + rowKernelName(k_, v, vector, headed) + "(const " + k_.base + "_args a) {\n";
  s += "  typedef long long I;\n";
  s += "  const I L = (I)a.len;\n";
  s += sharedScratch(v.threads);
  s += "  const int tid = (int)threadIdx.x % " + T + ";\n";
  if (headed_)
    s += tensorRanges("  ");
  if (k_.columnPartials())
    s += columnAccumulators(v.vectors(vector), vector, "  ");
  const std::string body = contiguousPersistentBody(v, vector);
  const std::string step = "(I)" + std::to_string(v.threads * vector);
  if (prefetchesRows())
    s += prefetchBuffers(v.vectors(vector), vector, "  ") +
         prefetchRow("(I)blockIdx.x * " + R + " + (I)(threadIdx.x / " + T + ")", v.vectors(vector),
                     vector, step, "  ");
  // Every thread of a warp runs the same number of iterations, so the
  // shuffles of a group always find their partners.
  s += "  for (I base = (I)blockIdx.x * " + R + "; base < (I)a.rows; base += (I)gridDim.x * " + R +
       ") {\n";
  s += rowHead("base + (I)(threadIdx.x / " + T + ")", "    ");
  if (headed_)
    s += rowHeadPositions(vector, "    ");
  s += body;
  s += "  }\n";
  if (k_.columnPartials())
    s += flushColumns(v.threads, v.rowsPerBlock, v.vectors(vector), vector, "  ");
  s += "}\n\n";
  headed_ = false;
  return s;
}

std::string RowReductionEmitter::tensorRanges(const std::string &pad) const {
  std::string s;
  for (size_t t = 0; t < k_.tensors.size(); ++t) {
    if (!k_.streams[t] || !k_.streams[t]->alongRow || k_.tensors[t].written)
      continue;
    const std::string ts = std::to_string(t);
    std::string lo = "0", hi = "1";
    for (size_t d = 0; d < k_.rows.domain.size(); ++d)
      if (const int dim = k_.streams[t]->map[d]; dim >= 0) {
        const std::string reach = "(a.size[" + std::to_string(d) + "] - 1) * a.st[" + ts + "][" +
                                  std::to_string(dim) + "]";
        lo += " + (" + reach + " < 0 ? " + reach + " : 0)";
        hi += " + (" + reach + " > 0 ? " + reach + " : 0)";
      }
    s += pad + "const I lo" + ts + " = " + lo + ", hi" + ts + " = " + hi + ";  // " +
         k_.tensors[t].what + "'s elements, from its pointer\n";
  }
  return s;
}

std::string RowReductionEmitter::rowHeadPositions(int vector, const std::string &pad) const {
  for (size_t t = 0; t < k_.tensors.size(); ++t)
    if (k_.streams[t] && k_.streams[t]->alongRow && k_.streams[t]->perRow(k_.keptDims)) {
      const std::string W = std::to_string(vector);
      return pad + "const I head = (o" + std::to_string(t) + " % " + W + " + " + W + ") % " + W +
             ";  // the row's start past a vector boundary, in every streamed tensor its rows "
             "differ in\n";
    }
  return pad + "const I head = 0;\n";
}

std::string RowReductionEmitter::inRow(int j, int e) {
  return "(unsigned long long)(k" + std::to_string(j) + " + " + std::to_string(e) +
         ") < (unsigned long long)L";
}

std::string RowReductionEmitter::rowStarts(const std::string &pad) const {
  std::string s;
  for (size_t t = 0; t < k_.tensors.size(); ++t) {
    if (!k_.streams[t])
      continue;
    const std::string ts = std::to_string(t);
    std::string offset = "0";
    for (size_t d : k_.keptDims)
      if (int dim = k_.streams[t]->map[d]; dim >= 0)
        offset +=
            " + c" + std::to_string(d) + " * (I)a.st[" + ts + "][" + std::to_string(dim) + "]";
    s += pad + "const I o" + ts + " = " + offset + ";  // row start, " + k_.tensors[t].what + "\n";
    if (!k_.streams[t]->alongRow && !k_.tensors[t].written) {
      const std::string Ts = cudaStorageType(k_.tensors[t].storage);
      s += pad + "const " + Ts + " t" + ts + "_r = ((const " + Ts + " *)a.ptr[" + ts + "])[o" + ts +
           "];\n";
    }
  }
  return s;
}

std::string RowReductionEmitter::vectorItems(int count, int vector, const std::string &first,
                                             const std::string &step,
                                             const std::string &pad) const {
  std::string s;
  for (int j = 0; j < count; ++j) {
    const std::string J = std::to_string(j);
    s +=
        pad + "const I k" + J + " = " + first + " + (I)" + std::to_string(j) + " * " + step + ";\n";
    if (headed_) {
      // Whole in the row, and partly (the row's ends).
      s += pad + "const bool ok" + J + " = k" + J + " >= 0 && k" + J + " + " +
           std::to_string(vector) + " <= L;\n";
      s += pad + "const bool any" + J + " = k" + J + " > -" + std::to_string(vector) + " && k" + J +
           " < L;\n";
      for (int e = 0; e < vector; ++e) {
        const std::string at = "k" + J + " + " + std::to_string(e);
        s += positionCoords("(" + at + " < 0 ? (I)0 : " + at + " < L ? " + at + " : L - 1)",
                            "_" + J + "_" + std::to_string(e), pad);
      }
      continue;
    }
    s += pad + "const bool ok" + J + " = k" + J + " < L;\n";
    if (lanesShareCoords(vector)) {
      // Rows start aligned and L is a multiple of the vector: a clamped
      // vector starts at L - vector.
      s += sharedLaneCoords(J, "(ok" + J + " ? k" + J + " : L - " + std::to_string(vector) + ")",
                            vector, pad);
      continue;
    }
    for (int e = 0; e < vector; ++e)
      s += positionCoords("(ok" + J + " ? k" + J + " + " + std::to_string(e) + " : L - 1)",
                          "_" + J + "_" + std::to_string(e), pad);
  }
  return s;
}

std::string RowReductionEmitter::rowHead(const std::string &rowAt, const std::string &pad) const {
  std::string s = pad + "const I row_at = " + rowAt + ";\n";
  s += pad + "const bool row_ok = row_at < (I)a.rows;\n";
  s += pad + "const I row = row_ok ? row_at : (I)a.rows - 1;\n";
  s += decompose("row", k_.keptDims, "", "row_rest", pad);
  return s + rowStarts(pad);
}

std::string RowReductionEmitter::vectorBuffer(size_t t, const std::string &name, int count,
                                              int vector, const std::string &what,
                                              const std::string &pad) const {
  return pad + "__align__(16) " + cudaStorageType(k_.tensors[t].storage) + " t" +
         std::to_string(t) + name + "[" + std::to_string(count) + "][" + std::to_string(vector) +
         "];  // " + what + "\n";
}

// Plain loads and stores: evict-first hints (__ldcs on per-row data,
// __stcs on outputs) measured slower (bench/README.md).
std::string RowReductionEmitter::vectorLoad(size_t t, const std::string &name, int j, int vector,
                                            const std::string &pad) const {
  const std::string ts = std::to_string(t), J = std::to_string(j),
                    Ts = cudaStorageType(k_.tensors[t].storage),
                    W = bytesType(vector, k_.tensors[t].storage),
                    to = "*(" + W + " *)t" + ts + name + "[" + J + "]", at = "o" + ts + " + k" + J,
                    from =
                        "*(const " + W + " *)((const " + Ts + " *)a.ptr[" + ts + "] + " + at + ")";
  if (!headed_)
    return pad + to + " = ok" + J + " ? " + from + " : " + W + "{};\n";
  // Element by element, the positions outside the row zero. (E(): a zero
  // of any storage type, "long long" too.)
  std::string elements = pad + "  typedef " + Ts + " E;\n";
  for (int e = 0; e < vector; ++e)
    elements += pad + "  t" + ts + name + "[" + J + "][" + std::to_string(e) +
                "] = " + inRow(j, e) + " ? ((const E *)a.ptr[" + ts + "])[" + at + " + " +
                std::to_string(e) + "] : E();\n";
  // A tensor the same in every row starts its row on a boundary: vectors
  // where the row does too, else elements (from L1).
  if (!k_.streams[t]->perRow(k_.keptDims))
    return pad + "if (head == 0 && ok" + J + ") " + to + " = " + from + ";\n" + pad + "else {\n" +
           elements + pad + "}\n";
  // A partial vector loads whole where it lies inside the tensor's
  // elements, its positions outside the row then zeroed (so that they hold
  // what a position past the row holds); else element by element.
  std::string s = pad + "if (ok" + J + ") " + to + " = " + from + ";\n";
  s += pad + "else if (!any" + J + ") " + to + " = " + W + "{};\n";
  s += pad + "else if (" + at + " >= lo" + ts + " && " + at + " + " + std::to_string(vector) +
       " <= hi" + ts + ") {\n";
  s += pad + "  typedef " + Ts + " E;\n" + pad + "  " + to + " = " + from + ";\n";
  for (int e = 0; e < vector; ++e)
    s += pad + "  if (!(" + inRow(j, e) + ")) t" + ts + name + "[" + J + "][" + std::to_string(e) +
         "] = E();\n";
  return s + pad + "} else {\n" + elements + pad + "}\n";
}

std::string RowReductionEmitter::loadVectors(Vectors vectors, int vector, const std::string &pad,
                                             const std::set<size_t> &skip) const {
  std::string s;
  for (size_t t : used_) {
    if (!k_.streams[t]->alongRow || k_.tensors[t].written || skip.count(t))
      continue;
    if (vectors.first == 0)
      s += vectorBuffer(t, "_l", vectors.total, vector, k_.tensors[t].what, pad);
    for (int j = vectors.first; j < vectors.last; ++j)
      s += vectorLoad(t, "_l", j, vector, pad);
  }
  return s;
}

std::set<size_t> RowReductionEmitter::prefetched() const {
  std::set<size_t> ahead;
  for (size_t t : used_)
    if (k_.streams[t]->alongRow && k_.streams[t]->cached && !k_.tensors[t].written)
      ahead.insert(t);
  return ahead;
}

std::string RowReductionEmitter::prefetchBuffers(int count, int vector,
                                                 const std::string &pad) const {
  std::string s;
  for (size_t t : prefetched())
    s += vectorBuffer(t, "_n", count, vector, "the next row of " + k_.tensors[t].what, pad);
  return s;
}

std::string RowReductionEmitter::prefetchRow(const std::string &rowAt, int count, int vector,
                                             const std::string &itemsStep,
                                             const std::string &pad) const {
  const std::string in = pad + "  ";
  std::string s = pad + "{  // the next row's inputs, in flight while this one reduces\n";
  s += rowHead(rowAt, in);
  for (int j = 0; j < count; ++j) {
    const std::string J = std::to_string(j);
    s += in + "const I k" + J + " = (I)tid * " + std::to_string(vector) + " + (I)" + J + " * " +
         itemsStep + ";\n";
    s += in + "const bool ok" + J + " = k" + J + " < L && row_ok;\n";
  }
  for (size_t t : prefetched())
    for (int j = 0; j < count; ++j)
      s += vectorLoad(t, "_n", j, vector, in);
  return s + pad + "}\n";
}

std::string RowReductionEmitter::takePrefetched(int count, int vector,
                                                const std::string &pad) const {
  const std::set<size_t> ahead = prefetched();
  std::string s = loadVectors({0, count, count}, vector, pad, ahead);
  for (size_t t : ahead) {
    const std::string ts = std::to_string(t), W = bytesType(vector, k_.tensors[t].storage);
    s += vectorBuffer(t, "_l", count, vector, k_.tensors[t].what, pad);
    for (int j = 0; j < count; ++j)
      s += pad + "*(" + W + " *)t" + ts + "_l[" + std::to_string(j) + "] = *(const " + W + " *)t" +
           ts + "_n[" + std::to_string(j) + "];\n";
  }
  return s;
}

std::string RowReductionEmitter::storeVectors(Vectors vectors, int vector,
                                              const std::string &pad) const {
  std::string s;
  for (size_t t = 0; t < k_.tensors.size(); ++t) {
    if (!k_.tensors[t].perElement())
      continue;
    const std::string ts = std::to_string(t), Ts = cudaStorageType(k_.tensors[t].storage),
                      W = bytesType(vector, k_.tensors[t].storage);
    for (int j = vectors.first; j < vectors.last; ++j) {
      const std::string J = std::to_string(j);
      s += pad + "if (ok" + J + " && row_ok) *(" + W + " *)((" + Ts + " *)a.ptr[" + ts + "] + o" +
           ts + " + k" + J + ") = *(const " + W + " *)t" + ts + "_l[" + J + "];\n";
      if (!headed_)
        continue;
      // A partial vector element by element: its other positions are
      // another row's.
      s += pad + "else if (any" + J + " && row_ok) {\n";
      for (int e = 0; e < vector; ++e)
        s += pad + "  if (" + inRow(j, e) + ") ((" + Ts + " *)a.ptr[" + ts + "])[o" + ts + " + k" +
             J + " + " + std::to_string(e) + "] = t" + ts + "_l[" + J + "][" + std::to_string(e) +
             "];\n";
      s += pad + "}\n";
    }
  }
  return s;
}

bool RowReductionEmitter::storesAfterValues(const RowFastVariant &v, int vector,
                                            const std::set<size_t> &rowReads) const {
  // At vectors of 1 every element also keeps its own 8-byte position.
  int64_t bytes = vector == 1 ? 8 : 0;
  for (size_t t = 0; t < k_.tensors.size(); ++t) {
    const bool rowRead =
        rowReads.count(t) && k_.streams[t] && k_.streams[t]->alongRow && !k_.tensors[t].written;
    if (rowRead || k_.tensors[t].perElement())
      bytes += dtypeBytes(k_.tensors[t].storage);
  }
  const int registers =
      std::min(kRowMaxRegisters, kRowRegistersPerSM / (k_.minBlocksPerSM(v) * v.block()));
  return bytes * v.elements * 2 <= static_cast<int64_t>(registers) * 4;
}

std::string RowReductionEmitter::contiguousPersistentBody(const RowFastVariant &v, int vector) {
  const std::string pad = "    ", V = std::to_string(vector);
  const int n = v.vectors(vector);
  std::string s = vectorItems(n, vector, "(I)tid * " + V + (headed_ ? " - head" : ""),
                              "(I)" + std::to_string(v.threads * vector), pad);
  ValueEmitter emitter = newEmitter();
  size_t taken = 0;
  used_.clear();
  std::string phases;
  for (size_t i = 0; i < k_.rows.reductions.size(); ++i) {
    const Op &op = *k_.rows.reductions[i];
    const std::string I = std::to_string(i), p = "p" + I;
    const DType acc = reductionAccumulator(op.result()->dtype());
    const std::string A = cudaComputeType(acc);
    std::vector<std::vector<std::string>> values(static_cast<size_t>(n));
    phases += pad + "// phase " + I + ": " + cx_.analysis.describe(op) + "\n";
    phases += forEachElement(
        emitter, taken, {0, n, n}, vector,
        [&](ValueEmitter &e, const Coords &at) {
          return toAccumulator(op, e.emit(*op.operand(0), at));
        },
        [&](int j, int, const std::string &x) {
          values[static_cast<size_t>(j)].push_back(x);
          return std::string();
        });
    phases += pad + A + " " + p + " = " + reductionIdentity(op.kind(), acc) + ";\n";
    std::string squares;
    for (int j = 0; j < n; ++j) {
      const std::string J = std::to_string(j);
      const std::vector<std::string> &xs = values[static_cast<size_t>(j)];
      auto join = [&](const std::string &x) { return p + " = " + accumulated(op, i, x) + ";\n"; };
      auto square = [&](const std::string &x) {
        return "{ const " + A + " d = " + deviation(op, i, x) + "; q" + I + " += d * d; }\n";
      };
      phases += pad + "if (ok" + J + ") {\n";
      squares += pad + "if (ok" + J + ") {\n";
      for (const std::string &x : xs) {
        phases += pad + "  " + join(x);
        squares += pad + "  " + square(x);
      }
      phases += pad + "}\n";
      squares += pad + "}\n";
      if (!headed_)
        continue;
      // The row's ends: the elements inside it.
      phases += pad + "else if (any" + J + ") {\n";
      squares += pad + "else if (any" + J + ") {\n";
      for (size_t e = 0; e < xs.size(); ++e) {
        const std::string in = pad + "  if (" + inRow(j, static_cast<int>(e)) + ") ";
        phases += in + join(xs[e]);
        squares += in + square(xs[e]);
      }
      phases += pad + "}\n";
      squares += pad + "}\n";
    }
    phases += endPhase(op, i, v.threads, op.kind() == OpKind::Var ? squares : "", pad);
  }
  // Outputs vector by vector: each vector's loads of tensors only the
  // outputs read (layer norm's weight and bias), then its values; so those
  // tensors hold no registers while the row reduces. Each vector's stores
  // follow its values, or come after every vector's (storesAfterValues):
  // a load never moves past a store (they may alias), so stores between
  // them make each vector's loads a round trip to memory of their own.
  const std::set<size_t> reduced = used_;
  std::string outputs = pad + "// outputs\n";
  for (size_t t = 0; t < k_.tensors.size(); ++t)
    if (k_.tensors[t].perElement())
      outputs += vectorBuffer(t, "_l", n, vector, k_.tensors[t].what, pad);
  std::vector<std::string> vectorOutputs;
  bool outputsLoad = false;
  for (int j = 0; j < n; ++j) {
    const Vectors one{j, j + 1, n};
    used_.clear();
    std::string values;
    for (size_t t = 0; t < k_.tensors.size(); ++t) {
      if (!k_.tensors[t].perElement())
        continue;
      const std::string ts = std::to_string(t);
      values += forEachElement(
          emitter, taken, one, vector,
          [&](ValueEmitter &e, const Coords &at) {
            return storedValue(e, t, valueCoords(k_.tensors[t].value->shape(), at, false));
          },
          [&](int jj, int e, const std::string &x) {
            return pad + "t" + ts + "_l[" + std::to_string(jj) + "][" + std::to_string(e) +
                   "] = " + x + ";\n";
          });
    }
    if (k_.columnPartials())
      values += accumulateColumns(
          emitter, taken, one, vector,
          [](int jj) { return "ok" + std::to_string(jj) + " && row_ok"; }, pad);
    const std::string loads = loadVectors(one, vector, pad, reduced);
    outputsLoad = outputsLoad || !loads.empty();
    vectorOutputs.push_back(loads + values);
  }
  const bool storesLast = outputsLoad && storesAfterValues(v, vector, reduced);
  for (int j = 0; j < n; ++j)
    outputs += vectorOutputs[static_cast<size_t>(j)] +
               (storesLast ? "" : storeVectors({j, j + 1, n}, vector, pad));
  if (storesLast)
    outputs += storeVectors({0, n, n}, vector, pad);
  used_ = reduced;
  if (prefetchesRows())
    s += takePrefetched(n, vector, pad) +
         prefetchRow("base + (I)gridDim.x * " + std::to_string(v.rowsPerBlock) +
                         " + (I)(threadIdx.x / " + std::to_string(v.threads) + ")",
                     n, vector, "(I)" + std::to_string(v.threads * vector), pad);
  else
    s += loadVectors({0, n, n}, vector, pad);
  s += phases;
  s += outputs;
  // Per-row outputs, by the row's first thread.
  s += perRowStores(emitter, taken, "tid == 0 && row_ok", pad);
  return s;
}

} // namespace fuserc
