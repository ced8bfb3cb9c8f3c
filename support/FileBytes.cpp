// Whole-file byte I/O (see FileBytes.h).
#include "support/FileBytes.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fuserc {
namespace {

std::string kindOfFile(mode_t mode) {
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISSOCK(mode))
    return "a socket";
  return "not a plain file";
}

// Closes the descriptor on every path out of readFileBytes.
struct FileDescriptor {
  int fd;
  ~FileDescriptor() {
    if (fd >= 0)
      ::close(fd);
  }
};

} // namespace

std::optional<std::string> readFileBytes(const std::string &path, uint64_t maxBytes,
                                         std::string *error) {
  auto fail = [&](std::string why) -> std::optional<std::string> {
    if (error)
      *error = std::move(why);
    return std::nullopt;
  };
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
  // writer. It changes nothing for a regular file.
  FileDescriptor file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)};
  if (file.fd < 0)
    return fail(std::strerror(errno));
  struct stat st;
  if (::fstat(file.fd, &st) != 0)
    return fail(std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    return fail("not a regular file (" + kindOfFile(st.st_mode) + ")");
  const std::string tooLarge =
      "larger than " + (maxBytes % (1 << 20) == 0 ? std::to_string(maxBytes >> 20) + " MiB"
                                                  : std::to_string(maxBytes) + " bytes");
  if (uint64_t(st.st_size) > maxBytes)
    return fail(tooLarge);
  // Read up to one byte past the limit: a file that grew since fstat is
  // refused too, and the read always ends.
  std::string bytes;
  bytes.resize(size_t(st.st_size) + 1);
  size_t used = 0;
  for (;;) {
    if (used == bytes.size()) {
      if (used > maxBytes)
        return fail(tooLarge);
      bytes.resize(size_t(std::min<uint64_t>(maxBytes + 1, uint64_t(used) * 2 + 4096)));
    }
    ssize_t n = ::read(file.fd, bytes.data() + used, bytes.size() - used);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return fail(std::strerror(errno));
    if (n == 0)
      break;
    used += size_t(n);
  }
  if (used > maxBytes)
    return fail(tooLarge);
  bytes.resize(used);
  return bytes;
}

bool writeFileBytes(const std::string &path, const std::string &bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return false;
  os << bytes;
  os.close();
  bool ok = !os.has_error();
  os.clear_error();
  return ok;
}

} // namespace fuserc
