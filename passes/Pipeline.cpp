// The pass pipeline (see Pipeline.h). Read it top to bottom: each stage is
// one step, followed by verification and its dump.
#include "passes/Pipeline.h"

#include "ir/Printer.h"
#include "ir/Verifier.h"

#include <algorithm>

namespace fuserc {
namespace {

constexpr std::string_view kStages[] = {"parsed",   "canonicalize", "layout", "alias",
                                        "segments", "schedule",     "cuda"};
constexpr std::string_view kImplemented[] = {"parsed"};

class PipelineRun {
public:
  PipelineRun(Module &module, const CompileOptions &options) : module_(module), options_(options) {}

  PipelineResult run() {
    if (!verify("parsed"))
      return result_;
    dump("parsed");
    return result_;
  }

private:
  // Verifies every fusion after `stage`; a failure is an internal error.
  bool verify(std::string_view stage) {
    for (const auto &fusion : module_.fusions) {
      std::vector<std::string> problems = verifyFusion(*fusion);
      if (problems.empty())
        continue;
      result_.status = PipelineResult::Status::InternalError;
      result_.message = "IR verification failed after stage '" + std::string(stage) + "':";
      for (const std::string &p : problems)
        result_.message += "\n  " + p;
      return false;
    }
    return true;
  }

  void dump(std::string_view stage) {
    const std::vector<std::string> &wanted = options_.dumpStages;
    if (std::find(wanted.begin(), wanted.end(), stage) == wanted.end())
      return;
    std::string text;
    llvm::raw_string_ostream os(text);
    printModule(module_, os);
    os.flush();
    result_.dumps.push_back({std::string(stage), std::move(text)});
  }

  Module &module_;
  const CompileOptions &options_;
  PipelineResult result_;
};

} // namespace

std::span<const std::string_view> pipelineStages() { return kStages; }

bool isStageImplemented(std::string_view stage) {
  return std::find(std::begin(kImplemented), std::end(kImplemented), stage) !=
         std::end(kImplemented);
}

int stageNumber(std::string_view stage) {
  auto it = std::find(std::begin(kStages), std::end(kStages), stage);
  return it == std::end(kStages) ? 0 : int(it - std::begin(kStages)) + 1;
}

PipelineResult runPipeline(Module &module, const CompileOptions &options) {
  return PipelineRun(module, options).run();
}

} // namespace fuserc
