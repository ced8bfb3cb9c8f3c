// Diagnostic printing over llvm::SourceMgr (see Diagnostics.h).
#include "frontend/Diagnostics.h"

#include "llvm/Support/WithColor.h"

namespace fuserc {

unsigned DiagnosticEngine::addBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer) {
  return sourceMgr_.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
}

llvm::SMLoc DiagnosticEngine::locFor(unsigned bufferId, unsigned line, unsigned column) {
  return sourceMgr_.FindLocForLineAndColumn(bufferId, line, column);
}

void DiagnosticEngine::error(llvm::SMLoc loc, const llvm::Twine &message,
                             llvm::ArrayRef<llvm::SMRange> ranges) {
  ++errors_;
  if (!loc.isValid()) {
    error(message);
    --errors_;
    return;
  }
  sourceMgr_.PrintMessage(os_, loc, llvm::SourceMgr::DK_Error, message, ranges,
                          /*FixIts=*/{}, /*ShowColors=*/false);
}

void DiagnosticEngine::note(llvm::SMLoc loc, const llvm::Twine &message) {
  if (!loc.isValid())
    return;
  sourceMgr_.PrintMessage(os_, loc, llvm::SourceMgr::DK_Note, message, {}, {},
                          /*ShowColors=*/false);
}

void DiagnosticEngine::error(const llvm::Twine &message) {
  ++errors_;
  os_ << "fuserc: error: " << message << "\n";
}

} // namespace fuserc
