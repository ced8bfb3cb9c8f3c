// All-or-nothing output writing through a commit journal (see OutputFiles.h).
#include "driver/OutputFiles.h"

#include "driver/CommitJournal.h"
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

// A journal lists a few renames; a larger file (or a FIFO) is not read.
constexpr uint64_t kMaxJournalBytes = 1 << 20;
// A temporary is an output file; checking one reads at most this much.
constexpr uint64_t kMaxOutputBytes = uint64_t{4} << 30;

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
std::vector<std::string> recoverLocked(const std::string &dir, JournalKey &key,
                                       std::vector<std::string> &warnings) {
  std::vector<std::string> finished;
  std::vector<std::string> journals;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    if (name.startswith(kJournalPrefix) && !isTemporaryName(name.str()))
      journals.push_back(it->path());
  }
  std::sort(journals.begin(), journals.end());
  const std::string directory = journalDirectory(dir);
  for (const std::string &path : journals) {
    std::string problem;
    std::optional<std::string> text = readFileBytes(path, kMaxJournalBytes, &problem);
    std::optional<Journal> journal;
    if (text && !key.secret())
      problem = "it cannot be verified: " + key.problem();
    else if (text)
      journal = decodeJournal(*text, *key.secret(), directory, problem);
    size_t done = 0;
    if (journal && journalMatchesFiles(dir, journal->renames, problem) &&
        applyRenames(dir, journal->renames, done, problem))
      for (const Rename &r : journal->renames)
        finished.push_back(r.target);
    else
      // Never obeyed: dropping it leaves the targets as they are, each one
      // complete.
      warnings.push_back("ignored the commit journal '" + path + "': " + problem);
    llvm::sys::fs::remove(path);
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

std::vector<std::string> recoverInterruptedCommits(const std::string &dir, JournalKey &key,
                                                   std::vector<std::string> &warnings) {
  DirectoryLock lock(dir);
  if (!lock.error().empty())
    return {};
  return recoverLocked(dir, key, warnings);
}

bool writeFilesAtomically(const std::string &dir, const OutputSet &set,
                          const std::map<std::string, std::string> &files, JournalKey &key,
                          std::string &error, std::vector<std::string> *warnings) {
  for (const auto &[name, bytes] : files)
    if (!set.contains(name)) {
      error = "internal: '" + name + "' is not one of " + set.describe();
      return false;
    }
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
  recoverLocked(dir, key, warnings ? *warnings : ignored);
  // Without a key the journal goes unsigned: a run killed inside this
  // commit leaves a mixed set that the next run reports but cannot finish.
  if (key.firstUnusable())
    (warnings ? *warnings : ignored)
        .push_back(
            key.problem() +
            "; commits go unsigned, so one killed midway cannot be finished by the next run");
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
  Journal journal{runId(), set, {}, journalDirectory(dir)};
  std::vector<Rename> &renames = journal.renames;
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
  const std::string journalPath = pathIn(dir, kJournalPrefix.str() + files.begin()->first);
  if (!writeFileAtomically(journalPath, encodeJournal(journal, key.secret()), error)) {
    discard();
    return false;
  }
  // Committed: from here on the new outputs win, even if this run dies.
  size_t done = 0;
  if (applyRenames(dir, renames, done, error)) {
    llvm::sys::fs::remove(journalPath);
    discard();
    return true;
  }
  // A rename failed (an immutable target, say): put back what the renames
  // replaced, so that the previous set stays whole.
  llvm::sys::fs::remove(journalPath);
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
