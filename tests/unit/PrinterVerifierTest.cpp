// Tests of the IR printer (deterministic, re-parseable) and the verifier.
#include "TestSupport.h"
#include "ir/Verifier.h"

#include <gtest/gtest.h>

namespace fuserc {
namespace {

using test::load;
using test::print;

TEST(Printer, PrintedIrParsesBackToTheSameText) {
  test::Loaded first =
      load("fusion f {\n input x: f32[M, N] layout(1, 0) strided\n input i: i64[M]\n"
           " y = sum(exp(sub(x, 1.5)), axes=[-1])\n"
           " z = gather(x, unsqueeze(i, dim=1), dim=1)\n output y\n output z layout(1, 0)\n}\n");
  ASSERT_TRUE(first.ok) << first.diagnostics;
  std::string once = print(first.module);
  test::Loaded second = load(once);
  ASSERT_TRUE(second.ok) << second.diagnostics << once;
  EXPECT_EQ(print(second.module), once);
}

TEST(Printer, AnonymousNamesSkipNamesTheUserTook) {
  test::Loaded r = load("fusion f {\n input _0: f32[N]\n y = neg(abs(_0))\n output y\n}\n");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  std::string text = print(r.module);
  EXPECT_NE(text.find("_1 = abs(_0)"), std::string::npos) << text;
  EXPECT_NE(text.find("y = neg(_1)"), std::string::npos) << text;
}

TEST(Printer, FloatLiteralsStayFloatsAndRoundTrip) {
  test::Loaded r = load("fusion f {\n input x: f64[N]\n y = mul(x, 0.1)\n z = add(y, 2.0)\n"
                        " output z\n}\n");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  std::string text = print(r.module);
  EXPECT_NE(text.find("mul(x, 0.1)"), std::string::npos) << text;
  EXPECT_NE(text.find("add(y, 2.0)"), std::string::npos) << text;
}

TEST(Verifier, FrontendOutputVerifies) {
  test::Loaded r =
      load("fusion f {\n input x: bf16[M, N]\n y = softmax(x, dim=-1)\n output y\n}\n");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(verifyFusion(*r.module.fusions[0]).empty());
}

TEST(Verifier, WrongResultTypeIsReported) {
  Fusion f("f");
  Value *x = f.addTensorInput("x", DType::F32, {Extent::symbol("N")}, rowMajorLayout(1), false, {});
  Op *op = f.addOp(OpKind::Neg, {x}, {}, TensorType{DType::F16, {Extent::symbol("N")}}, "y", {});
  FusionOutput out;
  out.name = "y";
  out.value = op->result();
  f.addOutput(out);
  std::vector<std::string> problems = verifyFusion(f);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("has type f16[N] but its operands give f32[N]"), std::string::npos)
      << problems[0];
}

TEST(Verifier, AttributesNotInNormalFormAreReported) {
  Fusion f("f");
  Value *x =
      f.addTensorInput("x", DType::F32, {Extent(2), Extent(3)}, rowMajorLayout(2), false, {});
  Attributes attrs;
  attrs.set("axes", std::vector<int64_t>{-1});
  attrs.set("keepdim", false);
  Op *op = f.addOp(OpKind::Sum, {x}, attrs, TensorType{DType::F32, {Extent(2)}}, "y", {});
  FusionOutput out;
  out.name = "y";
  out.value = op->result();
  f.addOutput(out);
  std::vector<std::string> problems = verifyFusion(f);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("not in normal form"), std::string::npos) << problems[0];
}

TEST(Verifier, FusionWithoutOutputsIsReported) {
  Fusion f("f");
  f.addTensorInput("x", DType::F32, {Extent(2)}, rowMajorLayout(1), false, {});
  EXPECT_EQ(verifyFusion(f).size(), 1u);
}

} // namespace
} // namespace fuserc
