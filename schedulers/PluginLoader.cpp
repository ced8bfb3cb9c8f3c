// Scheduler plugin loading (see PluginLoader.h and Plugin.h).
#include "schedulers/PluginLoader.h"

#include "schedulers/Plugin.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"

namespace fuserc {

std::optional<PluginError> loadSchedulerPlugin(const std::string &path,
                                               SchedulerRegistry &registry) {
  using Kind = PluginError::Kind;
  const std::string subject = "'" + path + "'";
  if (!llvm::sys::fs::exists(path))
    return PluginError{Kind::Missing, subject + ": no such file"};
  if (llvm::sys::fs::is_directory(path))
    return PluginError{Kind::NotALibrary, subject + " is a directory, not a shared library"};

  // dlopen searches the library path for a name without a slash; the user
  // means the file.
  llvm::SmallString<256> absolute(path);
  llvm::sys::fs::make_absolute(absolute);
  std::string error;
  llvm::sys::DynamicLibrary library =
      llvm::sys::DynamicLibrary::getPermanentLibrary(absolute.c_str(), &error);
  if (!library.isValid())
    return PluginError{Kind::NotALibrary, subject + " is not a loadable shared library: " + error};

  using VersionFn = int (*)();
  using RegisterFn = void (*)(SchedulerRegistry &);
  auto version =
      reinterpret_cast<VersionFn>(library.getAddressOfSymbol("fuserc_plugin_abi_version"));
  auto registerSchedulers =
      reinterpret_cast<RegisterFn>(library.getAddressOfSymbol("fuserc_register_schedulers"));
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
