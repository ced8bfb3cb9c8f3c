// Extent expressions to extents (see ExtentExpressions.h).
#include "frontend/ExtentExpressions.h"

#include "frontend/Suggestions.h"

#include <algorithm>

namespace fuserc {
namespace {

using Kind = ast::ExtentExpr::Kind;

struct Failure {
  ExtentExprError error;
};

class Converter {
public:
  explicit Converter(const std::set<std::string> *symbols) : symbols_(symbols) {}

  Extent convert(const ast::ExtentExpr &e) {
    switch (e.kind) {
    case Kind::Integer:
      return Extent(e.value);
    case Kind::Symbol:
      return symbol(e);
    case Kind::Add:
      return checked(convert(e.operands[0]) + convert(e.operands[1]), e);
    case Kind::Sub:
      return checked(convert(e.operands[0]) - convert(e.operands[1]), e);
    case Kind::Mul:
      return checked(convert(e.operands[0]) * convert(e.operands[1]), e);
    case Kind::Div:
      return exactDivision(e);
    case Kind::Mod:
      return checked(Extent::mod(convert(e.operands[0]), divisor(e.operands[1], e)), e);
    case Kind::Call:
      return call(e);
    }
    fail("internal: unknown extent expression", e.loc);
  }

private:
  [[noreturn]] void fail(std::string message, llvm::SMLoc loc) {
    throw Failure{{std::move(message), loc}};
  }

  Extent checked(Extent result, const ast::ExtentExpr &e) {
    if (result.problems())
      fail("extent arithmetic overflows 64 bits here", e.loc);
    return result;
  }

  Extent symbol(const ast::ExtentExpr &e) {
    if (symbols_ && !symbols_->count(e.name)) {
      std::vector<std::string> known(symbols_->begin(), symbols_->end());
      std::string list;
      for (const std::string &s : known)
        list += (list.empty() ? "" : ", ") + s;
      fail("'" + e.name + "' is not a symbolic extent of this fusion" + suggest(e.name, known) +
               (known.empty() ? " (its inputs have only static extents)"
                              : " (symbols: " + list + ")"),
           e.loc);
    }
    return Extent::symbol(e.name);
  }

  // A divisor: an extent that is not a constant 0 or below.
  Extent divisor(const ast::ExtentExpr &e, const ast::ExtentExpr &op) {
    Extent d = convert(e);
    if (std::optional<int64_t> c = d.constant(); c && *c <= 0)
      fail("division by " + std::to_string(*c) + " in an extent", op.loc);
    return d;
  }

  // `a / b` divides exactly: a quotient of constants must be whole here; one
  // not provably whole is checked at launch (Extent::exactDiv).
  Extent exactDivision(const ast::ExtentExpr &e) {
    Extent a = convert(e.operands[0]);
    Extent b = divisor(e.operands[1], e);
    Extent remainder = Extent::mod(a, b);
    if (std::optional<int64_t> r = remainder.constant(); r && *r != 0)
      fail("'/' divides extents exactly, but " + a.str() + " is not a multiple of " + b.str() +
               "; write floordiv(a, b) or ceildiv(a, b) for a rounded quotient",
           e.loc);
    return checked(Extent::exactDiv(a, b), e);
  }

  Extent call(const ast::ExtentExpr &e) {
    static const std::vector<std::string> kFunctions = {"ceildiv", "floordiv", "max", "min", "mod"};
    if (std::find(kFunctions.begin(), kFunctions.end(), e.name) == kFunctions.end())
      fail("unknown extent function '" + e.name + "'" + suggest(e.name, kFunctions) +
               " (extent functions: ceildiv, floordiv, max, min, mod)",
           e.loc);
    if (e.operands.size() != 2)
      fail("'" + e.name + "' takes 2 extents, got " + std::to_string(e.operands.size()), e.loc);
    if (e.name == "min" || e.name == "max") {
      Extent a = convert(e.operands[0]), b = convert(e.operands[1]);
      return e.name == "min" ? Extent::min(a, b) : Extent::max(a, b);
    }
    Extent a = convert(e.operands[0]);
    Extent b = divisor(e.operands[1], e);
    if (e.name == "floordiv")
      return checked(Extent::floorDiv(a, b), e);
    if (e.name == "ceildiv")
      return checked(Extent::ceilDiv(a, b), e);
    return checked(Extent::mod(a, b), e);
  }

  const std::set<std::string> *symbols_;
};

} // namespace

std::variant<Extent, ExtentExprError> extentOf(const ast::ExtentExpr &expr,
                                               const std::set<std::string> *symbols) {
  try {
    return Converter(symbols).convert(expr);
  } catch (Failure &f) {
    return std::move(f.error);
  }
}

void collectExtentSymbols(const ast::ExtentExpr &expr, std::set<std::string> &symbols) {
  if (expr.kind == Kind::Symbol)
    symbols.insert(expr.name);
  for (const ast::ExtentExpr &operand : expr.operands)
    collectExtentSymbols(operand, symbols);
}

} // namespace fuserc
