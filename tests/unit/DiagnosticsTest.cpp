// Unit tests of warnings in the diagnostics engine (support/Diagnostics.h):
// the -W options, their order, and how a warning prints and counts.
#include "TestSupport.h"

#include <gtest/gtest.h>

namespace fuserc {
namespace {

constexpr const char *kUnusedInput = "fusion f {\n  input x: f32[N]\n  input u: f32[N]\n"
                                     "  y = exp(x)\n  output y\n}\n";

WarningOptions options(std::initializer_list<std::string_view> flags) {
  WarningOptions w;
  for (std::string_view f : flags)
    EXPECT_EQ(w.apply(f), "") << f;
  return w;
}

TEST(Warnings, UnusedInputIsAWarningAndTheFusionStillLoads) {
  test::Loaded r = test::load(kUnusedInput, "w.fus");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_EQ(r.diagnostics, "w.fus:3:9: warning: input 'u' is never used [-Wunused-input]\n"
                           "  input u: f32[N]\n"
                           "        ^\n");
  // The input stays in the fusion's signature.
  EXPECT_EQ(r.module.fusions[0]->inputs().size(), 2u);
}

TEST(Warnings, WerrorMakesItAnErrorNamingTheFlag) {
  test::Loaded r = test::load(kUnusedInput, "w.fus", options({"error"}));
  EXPECT_FALSE(r.ok);
  const std::string expected =
      "w.fus:3:9: error: input 'u' is never used [-Werror,-Wunused-input]\n";
  EXPECT_EQ(r.diagnostics.substr(0, expected.size()), expected);
}

TEST(Warnings, WnoSilencesItEvenUnderWerror) {
  test::Loaded r = test::load(kUnusedInput, "w.fus", options({"error", "no-unused-input"}));
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.diagnostics, "");
}

TEST(Warnings, TheLastOptionForAWarningWins) {
  EXPECT_EQ(test::load(kUnusedInput, "w.fus", options({"no-unused-input", "unused-input"}))
                    .diagnostics.find("warning:") != std::string::npos,
            true);
  EXPECT_FALSE(
      test::load(kUnusedInput, "w.fus", options({"no-error=unused-input", "error=unused-input"}))
          .ok);
  EXPECT_TRUE(test::load(kUnusedInput, "w.fus", options({"error", "no-error=unused-input"})).ok);
  EXPECT_TRUE(test::load(kUnusedInput, "w.fus", options({"error", "no-error"})).ok);
}

TEST(Warnings, UnknownNamesAreRefusedWithTheKnownOnes) {
  WarningOptions w;
  EXPECT_EQ(w.apply("no-unused-inputs"),
            "unknown warning 'unused-inputs'; warnings are unused-input");
  EXPECT_EQ(w.apply("error=bogus"), "unknown warning 'bogus'; warnings are unused-input");
}

TEST(Warnings, SummaryCountsWarningsAndErrorsAsClangDoes) {
  std::string out;
  llvm::raw_string_ostream os(out);
  DiagnosticEngine diag(os);
  EXPECT_EQ(diag.summary(), "");
  diag.warning({}, "w", "unused-input");
  EXPECT_EQ(diag.summary(), "1 warning generated.");
  diag.error("e");
  diag.error("e");
  EXPECT_EQ(diag.summary(), "1 warning and 2 errors generated.");
  os.flush();
  EXPECT_EQ(out, "fuserc: warning: w [-Wunused-input]\nfuserc: error: e\nfuserc: error: e\n");
}

} // namespace
} // namespace fuserc
