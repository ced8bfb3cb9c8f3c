// What a run tells the person waiting for it, on stderr only: a line per
// finished compile job ("[1/2] softmax.cu sm_90 4.1 s"), a summary once the
// outputs are written, and with --time-report each step's time.
#pragma once

#include "packaging/ModuleCompiler.h"
#include "support/StageTimes.h"

#include <map>
#include <string>

namespace fuserc {

// "[done/total] unit arch seconds" and "(cached)" or "FAILED".
std::string progressLine(const CompileJobReport &job);

struct RunSummary {
  size_t fusions = 0, kernels = 0, variants = 0, archs = 0;
  unsigned compileJobs = 0, cacheHits = 0;
  double seconds = 0;
  const std::map<std::string, std::string> *files = nullptr; // name -> bytes, as written
};
// "fuserc: 1 fusion, 1 kernel (25 variants), 2 archs (2 compiled, 0 cached)
// in 9.4 s: softmax.h 6.1 MB, ..."
std::string summaryLine(const RunSummary &summary);

// A table of the steps' times, the total last.
std::string timeReport(const StageTimes &times, double totalSeconds);

// "980 KB", "6.1 MB", "512 B".
std::string byteSize(size_t bytes);

} // namespace fuserc
