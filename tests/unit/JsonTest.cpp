// Unit tests of fuserc's JSON writer (support/Json.h): quoting, and the two
// layouts, the manifest's and fuserc-interp's.
#include "support/Json.h"

#include <gtest/gtest.h>

namespace fuserc {
namespace {

TEST(Json, EscapesQuotesBackslashesAndControlCharacters) {
  EXPECT_EQ(jsonQuote("a\"b\\c\nd\te\x01"), R"j("a\"b\\c\nd\te\u0001")j");
  EXPECT_EQ(jsonQuote("\xce\xbc"), "\"\xce\xbc\""); // UTF-8 passes through
}

TEST(Json, KeepsShortScalarListsOnOneLineAndKeysInInsertionOrder) {
  Json doc = Json::object();
  doc.set("z", Json::strings({"N", "C"})).set("a", Json::object().set("k", 1).set("b", true));
  doc.set("nested", Json::array().push(Json::array().push(1)));
  EXPECT_EQ(doc.print(), R"j({
  "z": ["N", "C"],
  "a": {"k": 1, "b": true},
  "nested": [
    [1]
  ]
}
)j");
}

TEST(Json, OnePerLineLayoutPutsEveryMemberOnItsOwnLineAndKeepsEmptyContainersShort) {
  Json doc = Json::object();
  doc.set("shape", Json::array().push(2).push("N"))
      .set("empty", Json::array())
      .set("none", Json::object())
      .set("aliases", nullptr);
  EXPECT_EQ(doc.print(JsonLayout::OnePerLine), R"j({
  "shape": [
    2,
    "N"
  ],
  "empty": [],
  "none": {},
  "aliases": null
}
)j");
}

} // namespace
} // namespace fuserc
