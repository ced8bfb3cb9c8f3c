// Symbolic extents as checked C code, for the generated header's size
// computations (packaging/HeaderValidation.cpp); defined in Extent.cpp
// beside extentToCode.
#pragma once

#include "ir/Extent.h"

#include <functional>
#include <string>

namespace fuserc {

// extentToCode with every operation checked for overflow: `+`, `*`,
// floordiv, ... call `fuserc_cadd`, `fuserc_cmul`, `fuserc_cfloordiv`, ...,
// whose result is FUSERC_OVERFLOW (INT64_MIN) once any step overflowed
// (packaging/runtime/extent_helpers.h).
std::string extentToCheckedCode(const Extent &extent,
                                const std::function<std::string(const std::string &)> &symbol);

} // namespace fuserc
