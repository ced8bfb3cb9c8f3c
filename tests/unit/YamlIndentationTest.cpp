// Unit tests of the YAML indentation scan (frontend/YamlIndentation.h): it
// names the mis-indented line of a file yaml-cpp rejected, and finds
// nothing in a well-indented one.
#include "frontend/YamlIndentation.h"

#include <gtest/gtest.h>

namespace fuserc {
namespace {

std::optional<YamlIndentationError> scan(llvm::StringRef text) {
  return findYamlIndentationError(text, text.size());
}

TEST(YamlIndentation, WellIndentedFileHasNoError) {
  EXPECT_FALSE(scan("fusions:\n  - name: f\n    inputs:\n      - {name: x, dtype: f32}\n"
                    "    ops:\n    - y = exp(x)\n    outputs: [y]\n    # note\n"));
}

TEST(YamlIndentation, KeyBetweenTwoBlocksIsNamed) {
  std::optional<YamlIndentationError> e =
      scan("fusions:\n  - name: f\n    inputs: []\n   ops:\n      - y = exp(x)\n");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->offset, 39u); // the "ops"
  EXPECT_NE(e->message.find("'ops' is indented 3 spaces"), std::string::npos) << e->message;
  EXPECT_NE(e->message.find("'name' (line 2) is at 4"), std::string::npos) << e->message;
}

TEST(YamlIndentation, KeyIndentedUnderAKeyWithAValue) {
  std::optional<YamlIndentationError> e = scan("name: f\n inputs: []\n");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->message, "'inputs' is indented 1 space, deeper than 'name' (line 1, 0 spaces), "
                        "which already has a value; line it up with 'name'");
}

TEST(YamlIndentation, FlowCollectionsAndBlockScalarsAreSkipped) {
  EXPECT_FALSE(scan("ops:\n  - {out: y,\n       op: exp}\n  - |\n      y = exp(x)\n"
                    "        + 1\nname: f\n"));
}

TEST(YamlIndentation, TabsInIndentationAreNamed) {
  std::optional<YamlIndentationError> e = scan("name: f\nops:\n\t- y = exp(x)\n");
  ASSERT_TRUE(e);
  EXPECT_NE(e->message.find("tab"), std::string::npos);
}

} // namespace
} // namespace fuserc
