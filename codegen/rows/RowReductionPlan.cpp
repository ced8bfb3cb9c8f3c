// Row-reduction kernels, host side: the argument struct, which variants are
// generated, and the plan describing them and their selection (see
// RowReductionPlan.h; the launch block: RowHostLaunch.cpp).
#include "codegen/rows/RowReductionPlan.h"

#include "codegen/core/BlockReduce.h"
#include "codegen/core/CudaTypes.h"
#include "codegen/core/IndexChecks.h"
#include "codegen/core/VariantHook.h"
#include "schedulers/OpFamilies.h"

#include <algorithm>
#include <optional>
#include <utility>

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
  if (rk.grid) {
    s += "  char *slots;  /* the grid variant's partials: per combine, [rows][splits] of 8 bytes "
         "*/\n";
    s += "  int *count;  /* per row: its blocks' arrivals at combines (zeroed before the launch) "
         "*/\n";
  }
  if (rk.columnPartials()) {
    s += "  void *cpart[" + std::to_string(rk.rows.columns.size()) +
         "];  /* column partials: a row per block of the row kernel */\n";
    s += "  long long cblocks;  /* the row kernel's blocks */\n";
  }
  s += "  long long sym[" + std::to_string(ns) + "];\n";
  return s + argsStructEnd(rk.scalars, "", rk.segment->segment, prefix + rk.base);
}

std::string rowKernelName(const RowKernel &rk, const RowVariant &v) {
  return rk.base + "_" + v.suffix;
}

std::string rowKernelName(const RowKernel &rk, const RowFastVariant &v, int vector, bool headed) {
  return rk.base + (headed ? "_h" : "_v") + std::to_string(vector) + "_" + v.suffix;
}

std::string rowColumnMergeName(const RowKernel &rk) { return rk.base + "_colmerge"; }

std::string rowKernelName(const RowKernel &rk, const RowCachedVariant &v, int vector) {
  const bool cached = &v >= std::begin(kRowCachedVariants) && &v < std::end(kRowCachedVariants);
  return rk.base + "_v" + std::to_string(vector) + "_" +
         (cached && rk.sharesCachedKernel(vector) ? kRowSharedCachedKernel : v.suffix);
}

int64_t RowKernel::splitPartialBytes(size_t i) const {
  // A var leaves its mean and its sum of squared deviations.
  const int64_t arrays = rows.reductions[i]->kind() == OpKind::Var ? 2 : 1;
  return arrays * kRowSplitTargetBlocks *
         static_cast<int64_t>(
             dtypeBytes(reductionAccumulator(rows.reductions[i]->result()->dtype())));
}

int RowKernel::gridCombines() const {
  int combines = 0;
  for (const Op *op : rows.reductions)
    combines += op->kind() == OpKind::Var ? 2 : 1;
  return combines;
}

int RowKernel::rowPositionBytes() const {
  int bytes = 0;
  for (size_t t = 0; t < tensors.size(); ++t)
    if (streams[t] && streams[t]->alongRow)
      bytes += static_cast<int>(dtypeBytes(tensors[t].storage));
  return bytes;
}

bool RowKernel::onePass() const {
  // A pass per reduction, a var's second, the per-element outputs'.
  size_t passes = rows.reductions.size();
  for (const Op *op : rows.reductions)
    passes += op->kind() == OpKind::Var;
  for (const RowTensor &t : tensors)
    passes += t.perElement();
  return passes <= 1;
}

int RowKernel::heldRows() const {
  int held = 0;
  for (const std::optional<RowStream> &stream : streams)
    held += stream && stream->cached;
  return held + 2 * static_cast<int>(rows.columns.size());
}

int RowKernel::minBlocksPerSM(const RowFastVariant &v) const {
  // A thread holding 32 elements of each of H > 1 different rows (x and dy
  // of a backward pass) needs H times the registers: asking for 1 / H of
  // the threads keeps as many bytes in flight without spilling. Column
  // partials count from 16 elements per thread.
  const int held = heldRows();
  const int holdsFrom = columnPartials() ? kRowNarrowMaxElements - 1 : kRowNarrowMaxElements;
  const int perSM =
      v.elements > holdsFrom && held > 1 ? kRowMinThreadsPerSM / held : kRowMinThreadsPerSM;
  return std::max(1, perSM / v.block());
}

Extent RowKernel::columnPartialBytes(size_t c) const {
  Extent rowCount = 1, length = 1;
  for (size_t d : keptDims)
    rowCount = rowCount * rows.domain[d];
  for (size_t d : reducedDims)
    length = length * rows.domain[d];
  return Extent::min(rowCount, Extent(kRowColumnBlocks)) * length *
         Extent(static_cast<int64_t>(
             dtypeBytes(reductionAccumulator(rows.columns[c]->result()->dtype()))));
}

Extent RowKernel::scratchBytes() const {
  if (columnPartials()) {
    Extent bytes = 0;
    for (size_t c = 0; c < rows.columns.size(); ++c)
      bytes = bytes + columnPartialBytes(c);
    return bytes;
  }
  if (grid)
    return int64_t{gridCombines()} * kRowSplitTargetBlocks * 8 +
           kRowSplitTargetBlocks / 2 * static_cast<int64_t>(sizeof(int));
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

// The host's chain (hostLaunch): at each width, contiguous variant v takes
// lengths above the previous one's limit (of those running at that width)
// up to its own (at most kRowCachedAbove): [lo, hi], at most
// kRowCachedMaxLength; nothing where v does not run at that width.
std::optional<std::pair<int64_t, int64_t>> chainRange(const RowKernel &rk, const RowFastVariant &v,
                                                      int width) {
  int64_t lo = 1;
  for (const RowFastVariant &f : kRowFastVariants) {
    if (!rk.runs(f, width))
      continue;
    const int64_t hi = std::min(f.maxLength(), kRowCachedAbove);
    if (&f == &v)
      return std::make_pair(lo, std::min(hi, kRowCachedMaxLength));
    lo = std::max(lo, hi + 1);
  }
  return std::nullopt;
}

} // namespace

bool RowKernel::generates(const RowFastVariant &v, int width) const {
  if (budget == VariantBudget::Minimal || !contiguous())
    return false;
  const auto range = chainRange(*this, v, width);
  return range && meets(*this, range->first, range->second);
}

// By L + W - 1 positions in the widest vector's chain, above
// kRowHeadedAbove.
bool RowKernel::generatesHeaded(const RowFastVariant &v) const {
  if (vector == 1 || budget == VariantBudget::Minimal || !contiguous() || columnPartials() ||
      v.maxLength() <= kRowHeadedAbove || v.maxLength() > registersUpTo(1))
    return false;
  const auto range = chainRange(*this, v, vector);
  return range && meets(*this, std::max(range->first, kRowHeadedAbove + 1) - (vector - 1),
                        range->second - (vector - 1));
}

bool RowKernel::runsHeaded() const {
  return std::any_of(std::begin(kRowFastVariants), std::end(kRowFastVariants),
                     [&](const RowFastVariant &v) { return generatesHeaded(v); });
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
  return budget != VariantBudget::Minimal && contiguous() && !columnPartials() &&
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
  for (const RowFastVariant &v : kRowFastVariants) {
    std::string what =
        v.threads == 1   ? "a thread per row, " + std::to_string(v.rowsPerBlock) + " rows per block"
        : v.threads < 32 ? std::to_string(v.threads) + " lanes per row, " +
                               std::to_string(v.rowsPerBlock) + " rows per block"
        : v.threads == 32 ? "a warp per row, " + std::to_string(v.rowsPerBlock) + " rows per block"
                          : "a block of " + std::to_string(v.threads) + " threads per row";
    what += ", " + std::to_string(v.elements) + " elements per thread kept in registers";
    for (int vector : rk.vectorWidths())
      if (rk.generates(v, vector))
        plan.variants.push_back(
            {rowKernelName(rk, v, vector), what + ", vectors of " + std::to_string(vector)});
    if (rk.generatesHeaded(v))
      plan.variants.push_back({rowKernelName(rk, v, rk.vector, true),
                               what + ", vectors of " + std::to_string(rk.vector) +
                                   " from the vector boundary at or before the row's start "
                                   "(headed rows)"});
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
  if (rk.grid)
    for (int vector : rk.vectorWidths())
      plan.variants.push_back(
          {rowKernelName(rk, kRowGridVariant, vector),
           "each row split into S slices, a block of " + std::to_string(kRowGridVariant.threads) +
               " threads per slice, every block of the grid resident at once (a cooperative "
               "launch), each streaming its slice as the cached variants do (its slice of " +
               cachedStreams(rk) + " first copied into as much as 1/" +
               std::to_string(kRowGridVariant.blocksPerSM) +
               " of a multiprocessor's shared memory holds); at each combine the blocks leave "
               "their partials in scratch, wait for the row's other blocks and join the S "
               "partials in slice order, vectors of " +
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
  if (rk.columnPartials())
    plan.variants.push_back({rowColumnMergeName(rk),
                             "the column merge, launched after whichever variant ran: each "
                             "column's partials of its blocks joined in block order"});
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
  if (rk.runsHeaded())
    rule += "headed rows (L no multiple of " + V + ", or rows starting off a multiple of " + V +
            " elements) where the pointers are aligned to " + V +
            " elements and the rows of every streamed tensor they differ in start equally far "
            "past a multiple of " +
            V +
            " (one the same in every row is read element by element in rows off a boundary)"
            ", from L = " +
            std::to_string(kRowHeadedAbove - rk.vector + 2) +
            " up to L = " + std::to_string(narrowBelow - rk.vector + 1) +
            ": the variants' headed kernels (h" + V + ") at W = " + V + " by L + " +
            std::to_string(rk.vector - 1) +
            " positions, vectors from the boundary at or before the row's start, ";
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
  if (rk.grid)
    rule += "above " + std::to_string(std::max(below, kRowCachedAbove)) +
            ", when rows * 2 <= " + std::to_string(kRowSplitTargetBlocks) + ", " +
            kRowGridVariant.suffix + " with S = min(" + std::to_string(kRowSplitTargetBlocks) +
            " / rows, L / " + std::to_string(kRowSplitMinSlice) +
            ") slices per row (vectors and caches as the cached variants') where the rows are "
            "read at vectors of 1 or L * " +
            std::to_string(rk.rowPositionBytes()) +
            " bytes (every streamed tensor's) >= " + std::to_string(kRowGridMinRowBytes) +
            ", and the device holds the rows * S blocks at once (cooperative launches, its "
            "multiprocessors times the kernel's occupancy); otherwise ";
  rule += "above " + std::to_string(below) + " a cached streaming variant, with vectors of " + V +
          " where the pointers are aligned to " + V +
          " elements and every streamed tensor's rows start equally far past a multiple of " + V +
          " elements, else of 1: ";
  if (rk.sizesSharedKernel())
    rule += "rows up to " + std::to_string(kRowCachedAbove) + " at vectors of " + V +
            " run kernel " + kRowSharedCachedKernel + " with the fewest threads of " +
            std::to_string(kRowShortCachedThreads) + ", " +
            std::to_string(2 * kRowShortCachedThreads) + ", ... " +
            std::to_string(kRowCachedVariants[0].threads) +
            " that cover the row in one step, halved to 32 at least while rows * threads > " +
            std::to_string(kRowShortCachedTargetThreads) +
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
  if (rk.grid)
    plan.launchGeometry += "; the grid variant: grid rows x S, launched cooperatively, " +
                           std::to_string(kRowSplitTargetBlocks) +
                           " slots of 8 bytes per combine and a count per row in workspace "
                           "scratch";
  if (rk.split)
    plan.launchGeometry += "; the split variant: grid rows x S, its partials (" +
                           std::to_string(kRowSplitTargetBlocks) +
                           " per reduction) and a count per row in workspace scratch";
  if (rk.columnPartials()) {
    // The variants whose one wave is fewer blocks than kRowColumnBlocks.
    std::string fewer;
    for (const RowFastVariant &v : kRowFastVariants)
      if ((rk.generates(v, rk.vector) || rk.generates(v, 1)) &&
          rk.columnBlocks(v) < kRowColumnBlocks)
        fewer += std::string(fewer.empty() ? "" : ", ") + v.suffix;
    plan.launchGeometry +=
        "; with column reductions: grid min(ceil(rows / rows per block), C), C = " +
        std::to_string(kRowColumnBlocks) +
        (fewer.empty() ? std::string()
                       : " (" + std::to_string(kRowColumnSMs) + " for " + fewer +
                             ": the blocks that fit on every SM at once)") +
        ", each block's partial row of " + "every column reduction in workspace scratch, then " +
        rowColumnMergeName(rk) + ": blocks of " + std::to_string(kRowColumnMergeBlock) +
        " threads, " + std::to_string(kRowColumnMergeWidth) + " columns each";
  }
  plan.scratchBytes = rk.scratchBytes();
  plan.bytesMoved = kernelBytesMoved(rk.tensors);
  plan.argsStruct = rowArgsStruct(rk, "FUSERC_NAME_");
  plan.hostLaunch = rowHostLaunch(rk);
  plan.extendedLaunch = rk.clustered() || rk.grid;
}

} // namespace fuserc
