// Scratch directories (see TemporaryDirectory.h).
#include "support/TemporaryDirectory.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace fuserc {

TemporaryDirectory::TemporaryDirectory(const std::string &prefix) {
  ok_ = !llvm::sys::fs::createUniqueDirectory(prefix, path_);
}

TemporaryDirectory::~TemporaryDirectory() {
  if (ok_)
    llvm::sys::fs::remove_directories(path_);
}

std::string TemporaryDirectory::file(const std::string &name) const {
  llvm::SmallString<256> p(path_);
  llvm::sys::path::append(p, name);
  return std::string(p);
}

} // namespace fuserc
