// No kernel exists only to copy a view: every fusion file the project ships
// (bench cases and sweeps, examples and cookbook recipes, the GPU cases) is
// segmented, and no segment that needs a kernel is made of view ops alone
// unless it stores a fusion output (a layout the user asked for). Views of
// inputs are index maps that kernels read through strides.
#include "CodegenTestSupport.h"

#include "schedulers/OpFamilies.h"

#include <algorithm>
#include <filesystem>

namespace fuserc {
namespace {
using namespace test;

std::vector<std::string> shippedFusionFiles() {
  std::vector<std::string> files;
  for (const char *dir :
       {"bench/cases", "bench/sweep", "examples", "examples/cookbook", "gpu/cases"}) {
    for (const auto &entry :
         std::filesystem::directory_iterator(std::string(FUSERC_SOURCE_DIR) + "/" + dir)) {
      const std::string ext = entry.path().extension().string();
      if (entry.is_regular_file() && (ext == ".fus" || ext == ".yaml"))
        files.push_back(std::string(dir) + "/" + entry.path().filename().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// "fusion 'f', segment 2 (transpose): g, h" for each kernel that only copies
// views.
std::vector<std::string> viewCopyKernels(const std::string &file) {
  Loaded r = load(fileText(file), file);
  EXPECT_TRUE(r.ok) << file << ": " << r.diagnostics;
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  DiagnosticEngine diag(os);
  SchedulerRegistry registry;
  registerBuiltinSchedulers(registry, builtinGenerators());
  PipelineResult result =
      runPipeline(r.module, CompileOptions{},
                  std::get<std::vector<const Scheduler *>>(registry.select({})), diag);
  EXPECT_EQ(result.status, PipelineResult::Status::Ok) << file << ": " << os.str();
  std::vector<std::string> copies;
  for (const SegmentedFusion &sf : result.segmentations)
    for (const ScheduledSegment &s : sf.segments) {
      const auto ops = s.segment.ops();
      const bool onlyViews =
          std::all_of(ops.begin(), ops.end(), [](const Op *op) { return isViewOp(*op); });
      const auto written = s.segment.writtenOutputs();
      const bool storesOutput = std::any_of(written.begin(), written.end(), [&](const Value *v) {
        return sf.analysis->isStoredOutput(*v);
      });
      if (s.scheduler->needsKernel() && onlyViews && !storesOutput) {
        std::string names;
        for (const Op *op : ops)
          names += (names.empty() ? "" : ", ") + sf.analysis->name(*op->result());
        copies.push_back("fusion '" + sf.fusion->name() + "', segment " + std::to_string(s.id) +
                         " (" + std::string(s.scheduler->name()) + "): " + names);
      }
    }
  return copies;
}

TEST(ViewCopies, NoShippedFusionHasAKernelThatOnlyCopiesAView) {
  const std::vector<std::string> files = shippedFusionFiles();
  ASSERT_GT(files.size(), 40u);
  for (const std::string &file : files)
    for (const std::string &copy : viewCopyKernels(file))
      ADD_FAILURE() << file << ": " << copy;
}

TEST(ViewCopies, AReshapedInputFeedsTheReductionThroughAnIndexMap) {
  // Before index maps, g was copied by a kernel of its own.
  Generated g = generate("fusion f {\n"
                         "  input x: f32[N, 64, S]\n"
                         "  g = reshape(x, shape=[N, 8, 8, S])\n"
                         "  y = sum(g, axes=[2, 3])\n"
                         "  output y\n"
                         "}\n");
  ASSERT_EQ(g.error, "");
  ASSERT_EQ(g.code.size(), 1u);
  ASSERT_EQ(g.code[0].kernels.size(), 1u);
  EXPECT_NE(g.code[0].kernels[0].hostLaunch.find("index map g of input x"), std::string::npos)
      << g.code[0].kernels[0].hostLaunch;
  expectCompiles(g);
}

} // namespace
} // namespace fuserc
