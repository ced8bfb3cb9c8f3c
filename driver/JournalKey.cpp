// The key that signs commit journals (see JournalKey.h).
#include "driver/JournalKey.h"

#include "packaging/CompileCache.h"
#include "support/RandomBytes.h"
#include "support/TemporaryFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fuserc {
namespace {

constexpr size_t kKeyBytes = 32;

// Writes all of `bytes` to `fd`; false with errno set.
bool writeAll(int fd, const std::string &bytes) {
  for (size_t done = 0; done < bytes.size();) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      errno = n < 0 ? errno : EIO;
      return false;
    }
    done += size_t(n);
  }
  return true;
}

} // namespace

JournalKey::JournalKey(std::string path, std::string problem)
    : path_(std::move(path)), problem_(std::move(problem)) {}

JournalKey JournalKey::forUser() {
  const std::string dir = defaultCacheDir();
  if (dir.empty())
    return JournalKey("", "no journal key: neither XDG_CACHE_HOME nor HOME is set");
  return JournalKey(dir + "/journal.key");
}

const std::string *JournalKey::secret() {
  if (!tried_ && configured()) {
    tried_ = true;
    // Missing: make one (or read the one a concurrent run made first).
    if (!read() && errno == ENOENT && create())
      read();
  }
  return secret_.empty() ? nullptr : &secret_;
}

bool JournalKey::firstUnusable() {
  if (reported_ || !configured() || secret())
    return false;
  reported_ = true;
  return true;
}

// Reads the key, checking on the open file (no race with a rename) that it
// is this user's own regular file of the right size. errno is ENOENT when
// there is no key yet.
bool JournalKey::read() {
  auto fail = [&](const std::string &why, int error = 0) {
    problem_ = "cannot use the journal key '" + path_ + "': " + why;
    errno = error;
    return false;
  };
  // O_NOFOLLOW: a link is refused; O_NONBLOCK: a FIFO is not waited on.
  int fd = ::open(path_.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    return fail(std::strerror(errno), errno);
  struct stat st;
  std::string why, bytes(kKeyBytes, '\0');
  if (::fstat(fd, &st) != 0)
    why = std::strerror(errno);
  else if (!S_ISREG(st.st_mode))
    why = "not a regular file";
  else if (st.st_uid != ::geteuid())
    why = "owned by another user";
  else if ((st.st_mode & 077) != 0)
    why = "other users may read or change it (it must have mode 0600)";
  else if (st.st_size != off_t(kKeyBytes))
    why = "not a key of " + std::to_string(kKeyBytes) + " bytes";
  for (size_t used = 0; why.empty() && used < kKeyBytes;) {
    ssize_t n = ::read(fd, bytes.data() + used, kKeyBytes - used);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      why = n < 0 ? std::strerror(errno) : "not a key of " + std::to_string(kKeyBytes) + " bytes";
    used += n > 0 ? size_t(n) : 0;
  }
  ::close(fd);
  if (!why.empty())
    return fail(why);
  secret_ = std::move(bytes);
  return true;
}

// Writes a new key to a temporary of mode 0600, then links it into place:
// the key appears whole or not at all, and of two runs creating it at once,
// both end up reading the first one linked.
bool JournalKey::create() {
  std::string why;
  std::optional<std::string> bytes = randomBytes(kKeyBytes, &why);
  if (!bytes) {
    problem_ = "cannot create the journal key '" + path_ + "': " + why;
    return false;
  }
  const std::string dir(llvm::sys::path::parent_path(path_));
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    problem_ = "cannot create the journal key '" + path_ + "': " + ec.message();
    return false;
  }
  int fd = -1;
  llvm::SmallString<256> temp;
  std::error_code ec = llvm::sys::fs::createUniqueFile(
      dir + "/.journal.key.fuserc-tmp-" + runId() + "-%%%%%%", fd, temp, llvm::sys::fs::OF_None,
      llvm::sys::fs::owner_read | llvm::sys::fs::owner_write);
  if (!ec) {
    if (!writeAll(fd, *bytes) || ::fsync(fd) != 0 ||
        (::link(temp.c_str(), path_.c_str()) != 0 && errno != EEXIST))
      ec = std::error_code(errno, std::generic_category());
    ::close(fd);
    ::unlink(temp.c_str());
  }
  if (ec) {
    problem_ = "cannot create the journal key '" + path_ + "': " + ec.message();
    return false;
  }
  return true;
}

} // namespace fuserc
