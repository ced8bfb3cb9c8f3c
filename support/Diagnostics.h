// Diagnostics: clang-style `file:line:col: error: message` with the source
// line and a caret, through llvm::SourceMgr. Every frontend error and every
// later user-facing error about the input goes through one engine.
#pragma once

#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fuserc {

// The warnings fuserc reports, by flag name (`-Wunused-input`); all are on
// by default.
std::span<const std::string_view> warningNames();

// What the -W options asked for, applied in command-line order.
struct WarningOptions {
  bool allAsErrors = false;                         // -Werror
  std::map<std::string, bool, std::less<>> enabled; // -Wname / -Wno-name
  std::map<std::string, bool, std::less<>> asError; // -Werror=name / -Wno-error=name

  // Applies one option (after the "-W"): "error", "no-NAME", "NAME",
  // "error=NAME", "no-error=NAME". Returns an error message for an unknown
  // option or warning name, else "".
  std::string apply(std::string_view option);
};

class DiagnosticEngine {
public:
  explicit DiagnosticEngine(llvm::raw_ostream &os, WarningOptions warnings = {})
      : os_(os), warnings_(std::move(warnings)) {}

  llvm::SourceMgr &sourceMgr() { return sourceMgr_; }
  // Registers a buffer; its identifier (the path as the user gave it) is the
  // file name in diagnostics. Returns the buffer ID.
  unsigned addBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer);
  // Registers text derived from a source buffer so that it can be lexed:
  // a multi-line or escaped YAML scalar, folded and unescaped. `origins[i]`
  // is where byte i of `text` was written, with one more entry for the end.
  // Diagnostics at locations in the returned text are reported at their
  // origins, so they name the real file, line and column.
  llvm::StringRef addDerivedText(llvm::StringRef text, std::vector<const char *> origins);

  void error(llvm::SMLoc loc, const llvm::Twine &message,
             llvm::ArrayRef<llvm::SMRange> ranges = {});
  // A warning of the group `flag` (one of warningNames()): dropped when
  // disabled, reported as an error under -Werror.
  void warning(llvm::SMLoc loc, const llvm::Twine &message, std::string_view flag);
  void note(llvm::SMLoc loc, const llvm::Twine &message);
  // An error that belongs to no source location (e.g. an unreadable file).
  void error(const llvm::Twine &message);

  // The 1-based line where `loc` was written (derived text maps to its
  // origin), for messages that refer to another location; 0 if unknown.
  unsigned lineNumber(llvm::SMLoc loc) const;

  unsigned errorCount() const { return errors_; }
  unsigned warningCount() const { return warningCount_; }
  bool hadError() const { return errors_ != 0; }
  // "1 warning and 2 errors generated.", as clang says it; "" when neither.
  std::string summary() const;

private:
  // A location in derived text mapped to where it was written.
  llvm::SMLoc original(llvm::SMLoc loc) const;

  struct DerivedText {
    llvm::StringRef text;
    std::vector<const char *> origins;
  };

  llvm::raw_ostream &os_;
  llvm::SourceMgr sourceMgr_;
  // By where each text starts, so that a location is mapped in log time: a
  // YAML file may hold thousands of derived texts, each with an error.
  std::map<const char *, DerivedText> derived_;
  WarningOptions warnings_;
  unsigned errors_ = 0;
  unsigned warningCount_ = 0;
};

} // namespace fuserc
