// Scheduler plugin loading (see PluginLoader.h and Plugin.h).
#include "schedulers/PluginLoader.h"

#include "schedulers/Plugin.h"
#include "support/FileBytes.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace fuserc {
namespace {

// Larger files are refused before they are read.
constexpr uint64_t kMaxPluginBytes = uint64_t{1} << 30;

// Why `bytes` is no 64-bit ELF shared object that dlopen can map without
// touching a page past the end of the file, or "". dlopen maps each
// loadable segment as the program headers place it; a segment that runs
// past the end of a truncated file is mapped all the same, and the first
// read of it raises SIGBUS.
std::string elfProblem(const std::string &bytes) {
  Elf64_Ehdr header;
  if (bytes.size() < sizeof header || std::memcmp(bytes.data(), ELFMAG, SELFMAG) != 0)
    return "invalid ELF header";
  std::memcpy(&header, bytes.data(), sizeof header);
  if (header.e_ident[EI_CLASS] != ELFCLASS64)
    return "not a 64-bit ELF file";
  if (header.e_ident[EI_DATA] !=
      (std::endian::native == std::endian::little ? ELFDATA2LSB : ELFDATA2MSB))
    return "an ELF file of the other byte order";
  if (header.e_type != ET_DYN)
    return "an ELF file, but not a shared library";
  // Where the file must extend to: the header tables and every loadable
  // segment, computed without overflow (each term is below 2^32 times 2^16
  // or checked against the size first).
  const uint64_t size = bytes.size();
  uint64_t needed = sizeof header;
  auto within = [&](uint64_t offset, uint64_t length) {
    if (offset > size || length > size - offset)
      needed = std::max(needed, offset > UINT64_MAX - length ? UINT64_MAX : offset + length);
  };
  if (header.e_phnum && header.e_phentsize != sizeof(Elf64_Phdr))
    return "an ELF file with program headers of an unknown size";
  within(header.e_phoff, uint64_t(header.e_phnum) * sizeof(Elf64_Phdr));
  within(header.e_shoff, uint64_t(header.e_shnum) * header.e_shentsize);
  if (needed == sizeof header)
    for (unsigned i = 0; i < header.e_phnum; ++i) {
      Elf64_Phdr segment;
      std::memcpy(&segment, bytes.data() + header.e_phoff + i * sizeof segment, sizeof segment);
      if (segment.p_type == PT_LOAD)
        within(segment.p_offset, segment.p_filesz);
    }
  if (needed > size)
    return "the file is truncated: it has " + std::to_string(size) +
           " bytes, its ELF headers describe " +
           (needed == UINT64_MAX ? std::string("more than 2^64") : std::to_string(needed));
  return "";
}

using VersionFn = int (*)();
using RegisterFn = void (*)(SchedulerRegistry &);

// How long a plugin may take to load and register its schedulers.
constexpr auto kProbeLimit = std::chrono::seconds(30);

// Why loading `path` (dlopen, its constructors, its registration into a
// copy of `registry`, its destructors) kills or hangs a process, tried in a child process
// first; "" when it does not (or no child can be made). A corrupt library
// can crash the dynamic loader itself, which no check of its headers
// foresees. Plugins load before fuserc starts any thread.
std::string probeInChild(const std::string &path, SchedulerRegistry &registry) {
  const pid_t pid = fork();
  if (pid < 0)
    return "";
  if (pid == 0) {
    // The loader's own messages ("Inconsistency detected by ld.so") would
    // interleave with fuserc's: the parent says what happened.
    if (int null = open("/dev/null", O_WRONLY); null >= 0)
      dup2(null, STDERR_FILENO);
    if (void *library = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
      auto version = reinterpret_cast<VersionFn>(dlsym(library, "fuserc_plugin_abi_version"));
      auto registerSchedulers =
          reinterpret_cast<RegisterFn>(dlsym(library, "fuserc_register_schedulers"));
      if (version && registerSchedulers && version() == FUSERC_PLUGIN_ABI_VERSION)
        registerSchedulers(registry);
      dlclose(library); // its destructors run at fuserc's exit
    }
    _exit(0); // errors dlopen reports are the parent's to tell
  }
  const auto deadline = std::chrono::steady_clock::now() + kProbeLimit;
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return "it did not finish loading in " + std::to_string(kProbeLimit.count()) + " s";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFSIGNALED(status))
    return std::string("loading it crashed the process (") + strsignal(WTERMSIG(status)) + ")";
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
    return "loading it ended the process (the dynamic loader exited with " +
           std::to_string(WEXITSTATUS(status)) + ")";
  return "";
}

} // namespace

std::optional<PluginError> loadSchedulerPlugin(const std::string &path,
                                               SchedulerRegistry &registry) {
  using Kind = PluginError::Kind;
  const std::string subject = "'" + path + "'";
  if (!llvm::sys::fs::exists(path))
    return PluginError{Kind::Missing, subject + ": no such file"};
  if (llvm::sys::fs::is_directory(path))
    return PluginError{Kind::NotALibrary, subject + " is a directory, not a shared library"};

  // The file is checked before dlopen sees it: a FIFO or a device would
  // block it, and a truncated library crash it.
  std::string unreadable;
  std::optional<std::string> bytes = readFileBytes(path, kMaxPluginBytes, &unreadable);
  if (!bytes)
    return PluginError{Kind::NotALibrary, subject + " cannot be read: " + unreadable};
  if (std::string problem = elfProblem(*bytes); !problem.empty())
    return PluginError{Kind::NotALibrary,
                       subject + " is not a loadable shared library: " + problem};
  bytes.reset();

  // dlopen searches the library path for a name without a slash; the user
  // means the file. RTLD_NOW binds every symbol now: a symbol that neither
  // fuserc nor the plugin's libraries define is an error here, not an exit
  // from the dynamic linker at the plugin's first call. The library stays
  // loaded for the life of the process: its schedulers are registered.
  llvm::SmallString<256> absolute(path);
  llvm::sys::fs::make_absolute(absolute);
  if (std::string problem = probeInChild(std::string(absolute), registry); !problem.empty())
    return PluginError{Kind::NotALibrary,
                       subject + " is not a loadable shared library: " + problem};
  void *library = dlopen(absolute.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!library) {
    const char *error = dlerror();
    return PluginError{Kind::NotALibrary, subject + " is not a loadable shared library: " +
                                              (error ? error : "dlopen failed")};
  }

  auto version = reinterpret_cast<VersionFn>(dlsym(library, "fuserc_plugin_abi_version"));
  auto registerSchedulers =
      reinterpret_cast<RegisterFn>(dlsym(library, "fuserc_register_schedulers"));
  if (!version || !registerSchedulers)
    return PluginError{Kind::NotAPlugin,
                       subject + " is not a fuserc plugin: it does not define " +
                           (!version ? "fuserc_plugin_abi_version" : "fuserc_register_schedulers") +
                           " (see schedulers/Plugin.h)"};
  if (int v = version(); v != FUSERC_PLUGIN_ABI_VERSION)
    return PluginError{Kind::AbiMismatch, subject + " was built for plugin ABI version " +
                                              std::to_string(v) + ", this fuserc has version " +
                                              std::to_string(FUSERC_PLUGIN_ABI_VERSION) +
                                              "; rebuild it against this fuserc's headers"};

  registry.clearErrors();
  registry.setOrigin("plugin " + subject);
  registerSchedulers(registry);
  registry.setOrigin("built-in");
  if (!registry.errors().empty())
    return PluginError{Kind::DuplicateName, subject + ": " + registry.errors().front()};
  return std::nullopt;
}

} // namespace fuserc
