// Unit tests for the reference interpreter's driver: binding symbols from
// input shapes, input validation messages, literals, and output dtypes.
#include "InterpreterTestUtil.h"

using namespace fuserc;
using namespace fuserc::testutil;

namespace {
const Extent N = Extent::symbol("N");

// x: f32[N, 4], y: f32[N]; out = x + unsqueeze(y, 1).
void buildRowAdd(FusionBuilder &b) {
  Value *x = b.input("x", DType::F32, std::vector<Extent>{N, Extent(4)});
  Value *y = b.input("y", DType::F32, std::vector<Extent>{N});
  Value *col = b.op(OpKind::Unsqueeze, {y}, DType::F32, std::vector<Extent>{N, Extent(1)},
                    makeAttrs({{"dim", int64_t{1}}}));
  b.output(b.op(OpKind::Add, {x, col}, DType::F32, std::vector<Extent>{N, Extent(4)}));
}

void expectMentions(const std::string &error, std::initializer_list<const char *> parts) {
  for (const char *part : parts)
    EXPECT_NE(error.find(part), std::string::npos) << "'" << part << "' missing in: " << error;
}
} // namespace

TEST(InterpreterBinding, BindsSymbolsFromInputShapes) {
  FusionBuilder b;
  buildRowAdd(b);
  InterpreterResult result =
      interpret(b.fusion(), {{"x", floats(DType::F32, {2, 4}, {0, 1, 2, 3, 4, 5, 6, 7})},
                             {"y", floats(DType::F32, {2}, {100, 200})}});
  ASSERT_TRUE(result.ok) << result.error;
  EXPECT_EQ(result.symbols.at("N"), 2);
  ASSERT_EQ(result.outputs.size(), 1u);
  EXPECT_EQ(floatValues(result.outputs[0]),
            (std::vector<double>{100, 101, 102, 103, 204, 205, 206, 207}));
}

TEST(InterpreterBinding, InconsistentSymbolIsAnError) {
  FusionBuilder b;
  buildRowAdd(b);
  std::string error =
      runError(b.fusion(), {{"x", Tensor(DType::F32, {2, 4})}, {"y", Tensor(DType::F32, {3})}});
  expectMentions(error, {"input 'y' dim 0", "N = 2", "input 'x' dim 0", "found 3"});
}

TEST(InterpreterBinding, GivenSymbolsMustAgreeWithInputs) {
  FusionBuilder b;
  buildRowAdd(b);
  std::string error = runError(
      b.fusion(), {{"x", Tensor(DType::F32, {2, 4})}, {"y", Tensor(DType::F32, {2})}}, {{"N", 5}});
  expectMentions(error, {"input 'x' dim 0", "N = 5", "found 2"});
}

TEST(InterpreterBinding, ConstantExtentMismatchIsAnError) {
  FusionBuilder b;
  buildRowAdd(b);
  std::string error =
      runError(b.fusion(), {{"x", Tensor(DType::F32, {2, 5})}, {"y", Tensor(DType::F32, {2})}});
  expectMentions(error, {"input 'x' dim 1", "expected 4", "found 5"});
}

TEST(InterpreterBinding, WrongDTypeOrRankIsAnError) {
  FusionBuilder b;
  buildRowAdd(b);
  std::string error =
      runError(b.fusion(), {{"x", Tensor(DType::F16, {2, 4})}, {"y", Tensor(DType::F32, {2})}});
  expectMentions(error, {"input 'x'", "expected dtype f32", "found f16"});
  error =
      runError(b.fusion(), {{"x", Tensor(DType::F32, {2, 4})}, {"y", Tensor(DType::F32, {2, 1})}});
  expectMentions(error, {"input 'y'", "expected rank 1", "found rank 2"});
}

TEST(InterpreterBinding, MissingAndUnknownInputsAreErrors) {
  FusionBuilder b;
  buildRowAdd(b);
  std::string error = runError(b.fusion(), {{"x", Tensor(DType::F32, {2, 4})}});
  expectMentions(error, {"missing input 'y'"});
  error = runError(b.fusion(), {{"x", Tensor(DType::F32, {2, 4})},
                                {"y", Tensor(DType::F32, {2})},
                                {"z", Tensor(DType::F32, {2})}});
  expectMentions(error, {"unknown input 'z'"});
}

TEST(InterpreterBinding, ScalarInputsAreRankZeroTensors) {
  FusionBuilder b;
  Value *s = b.scalar("s", DType::I64);
  Value *x = b.input("x", DType::I64, Shape{2});
  b.output(b.op(OpKind::Sub, {x, s}, DType::I64, Shape{2}));
  auto outputs =
      run(b.fusion(), {{"s", Tensor::scalar(DType::I64, 5)}, {"x", ints(DType::I64, {2}, {1, 2})}});
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(intValues(outputs[0]), (std::vector<int64_t>{-4, -3}));
  std::string error =
      runError(b.fusion(), {{"s", Tensor(DType::I64, {1})}, {"x", ints(DType::I64, {2}, {1, 2})}});
  expectMentions(error, {"input 's'", "expected rank 0"});
}

TEST(InterpreterBinding, OutputsHaveExactlyTheDeclaredDType) {
  // An f16 input returned unchanged, and an f16 op result (held in f32
  // while evaluating) both come back as f16 tensors.
  FusionBuilder b;
  Value *x = b.input("x", DType::F16, Shape{1});
  b.output(x);
  b.output(b.op(OpKind::Mul, {x, b.floatLiteral(3.0)}, DType::F16, Shape{1}));
  b.output(b.op(OpKind::Gt, {x, b.intLiteral(0)}, DType::Bool, Shape{1}));
  auto outputs = run(b.fusion(), {{"x", floats(DType::F16, {1}, {0.1})}});
  ASSERT_EQ(outputs.size(), 3u);
  EXPECT_EQ(outputs[0].dtype(), DType::F16);
  EXPECT_EQ(outputs[1].dtype(), DType::F16);
  EXPECT_EQ(outputs[2].dtype(), DType::Bool);
  // 3 * 0.0999755859375 = 0.2999267578125 is not an f16 value.
  EXPECT_EQ(floatValues(outputs[1]), (std::vector<double>{0.2998046875}));
}

TEST(InterpreterBinding, RunTimeErrorsNameTheOpResult) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{3});
  Value *i = b.input("i", DType::I64, Shape{1});
  b.output(b.op(OpKind::IndexSelect, {x, i}, DType::F32, Shape{1}, makeAttrs({{"dim", int64_t{0}}}),
                "picked"));
  std::string error =
      runError(b.fusion(), {{"x", Tensor(DType::F32, {3})}, {"i", ints(DType::I64, {1}, {7})}});
  expectMentions(error, {"index_select ('picked')", "index 7", "dim 0", "extent 3"});
}
