// Row reduction code generation: normalization and reduction segments whose
// reduced axes are innermost in memory compile with NVRTC (sm_80, sm_90) in
// every variant; outer normalizations are refused as not generated yet.
#include "CodegenTestSupport.h"
#include "RowCodegenTestSupport.h"

#include "codegen/FusionCodegen.h"
#include "driver/Pipeline.h"
#include "packaging/NvrtcCompiler.h"
#include "schedulers/KernelGenerator.h"
#include "schedulers/SchedulerRegistry.h"

#include <gtest/gtest.h>

namespace fuserc {
namespace {

using test::expectCompiles;
using test::fileText;
using test::generate;
using test::Generated;
using test::kernelText;
using test::onlyRowKernel;
using test::parameter;

TEST(RowReductionCodegen, SoftmaxCompilesWithEveryVariantAndSelectsByRowLength) {
  Generated g = generate(fileText("bench/cases/softmax.fus"));
  expectCompiles(g);
  const KernelPlan &k = onlyRowKernel(g, "normalization");
  // bf16 rows: vectors of 8; the rows' length picks the variant.
  EXPECT_EQ(parameter(k, "vector"), "8");
  EXPECT_EQ(parameter(k, "streamed"), "input x, output y");
  EXPECT_NE(k.selection.find("b256x32 up to 8192"), std::string::npos) << k.selection;
  EXPECT_NE(k.selection.find("warp32x4 when 1 <= L <= 128"), std::string::npos) << k.selection;
  EXPECT_NE(k.selection.find("loop512 when L > 1024 or L = 0"), std::string::npos);
  EXPECT_NE(k.hostLaunch.find("else if (reach <= 2048) {\n        kernel = headed ? "
                              "\"softmax_k0_h8_b128x16\" : vec == 1 ? "
                              "\"softmax_k0_v1_b128x16\" : \"softmax_k0_v8_b128x16\";\n"
                              "        block = 128;"),
            std::string::npos)
      << k.hostLaunch;
  // Above 2048 elements at vectors of 1 the register variants spill: those
  // rows take the cached kernel.
  EXPECT_NE(k.hostLaunch.find("else if (reach <= 8192 && vec > 1) {\n"
                              "        kernel = \"softmax_k0_v8_b256x32\";\n"
                              "        block = 256;"),
            std::string::npos)
      << k.hostLaunch;
  EXPECT_NE(k.hostLaunch.find("a.len >= 1 && a.len <= 128"), std::string::npos);
  EXPECT_NE(k.hostLaunch.find("FUSERC_NAME_launch_kernel(kernel"), std::string::npos);
  EXPECT_NE(k.argsStruct.find("FUSERC_NAME_softmax_k0_args"), std::string::npos);
  // The max and the sum combine across the block (its warps known at
  // compile time, or at launch in the cached kernel) or the lanes of a row.
  EXPECT_NE(g.source.find("fuserc_block_reduce<8>(p0, fuserc_red_max()"), std::string::npos);
  EXPECT_NE(g.source.find("fuserc_block_reduce_warps(p0, fuserc_red_max(), red_f32, T >> 5)"),
            std::string::npos);
  EXPECT_NE(g.source.find("fuserc_group_reduce<32>(p1, fuserc_red_add())"), std::string::npos);
  EXPECT_NE(g.source.find("fuserc_group_reduce<8>(p1, fuserc_red_add())"), std::string::npos);
  // x arrives in 16-byte vectors; the division by the row's sum is one
  // reciprocal per row.
  EXPECT_NE(g.source.find("*(fuserc_bytes16 *)t0_l[3] = ok3 ? *(const fuserc_bytes16 *)"),
            std::string::npos);
  EXPECT_NE(g.source.find(" = 1.0f / v"), std::string::npos);
}

TEST(RowReductionCodegen, DefaultBudgetRunsTheCachedVariantsAsOneKernelSizedAtLaunch) {
  Generated g = generate(fileText("bench/cases/softmax.fus"));
  const KernelPlan &k = onlyRowKernel(g, "normalization");
  // m512 and m1024 launch one cached kernel, which takes its threads from
  // the launch; m1024's launches ask for its L2 hints.
  EXPECT_NE(g.source.find("const int T = (int)blockDim.x;"), std::string::npos);
  EXPECT_NE(g.source.find("__launch_bounds__(1024, 1) softmax_k0_v8_m("), std::string::npos);
  EXPECT_NE(k.hostLaunch.find("block = 512;\n            groups = (a.rows + 0) / 1;\n"
                              "            a.hints = 0;"),
            std::string::npos)
      << k.hostLaunch;
  EXPECT_NE(k.hostLaunch.find("block = 1024;\n              groups = (a.rows + 0) / 1;\n"
                              "              a.hints = 1;"),
            std::string::npos);
  EXPECT_NE(k.argsStruct.find("int hints;"), std::string::npos);
  // Rows of up to 16384 at shifted vectors (the register variants hold them
  // only at vectors of 8): the cached kernel with the fewest threads from
  // 128 that cover the row in one step of 4 vectors of 8 per thread, fewer
  // (down to a warp) while the rows' threads exceed what 132 SMs hold.
  EXPECT_NE(k.hostLaunch.find("if (shifted > 1 && a.len <= 16384) {\n"), std::string::npos)
      << k.hostLaunch;
  const size_t sized = k.hostLaunch.find("threads = 128;\n");
  ASSERT_NE(sized, std::string::npos);
  const size_t loop =
      k.hostLaunch.find("while (threads < 512 && (long long)threads * 32 < a.len + 7)", sized);
  ASSERT_NE(loop, std::string::npos);
  const size_t fewer =
      k.hostLaunch.find("while (threads > 32 && a.rows * threads > 270336LL)\n", loop);
  ASSERT_NE(fewer, std::string::npos) << k.hostLaunch;
  EXPECT_LT(k.hostLaunch.find("kernel = \"softmax_k0_v8_m\";", fewer),
            k.hostLaunch.find("block = threads;", fewer));
  EXPECT_NE(k.hostLaunch.find("room = (long long)per_sm / (1024 / threads) - 1024;"),
            std::string::npos);
  // Five compile units: the register variants at vectors of 8, those at 1
  // with the general ones, the cached kernels, the cluster variant, the
  // grid variant.
  ASSERT_EQ(g.code[0].kernelUnits.size(), 1u);
  const std::vector<std::string> &units = g.code[0].kernelUnits[0];
  ASSERT_EQ(units.size(), 5u);
  EXPECT_NE(units[0].find("softmax_k0_v8_b512x32("), std::string::npos);
  EXPECT_EQ(units[0].find("softmax_k0_v1_b128x16("), std::string::npos);
  EXPECT_NE(units[1].find("softmax_k0_v1_b128x16("), std::string::npos);
  EXPECT_EQ(g.source.find("softmax_k0_v1_b512x32("), std::string::npos);
  EXPECT_NE(units[1].find("softmax_k0_loop512("), std::string::npos);
  EXPECT_NE(units[2].find("softmax_k0_v8_m("), std::string::npos);
  EXPECT_NE(units[3].find("softmax_k0_v8_c512("), std::string::npos);
  EXPECT_NE(units[4].find("softmax_k0_v8_g512("), std::string::npos);
  EXPECT_EQ(units[3].find("softmax_k0_v8_g512("), std::string::npos);
  EXPECT_NE(k.leftOut.find("(--variants all compiles one per variant)"), std::string::npos);
}

TEST(RowReductionCodegen, OnePassRowsAreStreamedWithoutACache) {
  // A row sum passes over each row once: the cached variants copy nothing
  // into shared memory (it would be read once from there), so there is no
  // cache to size and no cluster variant to split one.
  Generated g = generate(fileText("bench/cases/sum_inner.fus"));
  expectCompiles(g);
  const KernelPlan &k = onlyRowKernel(g, "reduction");
  EXPECT_NE(g.source.find("sum_inner_k0_v4_m("), std::string::npos);
  EXPECT_EQ(g.source.find("fuserc_row_cache[]"), std::string::npos);
  EXPECT_EQ(g.source.find("_c512("), std::string::npos);
  EXPECT_EQ(k.hostLaunch.find("shared_memory_limits"), std::string::npos) << k.hostLaunch;
  EXPECT_NE(k.hostLaunch.find("while (threads > 32 && a.rows * threads > 270336LL)"),
            std::string::npos);
  // Softmax passes over each row three times and caches its input.
  Generated softmax = generate(fileText("bench/cases/softmax.fus"));
  EXPECT_NE(softmax.source.find("fuserc_row_cache[]"), std::string::npos);
  EXPECT_NE(softmax.source.find("softmax_k0_v8_c512("), std::string::npos);
}

TEST(RowReductionCodegen, ColumnPartialsRunOneWaveAndPrefetchWhereRegistersAllow) {
  // An RMSNorm backward's dw is a column sum beside dx's rows: partial rows
  // per block, merged after. The grid is one wave: 264 blocks where two
  // fit at any register count (128 threads), 132 for 256-thread blocks.
  const std::string cases = fileText("gpu/cases/column_partials.fus");
  Generated g = generate(cases.substr(0, cases.find("fusion row_and_column")));
  expectCompiles(g);
  const KernelPlan *rms = nullptr;
  for (const FusionCode &f : g.code)
    if (!f.kernels.empty() && f.kernels.at(0).name == "rmsnorm_bwd_k0")
      rms = &f.kernels.at(0);
  ASSERT_NE(rms, nullptr);
  EXPECT_NE(g.source.find("rmsnorm_bwd_k0_colmerge("), std::string::npos);
  EXPECT_NE(rms->hostLaunch.find("if (groups > cap)"), std::string::npos) << rms->hostLaunch;
  EXPECT_NE(rms->hostLaunch.find("cap = 132;"), std::string::npos);
  EXPECT_NE(rms->hostLaunch.find("cap = 264;"), std::string::npos);
  // x and dy (4 rows' worth of registers with dw) load each next row ahead;
  // the weight, the same in every row, does not.
  const std::string b128 = kernelText(g.source, "rmsnorm_bwd_k0_v8_b128x32");
  ASSERT_FALSE(b128.empty());
  EXPECT_NE(b128.find("t0_n[4][8];"), std::string::npos) << b128;
  EXPECT_NE(b128.find("t2_n[4][8];"), std::string::npos);
  EXPECT_EQ(b128.find("t1_n["), std::string::npos);
  // A row per block: the partials leave in 16-byte stores.
  EXPECT_NE(b128.find("*(fuserc_bytes16 *)(((float *)a.cpart[0] + (I)blockIdx.x * L)"),
            std::string::npos);
  // A layer norm backward's dw and db hold 6 rows' worth: no prefetch.
  const std::string ln = kernelText(g.source, "layernorm_bwd_k0_v4_b128x32");
  ASSERT_FALSE(ln.empty());
  EXPECT_EQ(ln.find("_n["), std::string::npos);
}

TEST(RowReductionCodegen, HeadedRowsTakeTheWidestVectorFromTheBoundaryBeforeTheRow) {
  // Rows of 300 bf16 start 0 or 4 elements past a 16-byte boundary: from
  // 250 up to 2041 elements they run headed kernels at vectors of 8 from
  // the boundary before the row, picked by L + 7 positions, the partial
  // vectors at the row's ends masked. The kernels for aligned rows do not
  // change.
  Generated g = generate("fusion softmax {\n  input x: bf16[M, N]\n"
                         "  y = cast(softmax(cast(x, dtype=f32), dim=1), dtype=bf16)\n"
                         "  output y\n}\n");
  expectCompiles(g);
  const KernelPlan &k = onlyRowKernel(g, "normalization");
  EXPECT_NE(k.hostLaunch.find("if (vec == 1 && pointers && rows_congruent && a.len + 7 > 256 && "
                              "a.len + 7 <= 2048) {"),
            std::string::npos)
      << k.hostLaunch;
  EXPECT_NE(k.hostLaunch.find("headed = 1;\n        reach = a.len + 7;"), std::string::npos);
  EXPECT_NE(k.hostLaunch.find("if (reach <= 512) {\n        kernel = headed ? "
                              "\"softmax_k0_h8_w32x16\" : vec == 1 ? "),
            std::string::npos);
  EXPECT_NE(k.hostLaunch.find("if (reach <= 1024 && (vec > 1 || headed)) {"), std::string::npos);
  EXPECT_NE(k.selection.find("headed rows"), std::string::npos);
  const std::string w32 = kernelText(g.source, "softmax_k0_h8_w32x16");
  ASSERT_FALSE(w32.empty());
  EXPECT_NE(w32.find("const I head = (o0 % 8 + 8) % 8;"), std::string::npos) << w32;
  EXPECT_NE(w32.find("const I k1 = (I)tid * 8 - head + (I)1 * (I)256;"), std::string::npos);
  // Loads: whole, partial inside the tensor (then masked), else per element.
  EXPECT_NE(w32.find("else if (o0 + k0 >= lo0 && o0 + k0 + 8 <= hi0) {"), std::string::npos);
  // The phases join a partial vector's elements inside the row; its stores
  // are per element.
  EXPECT_NE(w32.find("else if (any1) {\n      if ((unsigned long long)(k1 + 0) < (unsigned "
                     "long long)L) p0 = "),
            std::string::npos);
  EXPECT_NE(w32.find("else if (any1 && row_ok) {"), std::string::npos);
  for (const char *aligned : {"softmax_k0_v8_w32x16", "softmax_k0_v8_b128x32"}) {
    const std::string text = kernelText(g.source, aligned);
    ASSERT_FALSE(text.empty()) << aligned;
    EXPECT_EQ(text.find("head"), std::string::npos) << aligned;
  }
  // Below 250 elements the kernels at vectors of 1 take such rows.
  EXPECT_TRUE(kernelText(g.source, "softmax_k0_h8_w32x8").empty());
}

TEST(RowReductionCodegen, MinimalBudgetKeepsTheGeneralVariants) {
  Generated g =
      generate(fileText("bench/cases/softmax.fus"), {}, "test.fus", VariantBudget::Minimal);
  expectCompiles(g);
  const KernelPlan &k = g.code.at(0).kernels.at(0);
  EXPECT_EQ(test::variantSuffixes(k),
            (std::vector<std::string>{"warp32x4", "block256x4", "loop512"}));
  EXPECT_EQ(k.hostLaunch.find("vec = contiguous"), std::string::npos);
  EXPECT_NE(k.leftOut.find("every row takes the general variants"), std::string::npos);
  EXPECT_EQ(g.code[0].kernelUnits[0].size(), 1u);
}

TEST(RowReductionCodegen, LaunchChecksEveryStreamedRowIsContiguousAndAligned) {
  Generated g = generate(fileText("bench/cases/layernorm.fus"));
  const KernelPlan &k = onlyRowKernel(g, "normalization");
  EXPECT_EQ(parameter(k, "streamed"), "input x, input w, input b, output yb");
  // x's row: stride 1 along N; w's start aligned to 16 bytes; the rows of
  // x start at multiples of 8 elements.
  EXPECT_NE(k.hostLaunch.find("if (a.size[1] != 1 && a.st[0][1] != run) contiguous = 0;"),
            std::string::npos)
      << k.hostLaunch;
  EXPECT_NE(k.hostLaunch.find("if ((uintptr_t)a.ptr[1] % 16 != 0) aligned = pointers = 0;"),
            std::string::npos);
  EXPECT_NE(k.hostLaunch.find("if (a.st[0][0] % 8 != 0) aligned = 0;"), std::string::npos);
  EXPECT_NE(k.hostLaunch.find("vec = contiguous ? (aligned ? 8 : 1) : 0;"), std::string::npos);
}

TEST(RowReductionCodegen, LongRowsStreamThroughASharedMemoryCache) {
  // Each cached variant its own kernel (--variants all).
  Generated g = generate(fileText("bench/cases/xent_bwd.fus"), {}, "test.fus", VariantBudget::All);
  const KernelPlan &k = onlyRowKernel(g, "normalization", VariantBudget::All);
  // Rows above 32768 run m512 or m1024; the logits (which differ per row
  // and which the max reads) are cached, the labels (one per row) and the
  // output are not. Odd rows keep vectors of 8 when the logits' and the
  // output's rows start equally far past a vector boundary.
  EXPECT_NE(k.hostLaunch.find("if ((a.st[2][0] % 8 + 8) % 8 != (a.st[0][0] % 8 + 8) % 8) "
                              "congruent = 0;"),
            std::string::npos)
      << k.hostLaunch;
  EXPECT_NE(k.hostLaunch.find("shifted = pointers && congruent ? 8 : 1;"), std::string::npos);
  // m512 (two blocks per multiprocessor) when half a multiprocessor's
  // shared memory holds 3/4 of the row, else m1024 (one block).
  EXPECT_NE(k.hostLaunch.find("st = FUSERC_NAME_shared_memory_limits(&per_block, &per_sm);"),
            std::string::npos);
  EXPECT_NE(k.hostLaunch.find("room = (long long)per_sm / 2 - 1024;\n"
                              "        fit = ((room < per_block ? room : per_block) - 1040) / 2 "
                              "/ shifted * shifted;\n"
                              "        if (4 * fit >= 3 * span) {\n"
                              "          kernel = shifted == 1 ? \"xent_bwd_k0_v1_m512\" : "
                              "\"xent_bwd_k0_v8_m512\";"),
            std::string::npos);
  EXPECT_NE(k.hostLaunch.find("kernel = shifted == 1 ? \"xent_bwd_k0_v1_m1024\" : "
                              "\"xent_bwd_k0_v8_m1024\";"),
            std::string::npos);
  EXPECT_NE(k.hostLaunch.find("shared = (unsigned)((a.cache * 2 + 15) / 16 * 16);"),
            std::string::npos);
  EXPECT_NE(k.hostLaunch.find("(unsigned)groups, splits, 1, block, shared, &a, stream);"),
            std::string::npos);
  EXPECT_NE(k.selection.find(
                "b512x32 up to 16384, at W = 1 t1x8 up to 8, g8x8 up to 64, w32x8 up to 256, "
                "w32x16 up to 512, b128x16 up to 2048, headed rows (L no multiple of 8"),
            std::string::npos)
      << k.selection;
  EXPECT_NE(k.selection.find(
                "from L = 250 up to L = 2041: the variants' headed kernels (h8) at W = 8 by L + 7 "
                "positions, vectors "
                "from the boundary at or before the row's start, longer rows at W = "
                "1 (above 2048) as below"),
            std::string::npos)
      << k.selection;
  EXPECT_NE(k.selection.find("above 16384 a cached streaming variant"), std::string::npos);
  EXPECT_NE(
      k.selection.find(
          "m512 when its cache holds at least 3/4 of the row, else m1024 when "
          "its cache does or the device has no thread-block clusters (compute "
          "capability below 9.0, or a fatbin without code for compute capability 9.0 or newer), "
          "else c512 in clusters of C CTAs"),
      std::string::npos)
      << k.selection;
  // The logits' whole vectors are copied asynchronously; the passes read
  // cached positions from shared memory, the rest from global memory.
  EXPECT_NE(g.source.find("const R head = (R)(o0 % 8 + 8) % 8;"), std::string::npos);
  EXPECT_NE(g.source.find("fuserc_async_copy<16>(t0_c + pb, ((const __nv_bfloat16 *)a.ptr[0] + "
                          "o0 + k));"),
            std::string::npos);
  // A step whose four vectors are whole and cached reads them without
  // checks; other steps check each vector.
  EXPECT_NE(
      g.source.find("if (k0 >= 0 && k3 + 8 <= L && at3 < P) {\n"
                    "        __align__(16) __nv_bfloat16 t0_l[4][8];  // input logits\n"
                    "        *(fuserc_bytes16 *)t0_l[0] = *(const fuserc_bytes16 *)(t0_c + at0);"),
      std::string::npos);
  EXPECT_NE(g.source.find("if (at0 < P) {\n          *(fuserc_bytes16 *)t0_l[0] = *(const "
                          "fuserc_bytes16 *)(t0_c + at0);"),
            std::string::npos);
  // Whole vectors are stored with one instruction, those at the row's ends
  // element by element; rows past 2^30 elements (32-bit positions) take the
  // general variants.
  EXPECT_NE(g.source.find("fuserc_store_vector<16>(((__nv_bfloat16 *)a.ptr[2] + o2 + k1), "
                          "t2_l[1]);"),
            std::string::npos);
  EXPECT_NE(k.hostLaunch.find("if (a.len > 1073741824LL) vec = 0;"), std::string::npos);
  EXPECT_NE(g.source.find("if (ok1_7) ((__nv_bfloat16 *)a.ptr[2] + o2 + k1)[7] = t2_l[1][7];"),
            std::string::npos);
}

TEST(RowReductionCodegen, PerRowInputsLoadOncePerRow) {
  Generated g = generate(fileText("bench/cases/xent_bwd.fus"));
  expectCompiles(g);
  const KernelPlan &k = onlyRowKernel(g, "normalization");
  EXPECT_NE(parameter(k, "streamed").find("(one per row)"), std::string::npos)
      << parameter(k, "streamed");
  EXPECT_NE(g.source.find("_r = ((const long long *)a.ptr["), std::string::npos);
}

TEST(RowReductionCodegen, IndirectReadsInContiguousVariantsGoThroughStrides) {
  // x is read along the row and, permuted, across it: the first read is
  // streamed, the second addresses x through its strides.
  Generated g = generate("fusion f {\n"
                         "  input x: f32[N, N]\n"
                         "  m = max(x, axes=[1], keepdim=true)\n"
                         "  y = sub(permute(x, dims=[1, 0]), m)\n"
                         "  output y\n"
                         "}\n",
                         {}, "test.fus", VariantBudget::All);
  expectCompiles(g);
  const KernelPlan &k = onlyRowKernel(g, "normalization", VariantBudget::All);
  EXPECT_EQ(parameter(k, "streamed"), "input x, output y");
  const size_t contiguous = g.source.find("contiguous variant b256x32, vectors of 4");
  ASSERT_NE(contiguous, std::string::npos);
  EXPECT_NE(g.source.find("fuserc_load(((const float *)a.ptr[0])[0 + c1_0_0 * (I)a.st[0][0] + "
                          "c0 * (I)a.st[0][1]])",
                          contiguous),
            std::string::npos);
}

TEST(RowReductionCodegen, Bf16VectorElementsConvertFromTheirWords) {
  // rmsnorm's x and w are streamed bf16: in vectors of 8 each element
  // converts from the 32-bit word holding it (a shift or a mask); vectors
  // of 1 have no such word and convert the element.
  Generated g = generate(fileText("bench/cases/rmsnorm.fus"), {}, "test.fus", VariantBudget::All);
  expectCompiles(g);
  const size_t wide = g.source.find("contiguous variant b256x32, vectors of 8");
  const size_t narrow = g.source.find("contiguous variant b128x16, vectors of 1");
  ASSERT_NE(wide, std::string::npos);
  ASSERT_NE(narrow, std::string::npos);
  EXPECT_NE(g.source.find("= fuserc_load_lane(t0_l[0], 1);", wide), std::string::npos);
  EXPECT_NE(g.source.find("= fuserc_load_lane(t1_l[3], 7);", wide), std::string::npos);
  EXPECT_NE(g.source.find("= fuserc_load(t0_l[0][0]);", narrow), std::string::npos);
  EXPECT_EQ(g.source.substr(narrow, g.source.find("extern \"C\"", narrow + 200) - narrow)
                .find("fuserc_load_lane("),
            std::string::npos);
  EXPECT_NE(g.source.find("return __uint_as_float(e & 1 ? w & 0xffff0000u : w << 16);"),
            std::string::npos);
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
  EXPECT_EQ(parameter(k, "accumulate"), "f32 f64");
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
  EXPECT_NE(g.source.find("if (tid == 0 && row_ok) ((float *)a.ptr[2])"), std::string::npos);
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

TEST(RowReductionCodegen, AnOuterNormalizationBecomesAColumnReductionAndAPointwiseKernel) {
  // A persistent kernel keeps rows contiguous in memory: the normalization
  // scheduler refuses an outer one, and the column generator reduces it.
  Generated g = generate("fusion f {\n"
                         "  input x: f32[M, N]\n"
                         "  m = max(x, axes=[0], keepdim=true)\n"
                         "  y = sub(x, m)\n"
                         "  output y\n"
                         "}\n");
  ASSERT_TRUE(g.error.empty()) << g.error;
  ASSERT_EQ(g.code.at(0).kernels.size(), 2u);
  EXPECT_EQ(g.code[0].kernels[0].family, "columns");
  EXPECT_EQ(g.code[0].kernels[1].family, "pointwise");
}

TEST(RowReductionCodegen, StaticRowLengthsGetOnlyTheVariantsTheSelectionPicksForThem) {
  // Softmax over rows of a static length: the contiguous variant the host
  // chain picks for it (at both widths) and the general one; the launch
  // names no other kernel. A symbolic length keeps every variant.
  // The variants' suffixes, at the widest vector (f32: 4) and at 1.
  struct Case {
    int64_t length;
    std::vector<std::string> variants;
  };
  for (const Case &c : std::vector<Case>{
           {100, {"v4_w32x8", "v1_w32x8", "warp32x4"}},
           // Headed rows take the variant by L + 3 positions: w32x16.
           {254, {"v4_w32x8", "v1_w32x8", "h4_w32x16", "block256x4"}},
           {1000, {"v4_w32x32", "h4_w32x32", "v1_b128x16", "block256x4"}},
           {8192, {"v4_b256x32", "v4_m", "v1_m512", "v1_m1024", "v4_c512", "v1_c512", "loop512"}},
           {20000,
            {"v4_m", "v1_m512", "v1_m1024", "v4_c512", "v1_c512", "v4_g512", "v1_g512",
             "loop512"}}}) {
    const std::string n = std::to_string(c.length);
    Generated g = generate("fusion softmax {\n  input x: f32[M, " + n +
                           "]\n  m = max(x, axes=[1], keepdim=true)\n"
                           "  e = exp(sub(x, m))\n  s = sum(e, axes=[1], keepdim=true)\n"
                           "  y = div(e, s)\n  output y\n}\n");
    expectCompiles(g);
    ASSERT_EQ(g.code.size(), 1u);
    const KernelPlan &k = g.code[0].kernels.at(0);
    EXPECT_EQ(parameter(k, "vector"), "4");
    EXPECT_EQ(test::variantSuffixes(k), c.variants) << n;
    EXPECT_NE(k.selection.find("L is " + n + " (static extents)"), std::string::npos) << n;
    // Every kernel the host block names is generated.
    for (size_t at = k.hostLaunch.find("\"softmax_k0_"); at != std::string::npos;
         at = k.hostLaunch.find("\"softmax_k0_", at + 1)) {
      const std::string name = k.hostLaunch.substr(at + 1, k.hostLaunch.find('"', at + 1) - at - 1);
      EXPECT_NE(g.source.find(" " + name + "("), std::string::npos) << n << ": " << name;
    }
  }
  onlyRowKernel(generate(fileText("bench/cases/softmax.fus")), "normalization");
}

TEST(RowReductionCodegen, ADivisionByATensorIsADivisionInEveryPhase) {
  // q = x / d over rows, then softmax(q): the max phase computes q at the
  // row's elements, the output phase at its start; multiplying by d's
  // reciprocal in one of them only gave q two roundings, and softmax
  // 1 + 2^-15 (seed 57359, rows of 1, which are now small reductions
  // computed pointwise). Only the softmax's sum, a reduction result, is
  // divided by through its reciprocal.
  Generated g = generate("fusion f {\n  input x: f32[M, K]\n  input d: f32[M, 1]\n"
                         "  q = div(x, d)\n  y = softmax(q, dim=1)\n  output q\n  output y\n}\n");
  expectCompiles(g);
  const size_t at = g.source.find("f_k0_v1_g8x8(");
  ASSERT_NE(at, std::string::npos);
  const std::string body = g.source.substr(at, g.source.find("\n}\n", at) - at);
  EXPECT_EQ(test::occurrences(body, "1.0f / "), 1u) << body;
}

} // namespace

} // namespace fuserc
