// Tests of the text and YAML frontends: they build identical IR, report
// errors as caret diagnostics, and do not cascade errors.
#include "TestSupport.h"

#include <gtest/gtest.h>

namespace fuserc {
namespace {

using test::load;
using test::print;

constexpr const char *kBiasReluText = R"(
fusion bias_relu_nhwc {
  input x: f16[N, C, H, W] layout(0, 2, 3, 1)
  input s: f16[1, C, 1, 1] layout(0, 2, 3, 1)
  input b: f16[1, C, 1, 1] layout(0, 2, 3, 1)
  t1 = add(mul(x, s), b)
  t3 = cast(relu(t1), dtype=f16)
  t4 = gt(t1, 0)
  output t3
  output t4
}
)";

constexpr const char *kBiasReluYaml = R"yaml(
fusions:
  - name: bias_relu_nhwc
    inputs:
      - {name: x, dtype: f16, shape: [N, C, H, W], layout: [0, 2, 3, 1]}
      - {name: s, dtype: f16, shape: [1, C, 1, 1], layout: [0, 2, 3, 1]}
      - {name: b, dtype: f16, shape: [1, C, 1, 1], layout: [0, 2, 3, 1]}
    ops:
      - t1 = add(mul(x, s), b)
      - {out: t3, op: cast, args: ["relu(t1)"], dtype: f16}
      - {out: t4, op: gt, args: [t1, 0]}
    outputs:
      - t3
      - {name: t4}
)yaml";

TEST(Frontend, TextAndYamlFormsBuildIdenticalIr) {
  test::Loaded text = load(kBiasReluText, "f.fus");
  test::Loaded yaml = load(kBiasReluYaml, "f.yaml");
  ASSERT_TRUE(text.ok) << text.diagnostics;
  ASSERT_TRUE(yaml.ok) << yaml.diagnostics;
  EXPECT_EQ(print(text.module), print(yaml.module));
}

TEST(Frontend, NestedCallsBecomeAnonymousValues) {
  test::Loaded text = load(kBiasReluText);
  ASSERT_TRUE(text.ok) << text.diagnostics;
  const Fusion &f = *text.module.fusions[0];
  ASSERT_EQ(f.ops().size(), 5u);
  EXPECT_EQ(f.ops()[0]->info().name, "mul");
  EXPECT_TRUE(f.ops()[0]->result()->name().empty());
  EXPECT_EQ(f.ops()[1]->result()->name(), "t1");
}

TEST(Frontend, ErrorsAreCaretDiagnosticsWithFileLineAndColumn) {
  test::Loaded r =
      load("fusion f {\n  input x: f32[N]\n  y = exp(x, 2)\n  output y\n}\n", "bad.fus");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.diagnostics, "bad.fus:3:14: error: 'exp' expects 1 operand, got 2\n"
                           "  y = exp(x, 2)\n"
                           "             ^\n");
}

TEST(Frontend, YamlErrorsPointIntoTheYamlFile) {
  test::Loaded r = load("name: f\ninputs:\n  - {name: x, dtype: f32, shape: [N]}\nops:\n"
                        "  - y = exp(z)\noutputs: [y]\n",
                        "bad.yaml");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diagnostics.find("bad.yaml:5:13: error: use of undefined value 'z'"),
            std::string::npos)
      << r.diagnostics;
}

TEST(Frontend, AFailedStatementDoesNotCascade) {
  // `t` fails; its uses are silent, the unrelated unused input is reported.
  test::Loaded r = load("fusion f {\n  input x: f32[N]\n  input u: f32[N]\n"
                        "  t = exp(q)\n  y = add(t, x)\n  output y\n}\n");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diagnostics.find("use of undefined value 'q'"), std::string::npos);
  EXPECT_NE(r.diagnostics.find("input 'u' is never used"), std::string::npos);
  EXPECT_EQ(r.diagnostics.find("'t'"), std::string::npos) << r.diagnostics;
}

TEST(Frontend, SeveralFusionsPerFileKeepTheirOrder) {
  test::Loaded r = load("fusion a {\n input x: f32[N]\n y = neg(x)\n output y\n}\n"
                        "fusion b {\n input x: f32[N]\n y = abs(x)\n output y\n}\n");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  ASSERT_EQ(r.module.fusions.size(), 2u);
  EXPECT_EQ(r.module.fusions[0]->name(), "a");
  EXPECT_EQ(r.module.fusions[1]->name(), "b");
}

TEST(Frontend, ScalarInputsAndLiteralsAreRankZero) {
  test::Loaded r = load("fusion f {\n input x: f32[N]\n input s: f64\n y = mul(x, s)\n"
                        " z = add(y, 1)\n output z\n}\n");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  const Fusion &f = *r.module.fusions[0];
  EXPECT_TRUE(f.findValue("s")->isScalarInput());
  const Value *literal = f.ops()[1]->operand(1);
  EXPECT_TRUE(literal->isLiteral());
  EXPECT_EQ(literal->literal(), Number::integer(1));
  EXPECT_EQ(f.findValue("z")->dtype(), DType::F32);
}

} // namespace
} // namespace fuserc
