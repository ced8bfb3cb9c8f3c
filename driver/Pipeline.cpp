// The pass pipeline (see Pipeline.h). Read it top to bottom: each stage is
// one step, followed by verification and its dump.
#include "driver/Pipeline.h"

#include "codegen/BuiltinGenerators.h"
#include "codegen/FusionCodegen.h"
#include "codegen/ScheduleDump.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"
#include "passes/AliasAnalysis.h"
#include "passes/Canonicalize.h"
#include "passes/InputCopies.h"
#include "passes/LayoutInference.h"
#include "passes/Recomputation.h"
#include "passes/ReductionSplitting.h"
#include "passes/SegmentsDump.h"
#include "schedulers/KernelGenerator.h"
#include "schedulers/SchedulerRegistry.h"

#include <algorithm>
#include <cstdio>
#include <functional>

namespace fuserc {
namespace {

constexpr std::string_view kStages[] = {"parsed",   "canonicalize", "layout", "alias",
                                        "segments", "schedule",     "cuda"};

class PipelineRun {
public:
  PipelineRun(Module &module, const CompileOptions &options,
              std::span<const Scheduler *const> schedulers, DiagnosticEngine &diag)
      : module_(module), options_(options), schedulers_(schedulers), diag_(diag) {}

  PipelineResult run() {
    if (!finishStage("parsed"))
      return result_;

    for (auto &fusion : module_.fusions)
      fusion = canonicalize(*fusion);
    if (!finishStage("canonicalize"))
      return result_;

    // Reductions whose kept and reduced dims interleave in memory, which
    // only layouts tell, become row and column reductions; the split
    // fusion gets its layouts again.
    for (auto &fusion : module_.fusions) {
      inferLayouts(*fusion);
      if (std::unique_ptr<Fusion> split = splitInterleavedReductions(*fusion)) {
        fusion = std::move(split);
        inferLayouts(*fusion);
      }
    }
    if (!finishStage("layout", layoutDumpNotes()))
      return result_;

    unsigned errorsBefore = diag_.errorCount();
    for (auto &fusion : module_.fusions)
      analyzeAliases(*fusion, diag_);
    if (diag_.errorCount() != errorsBefore)
      return inputError();
    // Outputs that are inputs in another layout get a kernel that copies.
    for (auto &fusion : module_.fusions)
      materializeInputCopies(*fusion);
    if (!finishStage("alias", aliasDumpNotes()))
      return result_;

    // Segmentation: each fusion split into segments the schedulers accept,
    // values cheaper to compute again than to pass between segments
    // recomputed by their readers (the fusion replaced when they are).
    for (auto &fusion : module_.fusions)
      if (std::optional<SegmentedFusion> s =
              segmentRecomputing(fusion, {schedulers_, options_.shapes}, diag_))
        result_.segmentations.push_back(std::move(*s));
    if (diag_.errorCount() != errorsBefore)
      return inputError();
    if (options_.dumpFormat == "dot")
      finishStage("segments", "dot", [&](llvm::raw_ostream &os) {
        printSegmentsDot(result_.segmentations, options_.shapes, os);
      });
    else
      finishStage("segments", segmentsDumpNotes(result_.segmentations, options_.shapes));

    // Code generation, when its results are wanted (-o, or their dumps):
    // each segment's scheduler makes its schedule, once, and the
    // scheduler's generator turns it into the kernel.
    if (!options_.outputDir && !wants("schedule") && !wants("cuda"))
      return std::move(result_);
    for (SegmentedFusion &s : result_.segmentations)
      makeSchedules(s);
    for (const SegmentedFusion &s : result_.segmentations) {
      try {
        result_.code.push_back(generateFusionCode(s, options_.variants));
      } catch (const CodegenError &e) {
        if (options_.outputDir) {
          result_.status = PipelineResult::Status::Unsupported;
          result_.message = e.what();
          result_.dumps.clear();
          return std::move(result_);
        }
        result_.code.emplace_back();
        result_.code.back().fusion = s.fusion->name();
        result_.code.back().unsupported = e.what();
      }
    }
    finishStage("schedule", "txt", [&](llvm::raw_ostream &os) { printSchedule(result_.code, os); });
    result_.cudaSource = moduleCudaSource(result_.code);
    finishStage("cuda", "txt", [&](llvm::raw_ostream &os) { os << result_.cudaSource; });
    return std::move(result_);
  }

private:
  bool wants(std::string_view stage) const {
    const std::vector<std::string> &w = options_.dumpStages;
    return std::find(w.begin(), w.end(), stage) != w.end();
  }

  PipelineResult inputError() {
    result_.status = PipelineResult::Status::InputError;
    result_.dumps.clear(); // a failed run writes nothing
    return std::move(result_);
  }

  // Verifies every fusion after `stage`, then dumps it (the IR with `notes`)
  // if asked for.
  bool finishStage(std::string_view stage, const PrintNotes &notes = {}) {
    return finishStage(stage, "txt",
                       [&](llvm::raw_ostream &os) { printModule(module_, os, notes); });
  }

  // The same, with the dump printed by `print` into a file named *.extension.
  bool finishStage(std::string_view stage, std::string_view extension,
                   const std::function<void(llvm::raw_ostream &)> &print) {
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
    if (wants(stage)) {
      std::string text;
      llvm::raw_string_ostream os(text);
      print(os);
      os.flush();
      result_.dumps.push_back({std::string(stage), std::move(text), std::string(extension)});
    }
    result_.times.push_back({"stage " + std::string(stage), stopwatch_.lap()});
    return true;
  }

  Module &module_;
  const CompileOptions &options_;
  std::span<const Scheduler *const> schedulers_;
  DiagnosticEngine &diag_;
  PipelineResult result_;
  Stopwatch stopwatch_; // each stage's time: its work, verification and dump
};

} // namespace

std::span<const std::string_view> pipelineStages() { return kStages; }

int stageNumber(std::string_view stage) {
  auto it = std::find(std::begin(kStages), std::end(kStages), stage);
  return it == std::end(kStages) ? 0 : int(it - std::begin(kStages)) + 1;
}

std::string dumpFileName(std::string_view stage, std::string_view extension) {
  char number[8];
  std::snprintf(number, sizeof number, "%02d-", stageNumber(stage));
  return number + std::string(stage) + "." + std::string(extension);
}

PipelineResult runPipeline(Module &module, const CompileOptions &options,
                           std::span<const Scheduler *const> schedulers, DiagnosticEngine &diag) {
  return PipelineRun(module, options, schedulers, diag).run();
}

PipelineResult runPipeline(Module &module, const CompileOptions &options, DiagnosticEngine &diag) {
  // Immutable once built; segmentations point at these schedulers.
  static const SchedulerRegistry builtins = [] {
    SchedulerRegistry registry;
    registerBuiltinSchedulers(registry, builtinGenerators());
    return registry;
  }();
  std::vector<const Scheduler *> schedulers = builtins.all();
  return runPipeline(module, options, schedulers, diag);
}

} // namespace fuserc
