// Property test: every pass preserves meaning. For every example and bench
// case, the reference interpreter gives the same outputs on random inputs
// before and after each pass (canonicalize, layout inference, reduction
// splitting, alias analysis), at several symbol bindings. Outputs must match
// bit for bit — except where canonicalization decomposed a composite op,
// whose reference is its double-precision definition, or where reductions
// were split, rounding partial results: there, within a few f32 roundings.
// (ReductionSplittingTest checks the splits themselves.)
#include "RandomInputs.h"
#include "TestSupport.h"

#include "ir/interp/Interpreter.h"
#include "passes/AliasAnalysis.h"
#include "passes/Canonicalize.h"
#include "passes/LayoutInference.h"
#include "passes/ReductionSplitting.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <random>

namespace fuserc {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> exampleAndBenchFiles() {
  std::vector<std::string> files;
  for (const char *dir : {"examples", "examples/cookbook", "bench/cases"})
    for (const auto &entry : fs::directory_iterator(fs::path(FUSERC_SOURCE_DIR) / dir)) {
      std::string ext = entry.path().extension().string();
      if (ext == ".fus" || ext == ".yaml" || ext == ".yml")
        files.push_back(entry.path().string());
    }
  std::sort(files.begin(), files.end());
  return files;
}

bool hasComposite(const Fusion &fusion) {
  for (const auto &op : fusion.ops())
    if (op->info().composite)
      return true;
  return false;
}

void expectSameOutputs(const InterpreterResult &before, const InterpreterResult &after, bool exact,
                       const std::string &what) {
  ASSERT_TRUE(before.ok) << what << ": " << before.error;
  ASSERT_TRUE(after.ok) << what << ": " << after.error;
  ASSERT_EQ(before.outputs.size(), after.outputs.size()) << what;
  for (size_t o = 0; o < before.outputs.size(); ++o) {
    const Tensor &a = before.outputs[o];
    const Tensor &b = after.outputs[o];
    ASSERT_EQ(a.dtype(), b.dtype()) << what << " output " << o;
    ASSERT_EQ(a.shape(), b.shape()) << what << " output " << o;
    for (size_t i = 0; i < a.numel(); ++i) {
      if (!a.isFloating()) {
        ASSERT_EQ(a.getInt(i), b.getInt(i)) << what << " output " << o << " element " << i;
        continue;
      }
      double x = a.getFloat(i), y = b.getFloat(i);
      if (std::isnan(x) || std::isnan(y)) {
        ASSERT_TRUE(std::isnan(x) && std::isnan(y))
            << what << " output " << o << " element " << i << ": " << x << " vs " << y;
        continue;
      }
      if (exact) {
        ASSERT_EQ(x, y) << what << " output " << o << " element " << i;
      } else {
        double tol = test::decompositionTolerance(a.dtype()) * std::max(1.0, std::fabs(x));
        ASSERT_NEAR(x, y, tol) << what << " output " << o << " element " << i;
      }
    }
  }
}

class PassEquivalence : public testing::TestWithParam<std::string> {};

TEST_P(PassEquivalence, InterpreterResultsDoNotChangeAcrossPasses) {
  Module module;
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  DiagnosticEngine diag(os);
  std::vector<std::string> paths{GetParam()};
  ASSERT_TRUE(loadFusionFiles(paths, diag, module)) << os.str();
  std::mt19937_64 rng(20261120);
  for (auto &parsed : module.fusions) {
    const bool composite = hasComposite(*parsed);
    const std::vector<int64_t> extents = test::fittingExtents(*parsed, {1, 3, 7});
    ASSERT_FALSE(extents.empty()) << parsed->name() << ": no binding fits its exact divisions";
    std::vector<std::map<std::string, Tensor>> inputs;
    std::vector<InterpreterResult> reference;
    for (int64_t extent : extents) {
      inputs.push_back(test::randomInputs(*parsed, extent, rng));
      reference.push_back(interpret(*parsed, inputs.back()));
    }
    auto check = [&](const Fusion &fusion, const std::string &stage, bool exact) {
      for (size_t i = 0; i < extents.size(); ++i)
        expectSameOutputs(reference[i], interpret(fusion, inputs[i]), exact,
                          parsed->name() + " after " + stage +
                              ", every symbol = " + std::to_string(extents[i]));
    };
    std::unique_ptr<Fusion> fusion = canonicalize(*parsed);
    check(*fusion, "canonicalize", !composite);
    inferLayouts(*fusion);
    check(*fusion, "layout", !composite);
    bool exact = !composite;
    if (std::unique_ptr<Fusion> split = splitInterleavedReductions(*fusion)) {
      fusion = std::move(split);
      inferLayouts(*fusion);
      exact = false;
      check(*fusion, "reduction splitting", exact);
    }
    ASSERT_TRUE(analyzeAliases(*fusion, diag)) << os.str();
    check(*fusion, "alias", exact);
  }
}

INSTANTIATE_TEST_SUITE_P(ExamplesAndBenchCases, PassEquivalence,
                         testing::ValuesIn(exampleAndBenchFiles()),
                         [](const testing::TestParamInfo<std::string> &param) {
                           std::string name = fs::path(param.param).stem().string();
                           for (char &c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c)))
                               c = '_';
                           return fs::path(param.param).parent_path().filename().string() + "_" +
                                  name;
                         });

} // namespace
} // namespace fuserc
