// fuserc: the command-line entry point.
#include "cli/Options.h"
#include "driver/Compiler.h"

#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <cstdio>
#include <cstdlib>

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
  // A plugin's code ran here, and at exit its static destructors and those
  // of the schedulers it registered would run: a damaged library that
  // loaded can still crash there (the child process that probed it never
  // reached its exit). Every output is written and closed: end without them.
  if (!cmd.options->plugins.empty()) {
    llvm::outs().flush();
    llvm::errs().flush();
    std::fflush(nullptr);
    std::_Exit(exitCode);
  }
  return exitCode;
}
