// Unit tests for layout inference: the choice of the dominant input and the
// order it gives outputs. (Mapping through each op is covered by the golden
// dumps in tests/lit/passes/layout.)
#include "TestSupport.h"

#include "passes/LayoutInference.h"

#include <gtest/gtest.h>

namespace fuserc {
namespace {

std::string inferredLayouts(std::string_view source) {
  test::Loaded r = test::load(source);
  EXPECT_TRUE(r.ok) << r.diagnostics;
  if (!r.ok)
    return "";
  Fusion &f = *r.module.fusions[0];
  inferLayouts(f);
  std::string s;
  for (const FusionOutput &out : f.outputs())
    s += out.name + layoutString(out.layout) + " ";
  return s;
}

TEST(LayoutInference, ChannelsLastInputsGiveChannelsLastOutputs) {
  EXPECT_EQ(inferredLayouts("fusion f {\n input x: f16[N, C, H, W] layout(0, 2, 3, 1)\n"
                            " input b: f16[1, C, 1, 1] layout(0, 2, 3, 1)\n"
                            " y = relu(add(x, b))\n output y\n}\n"),
            "y(0, 2, 3, 1) ");
}

TEST(LayoutInference, MoreNonBroadcastDimsBeatDeclarationOrder) {
  EXPECT_EQ(inferredLayouts("fusion f {\n input a: f32[1, M, N]\n"
                            " input b: f32[K, M, N] layout(2, 1, 0)\n"
                            " y = add(a, b)\n output y\n}\n"),
            "y(2, 1, 0) ");
}

TEST(LayoutInference, TiesGoToTheInputDeclaredFirst) {
  EXPECT_EQ(inferredLayouts("fusion f {\n input a: f32[M, N] layout(1, 0)\n"
                            " input b: f32[M, N]\n y = add(b, a)\n output y\n}\n"),
            "y(1, 0) ");
}

TEST(LayoutInference, PinnedOutputLayoutWins) {
  EXPECT_EQ(inferredLayouts("fusion f {\n input a: f32[M, N] layout(1, 0)\n"
                            " y = exp(a)\n output y layout(0, 1)\n}\n"),
            "y(0, 1) ");
}

TEST(LayoutInference, ScalarAndRankZeroResultsHaveEmptyLayouts) {
  EXPECT_EQ(inferredLayouts("fusion f {\n input a: f32[N]\n input s: f32\n"
                            " t = sum(a, axes=[0])\n y = mul(t, s)\n output y\n}\n"),
            "y() ");
}

} // namespace
} // namespace fuserc
