// All-or-nothing output writing through a commit journal (see OutputFiles.h).
#include "driver/OutputFiles.h"

#include "support/FileBytes.h"
#include "support/TemporaryFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <optional>
#include <vector>

namespace fuserc {
namespace {

constexpr llvm::StringLiteral kJournalPrefix = ".fuserc-journal-";
constexpr llvm::StringLiteral kJournalHeader = "fuserc-journal-1\n";

// A journal lists a few renames; a larger file (or a FIFO) is not read.
constexpr uint64_t kMaxJournalBytes = 1 << 20;

struct Rename {
  std::string temp;   // file name of the temporary, in the same directory
  std::string target; // file name of the output
};

std::string pathIn(const std::string &dir, llvm::StringRef name) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, name);
  return std::string(path);
}

// The journal: a header line, then per rename the two names, each as
// "LENGTH:NAME" so that any byte may appear in a name.
std::string encodeJournal(const std::vector<Rename> &renames) {
  std::string text(kJournalHeader);
  for (const Rename &r : renames)
    text += std::to_string(r.temp.size()) + ":" + r.temp + std::to_string(r.target.size()) + ":" +
            r.target + "\n";
  return text;
}

std::optional<std::vector<Rename>> decodeJournal(llvm::StringRef text) {
  if (!text.consume_front(kJournalHeader))
    return std::nullopt;
  auto name = [&](std::string &out) {
    auto [length, rest] = text.split(':');
    size_t n = 0;
    if (length.getAsInteger(10, n) || n == 0 || rest.size() < n)
      return false;
    out = rest.take_front(n).str();
    text = rest.drop_front(n);
    // A name with a path separator would escape the directory.
    return out.find('/') == std::string::npos && out != "." && out != "..";
  };
  std::vector<Rename> renames;
  while (!text.empty()) {
    Rename r;
    if (!name(r.temp) || !name(r.target) || !text.consume_front("\n"))
      return std::nullopt;
    renames.push_back(std::move(r));
  }
  return renames;
}

// Renames the journal's temporaries over their targets. A temporary that is
// gone was renamed already (by the writer or another recovering run).
bool applyRenames(const std::string &dir, const std::vector<Rename> &renames, std::string &error) {
  // Test hook: SIGKILL after this many renames, to exercise recovery from a
  // run killed inside the commit (tests/lit/output/kill-*.test).
  static const long killAfter = [] {
    const char *v = std::getenv("FUSERC_TEST_KILL_AFTER_RENAMES");
    return v ? std::atol(v) : -1;
  }();
  long done = 0;
  for (const Rename &r : renames) {
    if (killAfter >= 0 && done++ == killAfter)
      std::raise(SIGKILL);
    std::string temp = pathIn(dir, r.temp);
    if (std::error_code ec = llvm::sys::fs::rename(temp, pathIn(dir, r.target));
        ec && llvm::sys::fs::exists(temp)) {
      error = "cannot rename '" + temp + "' to '" + pathIn(dir, r.target) + "': " + ec.message();
      return false;
    }
  }
  return true;
}

} // namespace

std::vector<std::string> recoverInterruptedCommits(const std::string &dir) {
  std::vector<std::string> finished;
  std::vector<std::string> journals;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    if (name.startswith(kJournalPrefix) && !isTemporaryName(name.str()))
      journals.push_back(it->path());
  }
  std::sort(journals.begin(), journals.end());
  for (const std::string &journal : journals) {
    std::optional<std::string> text = readFileBytes(journal, kMaxJournalBytes);
    if (!text)
      continue;
    std::optional<std::vector<Rename>> renames = decodeJournal(*text);
    std::string error;
    if (renames && applyRenames(dir, *renames, error))
      for (const Rename &r : *renames)
        finished.push_back(r.target);
    // An unreadable journal cannot be finished; dropping it leaves the
    // targets as they are, each one complete.
    llvm::sys::fs::remove(journal);
  }
  removeOrphanedTemporaries(dir);
  return finished;
}

bool writeFilesAtomically(const std::string &dir, const std::map<std::string, std::string> &files,
                          std::string &error) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    error = "cannot create '" + dir + "': " + ec.message();
    return false;
  }
  if (files.empty())
    return true;
  recoverInterruptedCommits(dir);
  std::vector<Rename> renames;
  auto discard = [&] {
    for (const Rename &r : renames)
      llvm::sys::fs::remove(pathIn(dir, r.temp));
  };
  for (const auto &[name, bytes] : files) {
    std::string temp;
    if (!writeTemporaryBeside(pathIn(dir, name), bytes, temp, error)) {
      discard();
      return false;
    }
    renames.push_back({std::string(llvm::sys::path::filename(temp)), name});
  }
  const std::string journal = pathIn(dir, kJournalPrefix.str() + files.begin()->first);
  if (!writeFileAtomically(journal, encodeJournal(renames), error)) {
    discard();
    return false;
  }
  // Committed: from here on the new outputs win, even if this run dies.
  bool ok = applyRenames(dir, renames, error);
  llvm::sys::fs::remove(journal);
  if (!ok)
    discard();
  return ok;
}

} // namespace fuserc
