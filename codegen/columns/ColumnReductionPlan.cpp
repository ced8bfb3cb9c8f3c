// Column-reduction kernels, host side: the argument struct, the launch
// block that picks a variant and a split count at launch (through the C
// helpers of ColumnReductionHostHelpers.cpp), and the plan (see
// ColumnReductionPlan.h; the device side is in ColumnReductionEmitter.cpp).
#include "codegen/columns/ColumnReductionPlan.h"

#include "codegen/columns/ColumnReductionKernel.h"
#include "codegen/core/BlockReduce.h"
#include "codegen/core/CudaTypes.h"
#include "codegen/core/IndexChecks.h"
#include "codegen/core/VariantHook.h"
#include "schedulers/OpFamilies.h"

#include <algorithm>

namespace fuserc {

std::vector<ColumnVariant> ColumnKernel::variants() const {
  std::vector<ColumnVariant> v;
  if (tiled) {
    if (maxVector > 1) {
      v.push_back({false, maxVector, true});
      v.push_back({false, maxVector});
    }
    v.push_back({false, 1});
  }
  v.push_back({true, 1});
  return v;
}

Extent ColumnKernel::columns() const { return numElements(rows.reduced); }

Extent ColumnKernel::rowsPerColumn() const {
  Extent count = 1;
  for (int64_t a : rows.axes)
    count = count * rows.domain[static_cast<size_t>(a)];
  return count;
}

Extent ColumnKernel::maxSplits() const {
  return Extent::min(
      Extent::floorDiv(Extent::max(rowsPerColumn() - 1, 0), int64_t{kColumnMinRowsPerSplit - 1}),
      int64_t{kColumnMaxSplits});
}

Extent ColumnKernel::scratchBytes() const {
  // 0 where no launch splits (one split uses no scratch), else 1.
  const Extent any = Extent::min(Extent::floorDiv(maxSplits(), 2), 1);
  // tile_pack (K < V) splits its L = floor(R K / V) packed rows over
  // A * V packed columns.
  Extent outer = 1, inner = 1;
  for (size_t d : grouping.outerKept)
    outer = outer * rows.domain[d];
  for (size_t d : grouping.innerKept)
    inner = inner * rows.domain[d];
  const Extent packedRows = Extent::floorDiv(rowsPerColumn() * inner, int64_t{maxVector});
  const Extent packedSplits = Extent::min(
      Extent::floorDiv(Extent::max(packedRows - 1, 0), int64_t{kColumnMinRowsPerSplit - 1}),
      int64_t{kColumnMaxSplits});
  // 1 where a launch may pack (K < V and K divides V), else 0.
  const Extent V(maxVector);
  const Extent packs = tiled && maxVector > 1
                           ? Extent::min(Extent::max(V - inner, 0), 1) *
                                 (Extent(1) - Extent::min(Extent::mod(V, Extent::max(inner, 1)), 1))
                           : Extent(0);
  const Extent splitColumns = Extent::min(
      Extent::max(columns() * maxSplits(), outer * int64_t{maxVector} * packedSplits * packs) * any,
      Extent(columnMaxSplitColumns(maxVector)));
  Extent bytes = 0;
  // Each partial array after the first starts on a kColumnPartialAlignment
  // boundary: an i64 or f64 array after an f32 one of an odd count would be
  // misaligned (fuzz seed 81761).
  for (size_t p = 0; p < partials.size(); ++p)
    bytes = bytes + splitColumns * static_cast<int64_t>(dtypeBytes(partials[p].acc)) +
            (p ? any * int64_t{kColumnPartialAlignment} : Extent(0));
  // A count per tile (at most one per column).
  return bytes + any * columns() * static_cast<int64_t>(sizeof(int));
}

bool sameAcrossColumns(const ColumnKernel &k, const ColumnTensor &t) {
  const std::vector<Extent> &shape = t.value->shape();
  const size_t rank = k.rows.domain.size();
  for (size_t d : k.grouping.innerKept)
    if (d + shape.size() >= rank && !shape[d + shape.size() - rank].isConstant(1))
      return false;
  return true;
}

std::string columnKernelName(const ColumnKernel &k, const ColumnVariant &v) {
  return k.base + "_" + v.suffix();
}

std::string columnArgsStruct(const ColumnKernel &k, const std::string &prefix) {
  const std::string nt = std::to_string(std::max<size_t>(k.tensors.size(), 1));
  const std::string np = std::to_string(std::max<size_t>(k.partials.size(), 1));
  const std::string R = std::to_string(kColumnMaxRank);
  const size_t ns = std::max<size_t>(k.fusion->fusion->symbols().size(), 1);
  std::string s = "typedef struct {\n";
  s += "  void *ptr[" + nt + "];\n";
  s += "  void *part[" + np + "];  /* split partials, [splits][cols] each */\n";
  s += "  long long st[" + nt + "][" + R + "];   /* strides per tensor dim */\n";
  s += "  long long dst[" + nt + "][" + R + "];  /* strides per domain dim (tile variants) */\n";
  s += "  long long rs[" + nt + "], ks[" + nt + "];  /* collapsed row / column strides */\n";
  s += "  long long size[" + R + "];\n";
  s += "  int *count;   /* per column tile: its split blocks done (zeroed before the launch) */\n";
  s += "  long long cols, kcols, len, tiles, splits, chunk;\n";
  s += "  long long lanes;  /* lanes of a warp across a tile's columns */\n";
  s += "  long long rows, kreal;  /* R and K (cols, kcols, len: packed ones in tile_pack) */\n";
  s += "  long long sym[" + std::to_string(ns) + "];\n";
  return s + argsStructEnd(k.scalars, "", k.segment->segment, prefix + k.base);
}

namespace {

std::string intArray(const std::string &name, const std::vector<size_t> &values) {
  std::string s = "  static const int " + name + "[" +
                  std::to_string(std::max<size_t>(values.size(), 1)) + "] = {";
  for (size_t i = 0; i < values.size(); ++i)
    s += (i ? ", " : "") + std::to_string(values[i]);
  return s + (values.empty() ? "0};\n" : "};\n");
}

std::string product(const std::string &target, const std::vector<size_t> &dims) {
  std::string s = "  " + target + " = 1;\n";
  for (size_t d : dims)
    s += "  " + target + " *= a.size[" + std::to_string(d) + "];\n";
  return s;
}

// The host block: fill the arguments, pick a variant and a split count,
// and launch the tile kernel; with more than one split, its partials and
// counts go to scratch and the counts are zeroed first.
std::string hostLaunch(const ColumnKernel &k) {
  auto sym = [](const std::string &s) { return "sym_" + s; };
  const ReductionGrouping &g = k.grouping;
  const size_t rank = k.rows.domain.size();
  std::string s = "{\n";
  s += "  FUSERC_NAME_" + k.base + "_args a;\n";
  s += "  const char *kernel;\n";
  s += "  int vec = 0;\n";
  s += "  long long pack = 1, packable = 1;  /* rows per vector (tile_pack), where it pays */\n";
  s += "  long long blocks;\n";
  if (k.tiled) {
    std::vector<size_t> lanes, esize;
    for (const ColumnTensor &t : k.tensors) {
      lanes.push_back(t.lanes ? 1 : 0);
      esize.push_back(dtypeBytes(t.storage));
    }
    s += intArray("lanes", lanes) + intArray("esize", esize);
    s += intArray("adims", g.outerKept) + intArray("rdims", g.reduced) +
         intArray("kdims", g.innerKept);
  }
  s += "  memset(&a, 0, sizeof a);\n";
  if (segmentChecksIndices(k.segment->segment))
    s += indexFlagHostCode();
  s += hostSymbolAndScalarArguments(k.fusion->fusion->symbols(), k.scalars);
  for (size_t d = 0; d < rank; ++d)
    s += "  a.size[" + std::to_string(d) + "] = " + extentToCode(k.rows.domain[d], sym) + ";\n";
  for (size_t t = 0; t < k.tensors.size(); ++t) {
    const ColumnTensor &kt = k.tensors[t];
    const std::string ts = std::to_string(t);
    s += hostTensorArguments(t, kt);
    if (!kt.lanes)
      continue;
    // Domain strides, right-aligned as elementwise ops broadcast; 0 where
    // the tensor is broadcast.
    const size_t r = kt.value->rank();
    for (size_t i = 0; i < r; ++i)
      if (!kt.value->shape()[i].isConstant(1))
        s += "  a.dst[" + ts + "][" + std::to_string(i + rank - r) + "] = " + kt.strides[i] + ";\n";
  }
  s += product("a.kcols", g.innerKept) + product("a.len", g.reduced);
  s += product("a.cols", g.outerKept) + "  a.cols *= a.kcols;\n";
  // The testing hook's alternatives (codegen/core/VariantHook.h): the
  // general variant, the tiled one of width 1 in place of a wider one, then
  // one split and the most splits.
  std::vector<ForcedVariant> forced{{"", "vec = 0;\npack = 1;"}};
  if (k.tiled && k.maxVector > 1) {
    forced.push_back({"vec > 1", "vec = 1;\npack = 1;"});
    // tile_pack wherever the strides allow it, paying or not.
    forced.push_back(
        {"packable > 1", "pack = packable;\nvec = " + std::to_string(k.maxVector) + ";"});
  }
  const size_t vectors = forced.size();
  // The most splits the scratch holds (fuserc_col_most_splits).
  forced.push_back({"", "a.chunk = a.len;\na.splits = 1;"});
  forced.push_back({"", "fuserc_col_most_splits(a.cols, a.len, " +
                            std::to_string(columnMaxSplitColumns(k.maxVector)) +
                            "LL, &a.splits, &a.chunk);"});
  s += "  if (a.cols > 0) {\n";
  if (k.tiled)
    s += "    vec = fuserc_col_plan(" + std::to_string(k.tensors.size()) +
         ", lanes, esize, a.ptr, a.dst, a.size, " + std::to_string(g.outerKept.size()) +
         ", adims, " + std::to_string(g.reduced.size()) + ", rdims, " +
         std::to_string(g.innerKept.size()) + ", kdims, a.kcols, " + std::to_string(k.maxVector) +
         ", a.rs, a.ks);\n";
  // The widest element a lane loads (unpacked, per row).
  int widest = 1;
  for (const ColumnTensor &t : k.tensors)
    if (t.lanes)
      widest = std::max(widest, dtypeBytes(t.storage));
  if (k.tiled && k.maxVector > 1) {
    s += "    packable = vec ? fuserc_col_pack(" + std::to_string(k.tensors.size()) +
         ", lanes, esize, a.ptr, a.dst, " + std::to_string(g.outerKept.size()) +
         ", adims, a.kcols, a.len, " + std::to_string(k.maxVector) + ", a.rs, a.ks) : 1;\n";
    s += "    if (packable > 1 && fuserc_col_pack_pays(a.cols, a.len, packable, " +
         std::to_string(widest) + "))\n      pack = packable;\n";
    s += "    if (pack > 1)\n      vec = " + std::to_string(k.maxVector) + ";\n";
  }
  s += variantHookPick(k.base, forced.size(), "    ");
  s += variantHookForce(0, std::vector<ForcedVariant>(forced.begin(), forced.begin() + vectors),
                        "    ");
  s += "    a.rows = a.len;\n    a.kreal = a.kcols;\n";
  if (k.tiled && k.maxVector > 1) {
    // tile_pack runs over packed columns: vec per outer index, R / pack rows.
    s += "    if (pack > 1) {\n";
    s += "      a.len /= pack;\n      a.cols = a.cols / a.kcols * vec;\n      a.kcols = vec;\n";
    s += "      for (int t = 0; t < " + std::to_string(k.tensors.size()) + "; ++t) {\n";
    s += "        a.ks[t] = a.rs[t] != 0;  /* whole rows adjacent (any stride for K = 1) */\n";
    s += "        a.rs[t] *= pack;\n      }\n    }\n";
  }
  s += "    a.lanes = fuserc_col_lanes(a.cols, vec ? vec : 1);\n";
  s += "    a.tiles = (a.cols + a.lanes * (vec ? vec : 1) - 1) / (a.lanes * (vec ? vec : 1));\n";
  // Bytes a lane loads per row: a vector of the widest tensor it reads,
  // counted as at least 4.
  const int laneBytes = std::max(4, widest);
  s += "    fuserc_col_splits(a.tiles, a.len, a.lanes, a.lanes * (vec ? vec : 1), (vec ? vec : 1) "
       "* " +
       std::to_string(laneBytes) + "LL, &a.splits, &a.chunk);\n";
  s += variantHookForce(vectors, std::vector<ForcedVariant>(forced.begin() + vectors, forced.end()),
                        "    ");
  std::string choose;
  for (const ColumnVariant &v : k.variants())
    choose += v.general  ? "\"" + columnKernelName(k, v) + "\""
              : v.packed ? "pack > 1 ? \"" + columnKernelName(k, v) + "\" : "
                         : "vec == " + std::to_string(v.vector) + " ? \"" + columnKernelName(k, v) +
                               "\" : ";
  s += "    kernel = " + choose + ";\n";
  s += variantHookLaunched("kernel", "    ");
  s += "    if (a.splits > 1) {\n";
  s += "      char *scratch = ws + " + extentToCode(k.scratchOffset, sym) + ";\n";
  for (size_t p = 0; p < k.partials.size(); ++p) {
    if (p)
      s += "      scratch += (" + std::to_string(kColumnPartialAlignment) +
           " - (uintptr_t)scratch % " + std::to_string(kColumnPartialAlignment) + ") % " +
           std::to_string(kColumnPartialAlignment) + ";  /* aligned for any partial */\n";
    s += "      a.part[" + std::to_string(p) + "] = scratch;  /* " + k.partials[p].what +
         " */\n      scratch += " + std::to_string(dtypeBytes(k.partials[p].acc)) +
         "LL * a.splits * a.cols;\n";
  }
  s += "      a.count = (int *)scratch;\n";
  s += "      st = FUSERC_NAME_zero_words(a.count, (size_t)a.tiles, stream);\n";
  s += "      if (st != FUSERC_NAME_OK)\n        return st;\n";
  s += "    }\n";
  s += "    blocks = a.tiles < 2147483647LL ? a.tiles : 2147483647LL;\n";
  s += "    st = FUSERC_NAME_launch_kernel(kernel, (unsigned)blocks, (unsigned)a.splits, 1, " +
       std::to_string(kColumnBlock) + ", 0, &a, stream);\n";
  s += "    if (st != FUSERC_NAME_OK)\n      return st;\n";
  s += "  }\n}\n";
  return s;
}

} // namespace

void fillColumnPlan(const ColumnKernel &k, KernelPlan &plan) {
  const FusionAnalysis &analysis = *k.fusion->analysis;
  plan.name = k.base;
  plan.scheduler = std::string(k.segment->scheduler->name());
  plan.segment = static_cast<int>(k.segment->id);
  for (const Op *op : k.segment->segment.ops())
    plan.ops.push_back(analysis.name(*op->result()));
  std::string reductions, accumulate;
  for (const Op *op : k.rows.reductions) {
    reductions += (reductions.empty() ? "" : " ") + analysis.name(*op->result()) + "(" +
                  std::string(op->info().name) + ")";
    accumulate += (accumulate.empty() ? "" : " ") +
                  std::string(dtypeName(reductionAccumulator(op->result()->dtype())));
  }
  plan.parameters = k.segment->schedule->fields();
  plan.parameters.insert(plan.parameters.end(), {{"block_columns", int64_t{kColumnThreadsX}},
                                                 {"block_rows", int64_t{kColumnThreadsY}},
                                                 {"rows_in_flight", int64_t{kColumnUnroll}},
                                                 {"max_vector", int64_t{k.maxVector}},
                                                 {"max_splits", int64_t{kColumnMaxSplits}},
                                                 {"reductions", reductions},
                                                 {"accumulate", accumulate},
                                                 {"scratch_bytes", k.scratchBytes().str()}});
  for (const ColumnVariant &v : k.variants()) {
    std::string what =
        v.general ? "one column per thread, every element addressed from its coordinates"
        : v.packed
            ? "vectors of " + std::to_string(v.vector) + " / K whole rows for K < " +
                  std::to_string(v.vector) + " inner kept columns dividing it: packed columns of " +
                  std::to_string(v.vector) + " per outer index, folded into K before the epilogue"
            : std::to_string(v.vector) + " adjacent column" + (v.vector > 1 ? "s" : "") +
                  " per thread (" + std::to_string(v.width()) +
                  " per block), rows a collapsed stride apart";
    plan.variants.push_back({columnKernelName(k, v), what});
  }
  std::string rule;
  if (k.tiled)
    rule = "when every tensor the prologue reads collapses to one stride along the reduced "
           "dims and to stride 0 or 1 along the inner kept dims: " +
           (k.maxVector > 1
                ? columnKernelName(k, {false, k.maxVector, true}) + " when K < " +
                      std::to_string(k.maxVector) + " divides " + std::to_string(k.maxVector) +
                      " and every such tensor is one value per outer index or has whole rows " +
                      "adjacent (row stride K), its pointer and outer strides multiples of " +
                      std::to_string(k.maxVector) + " elements; else " +
                      columnKernelName(k, {false, k.maxVector}) + " when K (inner " +
                      "kept elements), every pointer and every row and outer " +
                      "stride are multiples of " + std::to_string(k.maxVector) + " columns, else "
                : std::string()) +
           columnKernelName(k, {false, 1}) + "; otherwise " + columnKernelName(k, {true, 1}) + ". ";
  else
    rule = columnKernelName(k, {true, 1}) + " always (the prologue is not elementwise). ";
  rule += "Lanes across a tile's columns kl: the fewest of 1, 2, 4, ..., 32 with kl * V >= A*K, "
          "fewer while (kl * V)^2 > 8 * A*K; the warp's other lanes on other rows. Splits S: "
          "doubled from 1 while S < " +
          std::to_string(kColumnMaxSplits) + ", tiles * S < " +
          std::to_string(kColumnTargetBlocks) +
          " (x2 where a lane loads 8 bytes per row, x4 for 4 or fewer), S * kl * V <= " +
          std::to_string(kColumnMaxMergeDepth * kColumnBlock / 2) +
          " and ceil(R / 2S) >= " + std::to_string(kColumnUnroll) + " * 256 / kl, none while R < " +
          std::to_string(kColumnMinRoundsToSplit) + " * " + std::to_string(kColumnUnroll) +
          " * 256 / kl (tiles = ceil(A*K / (kl V)), R = reduced "
          "elements per column); with S > 1, the last of a tile's S blocks to finish merges "
          "their partials in split order.";
  plan.selection = rule;
  plan.launchGeometry = "block " + std::to_string(kColumnBlock) + " (" +
                        std::to_string(kColumnThreadsX) + " x " + std::to_string(kColumnThreadsY) +
                        "); grid min(ceil(A*K / (kl * V)), 2^31 - 1) x S, a " +
                        "grid-stride loop over column tiles";
  plan.bytesMoved = kernelBytesMoved(k.tensors);
  plan.argsStruct = columnArgsStruct(k, "FUSERC_NAME_");
  plan.hostLaunch = hostLaunch(k);
  plan.scratchBytes = k.scratchBytes();
}

} // namespace fuserc
