// Row-reduction kernels, column partials: a normalization segment's column
// reductions (ReductionRows::columns: reductions over the rows' kept axes,
// an RMSNorm backward's weight gradient) accumulated while the rows are on
// chip. The register variants keep one accumulator per element a thread
// holds (its positions are the same in every row it runs), combine their
// row slots through shared memory in slot order and leave one partial row
// per block; the looped variant accumulates straight into its block's
// partial row. The grid is capped at kRowColumnBlocks blocks, a constant,
// so the partials and their merge order are the same on every GPU. A
// second kernel merges the blocks' partials in block order and computes
// the values over the columns (the casts of the results, the outputs).
#include "codegen/core/BlockReduce.h"
#include "codegen/core/CudaTypes.h"
#include "codegen/core/ReductionValues.h"
#include "codegen/rows/RowReductionEmitter.h"

namespace fuserc {

DType RowReductionEmitter::columnAccumulator(size_t c) const {
  return reductionAccumulator(k_.rows.columns[c]->result()->dtype());
}

Coords RowReductionEmitter::columnCoords(const std::vector<Extent> &shape) const {
  return coordsInDomain(shape, k_.rows.domain, domainCoords(""),
                        [&](size_t d) { return !isReducedDim(d); });
}

std::string RowReductionEmitter::columnAccumulators(int count, int vector,
                                                    const std::string &pad) const {
  std::string s = pad + "// column partials: this thread's elements, over its rows\n";
  for (size_t c = 0; c < k_.rows.columns.size(); ++c) {
    const Op &op = *k_.rows.columns[c];
    const DType acc = columnAccumulator(c);
    const std::string A = cudaComputeType(acc), id = reductionIdentity(op.kind(), acc);
    s += pad + "__align__(16) " + A + " cp" + std::to_string(c) + "[" + std::to_string(count) +
         "][" + std::to_string(vector) + "];\n";
    s += pad + "for (int j = 0; j < " + std::to_string(count) + "; ++j)\n";
    s += pad + "  for (int e = 0; e < " + std::to_string(vector) + "; ++e)\n";
    s += pad + "    cp" + std::to_string(c) + "[j][e] = " + id + ";\n";
  }
  return s;
}

std::string RowReductionEmitter::accumulateColumns(ValueEmitter &emitter, size_t &taken,
                                                   Vectors vectors, int vector,
                                                   const std::function<std::string(int)> &condition,
                                                   const std::string &pad) {
  std::string s;
  for (size_t c = 0; c < k_.rows.columns.size(); ++c) {
    const Op &op = *k_.rows.columns[c];
    const std::string C = std::to_string(c);
    s += forEachElement(
        emitter, taken, vectors, vector,
        [&](ValueEmitter &e, const Coords &at) {
          return toAccumulator(op, e.emit(*op.operand(0), at));
        },
        [&](int j, int e, const std::string &x) {
          const std::string slot =
              "cp" + C + "[" + std::to_string(j) + "][" + std::to_string(e) + "]";
          return pad + "if (" + condition(j) + ") " + slot + " = " + reductionCombiner(op.kind()) +
                 "()(" + slot + ", " + x + ");\n";
        });
  }
  return s;
}

std::string RowReductionEmitter::flushColumns(int threads, int rowsPerBlock, int count, int vector,
                                              const std::string &pad) const {
  // Element (j, e) of thread tid sits at row position tid * V + j * T * V + e.
  const std::string T = std::to_string(threads), V = std::to_string(vector);
  const int capacity = threads * count * vector;
  auto position = [&](const std::string &j, const std::string &e) {
    return "(I)tid * " + V + " + (I)" + j + " * " + std::to_string(threads * vector) + " + " + e;
  };
  std::string s = pad + "// this block's partial row of each column reduction\n";
  for (size_t c = 0; c < k_.rows.columns.size(); ++c) {
    const Op &op = *k_.rows.columns[c];
    const std::string C = std::to_string(c), A = cudaComputeType(columnAccumulator(c));
    const std::string part = "((" + A + " *)a.cpart[" + C + "] + (I)blockIdx.x * L)";
    const int bytes = vector * static_cast<int>(dtypeBytes(columnAccumulator(c)));
    if (rowsPerBlock == 1 && bytes % 16 == 0) {
      // A thread's vector of partials is contiguous and, L being a
      // multiple of the vector, 16-byte aligned: 16-byte stores, not a
      // store per element, each writing a sector in part.
      const std::string per = std::to_string(16 * vector / bytes);
      s += pad + "for (int j = 0; j < " + std::to_string(count) + "; ++j)\n";
      s += pad + "  if (" + position("j", "0") + " < L)\n";
      s += pad + "    for (int q = 0; q < " + std::to_string(bytes / 16) + "; ++q)\n";
      s += pad + "      *(fuserc_bytes16 *)(" + part + " + " + position("j", "q * " + per) +
           ") = *(const fuserc_bytes16 *)&cp" + C + "[j][q * " + per + "];\n";
      continue;
    }
    if (rowsPerBlock == 1) {
      s += pad + "for (int j = 0; j < " + std::to_string(count) + "; ++j)\n";
      s += pad + "  for (int e = 0; e < " + V + "; ++e)\n";
      s += pad + "    if (" + position("j", "e") + " < L) " + part + "[" + position("j", "e") +
           "] = cp" + C + "[j][e];\n";
      continue;
    }
    // The block's row slots, joined in slot order.
    s += pad + "{\n";
    s += pad + "  __shared__ " + A + " cs" + C + "[" + std::to_string(rowsPerBlock * capacity) +
         "];\n";
    s += pad + "  const int slot = (int)threadIdx.x / " + T + ";\n";
    s += pad + "  for (int j = 0; j < " + std::to_string(count) + "; ++j)\n";
    s += pad + "    for (int e = 0; e < " + V + "; ++e)\n";
    s += pad + "      cs" + C + "[slot * " + std::to_string(capacity) + " + " + position("j", "e") +
         "] = cp" + C + "[j][e];\n";
    s += pad + "  __syncthreads();\n";
    s += pad +
         "  for (I k = (I)threadIdx.x; k < L; k += " + std::to_string(threads * rowsPerBlock) +
         ") {\n";
    s += pad + "    " + A + " h = cs" + C + "[k];\n";
    s += pad + "    for (int r = 1; r < " + std::to_string(rowsPerBlock) + "; ++r)\n";
    s += pad + "      h = " + reductionCombiner(op.kind()) + "()(h, cs" + C + "[r * " +
         std::to_string(capacity) + " + k]);\n";
    s += pad + "    " + part + "[k] = h;\n";
    s += pad + "  }\n";
    s += pad + "}\n";
  }
  return s;
}

std::string RowReductionEmitter::loopedColumnStart(const RowVariant &v) const {
  std::string s = "  // this block's partial rows at the identity (each position by the\n"
                  "  // thread that accumulates it)\n";
  for (size_t c = 0; c < k_.rows.columns.size(); ++c) {
    const Op &op = *k_.rows.columns[c];
    const DType acc = columnAccumulator(c);
    const std::string A = cudaComputeType(acc);
    s += "  for (I k = (I)tid; k < L; k += " + std::to_string(v.threads) + ")\n";
    s += "    ((" + A + " *)a.cpart[" + std::to_string(c) +
         "])[(I)blockIdx.x * L + k] = " + reductionIdentity(op.kind(), acc) + ";\n";
  }
  return s;
}

std::string RowReductionEmitter::columnMergeKernel() {
  registers_.clear();
  const std::string pad = "    ";
  std::string s = "// segment " + std::to_string(cx_.segment.id) +
                  ", column merge: each column's partials of the row kernel's blocks, in block "
                  "order, then the values over the columns\n";
  s += "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kRowColumnMergeBlock) +
       ") " + rowColumnMergeName(k_) + "(const " + k_.base + "_args a) {\n";
  s += "  typedef long long I;\n";
  s += "  const I L = (I)a.len;\n";
  const int lanes = kRowColumnMergeBlock / kRowColumnMergeWidth;
  const std::string W = std::to_string(kRowColumnMergeWidth), N = std::to_string(lanes);
  s += "  const int cx = (int)threadIdx.x % " + W + ", ly = (int)threadIdx.x / " + W + ";\n";
  s += "  for (I first = (I)blockIdx.x * " + W + "; first < L; first += (I)gridDim.x * " + W +
       ") {\n";
  s += "  const I col = first + cx;\n";
  std::string joins;
  for (size_t c = 0; c < k_.rows.columns.size(); ++c) {
    const Op &op = *k_.rows.columns[c];
    const DType acc = columnAccumulator(c);
    const std::string C = std::to_string(c), A = cudaComputeType(acc),
                      combine = reductionCombiner(op.kind()) + "()";
    s += "  __shared__ " + A + " cm" + C + "[" + std::to_string(kRowColumnMergeBlock) + "];\n";
    s += "  " + A + " h" + C + " = " + reductionIdentity(op.kind(), acc) + ";\n";
    s += "  if (col < L) {\n";
    s += "#pragma unroll 8\n";
    s += "    for (I p = ly; p < (I)a.cblocks; p += " + N + ")\n";
    s += "      h" + C + " = " + combine + "(h" + C + ", __ldcg((const " + A + " *)a.cpart[" + C +
         "] + p * L + col));\n";
    s += "  }\n";
    s += "  cm" + C + "[threadIdx.x] = h" + C + ";\n";
    joins += pad + A + " cr" + C + " = cm" + C + "[cx];\n";
    joins += pad + "for (int i = 1; i < " + N + "; ++i)\n";
    joins +=
        pad + "  cr" + C + " = " + combine + "(cr" + C + ", cm" + C + "[i * " + W + " + cx]);\n";
    if (op.kind() == OpKind::Mean)
      joins += pad + "cr" + C + " = cr" + C + " / (" + A + ")a.rows;\n";
    registers_[op.result()] = "cr" + C;
  }
  s += "  __syncthreads();\n";
  s += "  if (ly == 0 && col < L) {\n";
  s += joins;
  s += decompose("col", k_.reducedDims, "", "col_rest", pad);
  ValueEmitter emitter = newEmitter();
  std::string values, stores;
  for (size_t t = 0; t < k_.tensors.size(); ++t) {
    if (!k_.tensors[t].perColumn)
      continue;
    const Coords at = columnCoords(k_.tensors[t].value->shape());
    const std::string held = "out" + std::to_string(t);
    const std::string value = storedValue(emitter, t, at);
    values += pad + "const " + cudaStorageType(k_.tensors[t].storage) + " " + held + " = " + value +
              ";\n";
    stores += pad + storeStatement(t, at, held) + "\n";
  }
  s += emitter.body(4) + values + stores;
  s += "  }\n  __syncthreads();  // cm* read before the next columns write them\n  }\n}\n\n";
  registers_.clear();
  return s;
}

} // namespace fuserc
