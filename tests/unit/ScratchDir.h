// A fresh directory for a unit test's files, removed with what it holds.
#pragma once

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

#include <string>

namespace fuserc::test {

struct ScratchDir {
  llvm::SmallString<128> path;
  explicit ScratchDir(const char *prefix = "fuserc-test") {
    llvm::sys::fs::createUniqueDirectory(prefix, path);
  }
  ~ScratchDir() { llvm::sys::fs::remove_directories(path); }
  std::string file(const std::string &name) const { return std::string(path) + "/" + name; }
};

} // namespace fuserc::test
