// Finding and running the CUDA toolkit's command-line programs (fatbinary,
// ptxas): where they are, and one run with its error output captured.
#pragma once

#include <string>
#include <vector>

namespace fuserc {

// The toolkit's `name`: $envVariable when set, else the one in the CUDA
// bin directory found at build time, else `name` on PATH; empty when none
// exists.
std::string findToolkitProgram(const char *name, const char *envVariable);

// What identifies a program's build without running it (its path, size
// and modification time), for cache keys: another build gives other keys.
std::string programIdentity(const std::string &path);

struct ToolkitRun {
  bool ok = false;     // exited with status 0
  std::string error;   // when not ok: what failed, for people
  std::string errText; // everything the program wrote to stderr
};

// Runs `program` with `args` (args[0] is the program's name) writing its
// stderr to `stderrFile` (a path in the caller's temporary directory).
ToolkitRun runToolkitProgram(const std::string &program, const std::vector<std::string> &args,
                             const std::string &stderrFile);

} // namespace fuserc
