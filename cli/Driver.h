// The fuserc driver: loads the inputs, runs the pipeline, writes dumps.
#pragma once

#include "passes/CompileOptions.h"

namespace fuserc {

// Returns the process exit code (cli/ExitCodes.h).
int runCompiler(const CompileOptions &options);

} // namespace fuserc
