// Temporaries beside their targets (see TemporaryFiles.h).
#include "support/TemporaryFiles.h"

#include "support/RandomBytes.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <unistd.h>

namespace fuserc {
namespace {

constexpr llvm::StringLiteral kMarker = ".fuserc-tmp-";

// The writer's process id in a temporary's name, or 0 when it has none.
long writerOf(llvm::StringRef fileName) {
  size_t at = fileName.rfind(kMarker);
  if (!fileName.startswith(".") || at == llvm::StringRef::npos)
    return 0;
  llvm::StringRef rest = fileName.drop_front(at + kMarker.size());
  long pid = 0;
  if (rest.split('-').first.getAsInteger(10, pid) || pid <= 0)
    return 0;
  return pid;
}

bool processRuns(long pid) { return ::kill(pid_t(pid), 0) == 0 || errno != ESRCH; }

} // namespace

bool writeTemporaryBeside(const std::string &target, const std::string &bytes, std::string &temp,
                          std::string &error) {
  llvm::SmallString<256> model(llvm::sys::path::parent_path(target));
  llvm::sys::path::append(model,
                          "." + llvm::sys::path::filename(target) + kMarker + runId() + "-%%%%%%");
  int fd = -1;
  llvm::SmallString<256> path;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(model, fd, path)) {
    error = "cannot write '" + target + "': " + ec.message();
    return false;
  }
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  os << bytes;
  os.close();
  if (os.has_error()) {
    error = "cannot write '" + std::string(path) + "': " + os.error().message();
    os.clear_error();
    llvm::sys::fs::remove(path);
    return false;
  }
  temp = std::string(path);
  return true;
}

bool writeFileAtomically(const std::string &target, const std::string &bytes, std::string &error) {
  std::string temp;
  if (!writeTemporaryBeside(target, bytes, temp, error))
    return false;
  if (std::error_code ec = llvm::sys::fs::rename(temp, target)) {
    error = "cannot rename '" + temp + "' to '" + target + "': " + ec.message();
    llvm::sys::fs::remove(temp);
    return false;
  }
  return true;
}

const std::string &runId() {
  static const std::string id = [] {
    // Without the kernel's randomness the clock still tells runs of one
    // process id apart; the id is a name, not a secret.
    std::optional<std::string> random = randomBytes(4);
    if (!random) {
      auto now = uint32_t(std::chrono::steady_clock::now().time_since_epoch().count());
      random = std::string(reinterpret_cast<const char *>(&now), sizeof now);
    }
    return std::to_string(::getpid()) + "-" + llvm::toHex(*random, /*LowerCase=*/true);
  }();
  return id;
}

bool isTemporaryName(const std::string &fileName) { return writerOf(fileName) != 0; }

bool isTemporaryOf(const std::string &fileName, const std::string &target, const std::string &run) {
  const std::string prefix = "." + target + kMarker.str() + run + "-";
  return writerOf(fileName) != 0 && fileName.size() > prefix.size() &&
         llvm::StringRef(fileName).startswith(prefix);
}

std::string keptCopyName(const std::string &target) {
  return "." + target + kMarker.str() + runId() + "-previous";
}

void removeOrphanedTemporaries(const std::string &dir) {
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) {
    std::string name(llvm::sys::path::filename(it->path()));
    if (long pid = writerOf(name); pid != 0 && !processRuns(pid))
      llvm::sys::fs::remove(it->path());
  }
}

} // namespace fuserc
