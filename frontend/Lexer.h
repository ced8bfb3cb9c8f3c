// The hand-written lexer of the fusion text form (docs/language.md, "Text form").
//
// It works on a range of a SourceMgr buffer, so every token's location is a
// real position for diagnostics; the YAML loader lexes op statements in
// place inside the YAML file the same way.
#pragma once

#include "ir/Attributes.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <string>

namespace fuserc {

enum class TokenKind {
  Identifier,
  Integer, // digits only; a leading '-' is a separate token
  Float,
  String, // text without the quotes, escapes resolved
  LParen,
  RParen,
  LBrace,
  RBrace,
  LBracket,
  RBracket,
  Comma,
  Colon,
  Equal,
  Minus,
  Plus, // extent expressions: + * / %
  Star,
  Slash,
  Percent,
  EndOfFile,
  Error, // text is the message
};

struct Token {
  TokenKind kind = TokenKind::EndOfFile;
  llvm::StringRef spelling; // the source text of the token
  std::string value;        // String: unescaped contents; Error: message
  llvm::SMLoc loc;

  bool is(TokenKind k) const { return kind == k; }
  bool isIdentifier(llvm::StringRef word) const {
    return kind == TokenKind::Identifier && spelling == word;
  }
};

std::string_view tokenKindName(TokenKind kind);

class Lexer {
public:
  explicit Lexer(llvm::StringRef text) : text_(text), pos_(text.begin()) {}

  Token next();
  // The location just past the last character (for "expected ... at end").
  llvm::SMLoc endLoc() const { return llvm::SMLoc::getFromPointer(text_.end()); }

private:
  void skipSpaceAndComments();
  Token make(TokenKind kind, const char *begin);
  Token lexNumber(const char *begin);
  Token lexString(const char *begin);

  llvm::StringRef text_;
  const char *pos_;
};

} // namespace fuserc
