// fuserc-tblgen: fuserc's TableGen backend driver (ops.td -> generated files).
#include "Emitters.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/TableGen/Main.h"

namespace {

enum class Action { GenOpTables, GenOpDocs };

llvm::cl::opt<Action> action(
    llvm::cl::desc("What to generate:"),
    llvm::cl::values(clEnumValN(Action::GenOpTables, "gen-op-tables",
                                "op kinds, rule enums, op info table, interpreter code"),
                     clEnumValN(Action::GenOpDocs, "gen-op-docs", "the op reference in Markdown")),
    llvm::cl::Required);

bool generate(llvm::raw_ostream &os, llvm::RecordKeeper &records) {
  switch (action) {
  case Action::GenOpTables:
    fuserc::tblgen::emitOpTables(records, os);
    return false;
  case Action::GenOpDocs:
    fuserc::tblgen::emitOpDocs(records, os);
    return false;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::ParseCommandLineOptions(argc, argv, "fuserc TableGen backend\n");
  return llvm::TableGenMain(argv[0], &generate);
}
