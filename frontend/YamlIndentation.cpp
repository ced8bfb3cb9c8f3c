// The YAML indentation scan (see YamlIndentation.h).
#include "frontend/YamlIndentation.h"

#include <vector>

namespace fuserc {
namespace {

// An open block: its indentation and the line that set it.
struct Block {
  size_t indent;
  size_t line; // 1-based
  std::string label;
};

std::string spaces(size_t n) { return std::to_string(n) + (n == 1 ? " space" : " spaces"); }

// The key of a `key: value` or `key:` line, or "".
std::string keyOf(llvm::StringRef content) {
  size_t colon = content.find(": ");
  if (colon == llvm::StringRef::npos && content.endswith(":"))
    colon = content.size() - 1;
  if (colon == llvm::StringRef::npos || colon == 0)
    return "";
  llvm::StringRef key = content.take_front(colon);
  if (key.find_first_of("\"'{[(,=") != llvm::StringRef::npos)
    return "";
  return key.str();
}

std::string labelOf(llvm::StringRef content) {
  if (content.startswith("- ") || content == "-")
    return "the list item";
  std::string key = keyOf(content);
  return key.empty() ? "'" + content.take_front(24).str() + "'" : "'" + key + "'";
}

} // namespace

std::optional<YamlIndentationError> findYamlIndentationError(llvm::StringRef text, size_t before) {
  std::vector<Block> open;
  bool opens = false;     // the previous line ends with a key and no value
  int flow = 0;           // open '[' and '{'
  char quote = 0;         // inside a quoted scalar spanning lines
  size_t blockScalar = 0; // lines deeper than this are a block scalar's text
  bool inBlockScalar = false;
  size_t lineNumber = 0;
  for (size_t start = 0; start < text.size() && start <= before;) {
    size_t end = text.find('\n', start);
    if (end == llvm::StringRef::npos)
      end = text.size();
    llvm::StringRef line = text.slice(start, end);
    ++lineNumber;
    size_t lineStart = start;
    start = end + 1;
    size_t indent = line.find_first_not_of(' ');
    if (indent == llvm::StringRef::npos)
      continue;
    llvm::StringRef content = line.drop_front(indent).rtrim();
    if (inBlockScalar && indent > blockScalar)
      continue;
    inBlockScalar = false;
    bool structural = flow == 0 && quote == 0 && !content.startswith("#");
    // Track flow collections, quotes and comments to know where the next
    // line stands.
    for (size_t i = 0; i < content.size(); ++i) {
      char c = content[i];
      if (quote) {
        if (c == '\\' && quote == '"')
          ++i;
        else if (c == quote)
          quote = 0;
      } else if (c == '"' || c == '\'') {
        if (i == 0 || content[i - 1] == ' ' || content[i - 1] == '[' || content[i - 1] == '{' ||
            content[i - 1] == ',' || content[i - 1] == ':')
          quote = c;
      } else if (c == '#' && (i == 0 || content[i - 1] == ' ')) {
        content = content.take_front(i).rtrim();
        break;
      } else if (c == '[' || c == '{') {
        ++flow;
      } else if ((c == ']' || c == '}') && flow > 0) {
        --flow;
      }
    }
    if (!structural || content.empty())
      continue;
    if (content.startswith("\t") || line.take_front(indent + 1).contains('\t'))
      return YamlIndentationError{lineStart + indent,
                                  "a tab in the indentation; YAML indents with spaces only"};
    if (open.empty())
      open.push_back({indent, lineNumber, labelOf(content)});
    const Block &top = open.back();
    if (indent > top.indent) {
      if (!opens)
        return YamlIndentationError{
            lineStart + indent, labelOf(content) + " is indented " + spaces(indent) +
                                    ", deeper than " + top.label + " (line " +
                                    std::to_string(top.line) + ", " + spaces(top.indent) +
                                    "), which already has a value; line it up with " + top.label};
      open.push_back({indent, lineNumber, labelOf(content)});
    } else {
      Block popped = open.back();
      while (!open.empty() && open.back().indent > indent) {
        popped = open.back();
        open.pop_back();
      }
      if (open.empty() || open.back().indent < indent)
        return YamlIndentationError{
            lineStart + indent,
            labelOf(content) + " is indented " + spaces(indent) +
                ", which lines up with no enclosing block: " + popped.label + " (line " +
                std::to_string(popped.line) + ") is at " + std::to_string(popped.indent) +
                (open.empty()
                     ? std::string()
                     : " and " + open.back().label + " (line " + std::to_string(open.back().line) +
                           ") at " + std::to_string(open.back().indent)) +
                "; keys of one map, and items of one list, line up"};
    }
    // A list item's content is a block of its own, two columns in.
    llvm::StringRef item = content;
    size_t itemIndent = indent;
    while (item.startswith("- ") || item == "-") {
      size_t skip = item.size() > 1 ? item.drop_front(1).find_first_not_of(' ') + 1 : 1;
      itemIndent += skip;
      item = item.drop_front(std::min(skip, item.size()));
      if (!item.empty())
        open.push_back({itemIndent, lineNumber, labelOf(item)});
    }
    opens = flow == 0 && quote == 0 && (item.endswith(":") || item.empty());
    if (item.endswith("|") || item.endswith(">") || item.endswith("|-") || item.endswith(">-")) {
      inBlockScalar = true;
      blockScalar = indent;
    }
  }
  return std::nullopt;
}

} // namespace fuserc
