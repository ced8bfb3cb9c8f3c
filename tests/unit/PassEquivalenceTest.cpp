// Property test: every pass preserves meaning. For every example and bench
// case, the reference interpreter gives the same outputs on random inputs
// before and after each pass (canonicalize, layout inference, alias
// analysis), at several symbol bindings. Outputs must match bit for bit —
// except where canonicalization decomposed a composite op, whose reference
// is its double-precision definition: there, within a few f32 roundings.
#include "TestSupport.h"

#include "ir/interp/Interpreter.h"
#include "passes/AliasAnalysis.h"
#include "passes/Canonicalize.h"
#include "passes/LayoutInference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <random>

namespace fuserc {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> exampleAndBenchFiles() {
  std::vector<std::string> files;
  for (const char *dir : {"examples", "bench/cases"})
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

// Random inputs with every symbol bound to `extent`. Integer inputs (indices,
// labels) are drawn from [0, extent) so they index any dim in range.
std::map<std::string, Tensor> randomInputs(const Fusion &fusion, int64_t extent,
                                           std::mt19937_64 &rng) {
  SymbolBindings bindings;
  for (const std::string &s : fusion.symbols())
    bindings[s] = extent;
  std::map<std::string, Tensor> inputs;
  for (const Value *in : fusion.inputs()) {
    std::vector<int64_t> shape;
    for (const Extent &e : in->shape())
      shape.push_back(*e.evaluate(bindings));
    int64_t numel = 1;
    for (int64_t d : shape)
      numel *= d;
    if (isFloating(in->dtype())) {
      std::uniform_real_distribution<double> dist(-2.0, 2.0);
      std::vector<double> values(static_cast<size_t>(numel));
      for (double &v : values)
        v = dist(rng);
      inputs.emplace(in->name(), Tensor::fromFloats(in->dtype(), shape, values));
    } else {
      int64_t hi = in->dtype() == DType::Bool ? 1 : extent - 1;
      std::uniform_int_distribution<int64_t> dist(0, hi);
      std::vector<int64_t> values(static_cast<size_t>(numel));
      for (int64_t &v : values)
        v = dist(rng);
      inputs.emplace(in->name(), Tensor::fromInts(in->dtype(), shape, values));
    }
  }
  return inputs;
}

// Relative tolerance for outputs of a decomposed composite: a handful of
// f32 roundings on values of order one, or the output dtype's precision.
double compositeTolerance(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return 2e-3;
  case DType::BF16:
    return 1.6e-2;
  default:
    return 1e-5;
  }
}

void expectSameOutputs(const InterpreterResult &before, const InterpreterResult &after,
                       bool exact, const std::string &what) {
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
        double tol = compositeTolerance(a.dtype()) * std::max(1.0, std::fabs(x));
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
    const std::vector<int64_t> extents = {1, 3, 7};
    std::vector<std::map<std::string, Tensor>> inputs;
    std::vector<InterpreterResult> reference;
    for (int64_t extent : extents) {
      inputs.push_back(randomInputs(*parsed, extent, rng));
      reference.push_back(interpret(*parsed, inputs.back()));
    }
    auto check = [&](const Fusion &fusion, const std::string &stage, bool exact) {
      for (size_t i = 0; i < extents.size(); ++i)
        expectSameOutputs(reference[i], interpret(fusion, inputs[i]), exact,
                          parsed->name() + " after " + stage + ", every symbol = " +
                              std::to_string(extents[i]));
    };
    std::unique_ptr<Fusion> fusion = canonicalize(*parsed);
    check(*fusion, "canonicalize", !composite);
    inferLayouts(*fusion);
    check(*fusion, "layout", !composite);
    ASSERT_TRUE(analyzeAliases(*fusion, diag)) << os.str();
    check(*fusion, "alias", !composite);
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
