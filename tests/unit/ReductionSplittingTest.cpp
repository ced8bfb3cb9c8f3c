// Reduction splitting (passes/ReductionSplitting.h): which reductions split,
// and that the reference interpreter gives the same outputs before and
// after — within a few f32 roundings, exactly for max, min and integer
// sums, and the same NaN where a variance divides by zero — on random
// inputs at several symbol bindings and on inputs holding NaN, infinities
// and equal values. The fusions are those of the lit test
// tests/lit/passes/split-reductions/split.fus.
#include "InterpreterComparison.h"
#include "RandomInputs.h"
#include "TestSupport.h"

#include "ir/Verifier.h"
#include "ir/interp/Interpreter.h"
#include "passes/Canonicalize.h"
#include "passes/LayoutInference.h"
#include "passes/ReductionSplitting.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>
#include <random>

namespace fuserc {
namespace {

// The fusion as the pipeline has it before and after reduction splitting
// (canonicalized, layouts inferred); `split` is null when nothing split.
struct Stages {
  std::unique_ptr<Fusion> before, split;
};

Stages runPasses(const Fusion &parsed) {
  Stages s;
  s.before = canonicalize(parsed);
  inferLayouts(*s.before);
  s.split = splitInterleavedReductions(*s.before);
  if (s.split)
    inferLayouts(*s.split);
  return s;
}

test::Loaded loadSplitFusions() {
  const std::filesystem::path path =
      std::filesystem::path(FUSERC_SOURCE_DIR) / "tests/lit/passes/split-reductions/split.fus";
  Module module;
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  DiagnosticEngine diag(os);
  std::vector<std::string> paths{path.string()};
  test::Loaded loaded;
  loaded.ok = loadFusionFiles(paths, diag, loaded.module);
  loaded.diagnostics = os.str();
  return loaded;
}

// Whether output `o` of `fusion` is a max or min, which splits exactly.
bool exactOutput(const Fusion &fusion, size_t o) {
  const Op *op = fusion.outputs()[o].value->definingOp();
  return op && (op->kind() == OpKind::Max || op->kind() == OpKind::Min);
}

// Every input of `fusion` filled by `value(i)` at every symbol = extent
// (integer inputs with 1s).
std::map<std::string, Tensor> filledInputs(const Fusion &fusion, int64_t extent,
                                           const std::function<double(size_t)> &value) {
  return test::inputsAt(
      fusion, extent, [&](const Value &in, const std::vector<int64_t> &shape, size_t numel) {
        if (!isFloating(in.dtype()))
          return Tensor::fromInts(in.dtype(), shape, std::vector<int64_t>(numel, 1));
        std::vector<double> values(numel);
        for (size_t i = 0; i < numel; ++i)
          values[i] = value(i);
        return Tensor::fromFloats(in.dtype(), shape, values);
      });
}

TEST(ReductionSplitting, SplitsInterleavedReductionsOnly) {
  test::Loaded loaded = loadSplitFusions();
  ASSERT_TRUE(loaded.ok) << loaded.diagnostics;
  for (const auto &parsed : loaded.module.fusions) {
    Stages s = runPasses(*parsed);
    EXPECT_EQ(s.split == nullptr, parsed->name() == "untouched") << parsed->name();
    if (!s.split)
      continue;
    EXPECT_TRUE(verifyFusion(*s.split).empty()) << parsed->name();
    // Outputs keep their names, in order.
    ASSERT_EQ(s.split->outputs().size(), parsed->outputs().size());
    for (size_t o = 0; o < parsed->outputs().size(); ++o) {
      EXPECT_EQ(s.split->outputs()[o].name, parsed->outputs()[o].name);
      EXPECT_EQ(s.split->outputs()[o].value->name(), parsed->outputs()[o].value->name());
    }
    // Nothing is left to split.
    EXPECT_EQ(splitInterleavedReductions(*s.split), nullptr) << parsed->name();
  }
}

TEST(ReductionSplitting, InterpreterResultsDoNotChange) {
  test::Loaded loaded = loadSplitFusions();
  ASSERT_TRUE(loaded.ok) << loaded.diagnostics;
  std::mt19937_64 rng(20261121);
  for (const auto &parsed : loaded.module.fusions) {
    Stages s = runPasses(*parsed);
    if (!s.split)
      continue;
    const auto exact = [&](size_t o) { return exactOutput(*parsed, o); };
    for (int64_t extent : {1, 2, 3, 7}) {
      const std::string what = parsed->name() + ", every symbol = " + std::to_string(extent);
      const std::map<std::string, Tensor> inputs = test::randomInputs(*parsed, extent, rng);
      test::expectSameOutputs(interpret(*parsed, inputs), interpret(*s.split, inputs), exact,
                              what + ", random inputs");
      // Equal values: a variance of exactly 0, or NaN over too few.
      const auto equal = filledInputs(*parsed, extent, [](size_t) { return 0.75; });
      test::expectSameOutputs(interpret(*parsed, equal), interpret(*s.split, equal), exact,
                              what + ", equal inputs");
      // A NaN and an infinity among finite values propagate alike.
      const auto special = filledInputs(*parsed, extent, [](size_t i) {
        if (i == 5)
          return std::numeric_limits<double>::quiet_NaN();
        if (i == 2)
          return -std::numeric_limits<double>::infinity();
        return 0.25 * static_cast<double>(i % 7);
      });
      test::expectSameOutputs(interpret(*parsed, special), interpret(*s.split, special), exact,
                              what + ", NaN and infinity");
    }
  }
}

// A var whose correction is above 1 may divide by zero with more than one
// element per result: it splits only where the count is a constant above
// the correction.
TEST(ReductionSplitting, LeavesVarThatMayDivideByZero) {
  test::Loaded loaded = test::load(R"(
fusion symbolic_count {
  input x: f32[N, C, H, W]
  v = var(x, axes=[0, 2, 3], correction=2)
  output v
}
fusion count_at_correction {
  input x: f32[2, C, 3, 3]
  v = var(x, axes=[0, 2, 3], correction=20)
  output v
}
)");
  ASSERT_TRUE(loaded.ok) << loaded.diagnostics;
  for (const auto &parsed : loaded.module.fusions)
    EXPECT_EQ(runPasses(*parsed).split, nullptr) << parsed->name();
}

} // namespace
} // namespace fuserc
