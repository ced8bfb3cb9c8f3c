// Diagnostic printing over llvm::SourceMgr (see Diagnostics.h).
#include "support/Diagnostics.h"

#include "llvm/Support/WithColor.h"

#include <algorithm>
#include <iterator>

namespace fuserc {

std::span<const std::string_view> warningNames() {
  static constexpr std::string_view kNames[] = {"unused-input"};
  return kNames;
}

std::string WarningOptions::apply(std::string_view option) {
  if (option == "error" || option == "no-error") {
    allAsErrors = option == "error";
    return "";
  }
  bool negated = option.starts_with("no-");
  if (negated)
    option.remove_prefix(3);
  bool error = option.starts_with("error=");
  if (error)
    option.remove_prefix(6);
  if (std::find(warningNames().begin(), warningNames().end(), option) == warningNames().end()) {
    std::string known;
    for (std::string_view n : warningNames())
      known += (known.empty() ? "" : ", ") + std::string(n);
    return "unknown warning '" + std::string(option) + "'; warnings are " + known;
  }
  (error ? asError : enabled)[std::string(option)] = !negated;
  return "";
}

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

void DiagnosticEngine::warning(llvm::SMLoc loc, const llvm::Twine &message, std::string_view flag) {
  if (auto on = warnings_.enabled.find(flag); on != warnings_.enabled.end() && !on->second)
    return;
  auto err = warnings_.asError.find(flag);
  const std::string name(flag);
  if (err != warnings_.asError.end() ? err->second : warnings_.allAsErrors) {
    error(loc, message + " [-Werror,-W" + name + "]");
    return;
  }
  ++warningCount_;
  std::string text = (message + " [-W" + name + "]").str();
  if (!loc.isValid()) {
    os_ << "fuserc: warning: " << text << "\n";
    return;
  }
  sourceMgr_.PrintMessage(os_, original(loc), llvm::SourceMgr::DK_Warning, text, {}, {},
                          /*ShowColors=*/false);
}

std::string DiagnosticEngine::summary() const {
  auto count = [](unsigned n, const char *what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
  };
  if (!errors_ && !warningCount_)
    return "";
  if (!warningCount_)
    return count(errors_, "error") + " generated.";
  if (!errors_)
    return count(warningCount_, "warning") + " generated.";
  return count(warningCount_, "warning") + " and " + count(errors_, "error") + " generated.";
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
