// The compile cache (see CompileCache.h).
#include "packaging/CompileCache.h"

#include "support/FileBytes.h"
#include "support/TemporaryFiles.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"

namespace fuserc {
namespace {

// An entry holds a cubin, PTX and a log; anything larger is no entry of
// ours, and is read no further.
constexpr uint64_t kMaxEntryBytes = uint64_t{256} << 20;

// Part of every key: a new entry format gets new keys.
constexpr const char *kFormat = "fuserc-cache-3";
// An entry's first line: "fuserc-cache-3 key=KEY sha256=HASH", HASH over the
// key line's start and the payload, so that an entry is bound to its key:
// a valid entry of another key, copied or linked under this one, is no hit.
constexpr llvm::StringLiteral kMagic = "fuserc-cache-3 key=";
constexpr llvm::StringLiteral kHashField = " sha256=";

std::string sha256Hex(llvm::StringRef bytes) {
  llvm::SHA256 hash;
  hash.update(bytes);
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

// The hash an entry of `key` holding `payload` carries.
std::string entryHash(llvm::StringRef key, llvm::StringRef payload) {
  return sha256Hex((kMagic + key + "\n").str() + payload.str());
}

// The payload: each part as "LENGTH\n" then its bytes.
std::string encodePayload(const NvrtcOutput &output) {
  std::string payload;
  for (const std::string *part : {&output.cubin, &output.ptx, &output.log})
    payload += std::to_string(part->size()) + "\n" + *part;
  return payload;
}

std::optional<NvrtcOutput> decodePayload(llvm::StringRef payload) {
  NvrtcOutput out;
  for (std::string *part : {&out.cubin, &out.ptx, &out.log}) {
    auto [length, rest] = payload.split('\n');
    size_t n = 0;
    if (length.getAsInteger(10, n) || rest.size() < n)
      return std::nullopt;
    *part = rest.take_front(n).str();
    payload = rest.drop_front(n);
  }
  if (!payload.empty())
    return std::nullopt;
  out.ok = true;
  out.resources = parsePtxasReport(out.log);
  return out;
}

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

std::string CompileCache::entryPath(const std::string &key) const {
  llvm::SmallString<256> entry(dir_);
  llvm::sys::path::append(entry, key.substr(0, 2), key);
  return std::string(entry);
}

std::optional<NvrtcOutput> CompileCache::load(const std::string &key, std::string &problem) const {
  if (dir_.empty())
    return std::nullopt;
  const std::string path = entryPath(key);
  std::string unreadable;
  std::optional<std::string> bytes = readFileBytes(path, kMaxEntryBytes, &unreadable);
  if (!bytes) {
    // Something that is not a readable entry (a FIFO, a link to a device, a
    // huge file) is a miss, never waited on; the compile's store replaces it.
    llvm::sys::fs::file_status status;
    if (!llvm::sys::fs::status(path, status, /*Follow=*/false))
      problem = "ignored the cache entry '" + path + "': " + unreadable;
    return std::nullopt;
  }
  llvm::StringRef text(*bytes);
  auto [header, payload] = text.split('\n');
  auto [entryKey, hash] = header.split(kHashField);
  std::optional<NvrtcOutput> out;
  if (!entryKey.consume_front(kMagic))
    problem = "not a fuserc cache entry";
  else if (entryKey != key)
    problem = "it is the entry of another key (" + entryKey.take_front(80).str() + ")";
  else if (hash != entryHash(key, payload))
    problem = "its contents do not match their SHA-256";
  else if (!(out = decodePayload(payload)))
    problem = "its contents are malformed";
  if (out)
    return out;
  problem = "removed the damaged cache entry '" + path + "': " + problem;
  llvm::sys::fs::remove(path);
  return std::nullopt;
}

void CompileCache::store(const std::string &key, const NvrtcOutput &output,
                         std::string &warning) const {
  if (dir_.empty() || !output.ok)
    return;
  const std::string path = entryPath(key);
  const std::string parent(llvm::sys::path::parent_path(path));
  if (std::error_code ec = llvm::sys::fs::create_directories(parent)) {
    warning = "cannot create cache directory '" + parent + "': " + ec.message();
    return;
  }
  removeOrphanedTemporaries(parent);
  const std::string payload = encodePayload(output);
  std::string error;
  // Another process may store the same entry meanwhile: both write the same
  // bytes, and each rename replaces a whole file.
  const std::string header = kMagic.str() + key + kHashField.str() + entryHash(key, payload);
  if (!writeFileAtomically(path, header + "\n" + payload, error))
    warning = "cannot write to the cache: " + error;
}

} // namespace fuserc
