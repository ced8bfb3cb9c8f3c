// All-or-nothing output writing through a commit journal (see OutputFiles.h).
#include "driver/OutputFiles.h"

#include "support/FileBytes.h"
#include "support/TemporaryFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <sys/file.h>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace fuserc {
namespace {

constexpr llvm::StringLiteral kJournalPrefix = ".fuserc-journal-";
constexpr llvm::StringLiteral kJournalHeader = "fuserc-journal-2\n";
constexpr llvm::StringLiteral kJournalEnd = "sha256=";

// A journal lists a few renames; a larger file (or a FIFO) is not read.
constexpr uint64_t kMaxJournalBytes = 1 << 20;
// A temporary is an output file; checking one reads at most this much.
constexpr uint64_t kMaxOutputBytes = uint64_t{4} << 30;

struct Rename {
  std::string temp;   // file name of the temporary, in the same directory
  std::string target; // file name of the output
  std::string sha256; // of the temporary's bytes
};

std::string pathIn(const std::string &dir, llvm::StringRef name) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, name);
  return std::string(path);
}

std::string sha256Hex(llvm::StringRef bytes) {
  llvm::SHA256 hash;
  hash.update(bytes);
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

// The exclusive lock on an output directory (flock on the directory
// itself), held from recovery to the end of a commit: concurrent runs into
// one directory commit one after the other, never interleaved.
class DirectoryLock {
public:
  explicit DirectoryLock(const std::string &dir)
      : fd_(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
    if (fd_ < 0) {
      error_ = std::strerror(errno);
      return;
    }
    while (::flock(fd_, LOCK_EX) != 0) {
      if (errno == EINTR)
        continue;
      // A file system without locks (some network and FUSE ones): the
      // commit still goes through, unserialized, as before locks.
      if (errno != ENOLCK && errno != EOPNOTSUPP && errno != ENOSYS)
        error_ = std::strerror(errno);
      break;
    }
  }
  ~DirectoryLock() {
    if (fd_ >= 0)
      ::close(fd_); // releases the lock
  }
  DirectoryLock(const DirectoryLock &) = delete;
  DirectoryLock &operator=(const DirectoryLock &) = delete;
  // Empty when the lock is held.
  const std::string &error() const { return error_; }

private:
  int fd_;
  std::string error_;
};

// The journal: a header line, then per rename the two names, each as
// "LENGTH:NAME" so that any byte may appear in a name, and the SHA-256 of
// the temporary's bytes; last, the SHA-256 of everything before it.
std::string encodeJournal(const std::vector<Rename> &renames) {
  std::string text(kJournalHeader);
  for (const Rename &r : renames)
    text += std::to_string(r.temp.size()) + ":" + r.temp + std::to_string(r.target.size()) + ":" +
            r.target + " " + r.sha256 + "\n";
  return text + kJournalEnd.str() + sha256Hex(text) + "\n";
}

// The renames of a journal this fuserc wrote, or why it is not one: every
// temporary is a fuserc temporary of its own target (so a journal never
// renames other files), and the journal is whole.
std::optional<std::vector<Rename>> decodeJournal(llvm::StringRef text, std::string &problem) {
  size_t end = text.rfind(kJournalEnd);
  if (!text.startswith(kJournalHeader) || end == llvm::StringRef::npos ||
      text.drop_front(end) != (kJournalEnd + sha256Hex(text.take_front(end)) + "\n").str()) {
    problem = "not a whole fuserc journal";
    return std::nullopt;
  }
  text = text.take_front(end).drop_front(kJournalHeader.size());
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
    if (!name(r.temp) || !name(r.target) || !text.consume_front(" ")) {
      problem = "a malformed entry";
      return std::nullopt;
    }
    r.sha256 = text.take_front(64).str();
    text = text.drop_front(r.sha256.size());
    if (!text.consume_front("\n")) {
      problem = "a malformed entry";
      return std::nullopt;
    }
    if (!isTemporaryOf(r.temp, r.target)) {
      problem = "'" + r.temp + "' is not a temporary of '" + r.target + "'";
      return std::nullopt;
    }
    renames.push_back(std::move(r));
  }
  return renames;
}

// A rename still to do has its temporary with the bytes the journal
// records; one done already has them in its target.
bool journalMatchesFiles(const std::string &dir, const std::vector<Rename> &renames,
                         std::string &problem) {
  for (const Rename &r : renames) {
    std::optional<std::string> bytes = readFileBytes(pathIn(dir, r.temp), kMaxOutputBytes);
    if (!bytes)
      bytes = readFileBytes(pathIn(dir, r.target), kMaxOutputBytes);
    if (!bytes || sha256Hex(*bytes) != r.sha256) {
      problem = "'" + r.target + "' is not the file it records";
      return false;
    }
  }
  return true;
}

// Renames the journal's temporaries over their targets. A temporary that is
// gone was renamed already (by the writer or a recovering run). On failure,
// `done` is how many renames were made.
bool applyRenames(const std::string &dir, const std::vector<Rename> &renames, size_t &done,
                  std::string &error) {
  // Test hooks: SIGKILL after this many renames, to exercise recovery from a
  // run killed inside the commit (tests/lit/output/kill-*.test), or fail
  // that rename, to exercise the rollback (commit-rollback.test).
  static const long killAfter = [] {
    const char *v = std::getenv("FUSERC_TEST_KILL_AFTER_RENAMES");
    return v ? std::atol(v) : -1;
  }();
  static const long failAt = [] {
    const char *v = std::getenv("FUSERC_TEST_FAIL_RENAME");
    return v ? std::atol(v) : -1;
  }();
  for (done = 0; done < renames.size(); ++done) {
    const Rename &r = renames[done];
    if (killAfter >= 0 && static_cast<long>(done) == killAfter)
      std::raise(SIGKILL);
    std::string temp = pathIn(dir, r.temp);
    std::error_code ec;
    if (failAt >= 0 && static_cast<long>(done) == failAt)
      ec = std::make_error_code(std::errc::operation_not_permitted);
    else
      ec = llvm::sys::fs::rename(temp, pathIn(dir, r.target));
    if (ec && llvm::sys::fs::exists(temp)) {
      error = "cannot rename '" + temp + "' to '" + pathIn(dir, r.target) + "': " + ec.message();
      return false;
    }
  }
  return true;
}

// recoverInterruptedCommits, with the directory's lock held.
std::vector<std::string> recoverLocked(const std::string &dir, std::vector<std::string> &warnings) {
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
    std::string problem;
    std::optional<std::string> text = readFileBytes(journal, kMaxJournalBytes, &problem);
    std::optional<std::vector<Rename>> renames;
    if (text)
      renames = decodeJournal(*text, problem);
    size_t done = 0;
    if (renames && journalMatchesFiles(dir, *renames, problem) &&
        applyRenames(dir, *renames, done, problem))
      for (const Rename &r : *renames)
        finished.push_back(r.target);
    else
      // Never obeyed: dropping it leaves the targets as they are, each one
      // complete.
      warnings.push_back("ignored the commit journal '" + journal + "': " + problem);
    llvm::sys::fs::remove(journal);
  }
  removeOrphanedTemporaries(dir);
  return finished;
}

// Why `target` cannot be replaced by a rename, or empty.
std::string unreplaceable(const std::string &target) {
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(target, status, /*Follow=*/false))
    return ""; // absent
  if (status.type() == llvm::sys::fs::file_type::directory_file)
    return "cannot replace '" + target + "': it is a directory";
  return "";
}

} // namespace

std::vector<std::string> recoverInterruptedCommits(const std::string &dir,
                                                   std::vector<std::string> &warnings) {
  DirectoryLock lock(dir);
  if (!lock.error().empty())
    return {};
  return recoverLocked(dir, warnings);
}

bool writeFilesAtomically(const std::string &dir, const std::map<std::string, std::string> &files,
                          std::string &error, std::vector<std::string> *warnings) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    error = "cannot create '" + dir + "': " + ec.message();
    return false;
  }
  if (files.empty())
    return true;
  DirectoryLock lock(dir);
  if (!lock.error().empty()) {
    error = "cannot lock '" + dir + "': " + lock.error();
    return false;
  }
  std::vector<std::string> ignored;
  recoverLocked(dir, warnings ? *warnings : ignored);
  // Every target must be replaceable before any is replaced.
  for (const auto &[name, bytes] : files)
    if (std::string why = unreplaceable(pathIn(dir, name)); !why.empty()) {
      error = why;
      return false;
    }
  // Per rename, what a rollback puts back: the previous target through a
  // second name (a hard link), or nothing when there was none.
  struct Previous {
    bool existed = false;
    std::string copy; // empty when it could not be kept
  };
  std::vector<Rename> renames;
  std::vector<Previous> kept;
  auto discard = [&] {
    for (const Rename &r : renames)
      llvm::sys::fs::remove(pathIn(dir, r.temp));
    for (const Previous &k : kept)
      if (!k.copy.empty())
        llvm::sys::fs::remove(k.copy);
  };
  for (const auto &[name, bytes] : files) {
    std::string temp;
    if (!writeTemporaryBeside(pathIn(dir, name), bytes, temp, error)) {
      discard();
      return false;
    }
    renames.push_back({std::string(llvm::sys::path::filename(temp)), name, sha256Hex(bytes)});
    // A second name for the previous file, for a rollback.
    Previous previous;
    std::string target = pathIn(dir, name), copy = pathIn(dir, keptCopyName(name));
    llvm::sys::fs::remove(copy);
    previous.existed = llvm::sys::fs::exists(target);
    if (previous.existed && !llvm::sys::fs::create_hard_link(target, copy))
      previous.copy = copy;
    kept.push_back(previous);
  }
  const std::string journal = pathIn(dir, kJournalPrefix.str() + files.begin()->first);
  if (!writeFileAtomically(journal, encodeJournal(renames), error)) {
    discard();
    return false;
  }
  // Committed: from here on the new outputs win, even if this run dies.
  size_t done = 0;
  if (applyRenames(dir, renames, done, error)) {
    llvm::sys::fs::remove(journal);
    discard();
    return true;
  }
  // A rename failed (an immutable target, say): put back what the renames
  // replaced, so that the previous set stays whole.
  llvm::sys::fs::remove(journal);
  for (size_t i = 0; i < done; ++i) {
    const std::string target = pathIn(dir, renames[i].target);
    if (!kept[i].existed)
      llvm::sys::fs::remove(target);
    else if (!kept[i].copy.empty() && !llvm::sys::fs::rename(kept[i].copy, target))
      kept[i].copy.clear();
  }
  discard();
  return false;
}

} // namespace fuserc
