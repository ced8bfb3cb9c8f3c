// Random bytes from the kernel (see RandomBytes.h).
#include "support/RandomBytes.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fuserc {
namespace {

// Fills `bytes` from /dev/urandom. Anything there but a character device
// (a file planted in a container image, say) is refused. Returns 0 or an
// errno value.
int readUrandom(std::string &bytes) {
  int fd = ::open("/dev/urandom", O_RDONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    return errno;
  struct stat st;
  int error = ::fstat(fd, &st) != 0 ? errno : S_ISCHR(st.st_mode) ? 0 : ENODEV;
  for (size_t used = 0; !error && used < bytes.size();) {
    ssize_t n = ::read(fd, bytes.data() + used, bytes.size() - used);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      error = n < 0 ? errno : EIO;
    else
      used += size_t(n);
  }
  ::close(fd);
  return error;
}

} // namespace

std::optional<std::string> randomBytes(size_t count, std::string *error) {
  std::string bytes(count, '\0');
  int failure = 0;
  for (size_t used = 0; used < count && !failure;) {
    ssize_t n = ::getrandom(bytes.data() + used, count - used, 0);
    if (n >= 0)
      used += size_t(n);
    else if (errno != EINTR)
      failure = errno;
  }
  if (failure == ENOSYS) // a kernel older than 3.17
    failure = readUrandom(bytes);
  if (!failure)
    return bytes;
  if (error)
    *error = std::string("cannot get random bytes: ") + std::strerror(failure);
  return std::nullopt;
}

} // namespace fuserc
