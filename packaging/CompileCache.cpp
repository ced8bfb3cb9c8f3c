// The compile cache (see CompileCache.h).
#include "packaging/CompileCache.h"

#include "support/FileBytes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

namespace fuserc {
namespace {

constexpr const char *kFormat = "fuserc-cache-1";

} // namespace

std::string defaultCacheDir() {
  if (auto xdg = llvm::sys::Process::GetEnv("XDG_CACHE_HOME"); xdg && !xdg->empty())
    return *xdg + "/fuserc";
  if (auto home = llvm::sys::Process::GetEnv("HOME"); home && !home->empty())
    return *home + "/.cache/fuserc";
  return "";
}

std::string CompileCache::key(const std::string &source, const std::string &arch, bool wantPtx,
                              const std::vector<std::string> &options) {
  llvm::SHA256 hash;
  auto field = [&](llvm::StringRef s) {
    hash.update(std::to_string(s.size()) + ":");
    hash.update(s);
  };
  field(kFormat);
  field(FUSERC_VERSION);
  field(nvrtcVersionString());
  field(arch);
  field(wantPtx ? "ptx" : "noptx");
  for (const std::string &o : options)
    field(o);
  field(source);
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

std::optional<NvrtcOutput> CompileCache::load(const std::string &key) const {
  if (dir_.empty())
    return std::nullopt;
  llvm::SmallString<256> entry(dir_);
  llvm::sys::path::append(entry, key.substr(0, 2), key);
  std::optional<std::string> cubin = readFileBytes((entry + "/cubin").str());
  std::optional<std::string> ptx = readFileBytes((entry + "/ptx").str());
  std::optional<std::string> log = readFileBytes((entry + "/log").str());
  if (!cubin || !ptx || !log)
    return std::nullopt;
  NvrtcOutput out;
  out.ok = true;
  out.cubin = std::move(*cubin);
  out.ptx = std::move(*ptx);
  out.log = std::move(*log);
  out.resources = parsePtxasReport(out.log);
  return out;
}

void CompileCache::store(const std::string &key, const NvrtcOutput &output,
                         std::string &warning) const {
  if (dir_.empty() || !output.ok)
    return;
  llvm::SmallString<256> parent(dir_);
  llvm::sys::path::append(parent, key.substr(0, 2));
  llvm::SmallString<256> entry(parent);
  llvm::sys::path::append(entry, key);
  if (llvm::sys::fs::exists(entry))
    return;
  if (std::error_code ec = llvm::sys::fs::create_directories(parent)) {
    warning = "cannot create cache directory '" + std::string(parent) + "': " + ec.message();
    return;
  }
  llvm::SmallString<256> temp;
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory(entry + ".tmp", temp)) {
    warning = "cannot write to the cache: " + ec.message();
    return;
  }
  bool ok = writeFileBytes((temp + "/cubin").str(), output.cubin) &&
            writeFileBytes((temp + "/ptx").str(), output.ptx) &&
            writeFileBytes((temp + "/log").str(), output.log);
  // Another process may have stored the same entry meanwhile: either copy
  // is the same bytes, so losing the rename race is fine.
  if (!ok || llvm::sys::fs::rename(temp, entry)) {
    llvm::sys::fs::remove_directories(temp);
    if (!ok)
      warning = "cannot write to the cache directory '" + dir_ + "'";
  }
}

} // namespace fuserc
