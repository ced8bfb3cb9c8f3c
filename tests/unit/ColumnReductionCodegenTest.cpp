// Column reduction code generation: reduction segments whose reduced dims
// are not innermost in memory (outer and middle reductions) compile with
// NVRTC (sm_80, sm_90) in every variant, size their split scratch in the
// workspace, and layouts that do not group as [outer kept][reduced][inner
// kept] are refused with a message saying so.
#include "CodegenTestSupport.h"

#include <gtest/gtest.h>

namespace fuserc {
namespace {

using test::expectCompiles;
using test::fileText;
using test::generate;
using test::Generated;
using test::occurrences;
using test::parameter;
using test::variantSuffixes;

// The one column-reduction kernel of the one fusion.
const KernelPlan &onlyColumnKernel(const Generated &g) {
  EXPECT_EQ(g.code.size(), 1u);
  EXPECT_EQ(g.code.at(0).kernels.size(), 1u);
  const KernelPlan &k = g.code.at(0).kernels.at(0);
  EXPECT_EQ(k.scheduler, "reduction");
  // Split blocks count themselves in scratch the host zeroes first.
  EXPECT_NE(k.hostLaunch.find("FUSERC_NAME_zero_words(a.count, (size_t)a.tiles, stream)"),
            std::string::npos)
      << k.hostLaunch;
  return k;
}

// A size formula's value at `bindings` (-1 where it has none).
int64_t bytesAt(const Extent &bytes, const SymbolBindings &bindings) {
  return bytes.evaluate(bindings).value_or(-1);
}

Generated generateAndCompile(const std::string &source) {
  Generated g = generate(source);
  expectCompiles(g);
  return g;
}

TEST(ColumnReductionCodegen, SumOuterCompilesWithVectorScalarAndGeneralVariants) {
  Generated g = generate(fileText("bench/cases/sum_outer.fus"));
  expectCompiles(g);
  const KernelPlan &k = onlyColumnKernel(g);
  EXPECT_EQ(variantSuffixes(k),
            (std::vector<std::string>{"tile_pack4", "tile_vec4", "tile_vec1", "general"}));
  EXPECT_EQ(parameter(k, "reduced_dims"), "[0]");
  EXPECT_EQ(parameter(k, "inner_kept_dims"), "[1]");
  // Up to min(1024, (M - 1) / 63) splits of an f32 partial per column
  // (each split keeps 64 rows or more), but no more split partials than 2 *
  // 264 blocks of 128 columns hold (a launch splits only while tiles * S <
  // 264), then a count per tile (at most one per column); nothing where no
  // launch splits.
  EXPECT_EQ(bytesAt(k.scratchBytes, {{"M", 126}, {"N", 4096}}), 0);
  EXPECT_EQ(bytesAt(k.scratchBytes, {{"M", 127}, {"N", 5}}), 5 * 4 + 2 * 5 * 4);
  EXPECT_EQ(bytesAt(k.scratchBytes, {{"M", 1000}, {"N", 5}}), 5 * 4 + 15 * 5 * 4);
  EXPECT_EQ(bytesAt(k.scratchBytes, {{"M", 1 << 26}, {"N", 5}}), 5 * 4 + 1024 * 5 * 4);
  EXPECT_EQ(bytesAt(k.scratchBytes, {{"M", 1 << 26}, {"N", 4096}}), 4096 * 4 + 67584 * 4);
  EXPECT_EQ(bytesAt(g.code.at(0).workspaceBytes, {{"M", 1000}, {"N", 5}}), 512); // 256-aligned
  EXPECT_NE(k.hostLaunch.find("scratch += 4LL * a.splits * a.cols;"), std::string::npos)
      << k.hostLaunch;
  EXPECT_EQ(k.bytesMoved.str(), "4*M*N + 4*N");
  // Few columns take fewer lanes across them, the warp's others on other
  // rows, and a split keeps 8 steps of the rows a block steps by.
  EXPECT_NE(k.hostLaunch.find("a.lanes = fuserc_col_lanes(a.cols, vec ? vec : 1);"),
            std::string::npos)
      << k.hostLaunch;
  EXPECT_NE(k.hostLaunch.find("fuserc_col_splits(a.tiles, a.len, a.lanes, a.lanes * (vec ? vec : "
                              "1), (vec ? vec : 1) * 4LL, &a.splits, &a.chunk)"),
            std::string::npos)
      << k.hostLaunch;
  EXPECT_NE(g.code.at(0).hostHelpers.find("fuserc_col_plan"), std::string::npos);
  // Whole 16-byte loads of 4 columns.
  EXPECT_NE(g.source.find("*(fuserc_bytes16 *)t0_l[0] = *(const fuserc_bytes16 *)&t0_p[0];"),
            std::string::npos);
}

TEST(ColumnReductionCodegen, SplitPartialsAreMergedInSplitOrderByTheTilesLastBlock) {
  Generated g = generate(fileText("bench/cases/sum_outer.fus"));
  onlyColumnKernel(g);
  // The only atomic is the count of a tile's finished blocks (one per tile
  // variant): partials are never accumulated atomically, so the result
  // does not depend on which block finishes last.
  const size_t counts =
      occurrences(g.source, "last_split = atomicAdd(&a.count[tile], 1) == (int)a.splits - 1;");
  EXPECT_EQ(counts, 4u);
  EXPECT_EQ(occurrences(g.source, "atomicAdd("), counts);
  // The last block reads every split's partial from L2: each of its
  // 256 / w groups of threads a column's splits mg, mg + G, ... in order,
  // then the groups joined in order.
  EXPECT_NE(g.source.find("          for (I s = mg; s < (I)a.splits; s += groups) {\n"
                          "            h0 = fuserc_red_add()(h0, __ldcg(&((const float "
                          "*)a.part[0])[s * (I)a.cols + mcol]));"),
            std::string::npos);
  EXPECT_NE(g.source.find("          for (int i = 1; i < groups; ++i)\n"
                          "            g0 = fuserc_red_add()(g0, ((float *)smem)[i * w + tid]);"),
            std::string::npos);
}

TEST(ColumnReductionCodegen, GeluBiasGradientIsAMiddleGroupedColumnReduction) {
  Generated g = test::generate(fileText("bench/cases/gelu_bwd_bias_grad.yaml"), {},
                               "gelu_bwd_bias_grad.yaml");
  expectCompiles(g);
  ASSERT_EQ(g.code.size(), 1u);
  const KernelPlan *column = nullptr;
  for (const KernelPlan &k : g.code[0].kernels)
    if (k.scheduler == "reduction")
      column = &k;
  ASSERT_NE(column, nullptr);
  EXPECT_EQ(parameter(*column, "reduced_dims"), "[0, 1]");
  EXPECT_EQ(parameter(*column, "inner_kept_dims"), "[2]");
  // B * S rows per column: two splits from 127.
  EXPECT_EQ(bytesAt(column->scratchBytes, {{"B", 1}, {"S", 127}, {"H", 1000}}),
            4000 + 4 * 2 * 1000);
  EXPECT_EQ(bytesAt(column->scratchBytes, {{"B", 2}, {"S", 63}, {"H", 1000}}), 0);
}

TEST(ColumnReductionCodegen, EveryReductionKindCompiles) {
  Generated g = generateAndCompile("fusion f {\n"
                                   "  input x: f32[M, N]\n"
                                   "  s = sum(x, axes=[0])\n"
                                   "  p = prod(x, axes=[0])\n"
                                   "  hi = max(x, axes=[0])\n"
                                   "  lo = min(x, axes=[0])\n"
                                   "  m = mean(x, axes=[0])\n"
                                   "  v = var(x, axes=[0])\n"
                                   "  v0 = var(x, axes=[0], correction=0)\n"
                                   "  output s\n  output p\n  output hi\n  output lo\n"
                                   "  output m\n  output v\n  output v0\n"
                                   "}\n");
  const KernelPlan &k = onlyColumnKernel(g);
  // Two Welford partials (mean, m2) per var: 9 accumulators of up to 1024
  // splits, 16 bytes to align each after the first, and the counts.
  EXPECT_EQ(bytesAt(k.scratchBytes, {{"M", 1 << 20}, {"N", 3}}), 3 * 4 + 36 * 1024 * 3 + 128);
  EXPECT_NE(g.source.find("fuserc_welford_push("), std::string::npos);
  EXPECT_NE(g.source.find("fuserc_welford_merge("), std::string::npos);
  EXPECT_NE(g.source.find("fuserc_max(L - 1LL, 0LL)"), std::string::npos);
  EXPECT_NE(g.source.find("fuserc_max(L - 0LL, 0LL)"), std::string::npos);
  EXPECT_NE(g.source.find("fuserc_red_mul()"), std::string::npos);
  EXPECT_NE(g.source.find("/ (float)L"), std::string::npos);
}

TEST(ColumnReductionCodegen, IntegerAndF64ReductionsAccumulateWide) {
  Generated g = generateAndCompile("fusion f {\n"
                                   "  input x: i32[M, N]\n"
                                   "  input y: f64[M, N]\n"
                                   "  s = sum(x, axes=[0], dtype=i32)\n"
                                   "  hi = max(x, axes=[0])\n"
                                   "  v = var(y, axes=[0])\n"
                                   "  output s\n  output hi\n  output v\n"
                                   "}\n");
  const KernelPlan &k = onlyColumnKernel(g);
  EXPECT_EQ(parameter(k, "accumulate"), "i64 i64 f64");
  EXPECT_EQ(parameter(k, "max_vector"), "2"); // an f64 input bounds 16-byte loads
  EXPECT_NE(g.source.find("long long q0[2];"), std::string::npos);
}

TEST(ColumnReductionCodegen, EachSplitPartialArrayStartsAligned) {
  // An f32 partial per split column, then an i64 one: with an odd number of
  // split columns the second would start 4 bytes past an 8-byte boundary
  // (fuzz seed 81761, a misaligned 8-byte store on the GPU).
  Generated g = generateAndCompile("fusion f {\n"
                                   "  input x: f32[M, 7]\n"
                                   "  input b: bool[M, 7]\n"
                                   "  s = sum(x, axes=[0])\n"
                                   "  p = prod(b, axes=[0])\n"
                                   "  output s\n  output p\n"
                                   "}\n");
  const KernelPlan &k = onlyColumnKernel(g);
  EXPECT_EQ(parameter(k, "accumulate"), "f32 i64");
  const size_t first = k.hostLaunch.find("a.part[0] = scratch;");
  const size_t aligned = k.hostLaunch.find("scratch += (16 - (uintptr_t)scratch % 16) % 16;");
  const size_t second = k.hostLaunch.find("a.part[1] = scratch;");
  ASSERT_NE(aligned, std::string::npos) << k.hostLaunch;
  EXPECT_LT(first, aligned);
  EXPECT_LT(aligned, second);
  // 28 counts, 7168 f32 and 7168 i64 partials, 16 to align
  EXPECT_EQ(bytesAt(k.scratchBytes, {{"M", 1 << 20}}), 86060);
}

TEST(ColumnReductionCodegen, MiddleReductionKeepsOuterAndInnerDims) {
  Generated g = generateAndCompile("fusion f {\n"
                                   "  input x: f32[A, R, K]\n"
                                   "  y = sum(x, axes=[1], keepdim=true)\n"
                                   "  output y\n"
                                   "}\n");
  const KernelPlan &k = onlyColumnKernel(g);
  EXPECT_EQ(parameter(k, "outer_kept_dims"), "[0]");
  EXPECT_EQ(parameter(k, "reduced_dims"), "[1]");
  EXPECT_EQ(parameter(k, "inner_kept_dims"), "[2]");
  EXPECT_EQ(bytesAt(k.scratchBytes, {{"A", 3}, {"R", 6400}, {"K", 5}}), 15 * 4 + 4 * 101 * 15);
  // The outer coordinate offsets each read tensor through its domain stride.
  EXPECT_NE(g.source.find("c0 * (I)a.dst[0][0]"), std::string::npos);
}

TEST(ColumnReductionCodegen, FewInnerColumnsLoadVectorsOfWholeRowsAndFoldThem) {
  Generated g = generateAndCompile("fusion f {\n"
                                   "  input x: bf16[A, R, K]\n"
                                   "  m = mean(x, axes=[1])\n"
                                   "  v = var(x, axes=[1])\n"
                                   "  output m\n  output v\n"
                                   "}\n");
  const KernelPlan &k = onlyColumnKernel(g);
  EXPECT_EQ(variantSuffixes(k),
            (std::vector<std::string>{"tile_pack8", "tile_vec8", "tile_vec1", "general"}));
  // The launch packs 8 / K rows per vector where the strides allow, and
  // runs over packed columns and rows.
  EXPECT_NE(k.hostLaunch.find("packable = vec ? fuserc_col_pack("), std::string::npos)
      << k.hostLaunch;
  EXPECT_NE(
      k.hostLaunch.find("if (packable > 1 && fuserc_col_pack_pays(a.cols, a.len, packable, 2))"),
      std::string::npos)
      << k.hostLaunch;
  EXPECT_NE(k.hostLaunch.find("a.len /= pack;"), std::string::npos) << k.hostLaunch;
  EXPECT_NE(k.hostLaunch.find("pack > 1 ? \"f_k0_tile_pack8\" : vec == 8 ? \"f_k0_tile_vec8\""),
            std::string::npos)
      << k.hostLaunch;
  // Place fk < K of each vector joins places fk + K, ... (the same L packed
  // rows each), then adds the rows past the last whole vector in order and
  // divides by the real row count.
  EXPECT_NE(g.source.find("fuserc_welford_merge(g1, g2, gn, ((float *)smem)[tid + i * kreal], "
                          "((float *)smem)[2048 + tid + i * kreal], L);"),
            std::string::npos);
  EXPECT_NE(g.source.find("for (I row = L * fp; row < RL; ++row) {"), std::string::npos);
  EXPECT_NE(g.source.find("fuserc_welford_push(g1, g2, v0, fuserc_col_inverse((float)(row + 1)));"),
            std::string::npos);
  EXPECT_NE(g.source.find("g2 / (float)fuserc_max(RL - 1LL, 0LL)"), std::string::npos);
  // Packed splits (A * 8 packed columns, floor(R K / 8) rows) fit the
  // scratch even where they outnumber R's splits of A * K columns: K = 1,
  // R = 2^26: 1024 splits of 8 packed columns per accumulator.
  EXPECT_EQ(bytesAt(k.scratchBytes, {{"A", 1}, {"R", 1 << 26}, {"K", 1}}),
            4 * 8 * 1024 + 2 * (4 * 8 * 1024 + 16) + 4);
  // K = 3 does not divide the vector: no packed term.
  EXPECT_EQ(bytesAt(k.scratchBytes, {{"A", 1}, {"R", 1 << 26}, {"K", 3}}),
            4 * 3 * 1024 + 2 * (4 * 3 * 1024 + 16) + 12);
}

TEST(ColumnReductionCodegen, HalfPrecisionInputsAccumulateInF32AndLoadEightColumns) {
  Generated g = generateAndCompile("fusion f {\n"
                                   "  input x: bf16[M, N]\n"
                                   "  input h: f16[M, N]\n"
                                   "  s = sum(cast(x, dtype=f32), axes=[0])\n"
                                   "  m = max(x, axes=[0])\n"
                                   "  t = sum(mul(h, h), axes=[0])\n"
                                   "  output s\n  output m\n  output t\n"
                                   "}\n");
  const KernelPlan &k = onlyColumnKernel(g);
  EXPECT_EQ(parameter(k, "max_vector"), "8");
  EXPECT_EQ(parameter(k, "accumulate"), "f32 f32 f32");
  EXPECT_NE(g.source.find("__nv_bfloat16 t0_l[8][8]"), std::string::npos);
}

TEST(ColumnReductionCodegen, EpilogueAndBroadcastPrologueInputs) {
  Generated g = generateAndCompile("fusion f {\n"
                                   "  input x: f32[M, N]\n"
                                   "  input w: f32[N]\n"
                                   "  input b: f32[N]\n"
                                   "  input scale: f32\n"
                                   "  m = mean(mul(x, w), axes=[0])\n"
                                   "  y = cast(add(mul(m, scale), b), dtype=bf16)\n"
                                   "  output y\n"
                                   "}\n");
  const KernelPlan &k = onlyColumnKernel(g);
  EXPECT_EQ(k.ops.size(), 5u);
  // w is read in the prologue (through lanes), b only in the epilogue.
  EXPECT_NE(g.source.find("t1_l[u][v]"), std::string::npos);
  EXPECT_EQ(g.source.find("t2_l"), std::string::npos);
  EXPECT_NE(g.source.find("__float2bfloat16_rn("), std::string::npos);
}

TEST(ColumnReductionCodegen, NonElementwisePrologueUsesTheGeneralVariantOnly) {
  Generated g = generateAndCompile("fusion f {\n"
                                   "  input x: f32[M, N]\n"
                                   "  y = sum(pad(x, dim=1, before=1, after=2), axes=[0])\n"
                                   "  output y\n"
                                   "}\n");
  const KernelPlan &k = onlyColumnKernel(g);
  EXPECT_EQ(variantSuffixes(k), (std::vector<std::string>{"general"}));
  EXPECT_NE(k.selection.find("always (the prologue is not elementwise)"), std::string::npos);
}

// Reduction splitting makes most interleaved reductions rows and columns;
// a var with correction 2 over a symbolic count stays (ReductionSplitting.h).
TEST(ColumnReductionCodegen, InterleavedKeptAndReducedDimsAreRefusedClearly) {
  Generated g = generate("fusion f {\n"
                         "  input x: f32[A, B, C]\n"
                         "  y = var(x, axes=[0, 2], correction=2)\n"
                         "  output y\n"
                         "}\n");
  EXPECT_NE(g.error.find("scheduled as 'reduction'"), std::string::npos) << g.error;
  EXPECT_NE(g.error.find("'y' reduces axes [0, 2] of f32[A, B, C], whose kept and reduced dims "
                         "interleave in memory order (layout (0, 1, 2))"),
            std::string::npos)
      << g.error;
  EXPECT_NE(g.error.find("[outer kept dims][reduced dims][inner kept dims]"), std::string::npos);
}

TEST(ColumnReductionCodegen, InnerReductionsStayWithTheRowGenerator) {
  Generated g = generate(fileText("bench/cases/sum_inner.fus"));
  expectCompiles(g);
  ASSERT_EQ(g.code.size(), 1u);
  EXPECT_EQ(parameter(g.code[0].kernels.at(0), "reduced_axes"), "[1]");
  // The row kernel's scratch is its split variant's (a count per row), not
  // column tiles'.
  EXPECT_EQ(g.code[0].kernels.at(0).hostLaunch.find("(size_t)a.tiles"), std::string::npos);
  EXPECT_NE(g.code[0].kernels.at(0).hostLaunch.find("(size_t)a.rows"), std::string::npos);
}

} // namespace
} // namespace fuserc
