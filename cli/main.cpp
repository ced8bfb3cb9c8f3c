// fuserc: the command-line entry point.
#include "cli/Driver.h"
#include "cli/Options.h"

int main(int argc, char **argv) {
  fuserc::ParsedCommandLine cmd = fuserc::parseCommandLine(argc, argv);
  if (!cmd.options)
    return cmd.exitCode;
  return fuserc::runCompiler(*cmd.options);
}
