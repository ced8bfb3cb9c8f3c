// Reading fusion files into a Module (see Frontend.h).
#include "frontend/Frontend.h"

#include "frontend/FusionBuilder.h"
#include "frontend/Parser.h"
#include "frontend/YamlLoader.h"
#include "ir/Limits.h"
#include "support/FileBytes.h"

#include "llvm/Support/MemoryBuffer.h"

namespace fuserc {
namespace {

bool loadBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer, DiagnosticEngine &diag,
                Module &module) {
  bool yaml = isYamlPath(buffer->getBufferIdentifier());
  unsigned id = diag.addBuffer(std::move(buffer));
  llvm::StringRef text = diag.sourceMgr().getMemoryBuffer(id)->getBuffer();
  std::optional<std::vector<ast::Fusion>> fusions =
      yaml ? parseFusionYaml(id, diag) : parseFusionText(text, diag);
  if (!fusions)
    return false;
  if (fusions->empty()) {
    diag.error(llvm::SMLoc::getFromPointer(text.begin()),
               yaml ? "no fusion in this file"
                    : "no fusion in this file; expected 'fusion NAME { ... }'");
    return false;
  }
  return buildFusions(*fusions, diag, module);
}

} // namespace

bool isYamlPath(std::string_view path) { return path.ends_with(".yaml") || path.ends_with(".yml"); }

bool loadFusionFiles(std::span<const std::string> paths, DiagnosticEngine &diag, Module &module) {
  bool ok = true;
  for (const std::string &path : paths) {
    // A regular file of bounded size: /dev/zero, /dev/urandom or a FIFO
    // would otherwise be read forever, or wait forever.
    std::string why;
    std::optional<std::string> text = readFileBytes(path, limits::kMaxInputFileBytes, &why);
    if (!text) {
      diag.error("cannot read '" + path + "': " + why);
      ok = false;
      continue;
    }
    ok &= loadBuffer(llvm::MemoryBuffer::getMemBufferCopy(*text, path), diag, module);
  }
  return ok;
}

bool loadFusionSource(std::string_view name, std::string_view text, DiagnosticEngine &diag,
                      Module &module) {
  return loadBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, name), diag, module);
}

} // namespace fuserc
