// The command line of fuserc (docs/command-line.md), parsed with CLI11 into a
// CompileOptions.
#pragma once

#include "driver/CompileOptions.h"

#include <optional>

namespace fuserc {

struct ParsedCommandLine {
  std::optional<CompileOptions> options; // absent: exit with `exitCode`
  int exitCode = 0;
};

// Parses and validates argv; prints help, version or usage errors itself.
ParsedCommandLine parseCommandLine(int argc, char **argv);

} // namespace fuserc
