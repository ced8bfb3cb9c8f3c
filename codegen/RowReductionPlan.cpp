// Row-reduction kernels, host side: the argument struct, the launch block
// that picks a variant by row length, and the plan (see RowReductionPlan.h).
#include "codegen/RowReductionPlan.h"

#include "codegen/BlockReduce.h"
#include "codegen/CudaTypes.h"
#include "codegen/IndexChecks.h"
#include "schedulers/OpFamilies.h"

#include <algorithm>

namespace fuserc {

// The argument struct; `prefix` names it in host code (FUSERC_NAME_...).
std::string rowArgsStruct(const RowKernel &rk, const std::string &prefix) {
  const size_t nt = std::max<size_t>(rk.tensors.size(), 1);
  const size_t ns = std::max<size_t>(rk.fusion->fusion->symbols().size(), 1);
  std::string s = "typedef struct {\n";
  s += "  void *ptr[" + std::to_string(nt) + "];\n";
  s += "  long long st[" + std::to_string(nt) + "][" + std::to_string(kRowMaxRank) + "];\n";
  s += "  long long size[" + std::to_string(kRowMaxRank) + "];\n";
  s += "  long long rows, len;\n";
  s += "  long long sym[" + std::to_string(ns) + "];\n";
  for (size_t k = 0; k < rk.scalars.size(); ++k)
    s += "  " + cudaComputeType(rk.scalars[k]->dtype()) + " s" + std::to_string(k) + ";\n";
  if (segmentChecksIndices(rk.segment->segment))
    s += indexFlagMember();
  s += "} " + prefix + rk.base + "_args;\n";
  return s;
}

std::string rowKernelName(const RowKernel &rk, const RowVariant &v) {
  return rk.base + "_" + v.suffix;
}

std::string rowKernelName(const RowKernel &rk, const RowFastVariant &v, int vector) {
  return rk.base + "_v" + std::to_string(vector) + "_" + v.suffix;
}

namespace {

std::string launchShape(int block, int rowsPerBlock, const std::string &pad) {
  return pad + "block = " + std::to_string(block) + ";\n" + pad + "groups = (a.rows + " +
         std::to_string(rowsPerBlock - 1) + ") / " + std::to_string(rowsPerBlock) + ";\n";
}

// Statements setting `vec` to the contiguous variants' vector width when
// every streamed tensor holds each row contiguously (its reduced dims
// collapse to one run of stride 1): the widest when the rows and pointers
// allow it, else 1.
std::string contiguousCheck(const RowKernel &rk) {
  std::string s = "    if (a.len >= 1) {\n";
  s += "      int contiguous = 1, aligned = a.len % " + std::to_string(rk.vector) + " == 0;\n";
  s += "      long long run;\n";
  for (size_t t = 0; t < rk.tensors.size(); ++t) {
    const std::optional<RowStream> &stream = rk.streams[t];
    if (!stream || !stream->alongRow)
      continue;
    const std::string ts = std::to_string(t);
    s += "      /* " + rk.tensors[t].what + " */\n";
    s += "      run = 1;\n";
    for (size_t k = rk.reducedDims.size(); k-- > 0;) {
      const size_t d = rk.reducedDims[k];
      const std::string size = "a.size[" + std::to_string(d) + "]";
      const int dim = stream->map[d];
      if (dim < 0) {
        s += "      if (" + size + " != 1) contiguous = 0;\n";
        continue;
      }
      s += "      if (" + size + " != 1 && a.st[" + ts + "][" + std::to_string(dim) +
           "] != run) contiguous = 0;\n";
      s += "      run *= " + size + ";\n";
    }
    const int bytes = rk.vector * static_cast<int>(dtypeBytes(rk.tensors[t].storage));
    s += "      if ((uintptr_t)a.ptr[" + ts + "] % " + std::to_string(bytes) +
         " != 0) aligned = 0;\n";
    for (size_t d : rk.keptDims)
      if (stream->map[d] >= 0)
        s += "      if (a.st[" + ts + "][" + std::to_string(stream->map[d]) + "] % " +
             std::to_string(rk.vector) + " != 0) aligned = 0;\n";
  }
  s += "      vec = contiguous ? (aligned ? " + std::to_string(rk.vector) + " : 1) : 0;\n";
  s += "    }\n";
  return s;
}

// The host block: fill the arguments, pick a variant by row length, launch.
std::string hostLaunch(const RowKernel &rk) {
  auto sym = [](const std::string &s) { return "sym_" + s; };
  std::string s = "{\n";
  s += "  FUSERC_NAME_" + rk.base + "_args a;\n";
  s += "  const char *kernel;\n";
  s += "  unsigned block;\n";
  s += "  long long groups;\n";
  s += "  memset(&a, 0, sizeof a);\n";
  if (segmentChecksIndices(rk.segment->segment))
    s += indexFlagHostCode();
  std::vector<std::string> syms = rk.fusion->fusion->symbols();
  for (size_t k = 0; k < syms.size(); ++k)
    s += "  a.sym[" + std::to_string(k) + "] = sym_" + syms[k] + ";\n";
  for (size_t k = 0; k < rk.scalars.size(); ++k)
    s += "  a.s" + std::to_string(k) + " = in_" + rk.scalars[k]->name() + ";\n";
  for (size_t d = 0; d < rk.rows.domain.size(); ++d)
    s += "  a.size[" + std::to_string(d) + "] = " + extentToCode(rk.rows.domain[d], sym) + ";\n";
  s += "  a.rows = 1;\n  a.len = 1;\n";
  for (size_t d : rk.keptDims)
    s += "  a.rows *= a.size[" + std::to_string(d) + "];\n";
  for (size_t d : rk.reducedDims)
    s += "  a.len *= a.size[" + std::to_string(d) + "];\n";
  for (size_t t = 0; t < rk.tensors.size(); ++t) {
    const RowTensor &kt = rk.tensors[t];
    const std::string ts = std::to_string(t);
    s += "  a.ptr[" + ts + "] = " + kt.pointer + ";  /* " + kt.what + " */\n";
    for (size_t d = 0; d < kt.strides.size(); ++d)
      s += "  a.st[" + ts + "][" + std::to_string(d) + "] = " + kt.strides[d] + ";\n";
  }
  s += "  if (a.rows > 0) {\n";
  s += "    int vec = 0;  /* the contiguous variants' vector width; 0: general variants */\n";
  if (rk.contiguous())
    s += contiguousCheck(rk);
  s += "    if (vec) {\n";
  for (const RowFastVariant &v : kRowFastVariants) {
    const bool first = &v == &kRowFastVariants[0];
    if (v.looped())
      s += "      else {\n";
    else
      s += std::string(first ? "      if" : "      else if") +
           " (a.len <= " + std::to_string(v.maxLength()) + ") {\n";
    s += "        kernel = vec == 1 ? \"" + rowKernelName(rk, v, 1) + "\" : \"" +
         rowKernelName(rk, v, rk.vector) + "\";\n";
    s += launchShape(v.block(), v.rowsPerBlock, "        ");
    s += "      }\n";
  }
  s += "    } else {\n";
  for (const RowVariant &v : kRowVariants) {
    const bool first = &v == &kRowVariants[0];
    if (v.looped())
      s += "      else {\n";
    else
      s += std::string(first ? "      if" : "      else if") +
           " (a.len >= 1 && a.len <= " + std::to_string(v.maxLength()) + ") {\n";
    s += "        kernel = \"" + rowKernelName(rk, v) + "\";\n";
    s += launchShape(v.block(), v.rowsPerBlock, "        ");
    s += "      }\n";
  }
  s += "    }\n";
  // A block per row group, not a grid capped at the blocks the GPU holds
  // at once: capped at 132 x 8 blocks looping over rows, the H200 measured
  // softmax 3727 GB/s against 4080 and rmsnorm 3830 against 4074 (2026-11-21).
  s += "    if (groups > 2147483647LL)\n      groups = 2147483647LL;\n";
  s += "    st = FUSERC_NAME_launch_kernel(kernel, (unsigned)groups, 1, 1, block, 0, &a, "
       "stream);\n";
  s += "    if (st != FUSERC_NAME_OK)\n      return st;\n";
  s += "  }\n}\n";
  return s;
}

std::string dimsString(const std::vector<size_t> &dims) {
  std::vector<int64_t> d(dims.begin(), dims.end());
  return layoutString(d);
}

} // namespace

void fillRowPlan(const RowKernel &rk, KernelPlan &plan) {
  plan.name = rk.base;
  plan.scheduler = std::string(rk.segment->scheduler->name());
  plan.segment = static_cast<int>(rk.segment->id);
  for (const Op *op : rk.segment->segment.ops())
    plan.ops.push_back(rk.fusion->analysis->name(*op->result()));
  std::string reductions, accumulate;
  for (const Op *op : rk.rows.reductions) {
    reductions += (reductions.empty() ? "" : " ") + rk.fusion->analysis->name(*op->result()) + "(" +
                  std::string(op->info().name) + ")";
    accumulate += (accumulate.empty() ? "" : " ") +
                  std::string(dtypeName(reductionAccumulator(op->result()->dtype())));
  }
  plan.parameters = {{"reduced_axes", axesString(rk.rows.axes)},
                     {"row_dims", dimsString(rk.keptDims)},
                     {"row_length_dims", dimsString(rk.reducedDims)},
                     {"reductions", reductions},
                     {"accumulate", accumulate}};
  std::string streamed;
  for (size_t t = 0; t < rk.tensors.size(); ++t)
    if (rk.streams[t])
      streamed += (streamed.empty() ? "" : ", ") + rk.tensors[t].what +
                  (rk.streams[t]->alongRow ? "" : " (one per row)");
  plan.parameters.push_back({"streamed", streamed.empty() ? "none" : streamed});
  plan.parameters.push_back({"vector", std::to_string(rk.vector)});
  for (const RowFastVariant &v : kRowFastVariants)
    for (int vector : {rk.vector, 1}) {
      std::string what =
          v.looped() ? "a block of " + std::to_string(v.threads) +
                           " threads per row streaming it, " + std::to_string(kRowStreamUnroll) +
                           " vectors per thread per step, each phase re-reading"
          : v.threads < 32 ? std::to_string(v.threads) + " lanes per row, " +
                                 std::to_string(v.rowsPerBlock) + " rows per block"
          : v.threads == 32
              ? "a warp per row, " + std::to_string(v.rowsPerBlock) + " rows per block"
              : "a block of " + std::to_string(v.threads) + " threads per row";
      if (!v.looped())
        what += ", " + std::to_string(v.elements) + " elements per thread kept in registers";
      plan.variants.push_back(
          {rowKernelName(rk, v, vector), what + ", vectors of " + std::to_string(vector)});
      if (rk.vector == 1)
        break;
    }
  for (const RowVariant &v : kRowVariants) {
    std::string what;
    if (v.looped())
      what = "a block of " + std::to_string(v.threads) +
             " threads per row looping over it, each phase re-reading its inputs";
    else if (v.threads == 32)
      what = "a warp per row, " + std::to_string(v.rowsPerBlock) + " rows per block, " +
             std::to_string(v.items) + " elements per lane in registers";
    else
      what = "a block of " + std::to_string(v.threads) + " threads per row, " +
             std::to_string(v.items) + " elements per thread in registers";
    plan.variants.push_back({rowKernelName(rk, v), "general: " + what});
  }
  const std::string V = std::to_string(rk.vector);
  std::string rule = "L = elements per row (product of the reduced extents). When L >= 1 and "
                     "every streamed tensor holds each row contiguously, a contiguous variant "
                     "with vectors of W = " +
                     V + " (L a multiple of " + V +
                     ", pointers and row starts aligned to W elements) or else of W = 1, by "
                     "L: ";
  int64_t below = 0;
  for (const RowFastVariant &v : kRowFastVariants) {
    rule += v.looped() ? std::string(v.suffix) + " when above " + std::to_string(below) + ". "
                       : std::string(v.suffix) + " up to " + std::to_string(v.maxLength()) + ", ";
    below = std::max(below, v.maxLength());
  }
  rule += "Otherwise a general variant: ";
  below = 0;
  for (const RowVariant &v : kRowVariants) {
    rule += v.looped() ? std::string(v.suffix) + " when L > " + std::to_string(below) + " or L = 0."
                       : std::string(v.suffix) + " when " + std::to_string(below + 1) +
                             " <= L <= " + std::to_string(v.maxLength()) + "; ";
    below = std::max(below, v.maxLength());
  }
  plan.selection = rule;
  plan.launchGeometry = "block = threads per row x rows per block; grid min(ceil(rows / rows per "
                        "block), 2^31 - 1), a grid-stride loop over rows";
  Extent bytes = 0;
  for (const RowTensor &t : rk.tensors)
    bytes = bytes + numElements(t.value->shape()) * static_cast<int64_t>(dtypeBytes(t.storage));
  plan.bytesMoved = bytes;
  plan.argsStruct = rowArgsStruct(rk, "FUSERC_NAME_");
  plan.hostLaunch = hostLaunch(rk);
}

} // namespace fuserc
