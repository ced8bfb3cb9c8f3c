// Progress lines, the run summary and the time report (see RunReport.h).
#include "driver/RunReport.h"

#include <algorithm>
#include <cstdio>

namespace fuserc {
namespace {

std::string fixed(double value, int decimals) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

std::string count(size_t n, const char *noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

} // namespace

std::string byteSize(size_t bytes) {
  if (bytes < 1024)
    return std::to_string(bytes) + " B";
  if (bytes < 1024 * 1024)
    return fixed(bytes / 1024.0, bytes < 10 * 1024 ? 1 : 0) + " KB";
  return fixed(bytes / (1024.0 * 1024.0), 1) + " MB";
}

std::string progressLine(const CompileJobReport &job) {
  std::string line = "[" + std::to_string(job.done) + "/" + std::to_string(job.total) + "] " +
                     job.unit + " " + job.arch + " " + fixed(job.seconds, 1) + " s";
  if (!job.ok)
    line += " FAILED";
  else if (job.cached)
    line += " (cached)";
  return line;
}

std::string summaryLine(const RunSummary &s) {
  std::string line = "fuserc: " + count(s.fusions, "fusion") + ", " + count(s.kernels, "kernel") +
                     " (" + count(s.variants, "variant") + "), " + count(s.archs, "arch") + " (" +
                     std::to_string(s.compileJobs) + " compiled, " + std::to_string(s.cacheHits) +
                     " cached) in " + fixed(s.seconds, 1) + " s";
  if (s.files && !s.files->empty()) {
    line += ":";
    bool first = true;
    for (const auto &[name, bytes] : *s.files) {
      line += std::string(first ? " " : ", ") + name + " " + byteSize(bytes.size());
      first = false;
    }
  }
  return line;
}

std::string timeReport(const StageTimes &times, double totalSeconds) {
  size_t width = 5; // "total"
  for (const StageTime &t : times)
    width = std::max(width, t.step.size());
  std::string report = "fuserc: time report (wall-clock seconds; compiles may overlap)\n";
  auto row = [&](const std::string &step, double seconds) {
    report += "  " + step + std::string(width - step.size() + 2, ' ') + fixed(seconds, 3) + "\n";
  };
  for (const StageTime &t : times)
    row(t.step, t.seconds);
  row("total", totalSeconds);
  return report;
}

} // namespace fuserc
