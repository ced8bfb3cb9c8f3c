// The C interface of a module (docs/header.md is its contract): NAME.h
// declares per fusion the describe_outputs / workspace_size / launch
// functions; NAME.c implements them: their argument validation, the
// embedded fatbin, its lazy thread-safe loading and each kernel's host
// launch code (the `hostLaunch` blocks of schedulers/KernelPlan.h, pasted
// after validation). The single-header form puts the implementation in
// NAME.h under `#ifdef NAME_IMPLEMENTATION` instead.
//
// In: the module after every pass (layouts, output kinds and views set), the
// code of each fusion, the kernels' images. Out: the files' text, identical
// bytes for identical inputs.
#pragma once

#include "ir/Fusion.h"
#include "packaging/ModuleCompiler.h"
#include "schedulers/KernelPlan.h"
#include "support/CNames.h"

#include <string>
#include <string_view>
#include <vector>

namespace fuserc {

enum class HeaderForm {
  Split,  // NAME.h declarations, NAME.c the implementation
  Single, // NAME.h alone, the implementation under #ifdef NAME_IMPLEMENTATION
};

struct HeaderResult {
  bool ok = false;
  std::string error;  // why no header could be written (a name that is no C identifier, ...)
  std::string text;   // NAME.h
  std::string source; // NAME.c (Split only)
};

// `name` prefixes every identifier of the header (NAME_status, NAME__F_launch).
// Every fusion with a written output needs its FusionCode (matched by name);
// a fusion whose outputs are all views may have none. `fatbin` holds the
// `images` (one per kernel, ModuleCompiler.h); no images: `fatbin` is one
// fatbinary holding every kernel.
HeaderResult writeHeader(const std::string &name, const Module &module,
                         const std::vector<FusionCode> &code, const std::string &fatbin,
                         HeaderForm form = HeaderForm::Split,
                         const std::vector<UnitImage> &images = {});

} // namespace fuserc
