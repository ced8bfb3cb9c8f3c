// YAML frontend (see YamlLoader.h).
#include "frontend/YamlLoader.h"

#include "frontend/Lexer.h"
#include "frontend/Parser.h"
#include "frontend/Suggestions.h"
#include "frontend/YamlAliases.h"
#include "frontend/YamlIndentation.h"
#include "frontend/YamlNesting.h"
#include "ir/Limits.h"

#include "llvm/ADT/StringExtras.h"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <limits>
#include <map>

namespace fuserc {
namespace {

// Thrown after an error has been reported; unwinds the load.
struct LoadError {};

class YamlLoader {
public:
  YamlLoader(unsigned bufferId, DiagnosticEngine &diag)
      : diag_(diag), buffer_(diag.sourceMgr().getMemoryBuffer(bufferId)->getBuffer()) {}

  std::vector<ast::Fusion> load() {
    if (std::optional<size_t> at = findYamlNestingBeyond(buffer_, limits::kMaxNesting)) {
      diag_.error(llvm::SMLoc::getFromPointer(buffer_.begin() + *at),
                  "YAML collections nested more than " + std::to_string(limits::kMaxNesting) +
                      " deep");
      throw LoadError{};
    }
    // Before yaml-cpp builds the document: a walk over it visits an aliased
    // node once per alias, so what the aliases expand to must be bounded.
    if (std::optional<YamlAliasError> e =
            checkYamlAliases(buffer_, limits::kMaxYamlAliasNodes, limits::kMaxNesting))
      invalid(std::min(e->offset, buffer_.size()), e->message);
    YAML::Node parsed;
    try {
      parsed = YAML::Load(buffer_.str());
    } catch (const YAML::Exception &e) {
      invalid(e.mark.pos < 0 ? buffer_.size() : size_t(e.mark.pos), "invalid YAML: " + e.msg);
    }
    // Only const lookups: a non-const operator[] may insert keys.
    const YAML::Node &root = parsed;
    std::vector<ast::Fusion> fusions;
    if (!root.IsMap())
      error(root, "expected a fusion (a map with 'name', 'inputs', 'ops', 'outputs') or a map "
                  "with a 'fusions' list at the top level, found " +
                      kindOf(root));
    if (root["fusions"]) {
      checkKeys(root, {"fusions"}, "the top level");
      const YAML::Node list = root["fusions"];
      if (!list.IsSequence())
        error(list, "'fusions' must be a list of fusions");
      size_t item = 0;
      for (const YAML::Node &f : list) {
        Within within(*this, "item " + std::to_string(++item) + " of 'fusions'");
        fusions.push_back(loadFusion(f));
      }
    } else {
      fusions.push_back(loadFusion(root));
    }
    if (diag_.errorCount() != errorsBefore_)
      throw LoadError{};
    return fusions;
  }

private:
  // yaml-cpp's messages ("end of map not found") are about its parser, and
  // come after the mistake; a mis-indented line before `offset` is what the
  // user needs to hear about.
  [[noreturn]] void invalid(size_t offset, const std::string &message) {
    const char *at = buffer_.begin() + offset;
    std::string text = message;
    if (llvm::StringRef(message).startswith("invalid YAML"))
      if (std::optional<YamlIndentationError> bad = findYamlIndentationError(buffer_, offset)) {
        at = buffer_.begin() + bad->offset;
        text = "invalid YAML structure: " + bad->message;
      }
    diag_.error(llvm::SMLoc::getFromPointer(at), text);
    throw LoadError{};
  }

  llvm::SMLoc locOf(const YAML::Mark &mark) const {
    if (mark.pos < 0 || size_t(mark.pos) > buffer_.size())
      return llvm::SMLoc::getFromPointer(buffer_.begin());
    return llvm::SMLoc::getFromPointer(buffer_.begin() + mark.pos);
  }
  llvm::SMLoc locOf(const YAML::Node &node) const { return locOf(node.Mark()); }

  // Reports `message` at `mark`, saying where the loader is ("in item 2
  // of 'inputs' of fusion 'f'"), and stops the load.
  [[noreturn]] void error(const YAML::Mark &mark, const std::string &message) {
    diag_.error(locOf(mark), message + context());
    throw LoadError{};
  }
  [[noreturn]] void error(const YAML::Node &node, const std::string &message) {
    error(node.Mark(), message);
  }

  // Where the loader is, innermost first, for messages about the YAML
  // structure: the user's names for the fusion, list item and key.
  std::vector<std::string> where_;
  class Within {
  public:
    Within(YamlLoader &l, std::string what) : l_(l) { l_.where_.push_back(std::move(what)); }
    ~Within() { l_.where_.pop_back(); }
    Within(const Within &) = delete;
    Within &operator=(const Within &) = delete;

  private:
    YamlLoader &l_;
  };
  // Innermost first, up to the fusion: once named, the fusion is how the
  // user knows where they are (not as an item of 'fusions').
  std::string whereText() const {
    std::string s;
    for (auto it = where_.rbegin(); it != where_.rend(); ++it) {
      s += (s.empty() ? "" : " of ") + *it;
      if (it->starts_with("fusion '"))
        break;
    }
    return s;
  }
  std::string context() const { return where_.empty() ? "" : " (in " + whereText() + ")"; }

  std::string kindOf(const YAML::Node &node) const {
    if (node.IsMap())
      return "a map";
    if (node.IsSequence())
      return "a list";
    if (node.IsNull())
      return "nothing";
    return "'" + node.Scalar() + "'";
  }

  std::string scalar(const YAML::Node &node, const std::string &what) {
    if (!node.IsScalar())
      error(node, "expected " + what + ", found " + kindOf(node));
    return node.Scalar();
  }

  // YAML parsers keep one of two equal keys and drop the other silently;
  // a repeated key is almost always a mistake, so it is an error.
  void checkUniqueKeys(const YAML::Node &map, const std::string &where) {
    std::map<std::string, YAML::Mark> seen;
    for (auto it = map.begin(); it != map.end(); ++it) {
      if (!it->first.IsScalar())
        continue;
      auto [prev, inserted] = seen.try_emplace(it->first.Scalar(), it->first.Mark());
      if (!inserted) {
        diag_.error(locOf(it->first), "key '" + it->first.Scalar() + "' is given twice in " +
                                          (where_.empty() ? where : whereText()));
        diag_.note(locOf(prev->second), "first given here");
        throw LoadError{};
      }
    }
  }

  // Every unknown key is reported, with a suggestion; the load goes on
  // without them, so that later mistakes are reported too.
  void checkKeys(const YAML::Node &map, std::initializer_list<const char *> allowed,
                 const std::string &where) {
    checkUniqueKeys(map, where);
    const std::vector<std::string> known(allowed.begin(), allowed.end());
    std::string list;
    for (const std::string &k : known)
      list += (list.empty() ? "" : ", ") + k;
    for (auto it = map.begin(); it != map.end(); ++it) {
      std::string key = it->first.IsScalar() ? it->first.Scalar() : "";
      if (std::find(known.begin(), known.end(), key) == known.end())
        diag_.error(locOf(it->first), "unknown key '" + key + "' in " +
                                          (where_.empty() ? where : whereText()) +
                                          suggest(key, known) + " (keys: " + list + ")");
    }
  }

  // The text of a scalar as it stands in the buffer, when it can be lexed in
  // place (plain or simply quoted, on one line); otherwise nullopt.
  std::optional<llvm::StringRef> inPlace(const YAML::Node &node) const {
    const std::string &value = node.Scalar();
    size_t pos = node.Mark().pos;
    if (pos >= buffer_.size())
      return std::nullopt;
    if (buffer_[pos] == '"' || buffer_[pos] == '\'')
      ++pos;
    llvm::StringRef text = buffer_.substr(pos, value.size());
    if (text != value)
      return std::nullopt;
    return text;
  }

  // A scalar handed to the text parser: lexed in place when possible, or
  // else as derived text whose locations map back into the YAML buffer.
  llvm::StringRef statementText(const YAML::Node &node) {
    if (std::optional<llvm::StringRef> text = inPlace(node))
      return *text;
    return diag_.addDerivedText(node.Scalar(), origins(node));
  }

  // Where each character of a scalar's value was written. A multi-line
  // scalar (plain, quoted, folded `>` or literal `|`) loses line breaks,
  // indentation, quotes and escapes in its value, so the value is aligned
  // with the source: each character maps to the next source character
  // equal to it, and a space or line break of the value to the next
  // whitespace of the source. Errors never point at whitespace, so the
  // alignment only needs to be exact for the other characters.
  std::vector<const char *> origins(const YAML::Node &node) const {
    const std::string &value = node.Scalar();
    const char *start = locOf(node).getPointer();
    const char *src = start, *end = buffer_.end();
    if (src != end && (*src == '|' || *src == '>')) {
      while (src != end && *src != '\n') // the block scalar's header
        ++src;
    } else if (src != end && (*src == '"' || *src == '\'')) {
      ++src;
    }
    auto isSpace = [](char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; };
    // Between two characters of the value, the source has at most an
    // escape (`\U0001F600`) or a doubled quote besides whitespace. A
    // character not found within that was escaped; the search stops there
    // instead of running on to the end of the file, once per scalar.
    constexpr size_t kMaxSkipped = 16;
    std::vector<const char *> out;
    for (char c : value) {
      size_t skipped = 0;
      while (src != end && *src != c && !(isSpace(c) && isSpace(*src)))
        src = !isSpace(*src) && ++skipped > kMaxSkipped ? end : src + 1;
      if (src == end) // not found: every character at the scalar's start
        return std::vector<const char *>(value.size() + 1, start);
      out.push_back(src++);
    }
    out.push_back(src); // the end of the value
    return out;
  }

  ast::Fusion loadFusion(const YAML::Node &node) {
    if (!node.IsMap())
      error(node, "expected a fusion (a map with 'name', 'inputs', 'ops', 'outputs'), found " +
                      kindOf(node));
    ast::Fusion f;
    const YAML::Node name = node["name"];
    if (!name)
      error(node, "fusion has no 'name'");
    f.name = scalar(name, "a fusion name");
    f.loc = locOf(name);
    if (!isIdentifierText(f.name))
      error(name, "fusion name '" + f.name + "' is not an identifier");
    checkNameLength(name, f.name);
    Within within(*this, "fusion '" + f.name + "'");
    checkKeys(node, {"name", "inputs", "ops", "outputs"}, "a fusion");
    loadItems(node, "inputs", [&](const YAML::Node &n) { f.inputs.push_back(loadInput(n)); });
    loadItems(node, "ops", [&](const YAML::Node &n) { f.assignments.push_back(loadOp(n)); });
    loadItems(node, "outputs", [&](const YAML::Node &n) { f.outputs.push_back(loadOutput(n)); });
    return f;
  }

  // The same limit as the text form's lexer applies.
  void checkNameLength(const YAML::Node &node, const std::string &s) {
    if (s.size() > limits::kMaxIdentifierLength)
      error(node, "name '" + s.substr(0, 16) + "...' is " + std::to_string(s.size()) +
                      " characters long; names have at most " +
                      std::to_string(limits::kMaxIdentifierLength));
  }

  static bool isIdentifierText(llvm::StringRef s) {
    if (s.empty() || !(llvm::isAlpha(s[0]) || s[0] == '_'))
      return false;
    return llvm::all_of(s, [](char c) { return llvm::isAlnum(c) || c == '_'; }) && !isKeyword(s);
  }

  template <class F> void loadItems(const YAML::Node &map, const char *key, F &&load) {
    size_t item = 0;
    for (const YAML::Node &n : list(map, key)) {
      Within within(*this, "item " + std::to_string(++item) + " of '" + key + "'");
      load(n);
    }
  }

  std::vector<YAML::Node> list(const YAML::Node &map, const char *key) {
    const YAML::Node n = map[key];
    if (!n)
      return {};
    if (!n.IsSequence())
      error(n, "'" + std::string(key) + "' must be a list, found " + kindOf(n));
    return {n.begin(), n.end()};
  }

  std::string name(const YAML::Node &node, const std::string &what) {
    std::string s = scalar(node, what);
    if (!isIdentifierText(s))
      error(node, "expected " + what + ", found '" + s + "'");
    checkNameLength(node, s);
    return s;
  }

  ast::IntList intList(const YAML::Node &node, const std::string &what) {
    if (!node.IsSequence())
      error(node, what + " must be a list of integers like [0, 2, 3, 1], found " + kindOf(node));
    ast::IntList out;
    out.loc = locOf(node);
    for (const YAML::Node &item : node) {
      std::optional<Number> n = number(item);
      if (!n || !n->isInteger)
        error(item, what + " entries must be integers, found " + kindOf(item));
      out.values.push_back(n->intValue);
    }
    return out;
  }

  static std::optional<double> yamlNonFinite(llvm::StringRef s) {
    const double inf = std::numeric_limits<double>::infinity();
    bool negative = s.consume_front("-");
    if (!negative)
      s.consume_front("+");
    if (s == ".inf" || s == ".Inf" || s == ".INF")
      return negative ? -inf : inf;
    if (!negative && (s == ".nan" || s == ".NaN" || s == ".NAN"))
      return std::numeric_limits<double>::quiet_NaN();
    return std::nullopt;
  }

  // A plain scalar read as a (possibly negative) number, using the text
  // form's lexer so both forms accept the same numbers.
  std::optional<Number> number(const YAML::Node &node) {
    if (!node.IsScalar() || node.Tag() == "!")
      return std::nullopt;
    // YAML's own spellings of the infinities and NaN, besides the text
    // form's `inf`, `-inf` and `nan`.
    if (std::optional<double> v = yamlNonFinite(node.Scalar()))
      return Number::floating(*v);
    Lexer lexer(node.Scalar());
    Token t = lexer.next();
    bool negative = t.is(TokenKind::Minus);
    if (negative)
      t = lexer.next();
    if (!lexer.next().is(TokenKind::EndOfFile))
      return std::nullopt;
    // The same limits, and messages, as the text parser's literals.
    if (t.is(TokenKind::Integer)) {
      unsigned long long magnitude;
      unsigned long long limit = negative ? 1ull << 63 : (1ull << 63) - 1;
      if (t.spelling.getAsInteger(10, magnitude) || magnitude > limit)
        error(node, "integer literal '" + node.Scalar() + "' does not fit in 64 bits");
      return Number::integer(negative ? static_cast<int64_t>(0 - magnitude)
                                      : static_cast<int64_t>(magnitude));
    }
    if (t.is(TokenKind::Float)) {
      double v = std::strtod(t.spelling.str().c_str(), nullptr);
      if (std::isinf(v))
        error(node, "number '" + t.spelling.str() + "' is too large for f64");
      return Number::floating(negative ? -v : v);
    }
    if (std::optional<double> v =
            t.is(TokenKind::Identifier) ? nonFiniteLiteral(t.spelling) : std::nullopt)
      return Number::floating(negative ? -*v : *v);
    return std::nullopt;
  }

  ast::InputDecl loadInput(const YAML::Node &node) {
    if (!node.IsMap())
      error(node, "expected an input (a map with 'name', 'dtype' and optionally 'shape', "
                  "'layout', 'strided'), found " +
                      kindOf(node));
    checkKeys(node, {"name", "dtype", "shape", "layout", "strided"}, "an input");
    ast::InputDecl in;
    if (!node["name"])
      error(node, "input has no 'name'");
    if (!node["dtype"])
      error(node, "input has no 'dtype'");
    in.name = name(node["name"], "an input name");
    in.loc = locOf(node["name"]);
    in.dtype = scalar(node["dtype"], "a dtype");
    in.dtypeLoc = locOf(node["dtype"]);
    if (const YAML::Node shape = node["shape"]) {
      if (!shape.IsSequence())
        error(shape, "'shape' must be a list of extents like [M, 128], found " + kindOf(shape));
      in.dimsLoc = locOf(shape);
      std::vector<ast::Dim> dims;
      for (const YAML::Node &d : shape) {
        ast::Dim dim;
        dim.loc = locOf(d);
        if (std::optional<Number> n = number(d); n && n->isInteger)
          dim.value = n->intValue;
        else if (isExtentExpressionText(d, /*quotedToo=*/true))
          dim.expr = extentExpression(d);
        else
          dim.symbol = name(d, "an extent (an integer, a symbol or an expression of them)");
        dims.push_back(std::move(dim));
      }
      in.dims = std::move(dims);
    }
    if (const YAML::Node layout = node["layout"])
      in.layout = intList(layout, "'layout'");
    if (const YAML::Node strided = node["strided"]) {
      std::string s = scalar(strided, "true or false");
      if (s != "true" && s != "false")
        error(strided, "'strided' must be true or false, found '" + s + "'");
      if (s == "true")
        in.stridedLoc = locOf(strided);
    }
    return in;
  }

  // A plain scalar continued on a line that starts with "- ": meant as the
  // next list item but indented deeper than the item above, it is more text
  // of that item to YAML, and the text parser would only see a stray '-'.
  void checkContinuedListItem(const YAML::Node &node) {
    const std::string &value = node.Scalar();
    if (node.Tag() != "?" || value.find('-') == std::string::npos)
      return;
    const char *start = locOf(node).getPointer();
    auto lineStart = [&](const char *p) {
      while (p > buffer_.begin() && p[-1] != '\n')
        --p;
      return p;
    };
    std::vector<const char *> at = origins(node);
    for (size_t i = 0; i < value.size(); ++i) {
      if (value[i] != '-' || (i + 1 < value.size() && value[i + 1] != ' ') || at[i] <= start)
        continue;
      const char *line = lineStart(at[i]);
      if (llvm::StringRef(line, at[i] - line).find_first_not_of(' ') != llvm::StringRef::npos)
        continue;
      const char *itemLine = lineStart(start);
      llvm::StringRef before(itemLine, start - itemLine);
      size_t dash = before.rfind('-');
      diag_.error(llvm::SMLoc::getFromPointer(at[i]),
                  "this '-' at column " + std::to_string(at[i] - line + 1) +
                      " is inside the text of the list item on line " +
                      std::to_string(diag_.lineNumber(llvm::SMLoc::getFromPointer(start))) +
                      (dash == llvm::StringRef::npos
                           ? std::string()
                           : " (whose '-' is at column " + std::to_string(dash + 1) + ")") +
                      ": indented deeper than that item, YAML reads it as more of the item's "
                      "text, not as a new item; line the '-' up with the one above" +
                      context());
      throw LoadError{};
    }
  }

  ast::Assignment loadOp(const YAML::Node &node) {
    if (node.IsScalar()) {
      checkContinuedListItem(node);
      std::optional<ast::Assignment> a = parseAssignmentText(statementText(node), diag_);
      if (!a)
        throw LoadError{};
      return std::move(*a);
    }
    if (!node.IsMap())
      error(node, "expected an op: a statement string like 't1 = add(x, y)' or a map with "
                  "'out', 'op', 'args' and attributes, found " +
                      kindOf(node));
    checkUniqueKeys(node, "an op");
    ast::Assignment a;
    if (!node["out"])
      error(node, "op has no 'out' (the name of its result)");
    if (!node["op"])
      error(node, "op has no 'op' (the op to apply)");
    a.name = name(node["out"], "a value name for 'out'");
    a.loc = locOf(node["out"]);
    a.value.kind = ast::Expr::Kind::Call;
    a.value.name = name(node["op"], "an op name");
    a.value.loc = locOf(node["op"]);
    if (const YAML::Node args = node["args"]) {
      if (!args.IsSequence())
        error(args, "'args' must be a list of operands, found " + kindOf(args));
      for (const YAML::Node &arg : args) {
        if (!arg.IsScalar())
          error(arg,
                "expected an operand (a value name, a number or an op call), found " + kindOf(arg));
        checkContinuedListItem(arg);
        std::optional<ast::Expr> e = parseExprText(statementText(arg), diag_);
        if (!e)
          throw LoadError{};
        ast::Argument argument;
        argument.operand = std::make_unique<ast::Expr>(std::move(*e));
        a.value.args.push_back(std::move(argument));
      }
    }
    for (auto it = node.begin(); it != node.end(); ++it) {
      std::string key = scalar(it->first, "an attribute name");
      if (key == "out" || key == "op" || key == "args")
        continue;
      // An empty key (`: 1`, or a bare tag such as `!t : 1`) names nothing;
      // as an argument it would read as an operand that is not there.
      if (key.empty())
        error(it->first, "expected an attribute name, found an empty key");
      ast::Argument argument;
      argument.attrName = key;
      argument.nameLoc = locOf(it->first);
      argument.attr = attrValue(it->second);
      a.value.args.push_back(std::move(argument));
    }
    return a;
  }

  // A scalar such as `32*G` or `C / 32`: an operator or parenthesis among
  // names and digits. Quoted, it is one only where an extent is expected
  // (`quotedToo`): as an attribute value it is a string.
  static bool isExtentExpressionText(const YAML::Node &node, bool quotedToo = false) {
    if (!node.IsScalar() || (node.Tag() == "!" && !quotedToo))
      return false;
    const std::string &s = node.Scalar();
    bool anOperator = false;
    for (char c : s) {
      if (std::strchr("+-*/%(", c))
        anOperator = true;
      else if (!std::isalnum(static_cast<unsigned char>(c)) && !std::strchr("_ ,)", c))
        return false;
    }
    return anOperator;
  }

  ast::ExtentExpr extentExpression(const YAML::Node &node) {
    std::optional<ast::ExtentExpr> e = parseExtentText(statementText(node), diag_);
    if (!e)
      throw LoadError{};
    return std::move(*e);
  }

  ast::AttrValue attrValue(const YAML::Node &node) {
    ast::AttrValue v;
    v.loc = locOf(node);
    if (node.IsSequence()) {
      v.kind = ast::AttrValue::Kind::List;
      for (const YAML::Node &item : node)
        v.items.push_back(attrValue(item));
      return v;
    }
    if (!node.IsScalar())
      error(node, "expected an attribute value, found " + kindOf(node));
    const std::string &s = node.Scalar();
    if (std::optional<Number> n = number(node)) {
      v.kind = n->isInteger ? ast::AttrValue::Kind::Integer : ast::AttrValue::Kind::Float;
      v.intValue = n->intValue;
      v.floatValue = n->floatValue;
    } else if (node.Tag() != "!" && (s == "true" || s == "false")) {
      v.kind = ast::AttrValue::Kind::Bool;
      v.boolValue = s == "true";
    } else if (node.Tag() != "!" && isIdentifierText(s)) {
      v.kind = ast::AttrValue::Kind::Identifier;
      v.text = s;
    } else if (isExtentExpressionText(node)) {
      v.kind = ast::AttrValue::Kind::Extent;
      v.extent = std::make_shared<const ast::ExtentExpr>(extentExpression(node));
    } else {
      v.kind = ast::AttrValue::Kind::String;
      v.text = s;
    }
    return v;
  }

  ast::OutputDecl loadOutput(const YAML::Node &node) {
    ast::OutputDecl out;
    if (node.IsScalar()) {
      out.name = name(node, "an output name");
      out.loc = locOf(node);
      return out;
    }
    if (!node.IsMap())
      error(node, "expected an output: a name or a map with 'name', 'layout', 'aliases', found " +
                      kindOf(node));
    checkKeys(node, {"name", "layout", "aliases"}, "an output");
    if (!node["name"])
      error(node, "output has no 'name'");
    out.name = name(node["name"], "an output name");
    out.loc = locOf(node["name"]);
    if (const YAML::Node layout = node["layout"])
      out.layout = intList(layout, "'layout'");
    if (const YAML::Node aliases = node["aliases"]) {
      out.aliases = name(aliases, "the name of the aliased input");
      out.aliasesLoc = locOf(aliases);
    }
    return out;
  }

  DiagnosticEngine &diag_;
  llvm::StringRef buffer_;
  unsigned errorsBefore_ = diag_.errorCount();
};

} // namespace

std::optional<std::vector<ast::Fusion>> parseFusionYaml(unsigned bufferId, DiagnosticEngine &diag) {
  try {
    return YamlLoader(bufferId, diag).load();
  } catch (LoadError &) {
    return std::nullopt;
  }
}

} // namespace fuserc
