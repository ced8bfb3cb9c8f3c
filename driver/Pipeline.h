// The pass pipeline: the one ordered list of stages a fusion goes through,
// and the one place where `--dump` and `--dump-dir` hook in.
//
// Stages, in order: parsed (the IR as the frontend built it), canonicalize,
// layout, alias, segments, schedule (each segment's scheduler picks
// parameters and emits its kernel), cuda (the CUDA source of the module).
// Every stage is followed by the verifier and, when asked for, its dump.
// Segmentation leaves the fusions as they are; its result (segments, their
// schedulers, workspace tensors) travels beside them in
// PipelineResult::segmentations, and the code in PipelineResult::code. The
// schedule and cuda stages run only when -o or their dumps ask for them.
#pragma once

#include "driver/CompileOptions.h"
#include "ir/Fusion.h"
#include "passes/Segmentation.h"
#include "schedulers/KernelPlan.h"
#include "support/Diagnostics.h"
#include "support/StageTimes.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fuserc {

std::span<const std::string_view> pipelineStages();
// 1-based position of `stage` in pipelineStages() (for NN-stage.txt names).
int stageNumber(std::string_view stage);
// The file name of a stage's dump under --dump-dir: NN-STAGE.EXTENSION.
std::string dumpFileName(std::string_view stage, std::string_view extension);

struct Dump {
  std::string stage;
  std::string text;
  std::string extension = "txt"; // of the file under --dump-dir: txt, or dot
};

struct PipelineResult {
  // InputError: a pass found an error in the input (reported through the
  // diagnostic engine), e.g. an in-place update with a hazard.
  // Unsupported: a segment fuserc cannot generate a kernel for yet (`message`
  // names it).
  enum class Status { Ok, InputError, Unsupported, InternalError } status = Status::Ok;
  std::string message;     // InternalError: what went wrong
  std::vector<Dump> dumps; // requested dumps, in stage order
  // The segments stage's result, one per fusion of the module, in order.
  // Segments point into the module's fusions and to the schedulers given.
  std::vector<SegmentedFusion> segmentations;
  // The schedule stage's result (only with -o or a schedule/cuda dump): each
  // fusion's kernels, in order.
  std::vector<FusionCode> code;
  // The module's CUDA translation unit (moduleCudaSource of `code`), made
  // with `code`.
  std::string cudaSource;
  // Each stage that ran, with its verification and dump ("stage segments").
  StageTimes times;
};

// Runs the pipeline on every fusion of `module`, segmenting with
// `schedulers` (in priority order). Dumps are collected, not written, so a
// failing run leaves no partial output behind.
PipelineResult runPipeline(Module &module, const CompileOptions &options,
                           std::span<const Scheduler *const> schedulers, DiagnosticEngine &diag);
// The same with the built-in schedulers in their default order.
PipelineResult runPipeline(Module &module, const CompileOptions &options, DiagnosticEngine &diag);

} // namespace fuserc
