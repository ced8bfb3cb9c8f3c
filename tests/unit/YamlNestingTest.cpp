// The YAML nesting pre-scan: deep flow and one-line block nesting is found
// at the right offset; quoted scalars, comments and ordinary fusion files
// are not mistaken for nesting.
#include "frontend/YamlNesting.h"

#include <gtest/gtest.h>

#include <string>

namespace fuserc {
namespace {

TEST(YamlNesting, DeepFlowSequencesAreFoundAtTheFirstLevelPastTheLimit) {
  std::string text = "a: " + std::string(10, '[') + std::string(10, ']');
  EXPECT_EQ(findYamlNestingBeyond(text, 4), 3u + 4u);
  EXPECT_EQ(findYamlNestingBeyond(text, 10), std::nullopt);
}

TEST(YamlNesting, FlowMapsAndSequencesCountTogether) {
  EXPECT_EQ(findYamlNestingBeyond("{a: [{b: [1]}]}", 3), 9u);
}

TEST(YamlNesting, OneLineBlockSequencesCount) {
  std::string text = "a:\n  " + std::string("- - - - - x\n");
  EXPECT_EQ(findYamlNestingBeyond(text, 4), 5u + 8u);
  EXPECT_EQ(findYamlNestingBeyond(text, 5), std::nullopt);
}

TEST(YamlNesting, QuotedScalarsAndCommentsAreSkipped) {
  EXPECT_EQ(findYamlNestingBeyond("a: \"[[[[[\"\nb: '[[[['' [[['\n# [[[[[[\n", 2), std::nullopt);
  EXPECT_EQ(findYamlNestingBeyond("a: b#[[[[\n", 2), 5u + 2u);
}

TEST(YamlNesting, AnOrdinaryFusionIsShallow) {
  const char *text = R"(fusions:
  - name: f
    inputs:
      - {name: x, dtype: f16, shape: [N, C], layout: [1, 0]}
    ops:
      - t1 = sum(x, axes=[0])        # [comment]
      - {out: t2, op: relu, args: [t1]}
    outputs: [t2]
)";
  EXPECT_EQ(findYamlNestingBeyond(text, 4), std::nullopt);
}

} // namespace
} // namespace fuserc
