// All-or-nothing output writing (see OutputFiles.h).
#include "cli/OutputFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace fuserc {

bool writeFilesAtomically(const std::string &dir, const std::map<std::string, std::string> &files,
                          std::string &error) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    error = "cannot create '" + dir + "': " + ec.message();
    return false;
  }
  std::vector<std::pair<std::string, std::string>> written; // temp, target
  auto discard = [&] {
    for (const auto &[temp, target] : written)
      llvm::sys::fs::remove(temp);
  };
  for (const auto &[name, bytes] : files) {
    llvm::SmallString<256> target(dir);
    llvm::sys::path::append(target, name);
    int fd = -1;
    llvm::SmallString<256> temp;
    if (std::error_code ec = llvm::sys::fs::createUniqueFile(target + ".tmp-%%%%%%", fd, temp)) {
      error = "cannot write '" + std::string(target) + "': " + ec.message();
      discard();
      return false;
    }
    written.push_back({std::string(temp), std::string(target)});
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << bytes;
    os.close();
    if (os.has_error()) {
      error = "cannot write '" + std::string(temp) + "': " + os.error().message();
      os.clear_error();
      discard();
      return false;
    }
  }
  for (size_t i = 0; i < written.size(); ++i) {
    if (std::error_code ec = llvm::sys::fs::rename(written[i].first, written[i].second)) {
      error = "cannot rename '" + written[i].first + "' to '" + written[i].second +
              "': " + ec.message();
      for (size_t j = i; j < written.size(); ++j)
        llvm::sys::fs::remove(written[j].first);
      return false;
    }
  }
  return true;
}

} // namespace fuserc
