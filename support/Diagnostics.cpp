// Diagnostic printing over llvm::SourceMgr (see Diagnostics.h).
#include "support/Diagnostics.h"

#include "llvm/Support/WithColor.h"

#include <iterator>

namespace fuserc {

unsigned DiagnosticEngine::addBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer) {
  return sourceMgr_.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
}

llvm::StringRef DiagnosticEngine::addDerivedText(llvm::StringRef text,
                                                 std::vector<const char *> origins) {
  // Owned by the SourceMgr so that locations into it stay valid; it is
  // never printed itself.
  unsigned id = addBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "<derived>"));
  llvm::StringRef copy = sourceMgr_.getMemoryBuffer(id)->getBuffer();
  derived_.emplace(copy.begin(), DerivedText{copy, std::move(origins)});
  return copy;
}

llvm::SMLoc DiagnosticEngine::original(llvm::SMLoc loc) const {
  const char *p = loc.getPointer();
  // The text starting last at or before p is the only one that can hold it.
  auto it = derived_.upper_bound(p);
  if (it == derived_.begin())
    return loc;
  const DerivedText &d = std::prev(it)->second;
  if (p > d.text.end())
    return loc;
  size_t i = p - d.text.begin();
  return i < d.origins.size() ? llvm::SMLoc::getFromPointer(d.origins[i]) : loc;
}

unsigned DiagnosticEngine::lineNumber(llvm::SMLoc loc) const {
  llvm::SMLoc at = original(loc);
  if (!at.isValid() || !sourceMgr_.FindBufferContainingLoc(at))
    return 0;
  return sourceMgr_.getLineAndColumn(at).first;
}

void DiagnosticEngine::error(llvm::SMLoc loc, const llvm::Twine &message,
                             llvm::ArrayRef<llvm::SMRange> ranges) {
  ++errors_;
  if (!loc.isValid()) {
    error(message);
    --errors_;
    return;
  }
  std::vector<llvm::SMRange> mapped;
  for (const llvm::SMRange &r : ranges)
    mapped.emplace_back(original(r.Start), original(r.End));
  sourceMgr_.PrintMessage(os_, original(loc), llvm::SourceMgr::DK_Error, message, mapped,
                          /*FixIts=*/{}, /*ShowColors=*/false);
}

void DiagnosticEngine::note(llvm::SMLoc loc, const llvm::Twine &message) {
  if (!loc.isValid())
    return;
  sourceMgr_.PrintMessage(os_, original(loc), llvm::SourceMgr::DK_Note, message, {}, {},
                          /*ShowColors=*/false);
}

void DiagnosticEngine::error(const llvm::Twine &message) {
  ++errors_;
  os_ << "fuserc: error: " << message << "\n";
}

} // namespace fuserc
