// The content-addressed compile cache: NVRTC and ptxas outputs and each
// unit's fatbinary, keyed by a SHA-256 of everything that decides them
// (kernel source, arch, NVRTC version, options, tools, fuserc version).
//
// An entry is one file, `DIR/KK/KEY` (KK: the key's first two digits),
// written to a temporary and renamed into place, so concurrent or killed
// fuserc runs never leave half an entry. It starts with its key and a
// SHA-256 of the key and its contents, checked on every read: an entry
// damaged on disk, or one of another key copied or linked under this one, is
// reported, removed and compiled again, never used.
#pragma once

#include "packaging/NvrtcCompiler.h"

#include <optional>
#include <string>
#include <vector>

namespace fuserc {

// $XDG_CACHE_HOME/fuserc, else $HOME/.cache/fuserc; empty when neither is set.
std::string defaultCacheDir();

class CompileCache {
public:
  explicit CompileCache(std::string dir) : dir_(std::move(dir)) {}

  static std::string key(const std::string &source, const std::string &arch, bool wantPtx,
                         const std::vector<std::string> &options);
  // A successful compile stored under `key`, or nullopt. An entry that fails
  // its check is removed, and `problem` says what was wrong with it.
  std::optional<NvrtcOutput> load(const std::string &key, std::string &problem) const;
  // Stores a successful compile; failures to write are not errors (the
  // cache is an optimisation), they are reported in `warning`.
  void store(const std::string &key, const NvrtcOutput &output, std::string &warning) const;

private:
  std::string entryPath(const std::string &key) const;

  std::string dir_;
};

} // namespace fuserc
