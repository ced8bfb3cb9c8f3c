// The fuserc driver (see Driver.h).
#include "cli/Driver.h"

#include "cli/ExitCodes.h"
#include "frontend/Frontend.h"
#include "passes/Pipeline.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>

namespace fuserc {
namespace {

// Writes `text` to `path` through a temporary file and a rename, so a
// reader never sees a half-written file.
bool writeFileAtomically(const std::string &path, const std::string &text, std::string &error) {
  std::string temp = path + ".tmp";
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(temp, ec);
    if (ec) {
      error = "cannot write '" + temp + "': " + ec.message();
      return false;
    }
    os << text;
    os.close();
    if (os.has_error()) {
      error = "cannot write '" + temp + "': " + os.error().message();
      os.clear_error();
      return false;
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temp, path)) {
    error = "cannot rename '" + temp + "' to '" + path + "': " + ec.message();
    return false;
  }
  return true;
}

bool writeDumps(const std::vector<Dump> &dumps, const CompileOptions &options) {
  if (!options.dumpDir) {
    for (const Dump &d : dumps)
      llvm::errs() << "// ---- dump: " << d.stage << " ----\n" << d.text;
    return true;
  }
  if (dumps.empty())
    return true;
  if (std::error_code ec = llvm::sys::fs::create_directories(*options.dumpDir)) {
    llvm::errs() << "fuserc: error: cannot create '" << *options.dumpDir << "': " << ec.message()
                 << "\n";
    return false;
  }
  for (const Dump &d : dumps) {
    char prefix[8];
    std::snprintf(prefix, sizeof prefix, "%02d-", stageNumber(d.stage));
    llvm::SmallString<256> path(*options.dumpDir);
    llvm::sys::path::append(path, prefix + d.stage + ".txt");
    std::string error;
    if (!writeFileAtomically(std::string(path), d.text, error)) {
      llvm::errs() << "fuserc: error: " << error << "\n";
      return false;
    }
  }
  return true;
}

std::string allSymbols(const Module &module) {
  std::string s;
  for (const auto &f : module.fusions)
    for (const std::string &sym : f->symbols())
      s += (s.empty() ? "" : ", ") + sym;
  return s.empty() ? "none" : s;
}

void printErrorCount(const DiagnosticEngine &diag) {
  llvm::errs() << diag.errorCount() << " error" << (diag.errorCount() == 1 ? "" : "s")
               << " generated.\n";
}

} // namespace

int runCompiler(const CompileOptions &options) {
  DiagnosticEngine diag(llvm::errs());
  Module module;
  if (!loadFusionFiles(options.inputs, diag, module)) {
    printErrorCount(diag);
    return kExitInputError;
  }
  for (const auto &[sym, value] : options.shapes) {
    bool known = false;
    for (const auto &f : module.fusions) {
      std::vector<std::string> syms = f->symbols();
      known |= std::find(syms.begin(), syms.end(), sym) != syms.end();
    }
    if (!known) {
      llvm::errs() << "fuserc: error: --shape: '" << sym
                   << "' is not a symbolic extent of any fusion (symbols: " << allSymbols(module)
                   << ")\n";
      return kExitUsageError;
    }
  }
  if (options.verbose)
    llvm::errs() << "fuserc: loaded " << module.fusions.size() << " fusion(s) from "
                 << options.inputs.size() << " file(s)\n";

  PipelineResult result = runPipeline(module, options, diag);
  if (result.status == PipelineResult::Status::InputError) {
    printErrorCount(diag);
    return kExitInputError;
  }
  if (result.status == PipelineResult::Status::InternalError) {
    llvm::errs() << "fuserc: internal error: " << result.message << "\n";
    return kExitInternalError;
  }
  if (!writeDumps(result.dumps, options))
    return kExitInternalError;
  return kExitSuccess;
}

} // namespace fuserc
