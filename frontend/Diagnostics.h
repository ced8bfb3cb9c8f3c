// Diagnostics: clang-style `file:line:col: error: message` with the source
// line and a caret, through llvm::SourceMgr. Every frontend error and every
// later user-facing error about the input goes through one engine.
#pragma once

#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace fuserc {

class DiagnosticEngine {
public:
  explicit DiagnosticEngine(llvm::raw_ostream &os) : os_(os) {}

  llvm::SourceMgr &sourceMgr() { return sourceMgr_; }
  // Registers a buffer; its identifier (the path as the user gave it) is the
  // file name in diagnostics. Returns the buffer ID.
  unsigned addBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer);
  // The location of 1-based (line, column) in a buffer.
  llvm::SMLoc locFor(unsigned bufferId, unsigned line, unsigned column);

  void error(llvm::SMLoc loc, const llvm::Twine &message,
             llvm::ArrayRef<llvm::SMRange> ranges = {});
  void note(llvm::SMLoc loc, const llvm::Twine &message);
  // An error that belongs to no source location (e.g. an unreadable file).
  void error(const llvm::Twine &message);

  unsigned errorCount() const { return errors_; }
  bool hadError() const { return errors_ != 0; }

private:
  llvm::raw_ostream &os_;
  llvm::SourceMgr sourceMgr_;
  unsigned errors_ = 0;
};

} // namespace fuserc
