// The pass pipeline: the one ordered list of stages a fusion goes through,
// and the one place where `--dump` and `--dump-dir` hook in.
//
// Stages, in order: parsed (the IR as the frontend built it), canonicalize,
// layout, alias, segments, schedule, cuda. Every stage is followed by the
// verifier and, when asked for, its dump. Stages not implemented yet are
// listed so that dump file numbering is stable as they arrive; asking for
// one is a usage error, never a faked dump.
#pragma once

#include "ir/Fusion.h"
#include "passes/CompileOptions.h"
#include "support/Diagnostics.h"

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
  // InputError: a pass found an error in the input (reported through the
  // diagnostic engine), e.g. an in-place update with a hazard.
  enum class Status { Ok, InputError, InternalError } status = Status::Ok;
  std::string message;     // InternalError: what went wrong
  std::vector<Dump> dumps; // requested dumps, in stage order
};

// Runs the pipeline on every fusion of `module`. Dumps are collected, not
// written, so a failing run leaves no partial output behind.
PipelineResult runPipeline(Module &module, const CompileOptions &options,
                           DiagnosticEngine &diag);

} // namespace fuserc
