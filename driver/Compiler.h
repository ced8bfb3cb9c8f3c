// One fuserc run: loads plugins and the inputs, runs the pipeline, writes
// the dumps, then packages the module and commits its files.
#pragma once

#include "driver/CompileOptions.h"

namespace fuserc {

// Returns the process exit code (driver/ExitCodes.h).
int runCompiler(const CompileOptions &options);

} // namespace fuserc
