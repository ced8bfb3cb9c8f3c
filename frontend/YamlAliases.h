// A pre-pass over YAML events that bounds what aliases (`*name`) expand to,
// before yaml-cpp builds the document.
//
// yaml-cpp shares an anchored node between its aliases, so loading is
// linear, but every walk over the document visits a node once per path to
// it: nested aliases ("billion laughs") repeat a few hundred bytes into
// billions of nodes, a chain of aliases nests collections past the nesting
// limit, and an alias inside the collection it names (`&r [*r]`) makes a
// cycle that a walk never leaves. This pass computes, in one pass over the
// events, the size and nesting of each anchored node and refuses an alias
// that closes a cycle, nests collections too deep, or makes the aliases
// together repeat more nodes than the budget.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace fuserc {

struct YamlAliasError {
  size_t offset;       // of the offending alias (or of a syntax error) in the text
  std::string message; // without "error:"
};

// Checks the first document of `text` (the one yaml-cpp's Load reads).
// `maxRepeatedNodes` bounds the nodes all aliases add to the document
// (an alias of an n-node collection adds n - 1); `maxNesting` bounds the
// nesting of collections once aliases are expanded. Syntax errors are
// reported too, as yaml-cpp reports them.
std::optional<YamlAliasError> checkYamlAliases(llvm::StringRef text, uint64_t maxRepeatedNodes,
                                               size_t maxNesting);

} // namespace fuserc
