// Row reduction code generation: normalization and reduction segments whose
// reduced axes are innermost in memory compile with NVRTC (sm_80, sm_90) in
// every variant; outer reductions are refused as not generated yet.
#include "CodegenTestSupport.h"

#include "codegen/CodegenError.h"
#include "codegen/FusionCodegen.h"
#include "packaging/NvrtcCompiler.h"
#include "passes/Pipeline.h"
#include "schedulers/SchedulerRegistry.h"

#include <gtest/gtest.h>

namespace fuserc {
namespace {

using test::expectCompiles;
using test::fileText;
using test::generate;
using test::Generated;

// The one kernel of the one fusion, which must be a row reduction of
// `scheduler` with the four variants.
const KernelPlan &onlyRowKernel(const Generated &g, const std::string &scheduler) {
  EXPECT_EQ(g.code.size(), 1u);
  EXPECT_EQ(g.code.at(0).kernels.size(), 1u);
  const KernelPlan &k = g.code.at(0).kernels.at(0);
  EXPECT_EQ(k.scheduler, scheduler);
  std::vector<std::string> suffixes;
  for (const KernelVariant &v : k.variants)
    suffixes.push_back(v.symbol.substr(k.name.size() + 1));
  EXPECT_EQ(suffixes, (std::vector<std::string>{"warp32x4", "block256x4", "block512x16",
                                                "block1024x16", "loop512"}));
  return k;
}

TEST(RowReductionCodegen, SoftmaxCompilesWithEveryVariantAndSelectsByRowLength) {
  Generated g = generate(fileText("bench/cases/softmax.fus"));
  expectCompiles(g);
  const KernelPlan &k = onlyRowKernel(g, "normalization");
  EXPECT_NE(k.selection.find("warp32x4 when 1 <= L <= 128"), std::string::npos) << k.selection;
  EXPECT_NE(k.selection.find("loop512 when L > 16384 or L = 0"), std::string::npos);
  EXPECT_NE(k.hostLaunch.find("a.len >= 1 && a.len <= 128"), std::string::npos);
  EXPECT_NE(k.hostLaunch.find("FUSERC_NAME_launch_kernel(kernel"), std::string::npos);
  EXPECT_NE(k.argsStruct.find("FUSERC_NAME_softmax_k0_args"), std::string::npos);
  // The max and the sum combine across the block; x is loaded once per item
  // in the persistent variants.
  EXPECT_NE(g.source.find("fuserc_block_reduce<8>(p0, fuserc_red_max()"), std::string::npos);
  EXPECT_NE(g.source.find("fuserc_warp_reduce(p1, fuserc_red_add())"), std::string::npos);
}

TEST(RowReductionCodegen, NormalizationBenchCasesCompile) {
  for (const char *file : {"bench/cases/layernorm.fus", "bench/cases/rmsnorm.fus",
                           "bench/cases/xent_bwd.fus", "examples/softmax.fus"}) {
    SCOPED_TRACE(file);
    Generated g = generate(fileText(file));
    expectCompiles(g);
    onlyRowKernel(g, "normalization");
  }
}

TEST(RowReductionCodegen, InnerSumCompilesAsAReduction) {
  Generated g = generate(fileText("bench/cases/sum_inner.fus"));
  expectCompiles(g);
  const KernelPlan &k = onlyRowKernel(g, "reduction");
  EXPECT_EQ(k.bytesMoved.str(), "4*M + 4*M*N");
}

TEST(RowReductionCodegen, CompositeLayerNormExamplesCompile) {
  Generated g = test::generate(fileText("examples/layernorm.yaml"), {}, "layernorm.yaml");
  expectCompiles(g);
  ASSERT_EQ(g.code.size(), 2u);
  for (const FusionCode &f : g.code)
    for (const KernelPlan &k : f.kernels)
      EXPECT_TRUE(k.scheduler == "normalization" || k.scheduler == "pointwise") << k.scheduler;
}

TEST(RowReductionCodegen, VarianceWithCorrectionIsTwoPass) {
  Generated g = generate("fusion f {\n"
                         "  input x: f16[M, N]\n"
                         "  v = var(x, axes=[1], correction=0)\n"
                         "  w = var(cast(x, dtype=f64), axes=[1])\n"
                         "  output v\n"
                         "  output w\n"
                         "}\n");
  expectCompiles(g);
  const KernelPlan &k = onlyRowKernel(g, "reduction");
  EXPECT_NE(g.source.find("fuserc_max(L - 0LL, 0LL)"), std::string::npos);
  EXPECT_NE(g.source.find("fuserc_max(L - 1LL, 0LL)"), std::string::npos);
  EXPECT_NE(k.parameters.back().second.find("f64"), std::string::npos);
}

TEST(RowReductionCodegen, IntegerSumAndProdAccumulateInWrappingI64) {
  Generated g = generate("fusion f {\n"
                         "  input x: i32[M, N]\n"
                         "  s = sum(x, axes=[1], dtype=i32)\n"
                         "  p = prod(x, axes=[1])\n"
                         "  lo = min(x, axes=[1])\n"
                         "  output s\n"
                         "  output p\n"
                         "  output lo\n"
                         "}\n");
  expectCompiles(g);
  onlyRowKernel(g, "reduction");
  EXPECT_NE(g.source.find("long long p0 = 0LL;"), std::string::npos);
  EXPECT_NE(g.source.find("long long p1 = 1LL;"), std::string::npos);
}

TEST(RowReductionCodegen, KeepdimFalseResultReadThroughUnsqueeze) {
  Generated g = generate("fusion f {\n"
                         "  input x: f32[M, N]\n"
                         "  m = max(x, axes=[1])\n"
                         "  y = sub(x, unsqueeze(m, dim=1))\n"
                         "  output y\n"
                         "}\n");
  expectCompiles(g);
  onlyRowKernel(g, "normalization");
}

TEST(RowReductionCodegen, PerRowAndPerElementOutputsOfOneKernel) {
  Generated g = generate("fusion f {\n"
                         "  input x: bf16[B, S, H]\n"
                         "  input r: bf16[B, S, H]\n"
                         "  h = add(cast(x, dtype=f32), cast(r, dtype=f32))\n"
                         "  ms = mean(mul(h, h), axes=[2], keepdim=true)\n"
                         "  inv = rsqrt(add(ms, 1e-6))\n"
                         "  y = cast(mul(h, inv), dtype=bf16)\n"
                         "  output inv\n"
                         "  output y\n"
                         "}\n");
  expectCompiles(g);
  const KernelPlan &k = onlyRowKernel(g, "normalization");
  EXPECT_NE(k.hostLaunch.find("a.rows *= a.size[0];\n  a.rows *= a.size[1];"), std::string::npos)
      << k.hostLaunch;
  EXPECT_NE(g.source.find("if (tid == 0) ((float *)a.ptr[2])"), std::string::npos);
}

TEST(RowReductionCodegen, SeveralReducedDimsAndMaxAndMin) {
  Generated g = generate("fusion f {\n"
                         "  input x: f32[A, B, C]\n"
                         "  hi = max(x, axes=[1, 2], keepdim=true)\n"
                         "  lo = min(x, axes=[1, 2], keepdim=true)\n"
                         "  y = div(sub(x, lo), sub(hi, lo))\n"
                         "  output y\n"
                         "}\n");
  expectCompiles(g);
  const KernelPlan &k = onlyRowKernel(g, "normalization");
  EXPECT_NE(k.hostLaunch.find("a.len *= a.size[1];\n  a.len *= a.size[2];"), std::string::npos);
}

TEST(RowReductionCodegen, OuterReductionIsNotGeneratedYet) {
  Generated g = generate(fileText("bench/cases/sum_outer.fus"));
  EXPECT_NE(g.error.find("scheduled as 'reduction'"), std::string::npos) << g.error;
  EXPECT_NE(g.error.find("not innermost in memory"), std::string::npos) << g.error;
  EXPECT_NE(g.error.find("yet"), std::string::npos) << g.error;
}

} // namespace
} // namespace fuserc
