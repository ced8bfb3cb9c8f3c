// The fusion text parser (see Parser.h).
#include "frontend/Parser.h"

#include "frontend/Lexer.h"
#include "ir/Limits.h"

#include "llvm/ADT/StringSwitch.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace fuserc {

bool isKeyword(llvm::StringRef word) {
  return llvm::StringSwitch<bool>(word)
      .Cases("fusion", "input", "output", "layout", "strided", "aliases", true)
      .Cases("true", "false", "inf", "nan", true)
      .Default(false);
}

std::optional<double> nonFiniteLiteral(llvm::StringRef word) {
  if (word == "inf")
    return std::numeric_limits<double>::infinity();
  if (word == "nan")
    return std::numeric_limits<double>::quiet_NaN();
  return std::nullopt;
}

namespace {

// Thrown after a syntax error has been reported; unwinds the parse.
struct SyntaxError {};

class Parser {
public:
  Parser(llvm::StringRef text, DiagnosticEngine &diag) : lexer_(text), diag_(diag) { advance(); }

  std::vector<ast::Fusion> parseFile() {
    std::vector<ast::Fusion> fusions;
    while (!tok_.is(TokenKind::EndOfFile))
      fusions.push_back(parseFusion());
    return fusions;
  }

  // A statement or operand embedded in YAML ends where its scalar ends,
  // which the user knows as the end of the statement, not of any input.
  ast::Assignment parseWholeAssignment() {
    end_ = "end of the statement";
    ast::Assignment a = parseAssignment();
    expectEnd();
    return a;
  }

  ast::Expr parseWholeExpr() {
    end_ = "end of the operand";
    ast::Expr e = parseExpr();
    expectEnd();
    return e;
  }

  ast::ExtentExpr parseWholeExtent() {
    end_ = "end of the extent";
    extentOperators_ = 0;
    ast::ExtentExpr e = parseExtentExpr();
    expectEnd();
    return e;
  }

private:
  void advance() {
    tok_ = lexer_.next();
    if (tok_.is(TokenKind::Error)) {
      diag_.error(tok_.loc, tok_.value);
      throw SyntaxError{};
    }
  }

  // With `open` set, the error is about a missing closing bracket, and a
  // note points at the opening one: the token found may be lines later.
  [[noreturn]] void errorExpected(llvm::StringRef what, const Token *open = nullptr) {
    std::string found = tok_.is(TokenKind::EndOfFile) ? end_
                                                      : std::string(tokenKindName(tok_.kind)) +
                                                            " '" + tok_.spelling.str() + "'";
    if (tok_.kind != TokenKind::Identifier && tok_.kind != TokenKind::Integer &&
        tok_.kind != TokenKind::Float && tok_.kind != TokenKind::String &&
        !tok_.is(TokenKind::EndOfFile))
      found = std::string(tokenKindName(tok_.kind));
    diag_.error(tok_.loc, "expected " + what + ", found " + found);
    if (open)
      diag_.note(open->loc, "to match this " + std::string(tokenKindName(open->kind)));
    throw SyntaxError{};
  }

  void expect(TokenKind kind, llvm::StringRef what, const Token *open = nullptr) {
    if (!tok_.is(kind))
      errorExpected(what, open);
    advance();
  }

  void expectEnd() {
    if (!tok_.is(TokenKind::EndOfFile))
      errorExpected(end_);
  }

  // A clause given twice, e.g. `layout(...) layout(...)`: the second would
  // silently win, so it is an error.
  [[noreturn]] void errorRepeated(llvm::StringRef clause, llvm::StringRef owner,
                                  llvm::SMLoc first) {
    diag_.error(tok_.loc, "'" + clause + "' is given twice for " + owner);
    diag_.note(first, "first given here");
    throw SyntaxError{};
  }

  // Counts one level of nesting (an op call or a list) for the lifetime of
  // the guard; past limits::kMaxNesting the parse stops with an error, so
  // the recursion of this parser, and of every later walk over the tree,
  // stays bounded.
  class NestingGuard {
  public:
    NestingGuard(Parser &p, llvm::SMLoc at, llvm::StringRef what) : p_(p) {
      if (++p_.nesting_ > limits::kMaxNesting) {
        p_.diag_.error(at, what + " nested more than " + std::to_string(limits::kMaxNesting) +
                               " deep; split the expression into statements");
        throw SyntaxError{};
      }
    }
    ~NestingGuard() { --p_.nesting_; }
    NestingGuard(const NestingGuard &) = delete;
    NestingGuard &operator=(const NestingGuard &) = delete;

  private:
    Parser &p_;
  };

  // An identifier that names something (not a keyword).
  std::string expectName(llvm::StringRef what, llvm::SMLoc *loc) {
    if (!tok_.is(TokenKind::Identifier))
      errorExpected(what);
    if (isKeyword(tok_.spelling)) {
      diag_.error(tok_.loc, "'" + tok_.spelling + "' is a keyword and cannot be used as " + what);
      throw SyntaxError{};
    }
    *loc = tok_.loc;
    std::string name = tok_.spelling.str();
    advance();
    return name;
  }

  int64_t integerValue(const Token &t, bool negative) {
    uint64_t magnitude = 0;
    auto [end, ec] = std::from_chars(t.spelling.begin(), t.spelling.end(), magnitude);
    uint64_t limit = negative ? uint64_t(1) << 63 : (uint64_t(1) << 63) - 1;
    if (ec != std::errc() || end != t.spelling.end() || magnitude > limit) {
      diag_.error(t.loc, "integer literal '" + (negative ? "-" : std::string()) + t.spelling +
                             "' does not fit in 64 bits");
      throw SyntaxError{};
    }
    return negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
  }

  double floatValue(const Token &t, bool negative) {
    double v = std::strtod(t.spelling.str().c_str(), nullptr);
    if (std::isinf(v)) {
      diag_.error(t.loc, "number '" + t.spelling + "' is too large for f64");
      throw SyntaxError{};
    }
    return negative ? -v : v;
  }

  bool atNumber() const {
    return tok_.is(TokenKind::Integer) || tok_.is(TokenKind::Float) || tok_.is(TokenKind::Minus) ||
           (tok_.is(TokenKind::Identifier) && nonFiniteLiteral(tok_.spelling));
  }

  // '-'? (NUMBER | 'inf' | 'nan'), with the sign folded in.
  Number parseNumber(llvm::SMLoc *loc) {
    *loc = tok_.loc;
    bool negative = false;
    if (tok_.is(TokenKind::Minus)) {
      negative = true;
      advance();
    }
    Token t = tok_;
    if (t.is(TokenKind::Integer)) {
      advance();
      return Number::integer(integerValue(t, negative));
    }
    if (t.is(TokenKind::Float)) {
      advance();
      return Number::floating(floatValue(t, negative));
    }
    if (std::optional<double> v =
            t.is(TokenKind::Identifier) ? nonFiniteLiteral(t.spelling) : std::nullopt) {
      advance();
      return Number::floating(negative ? -*v : *v);
    }
    errorExpected(negative ? "a number after '-'" : "a number");
  }

  // An extent expression: sums and differences of products, quotients and
  // remainders of integers, symbols, parenthesized expressions and calls of
  // floordiv, ceildiv, mod, min and max.
  ast::ExtentExpr parseExtentExpr() {
    NestingGuard nested(*this, tok_.loc, "extent expressions");
    return continueExtentSum(parseExtentTerm());
  }

  // The rest of a sum whose first term is parsed.
  ast::ExtentExpr continueExtentSum(ast::ExtentExpr lhs) {
    while (tok_.is(TokenKind::Plus) || tok_.is(TokenKind::Minus))
      lhs = extentOperation(tok_.is(TokenKind::Plus) ? ast::ExtentExpr::Kind::Add
                                                     : ast::ExtentExpr::Kind::Sub,
                            std::move(lhs), [&] { return parseExtentTerm(); });
    return lhs;
  }

  ast::ExtentExpr parseExtentTerm() { return continueExtentTerm(parseExtentPrimary()); }

  // The rest of a product whose first factor is parsed.
  ast::ExtentExpr continueExtentTerm(ast::ExtentExpr lhs) {
    while (tok_.is(TokenKind::Star) || tok_.is(TokenKind::Slash) || tok_.is(TokenKind::Percent))
      lhs = extentOperation(tok_.is(TokenKind::Star)    ? ast::ExtentExpr::Kind::Mul
                            : tok_.is(TokenKind::Slash) ? ast::ExtentExpr::Kind::Div
                                                        : ast::ExtentExpr::Kind::Mod,
                            std::move(lhs), [&] { return parseExtentPrimary(); });
    return lhs;
  }

  // `lhs OP rhs` at the operator token: counts it, and parses the right
  // operand with `parseRhs`.
  template <class F>
  ast::ExtentExpr extentOperation(ast::ExtentExpr::Kind kind, ast::ExtentExpr lhs, F parseRhs) {
    ast::ExtentExpr e;
    e.kind = kind;
    e.loc = tok_.loc;
    countExtentOperator(e.loc);
    advance();
    e.operands.push_back(std::move(lhs));
    e.operands.push_back(parseRhs());
    return e;
  }

  ast::ExtentExpr parseExtentPrimary() {
    ast::ExtentExpr e;
    e.loc = tok_.loc;
    if (tok_.is(TokenKind::Integer)) {
      e.value = integerValue(tok_, false);
      advance();
      return e;
    }
    if (tok_.is(TokenKind::LParen)) {
      advance();
      e = parseExtentExpr();
      expect(TokenKind::RParen, "')' closing the extent expression");
      return e;
    }
    if (!tok_.is(TokenKind::Identifier) || nonFiniteLiteral(tok_.spelling))
      errorExpected("an extent (an integer, a symbol or an expression of them)");
    e.name = tok_.spelling.str();
    advance();
    if (!tok_.is(TokenKind::LParen)) {
      e.kind = ast::ExtentExpr::Kind::Symbol;
      return e;
    }
    e.kind = ast::ExtentExpr::Kind::Call;
    countExtentOperator(e.loc);
    NestingGuard nested(*this, e.loc, "extent expressions");
    Token open = tok_;
    advance();
    while (!tok_.is(TokenKind::RParen)) {
      if (!e.operands.empty())
        expect(TokenKind::Comma, "',' or ')' in the call", &open);
      e.operands.push_back(parseExtentExpr());
    }
    advance();
    return e;
  }

  // One more operator or call in the extent expression being parsed: at most
  // kMaxNesting of them, which bounds the depth of the expression's tree.
  void countExtentOperator(llvm::SMLoc at) {
    if (++extentOperators_ > limits::kMaxNesting) {
      diag_.error(at, "an extent expression with more than " + std::to_string(limits::kMaxNesting) +
                          " operators");
      throw SyntaxError{};
    }
  }

  bool atExtentOperator() const {
    return tok_.is(TokenKind::Plus) || tok_.is(TokenKind::Minus) || tok_.is(TokenKind::Star) ||
           tok_.is(TokenKind::Slash) || tok_.is(TokenKind::Percent);
  }

  ast::Fusion parseFusion() {
    if (!tok_.isIdentifier("fusion"))
      errorExpected("'fusion'");
    advance();
    ast::Fusion f;
    f.name = expectName("a fusion name", &f.loc);
    Token open = tok_;
    expect(TokenKind::LBrace, "'{' after the fusion name");
    while (!tok_.is(TokenKind::RBrace)) {
      // A `fusion` here means the '}' of this one was forgotten.
      if (tok_.is(TokenKind::EndOfFile) || tok_.isIdentifier("fusion"))
        errorExpected("'}' to close fusion '" + f.name + "'", &open);
      if (tok_.isIdentifier("input"))
        f.inputs.push_back(parseInput());
      else if (tok_.isIdentifier("output"))
        f.outputs.push_back(parseOutput());
      else if (tok_.is(TokenKind::Identifier)) // a keyword is reported as a bad value name
        f.assignments.push_back(parseAssignment());
      else
        errorExpected("a statement ('input', 'output' or 'NAME = ...')");
    }
    advance();
    return f;
  }

  // `layout(...)`, at the 'layout' keyword (which diagnostics point at).
  ast::IntList parseLayout() {
    ast::IntList list;
    list.loc = tok_.loc;
    advance();
    Token open = tok_;
    expect(TokenKind::LParen, "'(' after 'layout'");
    while (!tok_.is(TokenKind::RParen)) {
      if (!list.values.empty())
        expect(TokenKind::Comma, "',' or ')' in the layout", &open);
      llvm::SMLoc loc;
      Number n = parseNumber(&loc);
      if (!n.isInteger) {
        diag_.error(loc, "layout entries must be integers, found '" + n.str() + "'");
        throw SyntaxError{};
      }
      list.values.push_back(n.intValue);
    }
    advance();
    return list;
  }

  ast::InputDecl parseInput() {
    advance(); // 'input'
    ast::InputDecl in;
    in.name = expectName("an input name", &in.loc);
    expect(TokenKind::Colon, "':' after the input name");
    if (!tok_.is(TokenKind::Identifier))
      errorExpected("a dtype (bool, i32, i64, f16, bf16, f32 or f64)");
    in.dtype = tok_.spelling.str();
    in.dtypeLoc = tok_.loc;
    advance();
    if (tok_.is(TokenKind::LBracket)) {
      in.dimsLoc = tok_.loc;
      Token open = tok_;
      advance();
      std::vector<ast::Dim> dims;
      while (!tok_.is(TokenKind::RBracket)) {
        if (!dims.empty())
          expect(TokenKind::Comma, "',' or ']' in the shape", &open);
        ast::Dim d;
        d.loc = tok_.loc;
        if (atNumber() && !tok_.is(TokenKind::Integer)) {
          llvm::SMLoc loc;
          Number n = parseNumber(&loc);
          if (!n.isInteger) {
            diag_.error(loc, "extents must be integers or symbols, found '" + n.str() + "'");
            throw SyntaxError{};
          }
          d.value = n.intValue;
        } else {
          extentOperators_ = 0;
          ast::ExtentExpr e = parseExtentExpr();
          if (e.kind == ast::ExtentExpr::Kind::Integer)
            d.value = e.value;
          else if (e.kind == ast::ExtentExpr::Kind::Symbol && !isKeyword(e.name))
            d.symbol = e.name;
          else if (e.kind == ast::ExtentExpr::Kind::Symbol)
            diag_.error(e.loc,
                        "'" + e.name + "' is a keyword and cannot be used as a symbolic extent");
          else
            d.expr = std::move(e);
        }
        dims.push_back(std::move(d));
      }
      advance();
      in.dims = std::move(dims);
    }
    while (true) {
      if (tok_.isIdentifier("layout")) {
        if (in.layout)
          errorRepeated("layout", "input '" + in.name + "'", in.layout->loc);
        in.layout = parseLayout();
      } else if (tok_.isIdentifier("strided")) {
        if (in.stridedLoc)
          errorRepeated("strided", "input '" + in.name + "'", *in.stridedLoc);
        in.stridedLoc = tok_.loc;
        advance();
      } else {
        break;
      }
    }
    return in;
  }

  ast::OutputDecl parseOutput() {
    advance(); // 'output'
    ast::OutputDecl out;
    out.name = expectName("an output name", &out.loc);
    std::optional<llvm::SMLoc> aliasesKeyword;
    while (true) {
      if (tok_.isIdentifier("layout")) {
        if (out.layout)
          errorRepeated("layout", "output '" + out.name + "'", out.layout->loc);
        out.layout = parseLayout();
      } else if (tok_.isIdentifier("aliases")) {
        if (aliasesKeyword)
          errorRepeated("aliases", "output '" + out.name + "'", *aliasesKeyword);
        aliasesKeyword = tok_.loc;
        advance();
        out.aliases = expectName("the name of the aliased input", &out.aliasesLoc);
      } else {
        break;
      }
    }
    return out;
  }

  ast::Assignment parseAssignment() {
    ast::Assignment a;
    a.name = expectName("a value name", &a.loc);
    expect(TokenKind::Equal, "'=' after '" + a.name + "'");
    a.value = parseExpr();
    return a;
  }

  ast::Expr parseExpr() {
    ast::Expr e;
    e.loc = tok_.loc;
    if (atNumber()) {
      e.kind = ast::Expr::Kind::Number;
      llvm::SMLoc loc;
      e.number = parseNumber(&loc);
      return e;
    }
    if (!tok_.is(TokenKind::Identifier))
      errorExpected("an operand (a value name, a number or an op call)");
    llvm::SMLoc loc;
    e.name = expectName("a value or op name", &loc);
    if (!tok_.is(TokenKind::LParen)) {
      e.kind = ast::Expr::Kind::Name;
      return e;
    }
    e.kind = ast::Expr::Kind::Call;
    NestingGuard nested(*this, e.loc, "op calls");
    Token open = tok_;
    advance();
    while (!tok_.is(TokenKind::RParen)) {
      if (!e.args.empty())
        expect(TokenKind::Comma, "',' or ')' in the arguments of '" + e.name + "'", &open);
      e.args.push_back(parseArgument());
    }
    advance();
    return e;
  }

  ast::Argument parseArgument() {
    ast::Argument arg;
    if (tok_.is(TokenKind::Identifier)) {
      // Attribute `key=value` or a positional operand starting with a name.
      Token name = tok_;
      Lexer saved = lexer_;
      advance();
      if (tok_.is(TokenKind::Equal)) {
        arg.attrName = name.spelling.str();
        arg.nameLoc = name.loc;
        advance();
        arg.attr = parseAttrValue();
        return arg;
      }
      lexer_ = saved;
      tok_ = name;
    }
    arg.operand = std::make_unique<ast::Expr>(parseExpr());
    return arg;
  }

  ast::AttrValue parseAttrValue() {
    ast::AttrValue v;
    v.loc = tok_.loc;
    // An extent expression: `(`, or an integer or a name an operator follows.
    if (tok_.is(TokenKind::LParen) || tok_.is(TokenKind::Integer) ||
        (tok_.is(TokenKind::Identifier) && !nonFiniteLiteral(tok_.spelling))) {
      Token first = tok_;
      extentOperators_ = 0;
      ast::ExtentExpr e = parseExtentPrimary();
      if (first.is(TokenKind::LParen) || e.kind == ast::ExtentExpr::Kind::Call ||
          atExtentOperator()) {
        e = continueExtentSum(continueExtentTerm(std::move(e)));
        v.kind = ast::AttrValue::Kind::Extent;
        v.extent = std::make_shared<const ast::ExtentExpr>(std::move(e));
        return v;
      }
      if (e.kind == ast::ExtentExpr::Kind::Integer) {
        v.kind = ast::AttrValue::Kind::Integer;
        v.intValue = e.value;
      } else if (e.name == "true" || e.name == "false") {
        v.kind = ast::AttrValue::Kind::Bool;
        v.boolValue = e.name == "true";
      } else {
        v.kind = ast::AttrValue::Kind::Identifier;
        v.text = e.name;
      }
      return v;
    }
    if (atNumber()) {
      llvm::SMLoc loc;
      Number n = parseNumber(&loc);
      v.kind = n.isInteger ? ast::AttrValue::Kind::Integer : ast::AttrValue::Kind::Float;
      v.intValue = n.intValue;
      v.floatValue = n.floatValue;
      return v;
    }
    switch (tok_.kind) {
    case TokenKind::String:
      v.kind = ast::AttrValue::Kind::String;
      v.text = tok_.value;
      advance();
      return v;
    case TokenKind::LBracket: {
      v.kind = ast::AttrValue::Kind::List;
      NestingGuard nested(*this, v.loc, "lists");
      Token open = tok_;
      advance();
      while (!tok_.is(TokenKind::RBracket)) {
        if (!v.items.empty())
          expect(TokenKind::Comma, "',' or ']' in the list", &open);
        v.items.push_back(parseAttrValue());
      }
      advance();
      return v;
    }
    default:
      errorExpected("an attribute value");
    }
  }

  Lexer lexer_;
  DiagnosticEngine &diag_;
  Token tok_;
  std::string end_ = "end of input"; // what EndOfFile means to the user
  size_t nesting_ = 0;               // open op calls and lists
  size_t extentOperators_ = 0;       // in the extent expression being parsed
};

template <class F> auto guarded(F &&f) -> std::optional<decltype(f())> {
  try {
    return f();
  } catch (SyntaxError &) {
    return std::nullopt;
  }
}

} // namespace

std::optional<std::vector<ast::Fusion>> parseFusionText(llvm::StringRef text,
                                                        DiagnosticEngine &diag) {
  return guarded([&] { return Parser(text, diag).parseFile(); });
}

std::optional<ast::Assignment> parseAssignmentText(llvm::StringRef text, DiagnosticEngine &diag) {
  return guarded([&] { return Parser(text, diag).parseWholeAssignment(); });
}

std::optional<ast::Expr> parseExprText(llvm::StringRef text, DiagnosticEngine &diag) {
  return guarded([&] { return Parser(text, diag).parseWholeExpr(); });
}

std::optional<ast::ExtentExpr> parseExtentText(llvm::StringRef text, DiagnosticEngine &diag) {
  return guarded([&] { return Parser(text, diag).parseWholeExtent(); });
}

} // namespace fuserc
