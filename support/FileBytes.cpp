// Whole-file byte I/O (see FileBytes.h).
#include "support/FileBytes.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace fuserc {

std::optional<std::string> readFileBytes(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return std::nullopt;
  return (*buffer)->getBuffer().str();
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
