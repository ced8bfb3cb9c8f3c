// "Did you mean" suggestions for misspelt names: ops, values, attributes,
// and the keys of the YAML form.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace fuserc {

// The candidate closest to `name` within a small edit distance, or "".
std::string closest(llvm::StringRef name, const std::vector<std::string> &candidates);

// "; did you mean 'x'?" for the closest candidate, or "".
std::string suggest(llvm::StringRef name, const std::vector<std::string> &candidates);

} // namespace fuserc
