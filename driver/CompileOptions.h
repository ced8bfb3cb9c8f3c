// Every option of a fuserc run, in one struct that travels from the command
// line through the pipeline (no global state).
#pragma once

#include "ir/Extent.h"
#include "schedulers/KernelGenerator.h"
#include "support/Diagnostics.h"

#include <optional>
#include <string>
#include <vector>

namespace fuserc {

struct CompileOptions {
  std::vector<std::string> inputs;
  std::optional<std::string> outputDir; // -o; absent: check and dump only
  std::string name;                     // base name of the outputs
  std::vector<std::string> archs{"sm_80", "sm_90"};
  std::vector<std::string> emit{"header", "source", "fatbin", "manifest"};
  std::vector<std::string> dumpStages; // pipeline stage names, in pipeline order
  std::optional<std::string> dumpDir;
  std::string dumpFormat = "text";     // --dump-format: text, or dot (the segments dump only)
  SymbolBindings shapes;               // --shape SYM=N
  std::vector<std::string> schedulers; // --schedulers: names, in priority order
  std::vector<std::string> plugins;    // --plugin: shared libraries, in load order
  unsigned jobs = 0;                   // -j; 0: one per core
  std::optional<std::string> cacheDir;
  bool noCache = false;
  std::optional<std::string> depfile;
  bool verbose = false;
  // One line per finished compile and a summary on stderr: Auto shows them
  // when stderr is a terminal, as build tools do.
  enum class Progress { Auto, Always, Never } progress = Progress::Auto;
  bool timeReport = false;                         // --time-report: each step's time on stderr
  VariantBudget variants = VariantBudget::Default; // --variants
  WarningOptions warnings;                         // -Werror, -Wno-NAME, ...
};

} // namespace fuserc
