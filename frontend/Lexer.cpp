// The fusion text lexer (see Lexer.h).
#include "frontend/Lexer.h"

#include "ir/Limits.h"

#include "llvm/ADT/StringExtras.h"

#include <cctype>

namespace fuserc {

std::string_view tokenKindName(TokenKind kind) {
  switch (kind) {
  case TokenKind::Identifier:
    return "identifier";
  case TokenKind::Integer:
    return "integer";
  case TokenKind::Float:
    return "number";
  case TokenKind::String:
    return "string";
  case TokenKind::LParen:
    return "'('";
  case TokenKind::RParen:
    return "')'";
  case TokenKind::LBrace:
    return "'{'";
  case TokenKind::RBrace:
    return "'}'";
  case TokenKind::LBracket:
    return "'['";
  case TokenKind::RBracket:
    return "']'";
  case TokenKind::Comma:
    return "','";
  case TokenKind::Colon:
    return "':'";
  case TokenKind::Equal:
    return "'='";
  case TokenKind::Minus:
    return "'-'";
  case TokenKind::Plus:
    return "'+'";
  case TokenKind::Star:
    return "'*'";
  case TokenKind::Slash:
    return "'/'";
  case TokenKind::Percent:
    return "'%'";
  case TokenKind::EndOfFile:
    return "end of input";
  case TokenKind::Error:
    return "invalid token";
  }
  return "token";
}

void Lexer::skipSpaceAndComments() {
  while (pos_ != text_.end()) {
    char c = *pos_;
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++pos_;
    } else if (c == '#' || (c == '/' && pos_ + 1 != text_.end() && pos_[1] == '/')) {
      while (pos_ != text_.end() && *pos_ != '\n')
        ++pos_;
    } else {
      return;
    }
  }
}

Token Lexer::make(TokenKind kind, const char *begin) {
  Token t;
  t.kind = kind;
  t.spelling = llvm::StringRef(begin, pos_ - begin);
  t.loc = llvm::SMLoc::getFromPointer(begin);
  return t;
}

Token Lexer::next() {
  skipSpaceAndComments();
  const char *begin = pos_;
  if (pos_ == text_.end())
    return make(TokenKind::EndOfFile, begin);
  char c = *pos_;
  if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
    while (pos_ != text_.end() && (std::isalnum(static_cast<unsigned char>(*pos_)) || *pos_ == '_'))
      ++pos_;
    if (size_t length = pos_ - begin; length > limits::kMaxIdentifierLength) {
      Token t = make(TokenKind::Error, begin);
      t.value = "name '" + t.spelling.take_front(16).str() + "...' is " + std::to_string(length) +
                " characters long; names have at most " +
                std::to_string(limits::kMaxIdentifierLength);
      return t;
    }
    return make(TokenKind::Identifier, begin);
  }
  if (std::isdigit(static_cast<unsigned char>(c)) ||
      (c == '.' && pos_ + 1 != text_.end() && std::isdigit(static_cast<unsigned char>(pos_[1]))))
    return lexNumber(begin);
  if (c == '"')
    return lexString(begin);
  ++pos_;
  switch (c) {
  case '(':
    return make(TokenKind::LParen, begin);
  case ')':
    return make(TokenKind::RParen, begin);
  case '{':
    return make(TokenKind::LBrace, begin);
  case '}':
    return make(TokenKind::RBrace, begin);
  case '[':
    return make(TokenKind::LBracket, begin);
  case ']':
    return make(TokenKind::RBracket, begin);
  case ',':
    return make(TokenKind::Comma, begin);
  case ':':
    return make(TokenKind::Colon, begin);
  case '=':
    return make(TokenKind::Equal, begin);
  case '-':
    return make(TokenKind::Minus, begin);
  case '+':
    return make(TokenKind::Plus, begin);
  case '*':
    return make(TokenKind::Star, begin);
  case '/':
    return make(TokenKind::Slash, begin);
  case '%':
    return make(TokenKind::Percent, begin);
  default:
    break;
  }
  Token t = make(TokenKind::Error, begin);
  if (std::isprint(static_cast<unsigned char>(c)))
    t.value = std::string("unexpected character '") + c + "'";
  else
    t.value = "unexpected byte 0x" + llvm::utohexstr(static_cast<unsigned char>(c), true, 2);
  return t;
}

Token Lexer::lexNumber(const char *begin) {
  auto digits = [&] {
    while (pos_ != text_.end() && std::isdigit(static_cast<unsigned char>(*pos_)))
      ++pos_;
  };
  bool isFloat = false;
  digits();
  if (pos_ != text_.end() && *pos_ == '.') {
    isFloat = true;
    ++pos_;
    digits();
  }
  if (pos_ != text_.end() && (*pos_ == 'e' || *pos_ == 'E')) {
    const char *mark = pos_++;
    if (pos_ != text_.end() && (*pos_ == '+' || *pos_ == '-'))
      ++pos_;
    if (pos_ == text_.end() || !std::isdigit(static_cast<unsigned char>(*pos_))) {
      // Quote the number up to and including the sign, as the user wrote it.
      std::string written(begin, pos_);
      pos_ = mark + 1;
      Token t = make(TokenKind::Error, begin);
      t.value = "expected digits in the exponent of '" + written + "'";
      return t;
    }
    isFloat = true;
    digits();
  }
  if (pos_ != text_.end() && (std::isalpha(static_cast<unsigned char>(*pos_)) || *pos_ == '_')) {
    while (pos_ != text_.end() && (std::isalnum(static_cast<unsigned char>(*pos_)) || *pos_ == '_'))
      ++pos_;
    Token t = make(TokenKind::Error, begin);
    t.value = "invalid number '" + t.spelling.str() + "'";
    return t;
  }
  return make(isFloat ? TokenKind::Float : TokenKind::Integer, begin);
}

Token Lexer::lexString(const char *begin) {
  ++pos_; // opening quote
  std::string value;
  while (pos_ != text_.end() && *pos_ != '"' && *pos_ != '\n') {
    if (*pos_ == '\\' && pos_ + 1 != text_.end() && (pos_[1] == '"' || pos_[1] == '\\'))
      ++pos_;
    value += *pos_++;
  }
  if (pos_ == text_.end() || *pos_ != '"') {
    Token t = make(TokenKind::Error, begin);
    t.value = "unterminated string; expected a closing '\"' on the same line";
    return t;
  }
  ++pos_;
  Token t = make(TokenKind::String, begin);
  t.value = std::move(value);
  return t;
}

} // namespace fuserc
