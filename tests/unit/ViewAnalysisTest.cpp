// Tests of the strided-view algebra behind alias analysis
// (ir/ViewAnalysis.h): dense strides, the view ops, and the reshape
// grouping that decides whether a reshape is expressible as strides.
#include "ir/ViewAnalysis.h"

#include <gtest/gtest.h>

namespace fuserc {
namespace {

const Extent N = Extent::symbol("N");
const Extent C = Extent::symbol("C");
const Extent H = Extent::symbol("H");
const Extent W = Extent::symbol("W");

std::string strides(const StridedView &view) { return extentListString(view.strides); }

StridedView dense(std::vector<Extent> shape, Layout layout = {}) {
  if (layout.empty())
    layout = rowMajorLayout(shape.size());
  StridedView view;
  view.strides = denseStrides(shape, layout);
  view.shape = std::move(shape);
  view.order = std::move(layout);
  return view;
}

std::vector<std::vector<size_t>> runsFrom(const std::vector<ReshapeRun> &runs) {
  std::vector<std::vector<size_t>> out;
  for (const ReshapeRun &r : runs)
    out.push_back(r.from);
  return out;
}

std::vector<std::vector<size_t>> runsTo(const std::vector<ReshapeRun> &runs) {
  std::vector<std::vector<size_t>> out;
  for (const ReshapeRun &r : runs)
    out.push_back(r.to);
  return out;
}

using Dims = std::vector<std::vector<size_t>>;

TEST(ViewAnalysis, DenseStridesAreProductsOfInnerExtentsInTheLayout) {
  EXPECT_EQ(extentListString(denseStrides({N, C}, {0, 1})), "(C, 1)");
  EXPECT_EQ(extentListString(denseStrides({N, C}, {1, 0})), "(1, N)");
  // NHWC: C is innermost, then W, H, N.
  EXPECT_EQ(extentListString(denseStrides({N, C, H, W}, {0, 2, 3, 1})), "(C*H*W, 1, C*W, C)");
}

TEST(ViewAnalysis, StaticReshapeRunsAreTheMinimalEqualProducts) {
  auto runs = reshapeRuns({2, 3, 4}, {6, 4});
  ASSERT_TRUE(runs);
  EXPECT_EQ(runsFrom(*runs), (Dims{{0, 1}, {2}}));
  EXPECT_EQ(runsTo(*runs), (Dims{{0}, {1}}));

  runs = reshapeRuns({4, 6}, {2, 12});
  ASSERT_TRUE(runs);
  EXPECT_EQ(runsFrom(*runs), (Dims{{0, 1}}));
  EXPECT_EQ(runsTo(*runs), (Dims{{0, 1}}));
}

TEST(ViewAnalysis, SymbolicReshapeRunsMatchByCanonicalProducts) {
  auto runs = reshapeRuns({Extent::symbol("B"), 8, 16}, {Extent::symbol("B"), 2, 64});
  ASSERT_TRUE(runs);
  EXPECT_EQ(runsFrom(*runs), (Dims{{0}, {1, 2}}));
  EXPECT_EQ(runsTo(*runs), (Dims{{0}, {1, 2}}));

  runs = reshapeRuns({N, C, H, W}, {N, C * H * W});
  ASSERT_TRUE(runs);
  EXPECT_EQ(runsFrom(*runs), (Dims{{0}, {1, 2, 3}}));
  EXPECT_EQ(runsTo(*runs), (Dims{{0}, {1}}));
}

TEST(ViewAnalysis, SwappedSymbolicExtentsFormOneRun) {
  auto runs = reshapeRuns({N, C}, {C, N});
  ASSERT_TRUE(runs);
  EXPECT_EQ(runsFrom(*runs), (Dims{{0, 1}}));
  EXPECT_EQ(runsTo(*runs), (Dims{{0, 1}}));
}

TEST(ViewAnalysis, StaticOneDimsBelongToNoRun) {
  auto runs = reshapeRuns({1, N, 1, C}, {N, C, 1});
  ASSERT_TRUE(runs);
  EXPECT_EQ(runsFrom(*runs), (Dims{{1}, {3}}));
  EXPECT_EQ(runsTo(*runs), (Dims{{0}, {1}}));
}

TEST(ViewAnalysis, ExtentsWithNoEqualProductsHaveNoRuns) {
  EXPECT_FALSE(reshapeRuns({N}, {C}));
  EXPECT_FALSE(reshapeRuns({N, C}, {N}));
}

TEST(ViewAnalysis, MergingContiguousDimsIsAView) {
  ViewStep step = reshapeView(dense({N, C, H}), {N * C, H});
  ASSERT_TRUE(step.view) << step.whyNot;
  EXPECT_EQ(strides(*step.view), "(H, 1)");
  EXPECT_EQ(step.view->order, (Layout{0, 1}));
}

TEST(ViewAnalysis, SplittingADimGivesRowMajorStridesWithinIt) {
  ViewStep step = reshapeView(dense({N, Extent(12)}), {N, Extent(3), Extent(4)});
  ASSERT_TRUE(step.view) << step.whyNot;
  EXPECT_EQ(strides(*step.view), "(12, 4, 1)");
}

TEST(ViewAnalysis, SplittingAPermutedDimKeepsItsPlaceInMemory) {
  // x[N, 12] stored column-major: dim 1 is outermost.
  ViewStep step = reshapeView(dense({N, Extent(12)}, {1, 0}), {N, Extent(3), Extent(4)});
  ASSERT_TRUE(step.view) << step.whyNot;
  EXPECT_EQ(strides(*step.view), "(1, 4*N, N)");
  EXPECT_EQ(step.view->order, (Layout{1, 2, 0}));
}

TEST(ViewAnalysis, MergingDimsThatAreNotContiguousIsNotAView) {
  StridedView transposed = permuteView(dense({N, C}), {1, 0}); // [C, N], strides (1, C)
  ViewStep step = reshapeView(transposed, {C * N});
  EXPECT_FALSE(step.view);
  EXPECT_EQ(step.whyNot, "reshape from [C, N] with strides (1, C) to [C*N] merges dims 0 and 1, "
                         "which are not known to be contiguous in memory (stride[0] = 1, "
                         "stride[1] * extent[1] = C*N)");
}

TEST(ViewAnalysis, StaticStridesThatAreNotContiguousSaySo) {
  ViewStep step = reshapeView(permuteView(dense({2, 3}), {1, 0}), {6});
  EXPECT_FALSE(step.view);
  EXPECT_NE(step.whyNot.find("which are not contiguous in memory (stride[0] = 1, stride[1] * "
                             "extent[1] = 6)"),
            std::string::npos)
      << step.whyNot;
}

TEST(ViewAnalysis, ReshapeSkipsStaticOneDimsWhenCheckingContiguity) {
  // The extent-1 dim between N and C has a stride of its own; it holds no data.
  StridedView withOne = unsqueezeView(dense({N, C}), 1); // [N, 1, C]
  ViewStep step = reshapeView(withOne, {N * C});
  ASSERT_TRUE(step.view) << step.whyNot;
  EXPECT_EQ(strides(*step.view), "(1)");
}

TEST(ViewAnalysis, ReshapeGivesNewStaticOneDimsTheStrideOutsideTheNextDim) {
  ViewStep step = reshapeView(dense({N, C}), {N, Extent(1), C, Extent(1)});
  ASSERT_TRUE(step.view) << step.whyNot;
  EXPECT_EQ(strides(*step.view), "(C, C, 1, 1)");
  EXPECT_EQ(step.view->order, (Layout{0, 1, 2, 3}));
}

TEST(ViewAnalysis, ReshapeCanMergeBroadcastDimsOnlyWhenAllHaveStrideZero) {
  StridedView scalarLike = broadcastInDimView(dense({}), {N, C}, {}); // strides (0, 0)
  ViewStep merged = reshapeView(scalarLike, {N * C});
  ASSERT_TRUE(merged.view) << merged.whyNot;
  EXPECT_EQ(strides(*merged.view), "(0)");

  StridedView rows = expandView(dense({Extent(1), C}), {N, C}); // strides (0, 1)
  EXPECT_FALSE(reshapeView(rows, {N * C}).view);
}

TEST(ViewAnalysis, ReshapeOfStridedInputsCannotMergeDims) {
  StridedView s;
  s.shape = {N, C};
  s.strides = {Extent::symbol("s.stride0"), Extent::symbol("s.stride1")};
  s.order = {0, 1};
  ViewStep step = reshapeView(s, {N * C});
  EXPECT_FALSE(step.view);
  ViewStep split = reshapeView(s, {N, C, Extent(1)});
  ASSERT_TRUE(split.view) << split.whyNot;
  EXPECT_EQ(strides(*split.view), "(s.stride0, s.stride1, 1)");
}

TEST(ViewAnalysis, PermuteMovesStridesAndMemoryOrder) {
  StridedView nhwc = dense({N, C, H, W}, {0, 2, 3, 1});
  StridedView p = permuteView(nhwc, {0, 2, 3, 1}); // [N, H, W, C]
  EXPECT_EQ(strides(p), "(C*H*W, C*W, C, 1)");
  EXPECT_EQ(p.order, (Layout{0, 1, 2, 3}));
}

TEST(ViewAnalysis, UnsqueezedDimSitsJustOutsideTheDimThatFollowsIt) {
  StridedView t = dense({N, C}, {1, 0}); // strides (1, N)
  StridedView u = unsqueezeView(t, 1);   // [N, 1, C]
  EXPECT_EQ(strides(u), "(1, C*N, N)");
  EXPECT_EQ(u.order, (Layout{1, 2, 0}));
  StridedView last = unsqueezeView(t, 2); // [N, C, 1]: innermost
  EXPECT_EQ(strides(last), "(1, N, 1)");
  EXPECT_EQ(last.order, (Layout{1, 0, 2}));
}

TEST(ViewAnalysis, SqueezeDropsDimsFromStridesAndOrder) {
  StridedView s = squeezeView(dense({N, Extent(1), C}, {2, 1, 0}), {1});
  EXPECT_EQ(strides(s), "(1, N)");
  EXPECT_EQ(s.order, (Layout{1, 0}));
}

TEST(ViewAnalysis, BroadcastDimsGetStrideZero) {
  StridedView w = dense({C});
  StridedView b = broadcastInDimView(w, {N, H, C}, {2});
  EXPECT_EQ(strides(b), "(0, 0, 1)");
  EXPECT_EQ(b.order, (Layout{0, 1, 2}));
  StridedView trailing = broadcastInDimView(w, {C, N}, {0});
  EXPECT_EQ(strides(trailing), "(1, 0)");
  EXPECT_EQ(trailing.order, (Layout{0, 1}));
}

TEST(ViewAnalysis, ExpandGivesGrownExtentOneDimsStrideZero) {
  StridedView col = dense({N, Extent(1)}); // strides (1, 1)
  StridedView e = expandView(col, {H, N, C});
  EXPECT_EQ(strides(e), "(0, 1, 0)");
  StridedView same = expandView(col, {N, Extent(1)});
  EXPECT_EQ(strides(same), "(1, 1)");
}

TEST(ViewAnalysis, SliceAddsStartTimesStrideToTheOffset) {
  StridedView s = sliceView(dense({N, C}), 1, Extent(3), 2, Extent::ceilDiv(C - 3, 2));
  EXPECT_EQ(s.offset.str(), "3");
  EXPECT_EQ(strides(s), "(C, 2)");
  StridedView rows = sliceView(s, 0, N - 4, 1, Extent(4));
  EXPECT_EQ(rows.offset.str(), ((N - 4) * C + 3).str());
}

TEST(ViewAnalysis, DegenerateDimsAreExtentOneOrStrideZero) {
  StridedView b = broadcastInDimView(dense({Extent(1), C}), {N, Extent(1), C}, {1, 2});
  EXPECT_TRUE(isDegenerateDim(b, 0));  // stride 0
  EXPECT_TRUE(isDegenerateDim(b, 1));  // extent 1
  EXPECT_FALSE(isDegenerateDim(b, 2)); // moves through memory
}

} // namespace
} // namespace fuserc
