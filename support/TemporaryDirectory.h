// A private temporary directory for a tool's scratch files (fatbinary's
// images, the host compiler's shared library), removed with everything in
// it when it goes out of scope.
#pragma once

#include "llvm/ADT/SmallString.h"

#include <string>

namespace fuserc {

class TemporaryDirectory {
public:
  // `prefix` starts the directory's name, e.g. "fuserc-fatbin".
  explicit TemporaryDirectory(const std::string &prefix);
  ~TemporaryDirectory();
  TemporaryDirectory(const TemporaryDirectory &) = delete;
  TemporaryDirectory &operator=(const TemporaryDirectory &) = delete;

  bool ok() const { return ok_; }
  std::string path() const { return std::string(path_); }
  // The path of `name` inside the directory.
  std::string file(const std::string &name) const;

private:
  llvm::SmallString<256> path_;
  bool ok_ = false;
};

} // namespace fuserc
