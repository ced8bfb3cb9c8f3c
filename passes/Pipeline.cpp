// The pass pipeline (see Pipeline.h). Read it top to bottom: each stage is
// one step, followed by verification and its dump.
#include "passes/Pipeline.h"

#include "ir/Printer.h"
#include "ir/Verifier.h"
#include "passes/AliasAnalysis.h"
#include "passes/Canonicalize.h"
#include "passes/LayoutInference.h"

#include <algorithm>

namespace fuserc {
namespace {

constexpr std::string_view kStages[] = {"parsed",   "canonicalize", "layout", "alias",
                                        "segments", "schedule",     "cuda"};
constexpr std::string_view kImplemented[] = {"parsed", "canonicalize", "layout", "alias"};

class PipelineRun {
public:
  PipelineRun(Module &module, const CompileOptions &options, DiagnosticEngine &diag)
      : module_(module), options_(options), diag_(diag) {}

  PipelineResult run() {
    if (!finishStage("parsed"))
      return result_;

    for (auto &fusion : module_.fusions)
      fusion = canonicalize(*fusion);
    if (!finishStage("canonicalize"))
      return result_;

    for (auto &fusion : module_.fusions)
      inferLayouts(*fusion);
    if (!finishStage("layout", layoutDumpNotes()))
      return result_;

    unsigned errorsBefore = diag_.errorCount();
    for (auto &fusion : module_.fusions)
      analyzeAliases(*fusion, diag_);
    if (diag_.errorCount() != errorsBefore) {
      result_.status = PipelineResult::Status::InputError;
      result_.dumps.clear(); // a failed run writes nothing
      return result_;
    }
    finishStage("alias", aliasDumpNotes());
    return result_;
  }

private:
  // Verifies every fusion after `stage`, then dumps it if asked for.
  bool finishStage(std::string_view stage, const PrintNotes &notes = {}) {
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
    const std::vector<std::string> &wanted = options_.dumpStages;
    if (std::find(wanted.begin(), wanted.end(), stage) != wanted.end()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      printModule(module_, os, notes);
      os.flush();
      result_.dumps.push_back({std::string(stage), std::move(text)});
    }
    return true;
  }

  Module &module_;
  const CompileOptions &options_;
  DiagnosticEngine &diag_;
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

PipelineResult runPipeline(Module &module, const CompileOptions &options,
                           DiagnosticEngine &diag) {
  return PipelineRun(module, options, diag).run();
}

} // namespace fuserc
