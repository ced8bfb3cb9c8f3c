// Loads scheduler plugins (the contract is schedulers/Plugin.h) into a
// registry, with an error a user can act on when a library is not a usable
// plugin.
#pragma once

#include "schedulers/SchedulerRegistry.h"

#include <optional>
#include <string>

namespace fuserc {

struct PluginError {
  enum class Kind {
    Missing,       // no such file
    NotALibrary,   // the file is not a loadable shared library
    NotAPlugin,    // a library without the entry points
    AbiMismatch,   // built for another FUSERC_PLUGIN_ABI_VERSION
    DuplicateName, // registers a scheduler name that is already taken
  };
  Kind kind;
  std::string message; // "'libx.so' ...", without "error:"
};

// Loads the plugin at `path` and lets it register its schedulers, which are
// recorded with `path` as their origin. On error, nothing it registered
// before the error is removed, but the run should stop.
std::optional<PluginError> loadSchedulerPlugin(const std::string &path,
                                               SchedulerRegistry &registry);

} // namespace fuserc
