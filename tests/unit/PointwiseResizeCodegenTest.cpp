// The pointwise generator's rvec variants (codegen/pointwise/PointwiseResizeVariant.h):
// which segments get them, what the kernels read and how the host picks
// them; every resize case of the GPU tests compiles with NVRTC.
#include "CodegenTestSupport.h"

#include <gtest/gtest.h>

namespace fuserc {
namespace {

using test::expectCompiles;
using test::fileText;
using test::generate;
using test::Generated;
using test::variantSymbols;

TEST(PointwiseResizeCodegen, RopeRunsEightBf16PerThreadWithVectorLoads) {
  Generated g = generate(fileText("bench/cases/rope.fus"));
  expectCompiles(g);
  ASSERT_EQ(g.code.size(), 1u);
  ASSERT_EQ(g.code[0].kernels.size(), 1u);
  const KernelPlan &k = g.code[0].kernels[0];
  EXPECT_EQ(variantSymbols(k), (std::vector<std::string>{"rope_k0_rvec8_i32", "rope_k0_rvec8_i64",
                                                         "rope_k0_svec8_i32", "rope_k0_svec8_i64",
                                                         "rope_k0_gen_i32", "rope_k0_gen_i64"}));
  // q (dense in the iteration order) is read at the vector's linear index
  // and, shifted by 64 either way, for the rotated half: each a 16-byte
  // load, the shifted ones guarded by their piece's condition.
  EXPECT_NE(g.source.find("((const __nv_bfloat16 *)a.ptr[0] + lin)"), std::string::npos)
      << g.source;
  EXPECT_NE(g.source.find("((const __nv_bfloat16 *)a.ptr[0] + (lin - c3 + (c3 + ((I)((64LL))))))"),
            std::string::npos);
  EXPECT_NE(g.source.find(" = c3 < ((I)((64LL)));"), std::string::npos);
  EXPECT_NE(g.source.find("__stcs((fuserc_bytes16 *)((__nv_bfloat16 *)a.ptr[3] + lin)"),
            std::string::npos);
  EXPECT_NE(k.hostLaunch.find("a.st[0][3] != 1"), std::string::npos) << k.hostLaunch;
  EXPECT_NE(k.hostLaunch.find("kernel = svec ? (wide ? \"rope_k0_svec8_i64\" : "
                              "\"rope_k0_svec8_i32\") : rvec ?"),
            std::string::npos);
  EXPECT_NE(k.argsStruct.find("rv_mul"), std::string::npos);
}

TEST(PointwiseResizeCodegen, EveryGpuResizeCaseCompiles) {
  Generated g = generate(fileText("gpu/cases/resize.fus"), {"alias", "pointwise"});
  expectCompiles(g);
  size_t withResizeVariant = 0;
  for (const FusionCode &f : g.code)
    for (const KernelPlan &k : f.kernels)
      for (const KernelVariant &v : k.variants)
        withResizeVariant += v.symbol.find("_rvec") != std::string::npos;
  // Two (i32 and i64) for each of the 14 kernels but slice_steps, whose
  // step does not allow them (pad_unaligned and cat_unaligned run their
  // pieces lane by lane).
  EXPECT_EQ(withResizeVariant, 2u * 13u);
}

TEST(PointwiseResizeCodegen, ShiftsThatAreNotMultiplesOfTheVectorKeepGenOnly) {
  struct Case {
    const char *body;
    const char *reason;
  };
  const Case cases[] = {
      {"input x: f16[M, 16]\n  y = pad(x, dim=1, before=8, after=5)\n",
       "the innermost extent 29 is not a multiple of 8"},
      {"input x: f32[M, 64]\n  y = slice(x, dim=1, start=0, end=64, step=2)\n  z = neg(y)\n",
       "slice y has step 2 along the vector dim"},
      {"input x: f32[M, 64]\n  y = neg(slice(x, dim=1, start=2, end=6))\n",
       "the start of slice _0 (2) is not a multiple of 4"},
      // The broadcast over s keeps the reshape inside the kernel.
      {"input x: f32[M, 8]\n  input s: f32[2, 1]\n"
       "  y = reshape(pad(x, dim=0, before=1, after=0), shape=[-1])\n"
       "  z = mul(y, s)\n",
       "reshape y moves the vector dim"},
  };
  for (const Case &c : cases) {
    Generated g =
        generate(std::string("fusion f {\n  ") + c.body + "  output " +
                     (std::string(c.body).find("z =") != std::string::npos ? "z" : "y") + "\n}\n",
                 {"alias", "pointwise"});
    expectCompiles(g, {"sm_90"});
    ASSERT_EQ(g.code.size(), 1u);
    for (const KernelPlan &k : g.code[0].kernels) {
      for (const KernelVariant &v : k.variants)
        EXPECT_EQ(v.symbol.find("_rvec"), std::string::npos) << c.body;
      EXPECT_NE(k.selection.find(c.reason), std::string::npos) << k.selection;
    }
  }
}

// A pad or cat whose pieces meet off the vector boundary keeps its rvec
// variant: those pieces are computed lane by lane, each lane read at its own
// coordinate, while the output is still stored by vector.
TEST(PointwiseResizeCodegen, PiecesOffTheVectorBoundaryRunLaneByLane) {
  const char *bodies[] = {
      "input x: f16[M, N]\n  y = pad(x, dim=1, before=3, after=5)\n",
      "input a: f32[M, 6]\n  input b: f32[M, 2]\n  y = cat(a, b, dim=1)\n",
      ("input x: f32[M, N]\n  input z: f32[M, N + 4]\n"
       "  y = add(pad(x, dim=1, before=1, after=3), z)\n"),
  };
  for (const char *body : bodies) {
    Generated g =
        generate(std::string("fusion f {\n  ") + body + "  output y\n}\n", {"alias", "pointwise"});
    expectCompiles(g, {"sm_90"});
    const KernelPlan &k = g.code[0].kernels[0];
    EXPECT_EQ(variantSymbols(k).front().find("f_k0_rvec"), 0u) << body;
    EXPECT_EQ(k.selection.find("no rvec variant"), std::string::npos) << k.selection;
    // Lane 1 of the vector is computed at its own coordinate.
    EXPECT_NE(g.source.find(" = c1 + 1;"), std::string::npos) << body;
  }
}

TEST(PointwiseResizeCodegen, SymbolicShiftsAndExtentsAreCheckedAtLaunch) {
  Generated g = generate("fusion f {\n"
                         "  input t0: f32[M, N]\n"
                         "  t1 = slice(t0, dim=1, start=512)\n"
                         "  t2 = slice(t0, dim=1, start=0, end=512)\n"
                         "  t4 = add(t0, cat(t1, t2, dim=1))\n"
                         "  output t4\n"
                         "}\n",
                         {"alias", "pointwise"});
  expectCompiles(g, {"sm_90"});
  const KernelPlan &k = g.code[0].kernels[0];
  EXPECT_EQ(variantSymbols(k), (std::vector<std::string>{"f_k0_rvec4_i32", "f_k0_rvec4_i64",
                                                         "f_k0_svec4_i32", "f_k0_svec4_i64",
                                                         "f_k0_gen_i32", "f_k0_gen_i64"}));
  EXPECT_NE(k.hostLaunch.find("if (fuserc_mod(((sym_N)), 4) != 0)"), std::string::npos)
      << k.hostLaunch;
  EXPECT_NE(k.hostLaunch.find("if (fuserc_mod(((sym_N) + (-512LL)), 4) != 0)"), std::string::npos);
}

TEST(PointwiseResizeCodegen, ValuesBroadcastAlongTheVectorDimAreScalars) {
  Generated g =
      generate("fusion f {\n"
               "  input x: f32[M, N]\n"
               "  input s: f32[M, 1]\n"
               "  y = mul(cat(x, x, dim=1), add(s, iota(shape=[M, 1], dim=0, dtype=f32)))\n"
               "  output y\n"
               "}\n",
               {"alias", "pointwise"});
  expectCompiles(g, {"sm_90"});
  // s is one scalar load per vector; the cat's pieces are vector loads.
  EXPECT_NE(g.source.find("= fuserc_load(*((const float *)a.ptr[1] + c0 * (I)a.st[1][0]));"),
            std::string::npos)
      << g.source;
  EXPECT_NE(g.source.find("*(fuserc_bytes16 *)v"), std::string::npos);
}

// No rvec: gen, and svec (the output by vector, every read per lane).
TEST(PointwiseResizeCodegen, TensorsNotContiguousAlongTheVectorDimHaveNoRvec) {
  Generated g =
      generate(fileText("tests/lit/output/Inputs/strided_rotate.fus"), {"alias", "pointwise"});
  expectCompiles(g, {"sm_90"});
  const KernelPlan &k = g.code[0].kernels[0];
  for (const std::string &name : variantSymbols(k))
    EXPECT_TRUE(name.find("_gen_") != std::string::npos ||
                name.find("_svec4_") != std::string::npos)
        << name;
  EXPECT_NE(k.selection.find("index map _2 of input t is not contiguous along dim 1"),
            std::string::npos)
      << k.selection;
}

TEST(PointwiseResizeCodegen, CoordinateFreeSegmentsKeepTheirVecVariants) {
  Generated g = generate(fileText("bench/cases/swiglu.fus"));
  ASSERT_EQ(g.error, "");
  for (const FusionCode &f : g.code)
    for (const KernelPlan &k : f.kernels)
      for (const std::string &name : variantSymbols(k))
        EXPECT_EQ(name.find("_rvec"), std::string::npos) << name;
}

} // namespace
} // namespace fuserc
