// Tests of the op tables fuserc-tblgen generates from ops.td.
#include "ir/OpInfo.h"

#include <gtest/gtest.h>

#include <set>

namespace fuserc {
namespace {

TEST(OpTables, EveryOpIsFoundByItsName) {
  for (const OpInfo &op : allOps()) {
    const OpInfo *found = lookupOp(op.name);
    ASSERT_NE(found, nullptr) << op.name;
    EXPECT_EQ(found->kind, op.kind);
    EXPECT_EQ(&opInfo(op.kind), &op);
  }
  EXPECT_EQ(lookupOp("no_such_op"), nullptr);
}

TEST(OpTables, CoversTheDesignsMinimumOpSet) {
  for (const char *name : {"neg",         "abs",         "exp",
                           "exp2",        "expm1",       "log",
                           "log2",        "log10",       "log1p",
                           "sqrt",        "rsqrt",       "reciprocal",
                           "sin",         "cos",         "tan",
                           "tanh",        "sinh",        "cosh",
                           "asin",        "acos",        "atan",
                           "sigmoid",     "relu",        "silu",
                           "gelu",        "erf",         "erfc",
                           "floor",       "ceil",        "round",
                           "trunc",       "sign",        "logical_not",
                           "bitwise_not", "isnan",       "isinf",
                           "isfinite",    "add",         "sub",
                           "mul",         "div",         "pow",
                           "maximum",     "minimum",     "fmod",
                           "remainder",   "atan2",       "eq",
                           "ne",          "lt",          "le",
                           "gt",          "ge",          "logical_and",
                           "logical_or",  "bitwise_and", "bitwise_or",
                           "bitwise_xor", "where",       "clamp",
                           "lerp",        "cast",        "sum",
                           "prod",        "max",         "min",
                           "mean",        "var",         "broadcast_in_dim",
                           "expand",      "reshape",     "permute",
                           "squeeze",     "unsqueeze",   "slice",
                           "pad",         "cat",         "index_select",
                           "gather",      "scatter",     "full",
                           "iota",        "rand_like",   "softmax",
                           "log_softmax", "layer_norm",  "rms_norm",
                           "softplus",    "logsumexp",   "std"})
    EXPECT_NE(lookupOp(name), nullptr) << name;
}

TEST(OpTables, ElementwiseOpsHaveCudaAndCpuSemanticsForTheirDomains) {
  for (const OpInfo &op : allOps()) {
    if (op.shapeRule != ShapeRule::Elementwise)
      continue;
    bool integral = op.dtypeRule == DTypeRule::PromoteIntegral;
    EXPECT_EQ(!op.cuda.empty(), !integral) << op.name;
    EXPECT_EQ(op.hasCpuFloat, !integral) << op.name;
    if (op.dtypeRule != DTypeRule::PromoteFloat) {
      EXPECT_FALSE(op.cudaInt.empty()) << op.name;
      EXPECT_TRUE(op.hasCpuInt) << op.name;
    }
  }
}

TEST(OpTables, AttributeSchemasCarryKindsDefaultsAndRequiredness) {
  const OpInfo &sum = *lookupOp("sum");
  const AttrSpec *axes = sum.findAttr("axes");
  ASSERT_NE(axes, nullptr);
  EXPECT_EQ(axes->kind, AttrKind::AxisList);
  EXPECT_TRUE(axes->required);
  const AttrSpec *keepdim = sum.findAttr("keepdim");
  ASSERT_NE(keepdim, nullptr);
  EXPECT_FALSE(keepdim->required);
  EXPECT_EQ(keepdim->defaultValue, "false");
  EXPECT_EQ(sum.findAttr("axis"), nullptr);

  const AttrSpec *approximate = lookupOp("gelu")->findAttr("approximate");
  ASSERT_NE(approximate, nullptr);
  EXPECT_EQ(approximate->kind, AttrKind::Enum);
  ASSERT_EQ(approximate->choices.size(), 2u);
  EXPECT_EQ(approximate->choices[0], "none");
  EXPECT_EQ(approximate->choices[1], "tanh");
}

TEST(OpTables, OperandSpecsDescribeArityAndKinds) {
  EXPECT_EQ(lookupOp("where")->operands.size(), 3u);
  EXPECT_TRUE(lookupOp("cat")->isVariadic());
  EXPECT_FALSE(lookupOp("add")->isVariadic());
  EXPECT_EQ(lookupOp("gather")->operands[1].kind, OperandKind::Index);
  EXPECT_EQ(lookupOp("rand_like")->operands[1].kind, OperandKind::Scalar);
  EXPECT_TRUE(lookupOp("full")->operands.empty());
}

TEST(OpTables, CompositesAndViewsAreMarked) {
  std::set<std::string_view> composites;
  for (const OpInfo &op : allOps())
    if (op.composite)
      composites.insert(op.name);
  EXPECT_EQ(composites,
            (std::set<std::string_view>{"softmax", "log_softmax", "layer_norm", "rms_norm",
                                        "softplus", "logsumexp", "std", "argmax", "argmin"}));
  EXPECT_TRUE(lookupOp("permute")->viewable);
  EXPECT_FALSE(lookupOp("add")->viewable);
}

TEST(OpTables, KindDescriptionsComeFromOpsTd) {
  EXPECT_EQ(attrKindDescription(AttrKind::AxisList), "list of axes");
  EXPECT_EQ(operandKindDescription(OperandKind::Index), "integer tensor");
}

} // namespace
} // namespace fuserc
