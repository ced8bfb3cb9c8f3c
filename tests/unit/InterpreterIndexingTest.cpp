// Unit tests for the reference interpreter's indexing ops: index_select,
// gather (take-along-axis) and scatter, including out-of-range indices.
#include "InterpreterTestUtil.h"

using namespace fuserc;
using namespace fuserc::testutil;

namespace {
Tensor grid() { return floats(DType::F32, {2, 3}, {10, 11, 12, 20, 21, 22}); }
Attributes dim(int64_t d) { return makeAttrs({{"dim", d}}); }

void expectMentions(const std::string &error, std::initializer_list<const char *> parts) {
  for (const char *part : parts)
    EXPECT_NE(error.find(part), std::string::npos) << "'" << part << "' missing in: " << error;
}
} // namespace

TEST(InterpreterIndexing, IndexSelectPicksEntriesAlongDim) {
  Tensor index = ints(DType::I64, {4}, {2, 0, 2, 1});
  EXPECT_EQ(floatValues(runOp(OpKind::IndexSelect, {grid(), index}, DType::F32, {2, 4}, dim(1))),
            (std::vector<double>{12, 10, 12, 11, 22, 20, 22, 21}));
  Tensor rows = ints(DType::I32, {1}, {1});
  EXPECT_EQ(floatValues(runOp(OpKind::IndexSelect, {grid(), rows}, DType::F32, {1, 3}, dim(0))),
            (std::vector<double>{20, 21, 22}));
}

TEST(InterpreterIndexing, IndexSelectWithAZeroDimIndexKeepsTheDim) {
  // torch.index_select(x, 1, tensor(2)) has shape [2, 1].
  Tensor index = ints(DType::I64, {}, {2});
  EXPECT_EQ(floatValues(runOp(OpKind::IndexSelect, {grid(), index}, DType::F32, {2, 1}, dim(1))),
            (std::vector<double>{12, 22}));
  Tensor outOfRange = ints(DType::I32, {}, {2});
  expectMentions(runOpError(OpKind::IndexSelect, {grid(), outOfRange}, DType::F32, {1, 3}, dim(0)),
                 {"index 2", "dim 0", "extent 2"});
}

TEST(InterpreterIndexing, IndexSelectOutOfRangeIsAnError) {
  Tensor index = ints(DType::I64, {2}, {0, 3});
  std::string error = runOpError(OpKind::IndexSelect, {grid(), index}, DType::F32, {2, 2}, dim(1));
  expectMentions(error, {"index_select", "index 3", "dim 1", "extent 3"});
  Tensor negative = ints(DType::I64, {1}, {-1});
  error = runOpError(OpKind::IndexSelect, {grid(), negative}, DType::F32, {1, 3}, dim(0));
  expectMentions(error, {"index -1", "dim 0", "extent 2"});
}

TEST(InterpreterIndexing, GatherTakesAlongAxis) {
  // dim 1: out[i][j] = x[i][index[i][j]].
  Tensor index = ints(DType::I64, {2, 2}, {2, 2, 0, 1});
  EXPECT_EQ(floatValues(runOp(OpKind::Gather, {grid(), index}, DType::F32, {2, 2}, dim(1))),
            (std::vector<double>{12, 12, 20, 21}));
  // dim 0: out[i][j] = x[index[i][j]][j], with an index smaller than x.
  Tensor rows = ints(DType::I64, {1, 3}, {1, 0, 1});
  EXPECT_EQ(floatValues(runOp(OpKind::Gather, {grid(), rows}, DType::F32, {1, 3}, dim(0))),
            (std::vector<double>{20, 11, 22}));
}

TEST(InterpreterIndexing, GatherOutOfRangeIsAnError) {
  Tensor index = ints(DType::I64, {2, 1}, {0, 2});
  std::string error = runOpError(OpKind::Gather, {grid(), index}, DType::F32, {2, 1}, dim(0));
  expectMentions(error, {"gather", "index 2", "dim 0", "extent 2"});
}

TEST(InterpreterIndexing, ScatterWritesSrcAtIndexPositions) {
  // dim 1: out[i][index[i][j]] = src[i][j].
  Tensor index = ints(DType::I64, {2, 2}, {2, 0, 1, 2});
  Tensor src = floats(DType::F32, {2, 2}, {-1, -2, -3, -4});
  EXPECT_EQ(floatValues(runOp(OpKind::Scatter, {grid(), index, src}, DType::F32, {2, 3}, dim(1))),
            (std::vector<double>{-2, 11, -1, 20, -3, -4}));
}

TEST(InterpreterIndexing, ScatterDuplicateIndicesLastWriteWins) {
  Tensor index = ints(DType::I64, {1, 3}, {1, 1, 1});
  Tensor src = floats(DType::F32, {1, 3}, {5, 6, 7});
  EXPECT_EQ(floatValues(runOp(OpKind::Scatter, {grid(), index, src}, DType::F32, {2, 3}, dim(1))),
            (std::vector<double>{10, 7, 12, 20, 21, 22}));
}

TEST(InterpreterIndexing, ScatterBroadcastsARankZeroSrc) {
  FusionBuilder b;
  Value *x = b.input("x", DType::I32, Shape{2, 3});
  Value *index = b.input("index", DType::I64, Shape{2, 1});
  b.output(b.op(OpKind::Scatter, {x, index, b.intLiteral(9)}, DType::I32, Shape{2, 3}, dim(1)));
  auto outputs = run(b.fusion(), {{"x", ints(DType::I32, {2, 3}, {0, 0, 0, 0, 0, 0})},
                                  {"index", ints(DType::I64, {2, 1}, {2, 0})}});
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(intValues(outputs[0]), (std::vector<int64_t>{0, 0, 9, 9, 0, 0}));
}

TEST(InterpreterIndexing, ScatterOutOfRangeIsAnError) {
  Tensor index = ints(DType::I64, {1, 1}, {-2});
  Tensor src = floats(DType::F32, {1, 1}, {0});
  std::string error = runOpError(OpKind::Scatter, {grid(), index, src}, DType::F32, {2, 3}, dim(0));
  expectMentions(error, {"scatter", "index -2", "dim 0", "extent 2"});
}
