// The recursive-descent parser of the fusion text form (docs/language.md, "Grammar").
//
// Grammar:
//   file       := fusion*
//   fusion     := 'fusion' IDENT '{' statement* '}'
//   statement  := 'input' IDENT ':' DTYPE ('[' dims ']')? ('layout' intlist)? 'strided'?
//               | 'output' IDENT ('layout' intlist)? ('aliases' IDENT)?
//               | IDENT '=' expr
//   expr       := IDENT '(' (arg (',' arg)*)? ')' | IDENT | number
//   number     := '-'? (NUMBER | 'inf' | 'nan')
//   arg        := IDENT '=' attrvalue | expr
//   attrvalue  := number | IDENT | STRING | '[' (attrvalue (',' attrvalue)*)? ']'
//   intlist    := '(' (INT (',' INT)*)? ')'
// Syntax errors stop the parse of the file (the first one is reported).
#pragma once

#include "frontend/AST.h"
#include "support/Diagnostics.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <vector>

namespace fuserc {

// Parses a whole .fus buffer; nullopt after reporting a syntax error.
std::optional<std::vector<ast::Fusion>> parseFusionText(llvm::StringRef text,
                                                        DiagnosticEngine &diag);

// Parses one statement `NAME = expr` (as in a YAML op entry) spanning all of
// `text`; nullopt after reporting an error.
std::optional<ast::Assignment> parseAssignmentText(llvm::StringRef text, DiagnosticEngine &diag);

// Parses an expression (a YAML `args` entry) spanning all of `text`.
std::optional<ast::Expr> parseExprText(llvm::StringRef text, DiagnosticEngine &diag);

// Parses an extent expression (a YAML shape entry such as `32*G`) spanning
// all of `text`.
std::optional<ast::ExtentExpr> parseExtentText(llvm::StringRef text, DiagnosticEngine &diag);

// Words with a meaning in the text form; they cannot name values.
bool isKeyword(llvm::StringRef word);

// The value of the literal `inf` or `nan`, or nullopt for any other word.
std::optional<double> nonFiniteLiteral(llvm::StringRef word);

} // namespace fuserc
