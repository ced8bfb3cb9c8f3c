// The YAML alias pre-pass: aliases within the budget pass, a cycle, a chain
// nesting past the limit and "billion laughs" are refused at the alias
// that crosses the line, and syntax errors are reported like yaml-cpp's.
#include "frontend/YamlAliases.h"

#include <gtest/gtest.h>

#include <string>

namespace fuserc {
namespace {

TEST(YamlAliases, AliasesWithinTheBudgetPass) {
  EXPECT_EQ(checkYamlAliases("a: &x [1, 2]\nb: *x\nc: [*x, *x]\n", 100, 8), std::nullopt);
}

TEST(YamlAliases, AnAliasInsideTheCollectionItNamesIsACycle) {
  std::string text = "{out: y, op: sum, args: [x], axes: &r [*r]}";
  std::optional<YamlAliasError> e = checkYamlAliases(text, 100, 8);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->offset, text.find("*r"));
  EXPECT_NE(e->message.find("alias '*r' is inside the collection it names"), std::string::npos);
}

TEST(YamlAliases, AMapThatAliasesItselfAsAKeyIsACycle) {
  EXPECT_TRUE(checkYamlAliases("&m {*m : 1}", 100, 8));
}

TEST(YamlAliases, RepeatedNodesAreCountedThroughNestedAliases) {
  // *a adds 2 nodes each time; *b (a list of *a, *a: 7 nodes) adds 6.
  std::string text = "a: &a [1, 2]\nb: &b [*a, *a]\nc: *b\n";
  EXPECT_EQ(checkYamlAliases(text, 10, 8), std::nullopt);
  std::optional<YamlAliasError> e = checkYamlAliases(text, 9, 8);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->offset, text.find("*b"));
}

TEST(YamlAliases, AnAliasCountsTowardsTheNesting) {
  // [[*x]] nests *x's list two levels deeper: three in all.
  std::string text = "a: &x [1]\nb: [[*x]]\n";
  EXPECT_EQ(checkYamlAliases(text, 100, 4), std::nullopt);
  std::optional<YamlAliasError> e = checkYamlAliases(text, 100, 3);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->offset, text.find("*x"));
  EXPECT_NE(e->message.find("nests YAML collections more than 3 deep"), std::string::npos);
}

TEST(YamlAliases, BillionLaughsStopsAtTheAliasPastTheBudget) {
  std::string text = "l0: &l0 [a, a, a, a, a, a, a, a, a, a]\n";
  for (int i = 1; i < 30; ++i) {
    text += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
    for (int j = 0; j < 10; ++j)
      text += (j ? ", *l" : "*l") + std::to_string(i - 1);
    text += "]\n";
  }
  std::optional<YamlAliasError> e = checkYamlAliases(text, 100000, 256);
  ASSERT_TRUE(e);
  EXPECT_EQ(text.substr(e->offset, 4), "*l3,");
}

TEST(YamlAliases, SyntaxErrorsAreReportedAsYamlCppReportsThem) {
  std::optional<YamlAliasError> e = checkYamlAliases("a: *undefined\n", 100, 8);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->message.rfind("invalid YAML: ", 0), 0u);
}

} // namespace
} // namespace fuserc
