// The pass pipeline: the one ordered list of stages a fusion goes through,
// and the one place where `--dump` and `--dump-dir` hook in.
//
// Stages, in order: parsed, canonicalize, layout, alias, segments, schedule,
// cuda. This version implements `parsed` (the IR as the frontend built and
// the verifier accepted it); later stages are listed so that dump file
// numbering is stable as they arrive, and asking for one that does not exist
// yet is a usage error, never a faked dump.
#pragma once

#include "ir/Fusion.h"
#include "passes/CompileOptions.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fuserc {

std::span<const std::string_view> pipelineStages();
bool isStageImplemented(std::string_view stage);
// 1-based position of `stage` in pipelineStages() (for NN-stage.txt names).
int stageNumber(std::string_view stage);

struct Dump {
  std::string stage;
  std::string text;
};

struct PipelineResult {
  enum class Status { Ok, InternalError } status = Status::Ok;
  std::string message;     // InternalError: what went wrong
  std::vector<Dump> dumps; // requested dumps, in stage order
};

// Runs the pipeline on every fusion of `module`. Dumps are collected, not
// written, so a failing run leaves no partial output behind.
PipelineResult runPipeline(Module &module, const CompileOptions &options);

} // namespace fuserc
