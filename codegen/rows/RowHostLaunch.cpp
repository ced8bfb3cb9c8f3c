// Row-reduction kernels, the host launch block (see RowReductionPlan.h):
// fill the arguments, check which vector width the rows allow, pick a
// variant by row length (the register variants, the cached ones with their
// shared memory, the cluster, split and grid ones, the general ones), the testing
// hook's alternatives, and the launch.
#include "codegen/rows/RowReductionPlan.h"

#include "codegen/core/IndexChecks.h"
#include "codegen/core/VariantHook.h"

#include <algorithm>

namespace fuserc {
namespace {

// `branches` (condition, statements) as an if / else if chain whose last
// branch takes every case the others do not (the host picks among the
// generated variants only), each statement block indented by `pad`.
std::string chain(const std::vector<std::pair<std::string, std::string>> &branches,
                  const std::string &pad) {
  std::string s;
  for (size_t i = 0; i < branches.size(); ++i) {
    const bool last = i + 1 == branches.size();
    s += pad + (i == 0 ? "" : "else ") +
         (last ? std::string("{") : "if (" + branches[i].first + ") {") + "\n";
    s += branches[i].second;
    s += pad + "}\n";
  }
  return s;
}

std::string launchShape(int block, int rowsPerBlock, const std::string &pad) {
  return pad + "block = " + std::to_string(block) + ";\n" + pad + "groups = (a.rows + " +
         std::to_string(rowsPerBlock - 1) + ") / " + std::to_string(rowsPerBlock) + ";\n";
}

// Statements setting `vec` to the contiguous variants' vector width when
// every streamed tensor holds each row contiguously (its reduced dims
// collapse to one run of stride 1): the widest when the rows and pointers
// allow it, else 1. And `shifted`, the cached variant's: the widest when
// the pointers are aligned and every streamed tensor's rows start equally
// far past a vector boundary (kept strides congruent modulo the width).
std::string contiguousCheck(const RowKernel &rk) {
  const std::string W = std::to_string(rk.vector);
  std::string s = "    if (a.len >= 1) {\n";
  s += "      int contiguous = 1, aligned = a.len % " + W + " == 0, pointers = 1, congruent = 1;\n";
  // Headed rows need only the streams whose rows differ congruent.
  if (rk.runsHeaded())
    s += "      int rows_congruent = 1;\n";
  if (std::any_of(rk.streams.begin(), rk.streams.end(),
                  [](const std::optional<RowStream> &t) { return t && t->alongRow; }))
    s += "      long long run;\n";
  // Each kept dim's stride modulo W, in the first streamed tensor (and the
  // first whose rows differ).
  std::optional<size_t> first, firstPerRow;
  auto residue = [&](size_t t, size_t d) -> std::string {
    const int dim = rk.streams[t]->map[d];
    if (dim < 0)
      return "0";
    return "(a.st[" + std::to_string(t) + "][" + std::to_string(dim) + "] % " + W + " + " + W +
           ") % " + W;
  };
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
         " != 0) aligned = pointers = 0;\n";
    if (!first)
      first = t;
    if (!firstPerRow && stream->perRow(rk.keptDims))
      firstPerRow = t;
    for (size_t d : rk.keptDims) {
      if (stream->map[d] >= 0)
        s += "      if (a.st[" + ts + "][" + std::to_string(stream->map[d]) + "] % " + W +
             " != 0) aligned = 0;\n";
      if (t != *first && residue(t, d) != residue(*first, d))
        s += "      if (" + residue(t, d) + " != " + residue(*first, d) + ") congruent = 0;\n";
      if (rk.runsHeaded() && t != *firstPerRow && stream->perRow(rk.keptDims) &&
          residue(t, d) != residue(*firstPerRow, d))
        s += "      if (" + residue(t, d) + " != " + residue(*firstPerRow, d) +
             ") rows_congruent = 0;\n";
    }
  }
  // Lanes deriving their coordinates from their vector's first.
  for (size_t d : rk.laneChecks) {
    std::string boundary;
    for (auto it = std::find(rk.reducedDims.begin(), rk.reducedDims.end(), d) +
                   (d == rk.reducedDims.back() ? 0 : 1);
         it != rk.reducedDims.end(); ++it)
      boundary +=
          (boundary.empty() ? "" : " * ") + std::string("a.size[") + std::to_string(*it) + "]";
    s += "      if ((" + boundary + ") % " + W + " != 0) aligned = 0;  /* vectors straddle dim " +
         std::to_string(d) + " */\n";
  }
  s += "      vec = contiguous ? (aligned ? " + W + " : 1) : 0;\n";
  s += "      shifted = pointers && congruent" +
       std::string(rk.cachedLanesShared ? " && aligned" : "") + " ? " + W + " : 1;\n";
  if (rk.runsHeaded()) {
    const std::string W1 = std::to_string(rk.vector - 1);
    s += "      if (vec == 1 && pointers && rows_congruent && a.len + " + W1 + " > " +
         std::to_string(kRowHeadedAbove) + " && a.len + " + W1 +
         " <= " + std::to_string(rk.registersUpTo(1)) + ") {\n";
    s += "        /* headed rows: vectors from the boundary before the row */\n";
    s += "        headed = 1;\n        reach = a.len + " + W1 + ";\n      }\n";
  }
  s += "    }\n";
  return s;
}

// The cached streams' shared memory: `shared`, the bytes a.cache positions
// take; `reserve`, what a block keeps besides them (the block reduction's
// slots, each region's alignment); start(), statements declaring span (the
// row's positions in whole vectors of `shifted`), room and fit; fit(v), the
// positions a block of v caches (what its share of a multiprocessor's
// shared memory holds; the driver reserves 1 KiB per block).
struct CacheShape {
  explicit CacheShape(const RowKernel &rk) : bytes(rk.cachedBytes()) {
    int regions = 0;
    for (size_t t = 0; t < rk.tensors.size(); ++t)
      if (rk.cached(t))
        shared += std::string(regions++ ? " + " : "") + "(a.cache * " +
                  std::to_string(dtypeBytes(rk.tensors[t].storage)) + " + 15) / 16 * 16";
    reserve = std::to_string(kRowCachedReserve + 16 * regions);
  }
  std::string start(const std::string &pad) const {
    std::string s = pad + "int per_block = 0, per_sm = 0;\n";
    s += pad + "long long span, room, fit = 0;\n";
    s += pad + "st = FUSERC_NAME_shared_memory_limits(&per_block, &per_sm);\n";
    s += pad + "if (st != FUSERC_NAME_OK)\n" + pad + "  return st;\n";
    s += pad + "/* the row's positions in whole vectors, wherever it starts */\n";
    return s + pad + "span = (a.len + 2 * (shifted - 1)) / shifted * shifted;\n";
  }
  std::string fit(const RowCachedVariant &v, const std::string &in) const {
    return in + "room = (long long)per_sm / " + std::to_string(v.blocksPerSM) + " - 1024;\n" + in +
           "fit = ((room < per_block ? room : per_block) - " + reserve + ") / " +
           std::to_string(bytes) + " / shifted * shifted;\n";
  }
  // a.cache and the dynamic shared memory it takes.
  std::string take(const std::string &pad) const {
    return pad + "a.cache = fit < 0 ? 0 : span < fit ? span : fit;\n" + pad +
           "shared = (unsigned)(" + shared + ");\n";
  }
  int bytes;
  std::string shared, reserve;
};

// The cached variants' launch: the first whose cache (`a.cache` row
// positions: all of the row's, or as many as the shared memory left to
// each of its blocks on a multiprocessor holds beside their static
// scratch) holds at least 3/4 of the row; else, on devices with clusters,
// the cluster variant with the fewest CTAs whose caches hold 3/4 of it (at
// most kRowClusterMax); else the last; and the dynamic shared memory that
// takes.
std::string cachedLaunch(const RowKernel &rk, const std::string &pad) {
  auto choose = [&](const RowCachedVariant &v, const std::string &in) {
    std::string s = in + "kernel = shifted == 1 ? \"" + rowKernelName(rk, v, 1) + "\" : \"" +
                    rowKernelName(rk, v, rk.vector) + "\";\n" + launchShape(v.threads, 1, in);
    // The shared cached kernel takes the last variant's L2 hints.
    if (rk.sharesCachedKernel(rk.vector) && &v != &kRowClusterVariant)
      s += in + "a.hints = " + (&v == &std::end(kRowCachedVariants)[-1] ? "1" : "0") + ";\n";
    return s;
  };
  const int bytes = rk.cachedBytes();
  // Rows the register variants hold at the widest vector but not at 1 (see
  // kRowNarrowMaxElements), at shifted vectors: the shared kernel with the
  // fewest threads (at least kRowShortCachedThreads) that cover the row in
  // one step, so that more rows stream at once; halved (to one warp at
  // least) while the rows' threads exceed kRowShortCachedTargetThreads.
  const bool sized = rk.sizesSharedKernel();
  auto sizedLaunch = [&](const std::string &in) {
    const std::string step = std::to_string(rk.vector * kRowCachedUnroll);
    std::string s = in + "/* rows the register variants hold only at wider vectors */\n";
    s += in + "threads = " + std::to_string(kRowShortCachedThreads) + ";\n";
    s += in + "while (threads < " + std::to_string(kRowCachedVariants[0].threads) +
         " && (long long)threads * " + step + " < a.len + " + std::to_string(rk.vector - 1) +
         ")\n" + in + "  threads *= 2;\n";
    s += in + "while (threads > 32 && a.rows * threads > " +
         std::to_string(kRowShortCachedTargetThreads) + "LL)\n" + in + "  threads /= 2;\n";
    s += in + "kernel = \"" + rowKernelName(rk, kRowCachedVariants[0], rk.vector) + "\";\n";
    s += in + "block = threads;\n" + in + "groups = a.rows;\n" + in + "a.hints = 0;\n";
    return s;
  };
  const std::string shortRows = "shifted > 1 && a.len <= " + std::to_string(kRowCachedAbove);
  if (bytes == 0) {
    if (!sized)
      return choose(kRowCachedVariants[0], pad);
    return pad + "if (" + shortRows + ") {\n" + sizedLaunch(pad + "  ") + pad + "} else {\n" +
           choose(kRowCachedVariants[0], pad + "  ") + pad + "}\n";
  }
  const CacheShape cache(rk);
  const std::string &reserve = cache.reserve;
  std::string s = cache.start(pad);
  auto fit = [&](const RowCachedVariant &v, const std::string &in) { return cache.fit(v, in); };
  const RowCachedVariant &first = kRowCachedVariants[0], &last = std::end(kRowCachedVariants)[-1];
  static_assert(std::size(kRowCachedVariants) == 2, "one branch per cached variant");
  // The variant whose cache holds the row, indented by `at`.
  auto byFit = [&](const std::string &at) {
    std::string c = fit(first, at);
    c += at + "if (4 * fit >= 3 * span) {\n" + choose(first, at + "  ");
    const std::string in = at + "  ", in2 = in + "  ";
    c += at + "} else {\n" + fit(last, in);
    c += in + "if (4 * fit >= 3 * span || !FUSERC_NAME_clusters_supported(\"" +
         rowKernelName(rk, kRowClusterVariant, rk.vector) + "\")) {\n" + choose(last, in2);
    // The cluster's blocks take what m512's take; each CTA caches its slice
    // of the row. Clusters of more CTAs measured slower (a barrier per
    // combine waits for the slowest): the fewest that cache 3/4 of the row.
    static_assert(kRowClusterVariant.blocksPerSM == kRowCachedVariants[0].blocksPerSM);
    c += in + "} else {\n" + fit(kRowClusterVariant, in2);
    c += in2 + "cluster = 2;\n" + in2 + "while (cluster < " + std::to_string(kRowClusterMax) +
         " && 4 * cluster * fit < 3 * span)\n" + in2 + "  cluster *= 2;\n";
    c += choose(kRowClusterVariant, in2);
    c += in2 + "/* each CTA's slice of the row */\n";
    c += in2 + "span = ((span + cluster - 1) / cluster + shifted - 1) / shifted * shifted;\n";
    c += in + "}\n" + at + "}\n";
    return c;
  };
  if (sized) {
    // kRowMinThreadsPerSM threads per multiprocessor, each block caching
    // its share.
    s += pad + "if (" + shortRows + ") {\n" + sizedLaunch(pad + "  ");
    s += pad + "  room = (long long)per_sm / (" + std::to_string(kRowMinThreadsPerSM) +
         " / threads) - 1024;\n";
    s += pad + "  fit = ((room < per_block ? room : per_block) - " + reserve + ") / " +
         std::to_string(bytes) + " / shifted * shifted;\n";
    s += pad + "} else {\n" + byFit(pad + "  ") + pad + "}\n";
  } else {
    s += byFit(pad);
  }
  return s + cache.take(pad);
}

// The grid variant's launch where the device holds its grid at once
// (`gridded`): S = min(kRowSplitTargetBlocks / rows, L / kRowSplitMinSlice)
// slices per row unless `splits` is given, each block caching what its
// share of a multiprocessor's shared memory holds of its slice.
std::string gridLaunch(const RowKernel &rk, const std::string &pad,
                       const std::string &splits = "") {
  const RowCachedVariant &v = kRowGridVariant;
  const std::string T = std::to_string(kRowSplitTargetBlocks),
                    M = std::to_string(kRowSplitMinSlice);
  std::string s = pad + "kernel = shifted == 1 ? \"" + rowKernelName(rk, v, 1) + "\" : \"" +
                  rowKernelName(rk, v, rk.vector) + "\";\n";
  s += launchShape(v.threads, 1, pad);
  s += pad + "splits = (unsigned)(" +
       (splits.empty() ? T + " / a.rows < a.len / " + M + " ? " + T + " / a.rows : a.len / " + M
                       : splits) +
       ");\n";
  const CacheShape cache(rk);
  if (cache.bytes == 0) {
    s += pad + "shared = 0;\n";
  } else {
    const std::string in = pad + "  ";
    s += pad + "{\n" + cache.start(in);
    s += in + "/* each block's slice of the row */\n";
    s += in + "span = ((span + splits - 1) / splits + shifted - 1) / shifted * shifted;\n";
    s += cache.fit(v, in) + cache.take(in) + pad + "}\n";
  }
  s += pad + "gridded = FUSERC_NAME_cooperative_fits(kernel, (unsigned)a.rows * splits, block, "
             "shared);\n";
  return s;
}

// The split variant's launch: S = `splits` slices per row, S =
// min(kRowSplitTargetBlocks / rows, L / kRowSplitMinSlice) unless given.
std::string splitLaunch(const RowKernel &rk, const std::string &pad,
                        const std::string &splits = "") {
  const RowCachedVariant &v = kRowSplitVariant;
  std::string s = pad + "kernel = shifted == 1 ? \"" + rowKernelName(rk, v, 1) + "\" : \"" +
                  rowKernelName(rk, v, rk.vector) + "\";\n";
  s += launchShape(v.threads, 1, pad);
  s += pad + "shared = 0;\n";
  s += pad + "splits = (unsigned)(" +
       (splits.empty() ? std::to_string(kRowSplitTargetBlocks) + " / a.rows" : splits) + ");\n";
  return s;
}

// The testing hook's alternatives (codegen/core/VariantHook.h): each
// contiguous variant at each width and the cached one (picking among its
// kind by fit) where the rows are contiguous, then each general variant,
// each where the row fits it.
// With column partials, the grid cap of contiguous variant v.
std::string columnCap(const RowKernel &rk, const RowFastVariant &v, const std::string &pad) {
  return rk.columnPartials() ? pad + "cap = " + std::to_string(rk.columnBlocks(v)) + ";\n" : "";
}

std::string forcedVariants(const RowKernel &rk) {
  const std::string reset =
      std::string("shared = 0;\n") + (rk.clustered() ? "cluster = 0;\n" : "") +
      (rk.split || rk.grid ? "splits = 1;\n" : "") + (rk.grid ? "gridded = 0;\n" : "") +
      (rk.columnPartials() ? "cap = " + std::to_string(kRowColumnBlocks) + ";\n" : "");
  auto launch = [&](const std::string &name, int block, int rowsPerBlock) {
    return "kernel = \"" + name + "\";\n" + launchShape(block, rowsPerBlock, "") + reset;
  };
  std::vector<ForcedVariant> alternatives;
  if (rk.generatesContiguous()) {
    for (const RowFastVariant &v : kRowFastVariants)
      for (int vector : rk.vectorWidths())
        if (rk.generates(v, vector))
          alternatives.push_back(
              {(vector == 1 ? std::string("vec") : "vec == " + std::to_string(vector)) +
                   " && a.len <= " + std::to_string(v.maxLength()),
               launch(rowKernelName(rk, v, vector), v.block(), v.rowsPerBlock) +
                   columnCap(rk, v, "")});
    for (const RowFastVariant &v : kRowFastVariants)
      if (rk.generatesHeaded(v))
        alternatives.push_back(
            {"headed && reach <= " + std::to_string(v.maxLength()),
             launch(rowKernelName(rk, v, rk.vector, true), v.block(), v.rowsPerBlock)});
    // The cached variants, from no split or cluster an earlier choice left.
    if (rk.generatesCached())
      alternatives.push_back({"vec", reset + cachedLaunch(rk, "")});
    // The split variant at any length, as many splits as rows allow.
    if (rk.split)
      alternatives.push_back(
          {"vec && a.rows * 2 <= " + std::to_string(kRowSplitTargetBlocks), splitLaunch(rk, "")});
    // The grid variant wherever it takes at least two slices of
    // kRowSplitMinSlice, as many as rows allow, where the device holds it.
    if (rk.grid) {
      const std::string T = std::to_string(kRowSplitTargetBlocks),
                        M = std::to_string(kRowSplitMinSlice);
      alternatives.push_back(
          {"vec && a.rows * 2 <= " + T + " && a.len >= 2 * " + M,
           gridLaunch(rk, "",
                      T + " / a.rows < a.len / " + M + " ? " + T + " / a.rows : a.len / " + M) +
               "if (!gridded) {\n" + reset + cachedLaunch(rk, "  ") + "}\n"});
    }
  }
  for (const RowVariant &v : kRowVariants)
    if (rk.generates(v))
      alternatives.push_back(
          {v.looped() ? "" : "a.len >= 1 && a.len <= " + std::to_string(v.maxLength()),
           launch(rowKernelName(rk, v), v.block(), v.rowsPerBlock)});
  return variantHookPick(rk.base, alternatives.size(), "    ") +
         variantHookForce(0, alternatives, "    ");
}

} // namespace

std::string rowHostLaunch(const RowKernel &rk) {
  auto sym = [](const std::string &s) { return "sym_" + s; };
  std::string s = "{\n";
  s += "  FUSERC_NAME_" + rk.base + "_args a;\n";
  s += "  const char *kernel;\n";
  s += "  unsigned block, shared = 0;\n";
  s += "  long long groups;\n";
  s += "  memset(&a, 0, sizeof a);\n";
  if (segmentChecksIndices(rk.segment->segment))
    s += indexFlagHostCode();
  s += hostSymbolAndScalarArguments(rk.fusion->fusion->symbols(), rk.scalars);
  for (size_t d = 0; d < rk.rows.domain.size(); ++d)
    s += "  a.size[" + std::to_string(d) + "] = " + extentToCode(rk.rows.domain[d], sym) + ";\n";
  s += "  a.rows = 1;\n  a.len = 1;\n";
  for (size_t d : rk.keptDims)
    s += "  a.rows *= a.size[" + std::to_string(d) + "];\n";
  for (size_t d : rk.reducedDims)
    s += "  a.len *= a.size[" + std::to_string(d) + "];\n";
  for (size_t t = 0; t < rk.tensors.size(); ++t)
    s += hostTensorArguments(t, rk.tensors[t]);
  if (rk.columnPartials()) {
    s += "  {\n    char *scratch = ws + " + extentToCode(rk.scratchOffset, sym) + ";\n";
    for (size_t c = 0; c < rk.rows.columns.size(); ++c)
      s += "    a.cpart[" + std::to_string(c) +
           "] = scratch;\n    scratch += " + extentToCode(rk.columnPartialBytes(c), sym) + ";\n";
    s += "  }\n";
  }
  s += "  if (a.rows > 0) {\n";
  s += "    int vec = 0;  /* the contiguous variants' vector width; 0: general variants */\n";
  s += "    int shifted = 1;  /* the cached variant's */\n";
  if (rk.sizesSharedKernel())
    s += "    unsigned threads = 0;  /* the shared cached kernel's on shorter rows */\n";
  if (rk.clustered())
    s += "    unsigned cluster = 0;  /* CTAs per cluster (the cluster variant); 0: none */\n";
  if (rk.split || rk.grid)
    s += "    unsigned splits = 1;  /* slices per row (the split and grid variants) */\n";
  if (rk.grid)
    s += "    int gridded = 0;  /* the grid variant runs: a cooperative launch */\n";
  if (rk.columnPartials())
    s += "    long long cap = " + std::to_string(kRowColumnBlocks) +
         ";  /* the most blocks, each leaving partial rows */\n";
  s += "    long long reach = a.len;  /* the row positions a register variant must hold */\n";
  if (rk.runsHeaded())
    s += "    int headed = 0;  /* rows at vectors of 1 that run the headed kernels */\n";
  if (rk.generatesContiguous())
    s += contiguousCheck(rk);
  s += "    if (a.len > " + std::to_string(kRowCachedMaxLength) +
       "LL) vec = 0;  /* the cached variants count row positions in 32 bits */\n";
  if (rk.columnPartials() && rk.generatesContiguous())
    s += "    if (a.len > (vec > 1 ? " + std::to_string(rk.registersUpTo(rk.vector)) +
         "LL : " + std::to_string(rk.registersUpTo(1)) +
         "LL)) vec = 0;  /* longer rows than the register variants hold: no cached variant */\n";
  std::vector<std::pair<std::string, std::string>> fast;
  for (const RowFastVariant &v : kRowFastVariants) {
    // At one width only where the variant is generated at one width only;
    // its headed kernel first for headed rows.
    const bool wide = rk.generates(v, rk.vector), narrow = rk.vector > 1 && rk.generates(v, 1),
               head = rk.generatesHeaded(v);
    if (!wide && !narrow && !head)
      continue;
    auto quoted = [&](int width, bool headed) {
      return "\"" + rowKernelName(rk, v, width, headed) + "\"";
    };
    std::string kernel = wide && narrow
                             ? "vec == 1 ? " + quoted(1, false) + " : " + quoted(rk.vector, false)
                         : wide || narrow ? quoted(wide ? rk.vector : 1, false)
                                          : quoted(rk.vector, true);
    if (head && (wide || narrow))
      kernel = "headed ? " + quoted(rk.vector, true) + " : " + kernel;
    const std::string width = wide && narrow ? ""
                              : wide         ? (head ? " && (vec > 1 || headed)" : " && vec > 1")
                              : narrow       ? " && vec == 1"
                                             : " && headed";
    fast.push_back({"reach <= " + std::to_string(std::min(v.maxLength(), kRowCachedAbove)) + width,
                    "        kernel = " + kernel + ";\n" +
                        launchShape(v.block(), v.rowsPerBlock, "        ") +
                        columnCap(rk, v, "        ")});
  }
  if (rk.generatesCached()) {
    std::string cached;
    if (rk.split) {
      const std::string T = std::to_string(kRowSplitTargetBlocks),
                        M = std::to_string(kRowSplitMinSlice);
      // Rows above kRowCachedAbove: at least two slices each.
      static_assert(kRowCachedAbove / kRowSplitMinSlice >= 2);
      cached += "        if (a.rows * 2 <= " + T + " && a.len > " +
                std::to_string(kRowCachedAbove) + ") {\n";
      cached +=
          splitLaunch(rk, "          ",
                      T + " / a.rows < a.len / " + M + " ? " + T + " / a.rows : a.len / " + M);
      cached += "        } else {\n" + cachedLaunch(rk, "          ") + "        }\n";
    } else if (rk.grid) {
      // Rows too few to fill the GPU, each split over blocks that wait for
      // one another, where the device holds them all at once.
      cached += "        if (a.rows * 2 <= " + std::to_string(kRowSplitTargetBlocks) +
                " && a.len > " + std::to_string(kRowCachedAbove) + " && (shifted == 1 || a.len * " +
                std::to_string(rk.rowPositionBytes()) +
                " >= " + std::to_string(kRowGridMinRowBytes) + ")) {\n" +
                gridLaunch(rk, "          ") + "        }\n";
      cached += "        if (!gridded) {\n          splits = 1;\n" +
                cachedLaunch(rk, "          ") + "        }\n";
    } else {
      cached += cachedLaunch(rk, "        ");
    }
    fast.push_back({"", cached});
  }
  std::vector<std::pair<std::string, std::string>> general;
  for (const RowVariant &v : kRowVariants)
    if (rk.generates(v))
      general.push_back({"a.len >= 1 && a.len <= " + std::to_string(v.maxLength()),
                         "        kernel = \"" + rowKernelName(rk, v) + "\";\n" +
                             launchShape(v.block(), v.rowsPerBlock, "        ")});
  if (!fast.empty())
    s += "    if (vec) {\n" + chain(fast, "      ") + "    } else {\n";
  else
    s += "    {\n";
  s += chain(general, "      ");
  s += "    }\n";
  s += forcedVariants(rk);
  s += variantHookLaunched("kernel", "    ");
  if (rk.columnPartials()) {
    s += "    if (groups > cap)\n      groups = cap;  /* a partial row per block, one wave */\n";
    s += "    a.cblocks = groups;\n";
  }
  if (rk.split) {
    s += "    if (splits > 1) {\n";
    s += "      char *scratch = ws + " + extentToCode(rk.scratchOffset, sym) + ";\n";
    for (size_t i = 0; i < rk.rows.reductions.size(); ++i)
      s += "      a.part[" + std::to_string(i) +
           "] = scratch;\n      scratch += " + std::to_string(rk.splitPartialBytes(i)) + ";\n";
    s += "      a.count = (int *)scratch;\n";
    s += "      st = FUSERC_NAME_zero_words(a.count, (size_t)a.rows, stream);\n";
    s += "      if (st != FUSERC_NAME_OK)\n        return st;\n";
    s += "    }\n";
  }
  // A block per row group, not a grid capped at the blocks the GPU holds
  // at once: a capped grid looping over rows measured slower
  // (bench/README.md).
  if (rk.grid) {
    s += "    if (gridded) {\n";
    s += "      char *scratch = ws + " + extentToCode(rk.scratchOffset, sym) + ";\n";
    s += "      a.slots = scratch;\n";
    s += "      a.count = (int *)(scratch + " +
         std::to_string(int64_t{rk.gridCombines()} * kRowSplitTargetBlocks * 8) + ");\n";
    s += "      st = FUSERC_NAME_zero_words(a.count, (size_t)a.rows, stream);\n";
    s += "      if (st != FUSERC_NAME_OK)\n        return st;\n";
    s += "      int refused = 0;\n";
    s +=
        "      st = FUSERC_NAME_launch_cooperative_kernel(kernel, (unsigned)groups, splits, block, "
        "shared, &a, stream, &refused);\n";
    s += "      if (st == FUSERC_NAME_OK && refused) {\n";
    s += "        /* the device holds fewer blocks than its occupancy says (MPS): the cached "
         "variants */\n";
    s += "        gridded = 0;\n        splits = 1;\n        shared = 0;\n" +
         cachedLaunch(rk, "        ") + "      }\n";
    s += "    }\n";
    s += "    if (!gridded) ";
  }
  if (rk.clustered()) {
    s += std::string(rk.grid ? "{\n    " : "    ") + "if (cluster) {\n";
    s += "      if (groups > 2147483647LL / cluster)\n        groups = 2147483647LL / cluster;\n";
    s +=
        "      st = FUSERC_NAME_launch_cluster_kernel(kernel, (unsigned)groups * cluster, cluster, "
        "block, shared, &a, stream);\n";
    s += "    } else {\n";
  } else if (rk.grid) {
    s += "{\n";
  }
  const bool nested = rk.clustered() || rk.grid;
  const std::string in = nested ? "  " : "";
  s += in + "    if (groups > 2147483647LL)\n" + in + "      groups = 2147483647LL;\n";
  s += in + "    st = FUSERC_NAME_launch_kernel(kernel, (unsigned)groups, " +
       (rk.split || rk.grid ? "splits" : "1") + ", 1, block, shared, &a, stream);\n";
  if (nested)
    s += "    }\n";
  if (rk.grid && rk.clustered())
    s += "    }\n";
  s += "    if (st != FUSERC_NAME_OK)\n      return st;\n";
  s += "  }\n";
  if (rk.columnPartials()) {
    // Over no rows too: the columns' identities (a mean's 0 / 0).
    const std::string W = std::to_string(kRowColumnMergeWidth);
    s += "  if (a.len > 0) {\n";
    s += "    long long tiles = (a.len + " + std::to_string(kRowColumnMergeWidth - 1) + ") / " + W +
         ";\n";
    s += "    if (tiles > 2147483647LL)\n      tiles = 2147483647LL;\n";
    s += "    st = FUSERC_NAME_launch_kernel(\"" + rowColumnMergeName(rk) +
         "\", (unsigned)tiles, 1, 1, " + std::to_string(kRowColumnMergeBlock) +
         ", 0, &a, stream);\n";
    s += "    if (st != FUSERC_NAME_OK)\n      return st;\n";
    s += "  }\n";
  }
  s += "}\n";
  return s;
}

} // namespace fuserc
