// Tests of result type inference: PyTorch type promotion, NumPy
// broadcasting, and attribute normalization.
#include "ir/Inference.h"

#include <gtest/gtest.h>

namespace fuserc {
namespace {

class InferenceTest : public ::testing::Test {
protected:
  Value *tensor(DType t, std::vector<Extent> shape) {
    size_t rank = shape.size();
    return fusion.addTensorInput("t" + std::to_string(count++), t, std::move(shape),
                                 rowMajorLayout(rank), false, {});
  }
  Value *scalar(DType t) { return fusion.addScalarInput("s" + std::to_string(count++), t, {}); }
  Value *literal(double v) { return fusion.addLiteral(Number::floating(v), {}); }
  Value *literal(int64_t v) { return fusion.addLiteral(Number::integer(v), {}); }

  TensorType infer(std::string_view op, std::vector<Value *> operands, Attributes attrs = {}) {
    InferenceResult r = inferResultType(lookupOp(op)->kind, operands, attrs);
    if (auto *e = std::get_if<InferenceError>(&r)) {
      ADD_FAILURE() << e->message;
      return {};
    }
    lastAttrs = attrs;
    return std::get<TensorType>(r);
  }

  InferenceError error(std::string_view op, std::vector<Value *> operands, Attributes attrs = {}) {
    InferenceResult r = inferResultType(lookupOp(op)->kind, operands, attrs);
    if (auto *e = std::get_if<InferenceError>(&r))
      return *e;
    ADD_FAILURE() << "expected an inference error for " << op;
    return {};
  }

  Fusion fusion{"t"};
  Attributes lastAttrs;
  int count = 0;
  Extent M = Extent::symbol("M"), N = Extent::symbol("N");
};

TEST_F(InferenceTest, FloatLiteralDoesNotWidenHalfTensor) {
  EXPECT_EQ(infer("mul", {tensor(DType::F16, {M}), literal(0.5)}).dtype, DType::F16);
}

TEST_F(InferenceTest, ScalarInputDoesNotWidenTensorOfSameCategory) {
  EXPECT_EQ(infer("mul", {tensor(DType::F32, {M}), scalar(DType::F64)}).dtype, DType::F32);
  EXPECT_EQ(infer("add", {tensor(DType::I32, {M}), scalar(DType::I64)}).dtype, DType::I32);
}

TEST_F(InferenceTest, HigherCategoryScalarPromotes) {
  EXPECT_EQ(infer("add", {tensor(DType::I32, {M}), literal(1.5)}).dtype, DType::F32);
  EXPECT_EQ(infer("add", {tensor(DType::I64, {M}), scalar(DType::F64)}).dtype, DType::F64);
  EXPECT_EQ(infer("add", {tensor(DType::Bool, {M}), literal(int64_t{1})}).dtype, DType::I64);
}

TEST_F(InferenceTest, HalfAndBfloatPromoteToFloat) {
  EXPECT_EQ(infer("add", {tensor(DType::F16, {M}), tensor(DType::BF16, {M})}).dtype, DType::F32);
  EXPECT_EQ(promoteTypes(DType::I64, DType::F16), DType::F16);
  EXPECT_EQ(promoteTypes(DType::Bool, DType::I32), DType::I32);
}

TEST_F(InferenceTest, FloatOnlyOpsTurnIntegersIntoDefaultFloat) {
  EXPECT_EQ(infer("exp", {tensor(DType::I32, {M})}).dtype, DType::F32);
  EXPECT_EQ(infer("div", {tensor(DType::I64, {M}), literal(int64_t{2})}).dtype, DType::F32);
  EXPECT_EQ(infer("exp", {tensor(DType::BF16, {M})}).dtype, DType::BF16);
}

TEST_F(InferenceTest, ComparisonsGiveBool) {
  EXPECT_EQ(infer("gt", {tensor(DType::F16, {M}), literal(int64_t{0})}).dtype, DType::Bool);
}

TEST_F(InferenceTest, BroadcastingIsRightAlignedAndStaticOneExpands) {
  TensorType t = infer("add", {tensor(DType::F32, {M, N}), tensor(DType::F32, {N})});
  EXPECT_EQ(t.shape, (std::vector<Extent>{M, N}));
  t = infer("add", {tensor(DType::F32, {M, 1}), tensor(DType::F32, {1, N})});
  EXPECT_EQ(t.shape, (std::vector<Extent>{M, N}));
}

TEST_F(InferenceTest, DifferentSymbolsDoNotBroadcast) {
  InferenceError e = error("add", {tensor(DType::F32, {M}), tensor(DType::F32, {N})});
  EXPECT_EQ(e.operand, 1);
  EXPECT_NE(e.message.find("do not broadcast: [M] and [N]"), std::string::npos) << e.message;
}

TEST_F(InferenceTest, ReductionNormalizesNegativeAxesAndFillsKeepdim) {
  Attributes attrs;
  attrs.set("axes", std::vector<int64_t>{-1, 0});
  TensorType t = infer("sum", {tensor(DType::I32, {M, N, 4})}, attrs);
  EXPECT_EQ(t.shape, (std::vector<Extent>{N}));
  EXPECT_EQ(t.dtype, DType::I64);
  EXPECT_EQ(lastAttrs.axes("axes"), (std::vector<int64_t>{0, 2}));
  EXPECT_FALSE(lastAttrs.boolean("keepdim"));
}

TEST_F(InferenceTest, AxisOutOfRangeNamesTheRankAndAttribute) {
  Attributes attrs;
  attrs.set("axes", std::vector<int64_t>{2});
  InferenceError e = error("max", {tensor(DType::F32, {M, N})}, attrs);
  EXPECT_EQ(e.attr, "axes");
  EXPECT_EQ(e.message, "'max' axis 2 is out of range for a rank-2 tensor (expected an axis in "
                       "[-2, 1])");
}

TEST_F(InferenceTest, ReshapeInfersMinusOneSymbolically) {
  Attributes attrs;
  attrs.set("shape", std::vector<Extent>{M, -1});
  TensorType t = infer("reshape", {tensor(DType::F32, {M, N, 4})}, attrs);
  EXPECT_EQ(t.shape, (std::vector<Extent>{M, N * 4}));
  EXPECT_EQ(lastAttrs.extents("shape"), t.shape);
}

TEST_F(InferenceTest, ReshapeMustKeepTheElementCount) {
  Attributes attrs;
  attrs.set("shape", std::vector<Extent>{N, 3});
  InferenceError e = error("reshape", {tensor(DType::F32, {N, 4})}, attrs);
  EXPECT_NE(e.message.find("must keep the element count"), std::string::npos) << e.message;
}

TEST_F(InferenceTest, SliceFillsBoundsAndComputesExtent) {
  Attributes attrs;
  attrs.set("dim", int64_t{-1});
  attrs.set("start", Extent(64));
  TensorType t = infer("slice", {tensor(DType::BF16, {M, 128})}, attrs);
  EXPECT_EQ(t.shape, (std::vector<Extent>{M, 64}));
  EXPECT_EQ(lastAttrs.integer("dim"), 1);
  EXPECT_EQ(lastAttrs.extent("end"), Extent(128));
  EXPECT_EQ(lastAttrs.integer("step"), 1);
  // Attributes end up in schema order whatever order inference filled them.
  ASSERT_EQ(lastAttrs.entries().size(), 4u);
  EXPECT_EQ(lastAttrs.entries()[2].name, "end");
}

TEST_F(InferenceTest, SliceOfSymbolicExtentWithStep) {
  Attributes attrs;
  attrs.set("dim", int64_t{0});
  attrs.set("step", int64_t{2});
  TensorType t = infer("slice", {tensor(DType::F32, {N})}, attrs);
  EXPECT_EQ(t.shape[0], Extent::ceilDiv(N, 2));
}

TEST_F(InferenceTest, CatAddsExtentsAlongDim) {
  Attributes attrs;
  attrs.set("dim", int64_t{1});
  TensorType t = infer("cat", {tensor(DType::F32, {M, N}), tensor(DType::F32, {M, 3})}, attrs);
  EXPECT_EQ(t.shape, (std::vector<Extent>{M, N + 3}));
}

TEST_F(InferenceTest, WhereNeedsBoolCondition) {
  InferenceError e =
      error("where", {tensor(DType::F32, {M}), tensor(DType::F32, {M}), literal(0.0)});
  EXPECT_EQ(e.operand, 0);
  EXPECT_EQ(e.message, "condition of 'where' must be bool, got f32[M]");
}

TEST_F(InferenceTest, BitwiseOpsRejectFloats) {
  InferenceError e = error("bitwise_and", {tensor(DType::F32, {M}), tensor(DType::I32, {M})});
  EXPECT_EQ(e.message, "'bitwise_and' expects bool or integer operands, got f32[M]");
}

TEST_F(InferenceTest, ExpandKeepsMinusOneDims) {
  Attributes attrs;
  attrs.set("shape", std::vector<Extent>{4, -1, N});
  TensorType t = infer("expand", {tensor(DType::F32, {M, 1})}, attrs);
  EXPECT_EQ(t.shape, (std::vector<Extent>{4, M, N}));
}

TEST_F(InferenceTest, MissingRequiredAttributeIsAnError) {
  InferenceError e = error("permute", {tensor(DType::F32, {M})});
  EXPECT_EQ(e.message, "'permute' requires attribute 'dims' (a list of axes like [0, -1])");
}

TEST_F(InferenceTest, LayerNormParametersMatchNormalizedDims) {
  Attributes attrs;
  attrs.set("axes", std::vector<int64_t>{-1});
  TensorType t = infer(
      "layer_norm",
      {tensor(DType::BF16, {M, N}), tensor(DType::BF16, {N}), tensor(DType::BF16, {N})}, attrs);
  EXPECT_EQ(t.dtype, DType::BF16);
  EXPECT_EQ(lastAttrs.number("eps").asDouble(), 1e-5);
}

} // namespace
} // namespace fuserc
