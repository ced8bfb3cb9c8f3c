// A cheap pre-scan of YAML text for nesting too deep to hand to yaml-cpp.
//
// yaml-cpp builds documents recursively, one level of its recursion per
// level of nesting, so a hostile `[[[[...` or `- - - - ...` could exhaust the
// stack before it reports anything. This scan counts flow collections
// (`[`, `{`) and block indicators at the start of a line without parsing, so
// the loader can refuse such a file with a located diagnostic first.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <optional>

namespace fuserc {

// The offset in `text` where collections nest deeper than `limit`, or
// nullopt. Quoted scalars and comments are skipped; brackets inside plain
// scalars count, which can only make the estimate higher than the truth.
std::optional<size_t> findYamlNestingBeyond(llvm::StringRef text, size_t limit);

} // namespace fuserc
