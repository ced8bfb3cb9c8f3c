// fuserc: the command-line entry point.
#include "cli/Options.h"
#include "driver/Compiler.h"

#include "llvm/Support/thread.h"

namespace {

// The compiler runs on a thread with a large stack. Every recursion in it is
// bounded by a checked limit (ir/Limits.h, docs/limits.md): consumer-first
// code generation recurses once per op along a chain of up to 2,000 ops,
// composite ops decompose into several, and sanitizer builds have much
// larger frames than the 8 MiB main-thread default allows for. The stack is
// only reserved; pages are committed as they are touched.
constexpr unsigned kCompilerStackBytes = 512u << 20;

} // namespace

int main(int argc, char **argv) {
  fuserc::ParsedCommandLine cmd = fuserc::parseCommandLine(argc, argv);
  if (!cmd.options)
    return cmd.exitCode;
  int exitCode = 0;
  // The stack size as an Optional: a plain unsigned would be taken for the
  // thread function by llvm::thread's variadic constructor.
  llvm::thread compiler(llvm::Optional<unsigned>(kCompilerStackBytes),
                        [&] { exitCode = fuserc::runCompiler(*cmd.options); });
  compiler.join();
  return exitCode;
}
