// libFuzzer target for everything after the frontend: the bytes drive a
// generator of valid-ish fusions (FusionGenerator.h), which are loaded and
// compiled through every pass, segmentation, scheduling and CUDA code
// generation, with every dump printed. With FUSERC_FUZZ_NVRTC_EVERY=N, one
// input in N (by a hash of its bytes) also has its CUDA compiled by NVRTC
// for sm_90 (seconds per input: off by default, for long runs such as
// `FUSERC_FUZZ_NVRTC_EVERY=16 scripts/fuzz-long.sh fuzz_pipeline 1800
// -timeout=120 -rss_limit_mb=4096`).
// Packaging is left out.
//
// A valid fusion must never fail IR verification between stages (an
// internal error), and NVRTC must never reject the CUDA generated for it:
// either aborts, as a crash would. To see the fusion an input stands for,
// run the target on it with FUSERC_FUZZ_SHOW=1.
#include "ByteReader.h"
#include "FusionGenerator.h"

#include "driver/Pipeline.h"
#include "driver/Targets.h"
#include "frontend/Frontend.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <functional>
#include <optional>
#include <string_view>

using namespace fuserc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const bool show = std::getenv("FUSERC_FUZZ_SHOW") != nullptr;
  fuzz::ByteReader bytes({data, size});
  fuzz::GeneratedSource source = fuzz::generateSource(bytes);
  if (show) {
    llvm::errs() << source.text;
    for (const auto &[symbol, value] : source.shapes)
      llvm::errs() << "// --shape " << symbol << "=" << value << "\n";
    if (source.dotSegments)
      llvm::errs() << "// --dump-format=dot\n";
  }

  DiagnosticEngine diag(show ? llvm::errs() : llvm::nulls());
  Module module;
  if (!loadFusionSource("generated.fus", source.text, diag, module))
    return 0;
  CompileOptions options;
  for (std::string_view stage : pipelineStages())
    options.dumpStages.emplace_back(stage);
  options.shapes = source.shapes;
  if (source.dotSegments)
    options.dumpFormat = "dot";
  PipelineResult result = runPipeline(module, options, diag);
  if (show)
    for (const Dump &d : result.dumps)
      llvm::errs() << "// ---- dump: " << d.stage << " ----\n" << d.text;
  if (result.status == PipelineResult::Status::InternalError) {
    llvm::errs() << "internal error: " << result.message << "\n";
    std::abort();
  }
  static const size_t nvrtcEvery = [] {
    const char *v = std::getenv("FUSERC_FUZZ_NVRTC_EVERY");
    return v ? static_cast<size_t>(std::strtoul(v, nullptr, 10)) : size_t{0};
  }();
  const size_t hash =
      std::hash<std::string_view>()(std::string_view(reinterpret_cast<const char *>(data), size));
  if (result.status == PipelineResult::Status::Ok && !result.cudaSource.empty() && nvrtcEvery &&
      hash % nvrtcEvery == 0) {
    if (std::optional<std::string> log = nvrtcRejection(result.cudaSource, "sm_90")) {
      llvm::errs() << source.text << "NVRTC rejected the generated CUDA:\n" << *log << "\n";
      std::abort();
    }
  }
  return 0;
}
