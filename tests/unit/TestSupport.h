// Helpers shared by unit tests: loading fusions from source text and
// printing IR to strings.
#pragma once

#include "frontend/Frontend.h"
#include "ir/Printer.h"

#include <string>

namespace fuserc::test {

struct Loaded {
  bool ok = false;
  Module module;
  std::string diagnostics;
};

// Loads `text` as the file `name` (".yaml" selects the YAML form).
inline Loaded load(std::string_view text, std::string_view name = "test.fus",
                   WarningOptions warnings = {}) {
  Loaded result;
  llvm::raw_string_ostream os(result.diagnostics);
  DiagnosticEngine diag(os, std::move(warnings));
  result.ok = loadFusionSource(name, text, diag, result.module);
  os.flush();
  return result;
}

inline std::string print(const Module &module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printModule(module, os);
  return os.str();
}

} // namespace fuserc::test
