// The YAML nesting pre-scan (see YamlNesting.h).
#include "frontend/YamlNesting.h"

namespace fuserc {

std::optional<size_t> findYamlNestingBeyond(llvm::StringRef text, size_t limit) {
  size_t flow = 0;       // open '[' and '{'
  bool lineStart = true; // only blanks and block indicators so far on this line
  size_t blockIndicators = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') {
      lineStart = true;
      blockIndicators = 0;
      continue;
    }
    // Block nesting on one line: `- - - x`, `? ? x`. Nesting by indentation
    // needs a longer line per level, so its depth is bounded by the column.
    if (lineStart && flow == 0) {
      if (c == ' ' || c == '\t')
        continue;
      if ((c == '-' || c == '?' || c == ':') &&
          (i + 1 == text.size() || text[i + 1] == ' ' || text[i + 1] == '\n')) {
        if (++blockIndicators > limit)
          return i;
        continue;
      }
      lineStart = false;
    }
    switch (c) {
    case '#':
      // A comment starts at a '#' after a blank (or at the start of a line).
      if (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '\n')
        while (i + 1 < text.size() && text[i + 1] != '\n')
          ++i;
      break;
    case '"':
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      break;
    case '\'':
      // '' is an escaped quote inside a single-quoted scalar.
      for (++i; i < text.size(); ++i)
        if (text[i] == '\'' && !(i + 1 < text.size() && text[i + 1] == '\'' && ++i))
          break;
      break;
    case '[':
    case '{':
      if (++flow > limit)
        return i;
      break;
    case ']':
    case '}':
      if (flow > 0)
        --flow;
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}

} // namespace fuserc
