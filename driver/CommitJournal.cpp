// Commit journals: their text, signature and checks (see CommitJournal.h).
#include "driver/CommitJournal.h"

#include "driver/Pipeline.h"
#include "support/Hmac.h"
#include "support/TemporaryFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

namespace fuserc {
namespace {

constexpr llvm::StringLiteral kHeader = "fuserc-journal-4\n";
constexpr llvm::StringLiteral kSignature = "hmac-sha256=";
constexpr llvm::StringLiteral kUnsigned = "unsigned";

// The output files of base name NAME: NAME + one of these, or libNAME.so.
// packaging/Packager.cpp names them; a commit of any other file is refused
// (writeFilesAtomically), so the two lists cannot drift apart unnoticed.
constexpr llvm::StringLiteral kOutputSuffixes[] = {".h", ".c", ".fatbin", ".manifest.json", ".cu"};

// "LENGTH:NAME", so that any byte may appear in a name.
std::string field(const std::string &s) { return std::to_string(s.size()) + ":" + s; }

// Reads a non-empty field off the front of `text`.
bool takeField(llvm::StringRef &text, std::string &out) {
  auto [length, rest] = text.split(':');
  size_t n = 0;
  if (length.getAsInteger(10, n) || n == 0 || rest.size() < n)
    return false;
  out = rest.take_front(n).str();
  text = rest.drop_front(n);
  return true;
}

// Reads a field off the front of `text`: a name without a path separator
// (which would escape the directory).
bool takeName(llvm::StringRef &text, std::string &out) {
  return takeField(text, out) && out.find('/') == std::string::npos && out != "." && out != "..";
}

// Reads "KEY=VALUE\n" off the front of `text`.
bool takeLine(llvm::StringRef &text, llvm::StringRef key, std::string &value) {
  if (!text.consume_front(key) || !text.consume_front("="))
    return false;
  auto [line, rest] = text.split('\n');
  if (line.size() == text.size())
    return false; // no newline
  value = line.str();
  text = rest;
  return true;
}

} // namespace

bool OutputSet::contains(llvm::StringRef fileName) const {
  if (kind == Kind::Dumps) {
    for (std::string_view stage : pipelineStages())
      for (const char *extension : {"txt", "dot"})
        if (fileName == dumpFileName(stage, extension))
          return true;
    return false;
  }
  if (name.empty())
    return false;
  if (fileName == "lib" + name + ".so")
    return true;
  for (llvm::StringRef suffix : kOutputSuffixes)
    if (fileName == name + suffix.str())
      return true;
  return false;
}

std::string OutputSet::describe() const {
  return kind == Kind::Dumps ? "the dumps" : "the outputs of '" + name + "'";
}

std::string journalDirectory(const std::string &dir) {
  llvm::SmallString<256> path;
  if (!llvm::sys::fs::real_path(dir, path))
    return std::string(path);
  path = dir;
  llvm::sys::fs::make_absolute(path);
  return std::string(path);
}

std::string encodeJournal(const Journal &journal, const std::string *secret) {
  std::string text(kHeader);
  text += "run=" + journal.run + "\n";
  text += journal.set.kind == OutputSet::Kind::Dumps
              ? "set=dumps\n"
              : "set=outputs:" + field(journal.set.name) + "\n";
  text += "dir=" + field(journal.directory) + "\n";
  for (const Rename &r : journal.renames)
    text += field(r.temp) + field(r.target) + " " + r.sha256 + "\n";
  return text + kSignature.str() + (secret ? hmacSha256Hex(*secret, text) : kUnsigned.str()) + "\n";
}

std::optional<Journal> decodeJournal(llvm::StringRef text, const std::string &secret,
                                     const std::string &directory, std::string &problem) {
  auto refuse = [&](std::string why) -> std::optional<Journal> {
    problem = std::move(why);
    return std::nullopt;
  };
  // The signature first: nothing of an unsigned text is read.
  size_t end = text.rfind(kSignature);
  if (!text.startswith(kHeader) || end == llvm::StringRef::npos || !text.endswith("\n"))
    return refuse("not a whole fuserc journal");
  llvm::StringRef signature = text.drop_front(end + kSignature.size()).drop_back();
  if (signature == kUnsigned)
    return refuse("it is unsigned (its run had no key to sign it with)");
  if (!equalInConstantTime(signature, hmacSha256Hex(secret, text.take_front(end))))
    return refuse("its signature does not verify with this user's key");

  text = text.take_front(end).drop_front(kHeader.size());
  Journal journal;
  std::string set;
  if (!takeLine(text, "run", journal.run) || !takeLine(text, "set", set))
    return refuse("a malformed header");
  llvm::StringRef setText(set);
  if (setText == "dumps")
    journal.set.kind = OutputSet::Kind::Dumps;
  else if (!setText.consume_front("outputs:") || !takeName(setText, journal.set.name) ||
           !setText.empty())
    return refuse("a malformed header");
  if (!text.consume_front("dir=") || !takeField(text, journal.directory) ||
      !text.consume_front("\n"))
    return refuse("a malformed header");
  if (journal.directory != directory)
    return refuse("it was written for the directory '" + journal.directory + "', not this one");
  while (!text.empty()) {
    Rename r;
    if (!takeName(text, r.temp) || !takeName(text, r.target) || !text.consume_front(" "))
      return refuse("a malformed entry");
    r.sha256 = text.take_front(64).str();
    text = text.drop_front(r.sha256.size());
    if (!text.consume_front("\n"))
      return refuse("a malformed entry");
    if (!journal.set.contains(r.target))
      return refuse("'" + r.target + "' is not one of " + journal.set.describe());
    if (!isTemporaryOf(r.temp, r.target, journal.run))
      return refuse("'" + r.temp + "' is not a temporary of '" + r.target + "' written by run " +
                    journal.run);
    journal.renames.push_back(std::move(r));
  }
  return journal;
}

} // namespace fuserc
