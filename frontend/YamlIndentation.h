// A structural explanation for a YAML file that yaml-cpp rejected.
//
// yaml-cpp reports a mis-indented key as "end of map not found" or "illegal
// map value", somewhere after the mistake. This scan follows the block
// structure by indentation alone and names the first line whose indentation
// lines up with no open block (`ops:` at 3 spaces where the fusion's keys
// are at 4), a key indented under a key that already has a value, or a tab
// in the indentation.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <optional>
#include <string>

namespace fuserc {

struct YamlIndentationError {
  size_t offset; // where the offending line's text starts
  std::string message;
};

// The first indentation mistake in `text` at or before offset `before`, or
// nullopt. Flow collections, quoted and block scalars are skipped.
std::optional<YamlIndentationError> findYamlIndentationError(llvm::StringRef text, size_t before);

} // namespace fuserc
