// Wall-clock times of a run's steps (parsing, each pass, each NVRTC compile,
// packaging, writing), collected for `--time-report` and the progress
// summary. Only stderr ever shows them: no output file depends on a time.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace fuserc {

struct StageTime {
  std::string step;   // "parse", "pass: canonicalize", "nvrtc: sm_90", ...
  double seconds = 0; // wall-clock
};
using StageTimes = std::vector<StageTime>;

// Seconds since construction or the last lap.
class Stopwatch {
public:
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  // The seconds since the last lap (or construction), restarting the count.
  double lap() {
    auto now = std::chrono::steady_clock::now();
    double s = std::chrono::duration<double>(now - start_).count();
    start_ = now;
    return s;
  }

private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

} // namespace fuserc
