// Row reduction code generation for rows split over several blocks: the
// thread-block-cluster variant (rows past one block's cache), the split
// variant (one-phase reductions over few rows, a last-block merge) and the
// grid variant (few long normalized rows over a cooperative grid).
#include "CodegenTestSupport.h"
#include "RowCodegenTestSupport.h"

#include "codegen/FusionCodegen.h"

#include <gtest/gtest.h>

namespace fuserc {
namespace {

using test::expectCompiles;
using test::fileText;
using test::generate;
using test::Generated;
using test::kernelText;
using test::onlyRowKernel;

TEST(RowReductionCodegen, RowsPastOneCacheSplitOverAThreadBlockCluster) {
  Generated g = generate(fileText("bench/cases/xent_bwd.fus"), {}, "test.fus", VariantBudget::All);
  const KernelPlan &k = onlyRowKernel(g, "normalization", VariantBudget::All);
  EXPECT_TRUE(k.extendedLaunch);
  // Rows neither m512 nor m1024 caches 3/4 of, on devices with clusters:
  // the fewest CTAs (2, 4, 8) whose caches hold 3/4 of the row, each
  // caching its slice; launched in clusters of that many.
  EXPECT_NE(k.hostLaunch.find("if (4 * fit >= 3 * span || "
                              "!FUSERC_NAME_clusters_supported(\"xent_bwd_k0_v8_c512\")) {\n"
                              "            kernel = shifted == 1 ? \"xent_bwd_k0_v1_m1024\""),
            std::string::npos)
      << k.hostLaunch;
  EXPECT_NE(k.hostLaunch.find("cluster = 2;\n"
                              "            while (cluster < 8 && 4 * cluster * fit < 3 * span)\n"
                              "              cluster *= 2;\n"
                              "            kernel = shifted == 1 ? \"xent_bwd_k0_v1_c512\" : "
                              "\"xent_bwd_k0_v8_c512\";"),
            std::string::npos);
  EXPECT_NE(k.hostLaunch.find("span = ((span + cluster - 1) / cluster + shifted - 1) / shifted * "
                              "shifted;"),
            std::string::npos);
  EXPECT_NE(k.hostLaunch.find("st = FUSERC_NAME_launch_cluster_kernel(kernel, (unsigned)groups * "
                              "cluster, cluster, block, shared, &a, stream);"),
            std::string::npos);
  // Each CTA runs its slice [lo, hi) of the row and caches [lo, PE); the
  // max and the sum combine over the cluster through distributed shared
  // memory, and no CTA leaves while another may read its slots. The sm_80
  // build of the kernel is empty.
  const size_t kernel = g.source.find("void __launch_bounds__(512, 2) xent_bwd_k0_v8_c512(");
  ASSERT_NE(kernel, std::string::npos);
  const std::string body = g.source.substr(kernel, g.source.find("\n}\n", kernel) - kernel);
  EXPECT_NE(body.find("#if __CUDA_ARCH__ >= 900"), std::string::npos);
  EXPECT_NE(body.find("for (I row = (I)(blockIdx.x / ctas); row < (I)a.rows; row += "
                      "(I)(gridDim.x / ctas)) {"),
            std::string::npos);
  EXPECT_NE(body.find("const R lo = (R)cta * slice, hi = span < lo + slice ? span : lo + slice;"),
            std::string::npos);
  EXPECT_NE(body.find("fuserc_async_copy<16>(t0_c + (pb - lo), "), std::string::npos);
  EXPECT_NE(body.find("fuserc_cluster_reduce(fuserc_block_reduce<16>(p0, fuserc_red_max(), "
                      "red_f32), fuserc_red_max(), cl_f32 + cl_at + 0)"),
            std::string::npos)
      << body.substr(0, 4000);
  EXPECT_NE(body.find("fuserc_cluster_exit_sync();\n#endif"), std::string::npos);
  EXPECT_NE(g.source.find("__device__ __forceinline__ T fuserc_cluster_reduce("),
            std::string::npos);
}

TEST(RowReductionCodegen, OnePhaseReductionsGetTheSplitVariantWithItsScratch) {
  Generated g =
      generate("fusion amax_abs {\n  input x: bf16[M, N]\n  y = max(abs(x), axes=[0, 1])\n"
               "  s = sum(x, axes=[0, 1], dtype=f64)\n  output y\n  output s\n}\n");
  expectCompiles(g);
  const KernelPlan &k = onlyRowKernel(g, "reduction");
  // 264 f32 partials of the max, 264 f64 of the sum, a count per row.
  EXPECT_TRUE(k.scratchBytes.isConstant(264 * 4 + 264 * 8 + 132 * 4)) << k.scratchBytes.str();
  EXPECT_NE(k.selection.find("when rows * 2 <= 264 and L >= 8192, s512 with S = min(264 / rows, "
                             "L / 4096) slices per row"),
            std::string::npos)
      << k.selection;
  EXPECT_NE(k.hostLaunch.find("FUSERC_NAME_zero_words(a.count, (size_t)a.rows, stream)"),
            std::string::npos);
  EXPECT_NE(k.hostLaunch.find("(unsigned)groups, splits, 1, block, shared, &a, stream)"),
            std::string::npos);
  // The row's last block merges every split's partial, in a fixed tree.
  EXPECT_NE(g.source.find("last_split = atomicAdd(&a.count[row], 1) == (int)ctas - 1;"),
            std::string::npos);
}

TEST(RowReductionCodegen, PhasesReadingAnotherReductionAndRowOutputsGetTheGridVariantNotTheSplit) {
  // Scratch: 264 slots of 8 bytes per combine (softmax: two, a row sum
  // written back over its row: one) and a count per row.
  for (const auto &[text, combines] : std::vector<std::pair<const char *, int>>{
           {"fusion softmax {\n  input x: f32[M, N]\n  m = max(x, axes=[1], keepdim=true)\n"
            "  s = sum(exp(sub(x, m)), axes=[1])\n  output s\n}\n",
            2},
           {"fusion rows_out {\n  input x: f32[M, N]\n  y = sum(x, axes=[1], keepdim=true)\n"
            "  z = div(x, y)\n  output z\n}\n",
            1}}) {
    Generated g = generate(text);
    expectCompiles(g);
    ASSERT_FALSE(g.code.empty());
    for (const KernelPlan &k : g.code[0].kernels) {
      EXPECT_TRUE(k.scratchBytes.isConstant(combines * 264 * 8 + 132 * 4)) << text;
      bool grid = false;
      for (const auto &v : k.variants) {
        EXPECT_EQ(v.symbol.find("s512"), std::string::npos) << text;
        grid = grid || v.symbol.find("g512") != std::string::npos;
      }
      EXPECT_TRUE(grid) << text;
    }
  }
}

TEST(RowReductionCodegen, FewLongNormalizedRowsSplitOverACooperativeGridCombiningThroughScratch) {
  Generated g = generate("fusion ln {\n  input x: f32[M, N]\n  input w: f32[N]\n"
                         "  m = mean(x, axes=[1], keepdim=true)\n  d = sub(x, m)\n"
                         "  v = mean(mul(d, d), axes=[1], keepdim=true)\n"
                         "  y = mul(mul(d, rsqrt(add(v, 1e-5))), w)\n  output y\n}\n");
  expectCompiles(g);
  const KernelPlan &k = onlyRowKernel(g, "normalization");
  EXPECT_TRUE(k.extendedLaunch);
  EXPECT_TRUE(k.scratchBytes.isConstant(2 * 264 * 8 + 132 * 4)) << k.scratchBytes.str();
  // Few long rows: S slices each, where the device holds the whole grid;
  // else the cached variants as before.
  EXPECT_NE(k.hostLaunch.find("if (a.rows * 2 <= 264 && a.len > 16384 && (shifted == 1 || a.len * "
                              "12 >= 262144)) {\n"
                              "          kernel = shifted == 1 ? \"ln_k0_v1_g512\" : "
                              "\"ln_k0_v4_g512\";"),
            std::string::npos)
      << k.hostLaunch;
  EXPECT_NE(k.hostLaunch.find("splits = (unsigned)(264 / a.rows < a.len / 4096 ? 264 / a.rows : "
                              "a.len / 4096);"),
            std::string::npos);
  EXPECT_NE(k.hostLaunch.find("span = ((span + splits - 1) / splits + shifted - 1) / shifted * "
                              "shifted;"),
            std::string::npos);
  EXPECT_NE(k.hostLaunch.find("gridded = FUSERC_NAME_cooperative_fits(kernel, (unsigned)a.rows * "
                              "splits, block, shared);"),
            std::string::npos);
  EXPECT_NE(k.hostLaunch.find("if (!gridded) {\n          splits = 1;"), std::string::npos);
  EXPECT_NE(
      k.hostLaunch.find("a.count = (int *)(scratch + 4224);\n"
                        "      st = FUSERC_NAME_zero_words(a.count, (size_t)a.rows, stream);"),
      std::string::npos);
  EXPECT_NE(
      k.hostLaunch.find("st = FUSERC_NAME_launch_cooperative_kernel(kernel, (unsigned)groups, "
                        "splits, block, shared, &a, stream, &refused);"),
      std::string::npos);
  // A grid the driver refuses (MPS) runs the cached variants instead.
  EXPECT_NE(k.hostLaunch.find("if (st == FUSERC_NAME_OK && refused) {"), std::string::npos);
  EXPECT_NE(k.hostLaunch.find("        gridded = 0;\n        splits = 1;\n        shared = 0;\n"),
            std::string::npos);
  EXPECT_NE(k.hostLaunch.find("    if (!gridded) {\n"), std::string::npos);
  EXPECT_NE(k.selection.find("when rows * 2 <= 264, g512 with S = min(264 / rows, L / 4096) "
                             "slices per row (vectors and caches as the cached variants') where "
                             "the rows are read at vectors of 1 or L * 12 bytes (every streamed "
                             "tensor's) >= 262144"),
            std::string::npos)
      << k.selection;
  // Each combine: the block's value, then the row's blocks' in slot order,
  // its own slots and the count's next multiple of S; the slice cached.
  const size_t at = g.source.find("ln_k0_v4_g512(");
  ASSERT_NE(at, std::string::npos);
  const std::string body = g.source.substr(at, g.source.find("\n}\n", at) - at);
  EXPECT_NE(body.find("p0 = fuserc_grid_reduce<16>(fuserc_block_reduce<16>(p0, fuserc_red_add(), "
                      "red_f32), fuserc_red_add(), 0.0f, (float *)(a.slots + 0) + row * (I)ctas, "
                      "cta, ctas, a.count + row, 1 * (int)ctas, red_f32);"),
            std::string::npos)
      << body;
  EXPECT_NE(body.find("(float *)(a.slots + 2112) + row * (I)ctas, cta, ctas, a.count + row, 2 * "
                      "(int)ctas, red_f32);"),
            std::string::npos);
  EXPECT_NE(body.find("const unsigned cta = blockIdx.y, ctas = gridDim.y;"), std::string::npos);
  EXPECT_NE(body.find("fuserc_async_copy<16>(t0_c + (pb - lo), "), std::string::npos);
}

TEST(RowReductionCodegen, VarianceSplitsIntoWelfordPartialsJoinedInSplitOrder) {
  Generated g = generate("fusion mv {\n  input x: f32[M, N]\n  m = mean(x, axes=[0, 1])\n"
                         "  v = var(x, axes=[0, 1])\n  output m\n  output v\n}\n");
  expectCompiles(g);
  const KernelPlan &k = onlyRowKernel(g, "reduction");
  // 264 partials of the mean; 264 means and 264 squared deviations of the
  // var; a count per row.
  EXPECT_TRUE(k.scratchBytes.isConstant(264 * 4 + 2 * 264 * 4 + 132 * 4)) << k.scratchBytes.str();
  const size_t at = g.source.find("mv_k0_v4_s512(");
  ASSERT_NE(at, std::string::npos);
  const std::string body = g.source.substr(at, g.source.find("\n}\n", at) - at);
  // Each vector joins the thread's state once; the block joins its threads,
  // and the last block its splits, each with its count.
  EXPECT_NE(body.find("fuserc_welford_join(p1, q1, n1, vm, vq, vn);"), std::string::npos) << body;
  EXPECT_EQ(test::occurrences(body, "fuserc_welford_block<16>("), 2u) << body;
  EXPECT_NE(body.find("((float *)a.part[1] + 264)[row * (I)ctas + (I)cta] = q1;"),
            std::string::npos)
      << body;
  EXPECT_NE(body.find("g1_q / (float)fuserc_max(L - 1LL, 0LL)"), std::string::npos) << body;
}

} // namespace
} // namespace fuserc
