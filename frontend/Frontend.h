// The frontend entry point: reads fusion files (text `.fus` or YAML
// `.yaml`/`.yml`, chosen by extension) into one Module.
#pragma once

#include "ir/Fusion.h"
#include "support/Diagnostics.h"

#include <memory>
#include <span>
#include <string>

namespace fuserc {

// Loads every file, reporting all errors through `diag`; returns false when
// any error was reported. Files are named in diagnostics as given.
bool loadFusionFiles(std::span<const std::string> paths, DiagnosticEngine &diag, Module &module);

// Loads one in-memory source; `name` decides the form as a path would.
bool loadFusionSource(std::string_view name, std::string_view text, DiagnosticEngine &diag,
                      Module &module);

bool isYamlPath(std::string_view path);

} // namespace fuserc
