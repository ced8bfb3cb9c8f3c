// fuserc's exit codes (docs/command-line.md, "Exit codes"; a contract).
#pragma once

namespace fuserc {

enum ExitCode : int {
  kExitSuccess = 0,
  kExitInputError = 1,    // errors in the input; diagnostics were printed
  kExitUsageError = 2,    // bad command line
  kExitInternalError = 3, // toolchain or internal error
};

} // namespace fuserc
