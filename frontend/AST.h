// The syntax tree shared by the text parser and the YAML loader.
//
// Both frontends produce these nodes (with locations into their source
// buffers) and hand them to the FusionBuilder, which does all semantic
// checking; so the two forms of one fusion give identical IR and the same
// diagnostics.
#pragma once

#include "ir/Attributes.h"

#include "llvm/Support/SMLoc.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fuserc::ast {

// An extent expression as written (docs/language.md, "Extents"): an integer,
// a symbol, `a + b`, `a - b`, `a * b`, `a / b` (exact division), `a % b`,
// or a call of floordiv, ceildiv, mod, min or max.
struct ExtentExpr {
  enum class Kind { Integer, Symbol, Add, Sub, Mul, Div, Mod, Call };
  Kind kind = Kind::Integer;
  int64_t value = 0;                // Integer
  std::string name;                 // Symbol; Call: the function
  std::vector<ExtentExpr> operands; // Add..Mod: two; Call: the arguments
  llvm::SMLoc loc;                  // the operator's, or the primary's
};

// An attribute value as written: `1`, `-2.5`, `true`, `f32`, `M`, `"tanh"`,
// an extent expression (`C / 32`), or a list of these.
struct AttrValue {
  enum class Kind { Integer, Float, Bool, Identifier, String, List, Extent };
  Kind kind = Kind::Integer;
  int64_t intValue = 0;
  double floatValue = 0;
  bool boolValue = false;
  std::string text; // Identifier, String
  std::vector<AttrValue> items;
  std::shared_ptr<const ExtentExpr> extent; // Extent
  llvm::SMLoc loc;
};

struct Expr;

struct Argument {
  std::string attrName; // empty for a positional operand
  llvm::SMLoc nameLoc;
  std::unique_ptr<Expr> operand; // positional
  AttrValue attr;                // keyword
};

// A value name, a numeric literal or an op call.
struct Expr {
  enum class Kind { Name, Number, Call };
  Kind kind = Kind::Name;
  std::string name; // Name: the value; Call: the op
  Number number;
  std::vector<Argument> args;
  llvm::SMLoc loc;
};

struct Dim {
  std::optional<int64_t> value;   // static extent
  std::string symbol;             // symbolic extent
  std::optional<ExtentExpr> expr; // an expression of extents (`32*G`)
  llvm::SMLoc loc;
};

struct IntList {
  std::vector<int64_t> values;
  llvm::SMLoc loc;
};

struct InputDecl {
  std::string name;
  llvm::SMLoc loc;
  std::string dtype;
  llvm::SMLoc dtypeLoc;
  std::optional<std::vector<Dim>> dims; // absent: a scalar input
  llvm::SMLoc dimsLoc;
  std::optional<IntList> layout;
  std::optional<llvm::SMLoc> stridedLoc;
};

struct Assignment {
  std::string name;
  llvm::SMLoc loc;
  Expr value;
};

struct OutputDecl {
  std::string name;
  llvm::SMLoc loc;
  std::optional<IntList> layout;
  std::string aliases;
  llvm::SMLoc aliasesLoc;
};

struct Fusion {
  std::string name;
  llvm::SMLoc loc;
  std::vector<InputDecl> inputs;
  std::vector<Assignment> assignments;
  std::vector<OutputDecl> outputs;
};

} // namespace fuserc::ast
