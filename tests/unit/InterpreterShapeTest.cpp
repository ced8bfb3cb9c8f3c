// Unit tests for the reference interpreter's index-map ops (broadcast_in_dim,
// expand, reshape, permute, squeeze, unsqueeze, slice, pad) and cat.
#include "InterpreterTestUtil.h"

using namespace fuserc;
using namespace fuserc::testutil;

namespace {
Tensor iota6() { return ints(DType::I64, {2, 3}, {0, 1, 2, 3, 4, 5}); }
} // namespace

TEST(InterpreterShape, BroadcastInDimMapsOperandDimsToResultDims) {
  Tensor row = ints(DType::I64, {3}, {1, 2, 3});
  Tensor out =
      runOp(OpKind::BroadcastInDim, {row}, DType::I64, {2, 3},
            makeAttrs({{"shape", extents({2, 3})}, {"broadcast_dims", std::vector<int64_t>{1}}}));
  EXPECT_EQ(intValues(out), (std::vector<int64_t>{1, 2, 3, 1, 2, 3}));
  Tensor col = ints(DType::I64, {2}, {7, 8});
  out = runOp(OpKind::BroadcastInDim, {col}, DType::I64, {2, 3},
              makeAttrs({{"shape", extents({2, 3})}, {"broadcast_dims", std::vector<int64_t>{0}}}));
  EXPECT_EQ(intValues(out), (std::vector<int64_t>{7, 7, 7, 8, 8, 8}));
  // An extent-1 operand dim broadcasts too.
  Tensor one = ints(DType::I64, {1, 2}, {4, 5});
  out = runOp(
      OpKind::BroadcastInDim, {one}, DType::I64, {2, 3, 2},
      makeAttrs({{"shape", extents({2, 3, 2})}, {"broadcast_dims", std::vector<int64_t>{1, 2}}}));
  EXPECT_EQ(intValues(out), (std::vector<int64_t>{4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5}));
}

TEST(InterpreterShape, ExpandIsRightAligned) {
  Tensor x = ints(DType::I32, {2, 1}, {1, 2});
  Tensor out =
      runOp(OpKind::Expand, {x}, DType::I32, {2, 2, 3}, makeAttrs({{"shape", extents({2, 2, 3})}}));
  EXPECT_EQ(intValues(out), (std::vector<int64_t>{1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2}));
}

TEST(InterpreterShape, ReshapeReinterpretsRowMajor) {
  Tensor out = runOp(OpKind::Reshape, {iota6()}, DType::I64, {3, 2},
                     makeAttrs({{"shape", extents({3, 2})}}));
  EXPECT_EQ(out.shape(), (Shape{3, 2}));
  EXPECT_EQ(intValues(out), (std::vector<int64_t>{0, 1, 2, 3, 4, 5}));
}

TEST(InterpreterShape, PermuteTakesResultDimIFromInputDimDimsI) {
  Tensor out = runOp(OpKind::Permute, {iota6()}, DType::I64, {3, 2},
                     makeAttrs({{"dims", std::vector<int64_t>{1, 0}}}));
  EXPECT_EQ(intValues(out), (std::vector<int64_t>{0, 3, 1, 4, 2, 5}));
  // [2, 3, 4] -> [4, 2, 3]: out[k][i][j] = x[i][j][k].
  std::vector<int64_t> values(24);
  for (int64_t i = 0; i < 24; ++i)
    values[i] = i;
  Tensor x = ints(DType::I64, {2, 3, 4}, values);
  out = runOp(OpKind::Permute, {x}, DType::I64, {4, 2, 3},
              makeAttrs({{"dims", std::vector<int64_t>{2, 0, 1}}}));
  EXPECT_EQ(out.getInt((1 * 2 + 1) * 3 + 2), (1 * 3 + 2) * 4 + 1); // out[1][1][2] = x[1][2][1]
}

TEST(InterpreterShape, SqueezeAndUnsqueeze) {
  Tensor x = ints(DType::I64, {1, 3, 1}, {1, 2, 3});
  Tensor squeezed = runOp(OpKind::Squeeze, {x}, DType::I64, {3},
                          makeAttrs({{"dims", std::vector<int64_t>{0, 2}}}));
  EXPECT_EQ(squeezed.shape(), (Shape{3}));
  EXPECT_EQ(intValues(squeezed), (std::vector<int64_t>{1, 2, 3}));
  Tensor unsqueezed =
      runOp(OpKind::Unsqueeze, {squeezed}, DType::I64, {3, 1}, makeAttrs({{"dim", int64_t{1}}}));
  EXPECT_EQ(unsqueezed.shape(), (Shape{3, 1}));
  EXPECT_EQ(intValues(unsqueezed), (std::vector<int64_t>{1, 2, 3}));
}

TEST(InterpreterShape, SliceTakesEveryStepthElement) {
  std::vector<int64_t> values = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  Tensor x = ints(DType::I64, {10}, values);
  Tensor out = runOp(
      OpKind::Slice, {x}, DType::I64, {3},
      makeAttrs(
          {{"dim", int64_t{0}}, {"start", Extent(1)}, {"end", Extent(8)}, {"step", int64_t{3}}}));
  EXPECT_EQ(intValues(out), (std::vector<int64_t>{1, 4, 7}));
  out = runOp(
      OpKind::Slice, {iota6()}, DType::I64, {2, 2},
      makeAttrs(
          {{"dim", int64_t{1}}, {"start", Extent(1)}, {"end", Extent(3)}, {"step", int64_t{1}}}));
  EXPECT_EQ(intValues(out), (std::vector<int64_t>{1, 2, 4, 5}));
}

TEST(InterpreterShape, SliceBeyondTheInputIsAnError) {
  Tensor x = ints(DType::I64, {4}, {0, 1, 2, 3});
  std::string error = runOpError(
      OpKind::Slice, {x}, DType::I64, {3},
      makeAttrs(
          {{"dim", int64_t{0}}, {"start", Extent(2)}, {"end", Extent(5)}, {"step", int64_t{1}}}));
  EXPECT_NE(error.find("slice"), std::string::npos) << error;
}

TEST(InterpreterShape, PadFillsWithValueAndNegativeAmountsCrop) {
  Tensor x = floats(DType::F32, {3}, {1, 2, 3});
  Tensor out = runOp(OpKind::Pad, {x}, DType::F32, {6},
                     makeAttrs({{"dim", int64_t{0}},
                                {"before", Extent(2)},
                                {"after", Extent(1)},
                                {"value", Number::floating(-0.5)}}));
  EXPECT_EQ(floatValues(out), (std::vector<double>{-0.5, -0.5, 1, 2, 3, -0.5}));
  out = runOp(OpKind::Pad, {x}, DType::F32, {4},
              makeAttrs({{"dim", int64_t{0}},
                         {"before", Extent(-1)},
                         {"after", Extent(2)},
                         {"value", Number::integer(9)}}));
  EXPECT_EQ(floatValues(out), (std::vector<double>{2, 3, 9, 9}));
  out = runOp(OpKind::Pad, {iota6()}, DType::I64, {2, 4},
              makeAttrs({{"dim", int64_t{1}},
                         {"before", Extent(0)},
                         {"after", Extent(1)},
                         {"value", Number::integer(-1)}}));
  EXPECT_EQ(intValues(out), (std::vector<int64_t>{0, 1, 2, -1, 3, 4, 5, -1}));
}

TEST(InterpreterShape, CatConcatenatesAlongDimAndPromotes) {
  Tensor a = ints(DType::I32, {2, 1}, {1, 2});
  Tensor b = floats(DType::F32, {2, 2}, {0.5, 1.5, 2.5, 3.5});
  Tensor out = runOp(OpKind::Cat, {a, b}, DType::F32, {2, 3}, makeAttrs({{"dim", int64_t{1}}}));
  EXPECT_EQ(out.dtype(), DType::F32);
  EXPECT_EQ(floatValues(out), (std::vector<double>{1, 0.5, 1.5, 2, 2.5, 3.5}));
  Tensor c = ints(DType::I64, {1, 3}, {9, 8, 7});
  out = runOp(OpKind::Cat, {iota6(), c}, DType::I64, {3, 3}, makeAttrs({{"dim", int64_t{0}}}));
  EXPECT_EQ(intValues(out), (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 9, 8, 7}));
}

TEST(InterpreterShape, SymbolicShapesEvaluateWithBoundSymbols) {
  // x: [N, 2]; y = slice(x, dim 0, start 1, end N) has N - 1 rows.
  const Extent n = Extent::symbol("N");
  FusionBuilder b;
  Value *x = b.input("x", DType::I64, std::vector<Extent>{n, Extent(2)});
  Value *y = b.op(
      OpKind::Slice, {x}, DType::I64, std::vector<Extent>{n - 1, Extent(2)},
      makeAttrs({{"dim", int64_t{0}}, {"start", Extent(1)}, {"end", n}, {"step", int64_t{1}}}));
  b.output(b.op(OpKind::Reshape, {y}, DType::I64, std::vector<Extent>{(n - 1) * 2},
                makeAttrs({{"shape", std::vector<Extent>{(n - 1) * 2}}})));
  auto outputs = run(b.fusion(), {{"x", ints(DType::I64, {3, 2}, {0, 1, 2, 3, 4, 5})}});
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0].shape(), (Shape{4}));
  EXPECT_EQ(intValues(outputs[0]), (std::vector<int64_t>{2, 3, 4, 5}));
}
