// What the frontend fuzzers share: loading fuzz bytes as one source file.
#pragma once

#include "frontend/Frontend.h"
#include "ir/Verifier.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace fuserc::fuzz {

// Loads `data` as a file called `name` (the extension picks the frontend).
// Diagnostics go nowhere: only crashes, sanitizer reports and hangs count.
// A fusion the frontend accepts must verify, or the frontend built bad IR.
inline void loadAsFile(std::string_view name, const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  DiagnosticEngine diag(llvm::nulls());
  Module module;
  if (!loadFusionSource(name, text, diag, module))
    return;
  for (const auto &fusion : module.fusions)
    if (!verifyFusion(*fusion).empty())
      std::abort();
}

} // namespace fuserc::fuzz
