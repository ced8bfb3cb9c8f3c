// Code generation tests: pointwise kernels for real fusions compile with
// NVRTC (for sm_80 and sm_90), every elementwise op of ops.td has CUDA that
// compiles, and segments without a code generator are refused by name.
#include "CodegenTestSupport.h"
#include <algorithm>

#include "codegen/FusionCodegen.h"
#include "codegen/pointwise/PointwiseKernel.h"
#include "driver/Pipeline.h"
#include "packaging/NvrtcCompiler.h"
#include "schedulers/KernelGenerator.h"
#include "schedulers/SchedulerRegistry.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace fuserc {
namespace {

using test::expectCompiles;
using test::fileText;
using test::generate;
using test::Generated;
using test::occurrences;

TEST(PointwiseCodegen, ChannelsLastBenchCaseCompilesWithVectorVariants) {
  Generated g = generate(fileText("bench/cases/bias_relu_nhwc.fus"));
  expectCompiles(g);
  ASSERT_EQ(g.code.size(), 1u);
  ASSERT_EQ(g.code[0].kernels.size(), 1u);
  const KernelPlan &k = g.code[0].kernels[0];
  EXPECT_EQ(k.scheduler, "pointwise");
  EXPECT_EQ(test::variantSymbols(k),
            (std::vector<std::string>{"bias_relu_nhwc_k0_vec1_i32", "bias_relu_nhwc_k0_vec1_i64",
                                      "bias_relu_nhwc_k0_vec8_i32", "bias_relu_nhwc_k0_vec8_i64",
                                      "bias_relu_nhwc_k0_svec8_i32", "bias_relu_nhwc_k0_svec8_i64",
                                      "bias_relu_nhwc_k0_gen_i32", "bias_relu_nhwc_k0_gen_i64"}));
  EXPECT_NE(k.hostLaunch.find("fuserc_pw_plan"), std::string::npos);
}

TEST(PointwiseCodegen, TensorsOfOneShapeGetAFlatVariantWithoutCollapsedDims) {
  Generated g = generate(fileText("bench/cases/swiglu.fus"));
  expectCompiles(g);
  const KernelPlan &k = g.code[0].kernels[0];
  const std::vector<std::string> names = test::variantSymbols(k);
  EXPECT_NE(std::find(names.begin(), names.end(), "swiglu_k0_flat8_i32"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "swiglu_k0_flat8_i64"), names.end());
  // Its offsets are the vector's own: no collapsed dims, no division.
  const size_t at = g.source.find("swiglu_k0_flat8_i32(");
  ASSERT_NE(at, std::string::npos);
  const std::string body = g.source.substr(at, g.source.find("\n}\n", at) - at);
  EXPECT_EQ(body.find("a.f_st"), std::string::npos) << body;
  EXPECT_EQ(body.find("fuserc_udiv32"), std::string::npos) << body;
  // Picked at launch only when one dim is left and every stride on it is 1.
  EXPECT_NE(k.hostLaunch.find("if (vec == 8 && a.f_nouter == 0) {"), std::string::npos);
  EXPECT_NE(k.hostLaunch.find("if (a.f_inner_st[t] != 1)"), std::string::npos);
}

TEST(PointwiseCodegen, FloatSquaresAndCubesAreProducts) {
  Generated g = generate("fusion f {\n"
                         "  input x: f32[N]\n"
                         "  input k: i32[N]\n"
                         "  y = add(pow(x, 3.0), pow(x, 2.0))\n"
                         "  z = pow(x, 2.5)\n"
                         "  w = pow(k, 2)\n"
                         "  output y\n"
                         "  output z\n"
                         "  output w\n"
                         "}\n");
  expectCompiles(g);
  EXPECT_NE(g.source.find("(v0 * v0 * v0)"), std::string::npos) << g.source;
  EXPECT_NE(g.source.find("(v0 * v0)"), std::string::npos);
  // Other exponents keep pow; integer powers keep their exact helper.
  EXPECT_NE(g.source.find("= pow(v0, v"), std::string::npos);
  EXPECT_NE(g.source.find("fuserc_ipow("), std::string::npos);
}

TEST(PointwiseCodegen, IntegerArithmeticWrapsWithoutSignedOverflow) {
  // A signed overflow in CUDA C++ is undefined: the optimizer folded
  // sign(p + p) into sign(p) where p + p wrapped (seed 64303). Integer
  // +, -, *, neg and abs go through the unsigned helpers; floats do not.
  Generated g = generate("fusion f {\n"
                         "  input a: i64[N]\n"
                         "  input b: i32[N]\n"
                         "  input x: f32[N]\n"
                         "  s = sign(add(mul(a, a), sub(a, neg(a))))\n"
                         "  t = abs(add(b, b))\n"
                         "  y = add(x, x)\n"
                         "  output s\n"
                         "  output t\n"
                         "  output y\n"
                         "}\n");
  expectCompiles(g);
  for (const char *helper : {"fuserc_wrap_add(", "fuserc_wrap_mul(", "fuserc_wrap_sub(",
                             "fuserc_wrap_neg(", "fuserc_wrap_abs("})
    EXPECT_NE(g.source.find(helper), std::string::npos) << helper;
  EXPECT_EQ(g.source.find("fabs("), std::string::npos);
  EXPECT_NE(g.source.find("float v10 = (v9 + v9);"), std::string::npos) << g.source;
}

TEST(PointwiseCodegen, IndexTransformsUseOnlyVariantsWithCoordinatesPerElement) {
  Generated g = generate(
      "fusion f {\n"
      "  input q: bf16[B, S, 8]\n"
      "  input t: f32[S, B]\n"
      "  input s: f32[2, 1, 1]\n"
      "  x1 = slice(q, dim=2, start=0, end=4)\n"
      "  x2 = slice(q, dim=2, start=4)\n"
      "  rot = cat(neg(x2), x1, dim=2)\n"
      "  p = pad(rot, dim=1, before=1, after=2, value=0.5)\n"
      "  y = add(p, unsqueeze(permute(pad(t, dim=0, before=1, after=2), dims=[1, 0]), dim=2))\n"
      // Broadcast over a new dim, the reshape stays inside the kernel (an
      // output's reshape of y would be stored through y's view instead).
      "  z = mul(reshape(y, shape=[B, -1]), s)\n"
      "  output z\n"
      "}\n",
      {"alias", "pointwise"});
  expectCompiles(g);
  ASSERT_EQ(g.code.size(), 1u);
  // gen, and svec: vectors of the output, every other read per lane.
  for (const KernelVariant &v : g.code[0].kernels[0].variants)
    EXPECT_TRUE(v.symbol.find("_gen_") != std::string::npos ||
                v.symbol.find("_svec4_") != std::string::npos)
        << v.symbol;
}

// An inner extent no multiple of the vector (a vocabulary of 50257): svec,
// 8 bf16 of the iteration per thread across rows, x and y by vector at the
// linear index, the bias per lane at the lane's column, which steps and
// carries into the row; the last numel % 8 elements one per thread, in
// the threads past the last vector.
TEST(PointwiseCodegen, OddInnerExtentsGetVectorsAcrossRows) {
  Generated g = generate("fusion f {\n"
                         "  input x: bf16[M, N]\n"
                         "  input b: bf16[N]\n"
                         "  y = add(x, b)\n"
                         "  output y\n"
                         "}\n");
  expectCompiles(g);
  const KernelPlan &k = g.code[0].kernels[0];
  const std::vector<std::string> names = test::variantSymbols(k);
  EXPECT_NE(std::find(names.begin(), names.end(), "f_k0_svec8_i32"), names.end());
  const size_t at = g.source.find("f_k0_svec8_i32(");
  ASSERT_NE(at, std::string::npos);
  const std::string body = g.source.substr(at, g.source.find("\n}\n", at) - at);
  EXPECT_NE(body.find("*(fuserc_bytes16 *)t0_l = *(const fuserc_bytes16 *)((const __nv_bfloat16 "
                      "*)a.ptr[0] + lin);"),
            std::string::npos)
      << body;
  EXPECT_NE(body.find("fuserc_load(((const __nv_bfloat16 *)a.ptr[1])[0 + c1 * (I)a.st[1][0]])"),
            std::string::npos)
      << body;
  EXPECT_NE(body.find("if (++c1 == (I)a.size[1]) {\n        c1 = 0;\n        ++c0;\n      }"),
            std::string::npos)
      << body;
  EXPECT_NE(body.find("__stcs((fuserc_bytes16 *)((__nv_bfloat16 *)a.ptr[2] + lin)"),
            std::string::npos)
      << body;
  EXPECT_NE(body.find("I j = (I)blockIdx.x * 256 + (I)threadIdx.x - vectors % total;"),
            std::string::npos)
      << body;
  EXPECT_NE(body.find("if ((long long)j < a.numel - (long long)vectors * 8) {"), std::string::npos);
  // Picked where vec8 cannot run, when x and y are aligned and dense.
  EXPECT_NE(
      k.hostLaunch.find("if ((uintptr_t)a.ptr[0] % 16 != 0)  /* input x */\n    svec_ok = 0;"),
      std::string::npos)
      << k.hostLaunch;
  EXPECT_NE(k.hostLaunch.find("input x: dense in the iteration order */\n      svec_ok = 0;"),
            std::string::npos);
  EXPECT_NE(k.hostLaunch.find("svec = svec_ok && vec != 8;"), std::string::npos);
  EXPECT_NE(k.hostLaunch.find("work = svec ? (unsigned long long)((a.numel + 7) / 8) :"),
            std::string::npos);
}

// Segments with a two-pass scatter keep their fill's variants: no svec.
TEST(PointwiseCodegen, ScatterFillsHaveNoVectorsAcrossRows) {
  Generated g = generate("fusion f {\n"
                         "  input x: f32[M, N]\n"
                         "  input idx: i64[K, N]\n"
                         "  input src: f32[K, N]\n"
                         "  y = sigmoid(scatter(x, idx, src, dim=0))\n"
                         "  output y\n"
                         "}\n");
  for (const std::string &name : test::variantSymbols(g.code[0].kernels[0]))
    EXPECT_EQ(name.find("svec"), std::string::npos) << name;
}

TEST(PointwiseCodegen, CreationIndexingAndScalarsCompile) {
  Generated g = generate(
      "fusion f {\n"
      "  input x: f16[M, N]\n"
      "  input idx: i64[M, 2]\n"
      "  input sel: i32[K]\n"
      "  input seed: i64\n"
      "  input offset: i64\n"
      "  input s: f32\n"
      "  r = rand_like(x, seed, offset)\n"
      "  i = iota(shape=[M, N], dim=1, dtype=f32)\n"
      "  g = gather(x, idx, dim=1)\n"
      "  h = index_select(x, sel, dim=0)\n"
      "  y = where(gt(r, 0.5), mul(x, s), add(i, full(shape=[M, N], value=2, dtype=f16)))\n"
      "  output y\n  output g\n  output h\n"
      "}\n",
      {"alias", "pointwise"});
  expectCompiles(g);
}

TEST(PointwiseCodegen, ScatterThatCanonicalizeKeepsCompilesToASearchLoopNotUnrolled) {
  // Two indices per row: not the one-hot pattern canonicalize rewrites.
  Generated g = generate("fusion f {\n"
                         "  input x: f32[M, N]\n"
                         "  input idx: i64[M, 2]\n"
                         "  input src: f16[M, 2]\n"
                         "  y = scatter(x, idx, src, dim=1)\n"
                         "  z = scatter(x, idx, 1.5, dim=1)\n"
                         "  output y\n  output z\n"
                         "}\n",
                         {"alias", "pointwise"});
  expectCompiles(g);
  // Each element searches the index; unrolled, the search multiplies the
  // code by the index's extent (a fuzz input took NVRTC 160 s).
  const size_t loop = g.source.find("for (I j");
  ASSERT_NE(loop, std::string::npos);
  EXPECT_NE(g.source.rfind("#pragma unroll 1", loop), std::string::npos);
  EXPECT_GT(g.source.rfind("#pragma unroll 1", loop), g.source.rfind(";", loop));
}

// Every elementwise op, on every dtype domain it has CUDA for.
TEST(PointwiseCodegen, EveryElementwiseOpHasCompilableCuda) {
  std::string body;
  int n = 0;
  for (const OpInfo &info : allOps()) {
    if (info.shapeRule != ShapeRule::Elementwise || info.kind == OpKind::Cast)
      continue;
    const size_t arity = info.operands.size();
    auto call = [&](const char *a, const char *b, const char *c) {
      std::string args = a;
      if (arity > 1)
        args += std::string(", ") + b;
      if (arity > 2)
        args += std::string(", ") + c;
      return std::string(info.name) + "(" + args + ")";
    };
    std::string name = "o" + std::to_string(n++);
    if (!info.cuda.empty())
      body +=
          "  " + name + "f = cast(" +
          (info.dtypeRule == DTypeRule::Where ? call("c", "xf", "yf") : call("xf", "yf", "zf")) +
          ", dtype=f32)\n  output " + name + "f\n";
    if (!info.cudaInt.empty())
      body +=
          "  " + name + "i = cast(" +
          (info.dtypeRule == DTypeRule::Where ? call("c", "xi", "yi") : call("xi", "yi", "zi")) +
          ", dtype=i32)\n  output " + name + "i\n";
  }
  Generated g = generate("fusion all_ops {\n  input xf: f16[N]\n  input yf: bf16[N]\n"
                         "  input zf: f32[N]\n  input xi: i32[N]\n  input yi: i64[N]\n"
                         "  input zi: i32[N]\n  input c: bool[N]\n" +
                         body + "}\n");
  expectCompiles(g, {"sm_90"});
}

// A transposed read goes to the transpose generator: one kernel, tiled
// through shared memory, with the transposed input staged in a tile.
TEST(TransposeCodegen, TransposedReadsAreStagedThroughASharedMemoryTile) {
  Generated g = generate(fileText("bench/cases/transpose_add.fus"));
  ASSERT_TRUE(g.error.empty()) << g.error;
  ASSERT_EQ(g.code.size(), 1u);
  ASSERT_EQ(g.code[0].kernels.size(), 1u);
  const KernelPlan &k = g.code[0].kernels[0];
  EXPECT_EQ(k.scheduler, "transpose");
  ASSERT_EQ(k.variants.size(), 4u);
  EXPECT_EQ(k.variants[0].symbol, "transpose_add_k0_tile32_i32");
  EXPECT_EQ(k.variants[2].symbol, "transpose_add_k0_tile64v4_i32");
  EXPECT_NE(g.source.find("__shared__ float tile0[32][32 + 1];  // input c"), std::string::npos);
}

// An f16 / bf16 element stored unchanged (a permute) is copied as it is,
// not widened to f32 and rounded back; a computed one still converts.
TEST(TransposeCodegen, HalfElementsStoredUnchangedAreCopiedWithoutConversion) {
  Generated g = generate(fileText("bench/cases/transpose_3d.fus"));
  ASSERT_TRUE(g.error.empty()) << g.error;
  EXPECT_NE(g.source.find("o1[0][0] = u0[0];"), std::string::npos);
  EXPECT_EQ(occurrences(g.source, "] = __float2half_rn("), 0u);
  expectCompiles(g, {"sm_90"});

  Generated scaled = generate("fusion t {\n  input x: bf16[B, S, D]\n"
                              "  y = mul(permute(x, dims=[0, 2, 1]), 2.0)\n"
                              "  output y layout(0, 1, 2)\n}\n");
  ASSERT_TRUE(scaled.error.empty()) << scaled.error;
  EXPECT_GT(occurrences(scaled.source, "] = __float2bfloat16_rn("), 0u);
}

} // namespace
} // namespace fuserc

namespace fuserc {
namespace {

// The host helpers are C text pasted into headers; compile them with the
// system C compiler and check the magic-number division the i32 kernels use
// against plain division (the device side computes (umulhi(n, mul) + n) >> shift).
TEST(PointwiseHostHelpers, MagicNumberDivisionIsExact) {
  const std::string source =
      std::string("#include <stdint.h>\n#include <stdio.h>\n") + pointwiseHostHelpers() + R"C(
static unsigned umulhi(unsigned a, unsigned b) {
  return (unsigned)(((unsigned long long)a * b) >> 32);
}
int main(void) {
  static const long long divisors[] = {1, 2, 3, 7, 8, 13, 100, 127, 128, 1000, 1023, 1024,
                                       50257, 65537, 1048575, 2147483647LL};
  static const unsigned numerators[] = {0, 1, 2, 6, 7, 8, 99, 1000, 65535, 65536,
                                        1000000007u, 2147483646u, 2147483647u};
  unsigned i, j, bad = 0;
  for (i = 0; i < sizeof divisors / sizeof *divisors; ++i) {
    unsigned mul, shift;
    fuserc_pw_magic(divisors[i], &mul, &shift);
    for (j = 0; j < sizeof numerators / sizeof *numerators; ++j) {
      unsigned n = numerators[j];
      unsigned q = (unsigned)(((unsigned long long)umulhi(n, mul) + n) >> shift);
      if (q != (unsigned)(n / (unsigned long long)divisors[i])) {
        printf("%u / %lld: got %u\n", n, divisors[i], q);
        ++bad;
      }
    }
  }
  return bad != 0;
}
)C";
  EXPECT_EQ(test::compileAndRunC("magic", source), 0);
}

} // namespace
} // namespace fuserc
