// Row-reduction kernels, host side: the argument struct, the launch block
// that picks a variant by row length, and the plan (see RowReductionPlan.h).
#include "codegen/rows/RowReductionPlan.h"

#include "codegen/core/BlockReduce.h"
#include "codegen/core/CudaTypes.h"
#include "codegen/core/IndexChecks.h"
#include "codegen/core/VariantHook.h"
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
  s += "  long long rows, len, cache;\n";
  if (rk.sharesCachedKernel(rk.vector))
    s += "  int hints;  /* the cached kernel: L2 policies on the re-read row positions */\n";
  if (rk.split) {
    s += "  void *part[" + std::to_string(rk.rows.reductions.size()) +
         "];  /* the split variant's partials, [rows][splits] each */\n";
    s += "  int *count;  /* per row: its split blocks done (zeroed before the launch) */\n";
  }
  s += "  long long sym[" + std::to_string(ns) + "];\n";
  return s + argsStructEnd(rk.scalars, "", rk.segment->segment, prefix + rk.base);
}

std::string rowKernelName(const RowKernel &rk, const RowVariant &v) {
  return rk.base + "_" + v.suffix;
}

std::string rowKernelName(const RowKernel &rk, const RowFastVariant &v, int vector) {
  return rk.base + "_v" + std::to_string(vector) + "_" + v.suffix;
}

std::string rowKernelName(const RowKernel &rk, const RowCachedVariant &v, int vector) {
  const bool cached = &v >= std::begin(kRowCachedVariants) && &v < std::end(kRowCachedVariants);
  return rk.base + "_v" + std::to_string(vector) + "_" +
         (cached && rk.sharesCachedKernel(vector) ? kRowSharedCachedKernel : v.suffix);
}

int64_t RowKernel::splitPartialBytes(size_t i) const {
  return kRowSplitTargetBlocks * static_cast<int64_t>(dtypeBytes(
                                     reductionAccumulator(rows.reductions[i]->result()->dtype())));
}

Extent RowKernel::scratchBytes() const {
  if (!split)
    return 0;
  int64_t bytes = 0;
  for (size_t i = 0; i < rows.reductions.size(); ++i)
    bytes += splitPartialBytes(i);
  return bytes + kRowSplitTargetBlocks / 2 * static_cast<int64_t>(sizeof(int));
}

int RowKernel::cachedBytes() const {
  int bytes = 0;
  for (size_t t = 0; t < tensors.size(); ++t)
    if (cached(t))
      bytes += static_cast<int>(dtypeBytes(tensors[t].storage));
  return bytes;
}

namespace {

// Whether the row lengths [lo, hi] meet the ones the kernel may see.
bool meets(const RowKernel &rk, int64_t lo, int64_t hi) {
  return lo <= hi && rk.minLength <= hi && lo <= rk.maxLength;
}

} // namespace

// The host's chain (hostLaunch): at each width, contiguous variant v takes
// lengths above the previous one's limit (of those running at that width)
// up to its own (at most kRowCachedAbove).
bool RowKernel::generates(const RowFastVariant &v, int width) const {
  if (budget == VariantBudget::Minimal || !contiguous() || !runs(v, width))
    return false;
  int64_t lo = 1;
  for (const RowFastVariant &f : kRowFastVariants) {
    if (!runs(f, width))
      continue;
    const int64_t hi = std::min(f.maxLength(), kRowCachedAbove);
    if (&f == &v)
      return meets(*this, lo, std::min(hi, kRowCachedMaxLength));
    lo = std::max(lo, hi + 1);
  }
  return false;
}

int64_t RowKernel::registersUpTo(int width) const {
  int64_t longest = 0;
  for (const RowFastVariant &f : kRowFastVariants)
    if (runs(f, width))
      longest = std::max(longest, std::min(f.maxLength(), kRowCachedAbove));
  return longest;
}

// General variants: each persistent one takes the lengths from 1 above the
// previous one's capacity to its own, the looped one the rest and L = 0.
bool RowKernel::generates(const RowVariant &v) const {
  int64_t lo = 1;
  for (const RowVariant &g : kRowVariants) {
    if (g.looped())
      return &g == &v &&
             (meets(*this, 0, 0) || meets(*this, lo, std::numeric_limits<int64_t>::max()));
    if (&g == &v)
      return meets(*this, lo, g.maxLength());
    lo = std::max(lo, g.maxLength() + 1);
  }
  return false;
}

bool RowKernel::generatesCached() const {
  return budget != VariantBudget::Minimal && contiguous() &&
         meets(*this, registersUpTo(1) + 1, kRowCachedMaxLength);
}

bool RowKernel::generatesContiguous() const {
  if (generatesCached())
    return true;
  for (const RowFastVariant &v : kRowFastVariants)
    if (generates(v, vector))
      return true;
  return false;
}

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
  s += "      long long run;\n";
  // Each kept dim's stride modulo W, in the first streamed tensor.
  std::optional<size_t> first;
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
    for (size_t d : rk.keptDims) {
      if (stream->map[d] >= 0)
        s += "      if (a.st[" + ts + "][" + std::to_string(stream->map[d]) + "] % " + W +
             " != 0) aligned = 0;\n";
      if (t != *first && residue(t, d) != residue(*first, d))
        s += "      if (" + residue(t, d) + " != " + residue(*first, d) + ") congruent = 0;\n";
    }
  }
  s += "      vec = contiguous ? (aligned ? " + W + " : 1) : 0;\n";
  s += "      shifted = pointers && congruent ? " + W + " : 1;\n";
  s += "    }\n";
  return s;
}

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
  // one step, so that more rows stream at once.
  const bool sized = rk.sizesSharedKernel();
  auto sizedLaunch = [&](const std::string &in) {
    const std::string step = std::to_string(rk.vector * kRowCachedUnroll);
    std::string s = in + "/* rows the register variants hold only at wider vectors */\n";
    s += in + "threads = " + std::to_string(kRowShortCachedThreads) + ";\n";
    s += in + "while (threads < " + std::to_string(kRowCachedVariants[0].threads) +
         " && (long long)threads * " + step + " < a.len + " + std::to_string(rk.vector - 1) +
         ")\n" + in + "  threads *= 2;\n";
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
  int regions = 0;
  std::string shared;
  for (size_t t = 0; t < rk.tensors.size(); ++t)
    if (rk.cached(t))
      shared += std::string(regions++ ? " + " : "") + "(a.cache * " +
                std::to_string(dtypeBytes(rk.tensors[t].storage)) + " + 15) / 16 * 16";
  const std::string reserve = std::to_string(kRowCachedReserve + 16 * regions);
  std::string s = pad + "int per_block = 0, per_sm = 0;\n";
  s += pad + "long long span, room, fit = 0;\n";
  s += pad + "st = FUSERC_NAME_shared_memory_limits(&per_block, &per_sm);\n";
  s += pad + "if (st != FUSERC_NAME_OK)\n" + pad + "  return st;\n";
  s += pad + "/* the row's positions in whole vectors, wherever it starts */\n";
  s += pad + "span = (a.len + 2 * (shifted - 1)) / shifted * shifted;\n";
  // Positions one block caches: what its share of a multiprocessor's
  // shared memory holds (the driver reserves 1 KiB per block).
  auto fit = [&](const RowCachedVariant &v, const std::string &in) {
    return in + "room = (long long)per_sm / " + std::to_string(v.blocksPerSM) + " - 1024;\n" + in +
           "fit = ((room < per_block ? room : per_block) - " + reserve + ") / " +
           std::to_string(bytes) + " / shifted * shifted;\n";
  };
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
  s += pad + "a.cache = fit < 0 ? 0 : span < fit ? span : fit;\n";
  s += pad + "shared = (unsigned)(" + shared + ");\n";
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
std::string forcedVariants(const RowKernel &rk) {
  const std::string reset = std::string("shared = 0;\n") +
                            (rk.clustered() ? "cluster = 0;\n" : "") +
                            (rk.split ? "splits = 1;\n" : "");
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
               launch(rowKernelName(rk, v, vector), v.block(), v.rowsPerBlock)});
    if (rk.generatesCached())
      alternatives.push_back({"vec", cachedLaunch(rk, "")});
    // The split variant at any length, as many splits as rows allow.
    if (rk.split)
      alternatives.push_back(
          {"vec && a.rows * 2 <= " + std::to_string(kRowSplitTargetBlocks), splitLaunch(rk, "")});
  }
  for (const RowVariant &v : kRowVariants)
    if (rk.generates(v))
      alternatives.push_back(
          {v.looped() ? "" : "a.len >= 1 && a.len <= " + std::to_string(v.maxLength()),
           launch(rowKernelName(rk, v), v.block(), v.rowsPerBlock)});
  return variantHookPick(rk.base, alternatives.size(), "    ") +
         variantHookForce(0, alternatives, "    ");
}

// The host block: fill the arguments, pick a variant by row length, launch.
std::string hostLaunch(const RowKernel &rk) {
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
  s += "  if (a.rows > 0) {\n";
  s += "    int vec = 0;  /* the contiguous variants' vector width; 0: general variants */\n";
  s += "    int shifted = 1;  /* the cached variant's */\n";
  if (rk.sizesSharedKernel())
    s += "    unsigned threads = 0;  /* the shared cached kernel's on shorter rows */\n";
  if (rk.clustered())
    s += "    unsigned cluster = 0;  /* CTAs per cluster (the cluster variant); 0: none */\n";
  if (rk.split)
    s += "    unsigned splits = 1;  /* slices per row (the split variant) */\n";
  if (rk.generatesContiguous())
    s += contiguousCheck(rk);
  s += "    if (a.len > " + std::to_string(kRowCachedMaxLength) +
       "LL) vec = 0;  /* the cached variants count row positions in 32 bits */\n";
  std::vector<std::pair<std::string, std::string>> fast;
  for (const RowFastVariant &v : kRowFastVariants) {
    // At one width only where the variant is generated at one width only.
    const bool wide = rk.generates(v, rk.vector), narrow = rk.vector > 1 && rk.generates(v, 1);
    if (!wide && !narrow)
      continue;
    const std::string kernel = wide && narrow
                                   ? "vec == 1 ? \"" + rowKernelName(rk, v, 1) + "\" : \"" +
                                         rowKernelName(rk, v, rk.vector) + "\""
                                   : "\"" + rowKernelName(rk, v, wide ? rk.vector : 1) + "\"";
    const std::string width = wide && narrow ? "" : wide ? " && vec > 1" : " && vec == 1";
    fast.push_back({"a.len <= " + std::to_string(std::min(v.maxLength(), kRowCachedAbove)) + width,
                    "        kernel = " + kernel + ";\n" +
                        launchShape(v.block(), v.rowsPerBlock, "        ")});
  }
  if (rk.generatesCached()) {
    std::string cached;
    if (rk.split) {
      const std::string T = std::to_string(kRowSplitTargetBlocks),
                        M = std::to_string(kRowSplitMinSlice);
      cached += "        if (a.rows * 2 <= " + T + " && a.len / " + M + " >= 2 && a.len > " +
                std::to_string(kRowCachedAbove) + ") {\n";
      cached +=
          splitLaunch(rk, "          ",
                      T + " / a.rows < a.len / " + M + " ? " + T + " / a.rows : a.len / " + M);
      cached += "        } else {\n" + cachedLaunch(rk, "          ") + "        }\n";
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
  if (rk.clustered()) {
    s += "    if (cluster) {\n";
    s += "      if (groups > 2147483647LL / cluster)\n        groups = 2147483647LL / cluster;\n";
    s +=
        "      st = FUSERC_NAME_launch_cluster_kernel(kernel, (unsigned)groups * cluster, cluster, "
        "block, shared, &a, stream);\n";
    s += "    } else {\n";
  }
  const std::string in = rk.clustered() ? "  " : "";
  s += in + "    if (groups > 2147483647LL)\n" + in + "      groups = 2147483647LL;\n";
  s += in + "    st = FUSERC_NAME_launch_kernel(kernel, (unsigned)groups, " +
       (rk.split ? "splits" : "1") + ", 1, block, shared, &a, stream);\n";
  if (rk.clustered())
    s += "    }\n";
  s += "    if (st != FUSERC_NAME_OK)\n      return st;\n";
  s += "  }\n}\n";
  return s;
}

// The cached streams, as "input x, input y".
std::string cachedStreams(const RowKernel &rk) {
  std::string s;
  for (size_t t = 0; t < rk.tensors.size(); ++t)
    if (rk.cached(t))
      s += (s.empty() ? "" : ", ") + rk.tensors[t].what;
  return s;
}

std::vector<int64_t> dimNumbers(const std::vector<size_t> &dims) {
  return std::vector<int64_t>(dims.begin(), dims.end());
}

// Every variant of the kernel, in the order the selection rule tries them.
void addRowVariants(const RowKernel &rk, KernelPlan &plan) {
  for (const RowFastVariant &v : kRowFastVariants)
    for (int vector : rk.vectorWidths()) {
      if (!rk.generates(v, vector))
        continue;
      std::string what =
          v.threads < 32 ? std::to_string(v.threads) + " lanes per row, " +
                               std::to_string(v.rowsPerBlock) + " rows per block"
          : v.threads == 32
              ? "a warp per row, " + std::to_string(v.rowsPerBlock) + " rows per block"
              : "a block of " + std::to_string(v.threads) + " threads per row";
      what += ", " + std::to_string(v.elements) + " elements per thread kept in registers";
      plan.variants.push_back(
          {rowKernelName(rk, v, vector), what + ", vectors of " + std::to_string(vector)});
    }
  for (const RowCachedVariant &v : kRowCachedVariants)
    for (int vector : rk.vectorWidths()) {
      if (!rk.generatesCached())
        break;
      const bool shared = rk.sharesCachedKernel(vector);
      if (shared && &v != &kRowCachedVariants[0])
        continue; // one kernel for every cached variant, described once
      std::string what =
          shared ? "a block per row of the cached variant's threads (set at launch) "
                   "streaming it, " +
                       std::to_string(kRowCachedUnroll) +
                       " vectors per thread per step, L2 hints on re-read positions "
                       "for the last cached variant, "
                 : "a block of " + std::to_string(v.threads) + " threads per row streaming it, " +
                       std::to_string(kRowCachedUnroll) + " vectors per thread per step, ";
      what += rk.cachedBytes() == 0
                  ? "each phase re-reading"
                  : "the row of " + cachedStreams(rk) +
                        " first copied into shared memory (as much as " +
                        (shared ? std::string("the variant's share of a multiprocessor's")
                         : v.blocksPerSM == 1
                             ? std::string("a multiprocessor's")
                             : "1/" + std::to_string(v.blocksPerSM) + " of a multiprocessor's") +
                        " shared memory holds)";
      if (vector > 1)
        what += ", vectors of " + std::to_string(vector) +
                " from the vector boundary at or before the row's start";
      else
        what += ", vectors of 1";
      plan.variants.push_back({rowKernelName(rk, v, vector), what});
    }
  if (rk.clustered())
    for (int vector : rk.vectorWidths()) {
      const RowCachedVariant &v = kRowClusterVariant;
      std::string what = "sm_90 and newer: the row split over a thread-block cluster of 2 to " +
                         std::to_string(kRowClusterMax) + " CTAs of " + std::to_string(v.threads) +
                         " threads, each streaming its slice as the cached variants do (its slice "
                         "of " +
                         cachedStreams(rk) + " first copied into as much as 1/" +
                         std::to_string(v.blocksPerSM) +
                         " of a multiprocessor's shared memory holds), the partials combined "
                         "through distributed shared memory, vectors of " +
                         std::to_string(vector);
      plan.variants.push_back({rowKernelName(rk, v, vector), what});
    }
  if (rk.split)
    for (int vector : rk.vectorWidths())
      plan.variants.push_back(
          {rowKernelName(rk, kRowSplitVariant, vector),
           "each row split into S slices, a block of " + std::to_string(kRowSplitVariant.threads) +
               " threads streaming each (" + std::to_string(kRowCachedUnroll) +
               " vectors per thread per step, no cache) and leaving its partials in scratch, "
               "the row's last block merging them in split order, vectors of " +
               std::to_string(vector)});
  for (const RowVariant &v : kRowVariants) {
    if (!rk.generates(v))
      continue;
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
}

// What the variant budget leaves out of the kernel and what runs instead.
std::string rowVariantsLeftOut(const RowKernel &rk) {
  if (rk.budget == VariantBudget::Minimal) {
    // What the default budget would generate for these row lengths.
    RowKernel full = rk;
    full.budget = VariantBudget::Default;
    if (!full.generatesContiguous())
      return "";
    return "the contiguous variants (rows in registers or shared memory, vectors): every row "
           "takes the general variants, which read each element through its strides (the "
           "looped one re-reads the row in each phase)";
  }
  if (!rk.sharesCachedKernel(rk.vector))
    return "";
  std::string out = "a kernel per cached variant (";
  for (const RowCachedVariant &v : kRowCachedVariants)
    out += std::string(&v == kRowCachedVariants ? "" : ", ") + v.suffix;
  return out + ") at vectors of " + std::to_string(rk.vector) + ": they run one kernel (" +
         kRowSharedCachedKernel +
         "), its threads per row and L2 hints set at launch (--variants all compiles one per "
         "variant)";
}

// The contiguous variants' part of the selection rule, in words.
std::string contiguousRule(const RowKernel &rk) {
  const std::string V = std::to_string(rk.vector);
  std::string rule = "L = elements per row (product of the reduced extents). When L >= 1 and "
                     "every streamed tensor holds each row contiguously, a contiguous variant "
                     "with vectors of W = " +
                     V + " (L a multiple of " + V +
                     ", pointers and row starts aligned to W elements) or else of W = 1, by "
                     "L: ";
  // The register variants at each width, then the cached ones above the
  // longest of them.
  for (int width : rk.vectorWidths()) {
    if (rk.vector > 1)
      rule += "at W = " + std::to_string(width) + " ";
    for (const RowFastVariant &v : kRowFastVariants)
      if (rk.runs(v, width) && v.maxLength() <= rk.registersUpTo(width))
        rule += std::string(v.suffix) + " up to " + std::to_string(v.maxLength()) + ", ";
  }
  const int64_t below = rk.registersUpTo(rk.vector), narrowBelow = rk.registersUpTo(1);
  if (narrowBelow < below)
    rule += "longer rows at W = 1 (above " + std::to_string(narrowBelow) +
            ") as below (the register variants holding more than " +
            std::to_string(kRowNarrowMaxElements) + " elements per thread are left out at W = 1), ";
  const RowCachedVariant &first = kRowCachedVariants[0], &last = std::end(kRowCachedVariants)[-1];
  if (rk.split)
    rule += "above " + std::to_string(below) +
            ", when rows * 2 <= " + std::to_string(kRowSplitTargetBlocks) +
            " and L >= " + std::to_string(2 * kRowSplitMinSlice) + ", " + kRowSplitVariant.suffix +
            " with S = min(" + std::to_string(kRowSplitTargetBlocks) + " / rows, L / " +
            std::to_string(kRowSplitMinSlice) +
            ") slices per row (vectors as the cached variants'); "
            "otherwise ";
  rule += "above " + std::to_string(below) + " a cached streaming variant, with vectors of " + V +
          " where the pointers are aligned to " + V +
          " elements and every streamed tensor's rows start equally far past a multiple of " + V +
          " elements, else of 1: ";
  if (rk.sizesSharedKernel())
    rule += "rows up to " + std::to_string(kRowCachedAbove) + " at vectors of " + V +
            " run kernel " + kRowSharedCachedKernel + " with the fewest threads of " +
            std::to_string(kRowShortCachedThreads) + ", " +
            std::to_string(2 * kRowShortCachedThreads) + ", ... " +
            std::to_string(kRowCachedVariants[0].threads) + " that cover the row in one step" +
            (rk.cachedBytes() == 0
                 ? ""
                 : ", each caching what its share of " + std::to_string(kRowMinThreadsPerSM) +
                       " threads per multiprocessor holds") +
            "; longer ones ";
  // Under the default budget the cached variants at vectors of W run the
  // shared kernel.
  auto named = [&](const RowCachedVariant &v) {
    return std::string(v.suffix) +
           (rk.sharesCachedKernel(rk.vector)
                ? " (vectors of " + V + ": kernel " + kRowSharedCachedKernel + ", " +
                      std::to_string(v.threads) + " threads" + (&v == &last ? ", L2 hints" : "") +
                      ")"
                : "");
  };
  if (rk.cachedBytes() == 0)
    rule += named(first);
  else
    rule +=
        named(first) + " when its cache holds at least 3/4 of the row, else " + named(last) +
        " when its cache does or the device has no thread-block clusters (compute "
        "capability below 9.0, or a fatbin without code for compute capability 9.0 or newer), "
        "else " +
        kRowClusterVariant.suffix + " in clusters of C CTAs, the fewest of 2, 4 and " +
        std::to_string(kRowClusterMax) + " whose caches (" + first.suffix +
        "'s size each) hold at least 3/4 of the row, else " + std::to_string(kRowClusterMax) +
        ", each CTA running and caching its slice of S / C positions (rounded up to whole "
        "vectors); each caches min(S, F) row positions in dynamic shared memory, S = L rounded up "
        "to whole vectors past the row's start, F = what its share of a multiprocessor's "
        "shared memory (1 / blocks per multiprocessor, less 1 KiB, at most the opt-in "
        "limit per block) holds, less " +
        std::to_string(kRowCachedReserve) + " bytes, at " + std::to_string(rk.cachedBytes()) +
        " bytes per position";
  rule += ". ";
  return rule;
}

// The rule the host block follows to pick a variant, in words.
std::string rowSelectionRule(const RowKernel &rk) {
  std::string rule;
  if (rk.generatesContiguous())
    rule = contiguousRule(rk);
  else
    rule = "L = elements per row (product of the reduced extents). ";
  rule += rk.generatesContiguous()
              ? "Otherwise (or when L > " + std::to_string(kRowCachedMaxLength) +
                    ") a general variant: "
              : "A general variant (each element read through its strides): ";
  int64_t below = 0;
  for (const RowVariant &v : kRowVariants) {
    rule += v.looped() ? std::string(v.suffix) + " when L > " + std::to_string(below) + " or L = 0."
                       : std::string(v.suffix) + " when " + std::to_string(below + 1) +
                             " <= L <= " + std::to_string(v.maxLength()) + "; ";
    below = std::max(below, v.maxLength());
  }
  if (rk.minLength == rk.maxLength)
    rule += " L is " + std::to_string(rk.minLength) +
            " (static extents): only the variants these rules pick for it are generated.";
  return rule;
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
  plan.parameters = rk.segment->schedule->fields();
  plan.parameters.insert(plan.parameters.end(), {{"row_dims", dimNumbers(rk.keptDims)},
                                                 {"row_length_dims", dimNumbers(rk.reducedDims)},
                                                 {"reductions", reductions},
                                                 {"accumulate", accumulate}});
  std::string streamed;
  for (size_t t = 0; t < rk.tensors.size(); ++t)
    if (rk.streams[t])
      streamed += (streamed.empty() ? "" : ", ") + rk.tensors[t].what +
                  (rk.streams[t]->alongRow ? "" : " (one per row)");
  plan.parameters.push_back({"streamed", streamed.empty() ? "none" : streamed});
  plan.parameters.push_back({"vector", int64_t{rk.vector}});
  addRowVariants(rk, plan);
  plan.leftOut = rowVariantsLeftOut(rk);
  plan.selection = rowSelectionRule(rk);
  plan.launchGeometry = "block = threads per row x rows per block; grid min(ceil(rows / rows per "
                        "block), 2^31 - 1), a grid-stride loop over rows; the cached variant's "
                        "dynamic shared memory as its selection says";
  if (rk.clustered())
    plan.launchGeometry += "; the cluster variant: clusters of C CTAs, a cluster per row, grid C x "
                           "min(rows, (2^31 - 1) / C)";
  if (rk.split)
    plan.launchGeometry += "; the split variant: grid rows x S, its partials (" +
                           std::to_string(kRowSplitTargetBlocks) +
                           " per reduction) and a count per row in workspace scratch";
  plan.scratchBytes = rk.scratchBytes();
  plan.bytesMoved = kernelBytesMoved(rk.tensors);
  plan.argsStruct = rowArgsStruct(rk, "FUSERC_NAME_");
  plan.hostLaunch = hostLaunch(rk);
  plan.clusterLaunch = rk.clustered();
}

} // namespace fuserc
