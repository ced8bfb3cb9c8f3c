// Property test: every pass preserves meaning. For every example and bench
// case, the reference interpreter gives the same outputs on random inputs
// before and after each pass (canonicalize, layout inference, reduction
// splitting, alias analysis), at several symbol bindings. Outputs must match
// bit for bit — except where canonicalization decomposed a composite op,
// whose reference is its double-precision definition, or where reductions
// were split, rounding partial results: there, within a few f32 roundings.
// (ReductionSplittingTest checks the splits themselves.)
#include "InterpreterComparison.h"
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
        test::expectSameOutputs(
            reference[i], interpret(fusion, inputs[i]), [&](size_t) { return exact; },
            parsed->name() + " after " + stage + ", every symbol = " + std::to_string(extents[i]));
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
