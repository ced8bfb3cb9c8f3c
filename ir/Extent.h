// Symbolic extents: a small integer-expression algebra over named symbols.
//
// An Extent is an immutable expression kept in a canonical form, so that two
// extents are equal exactly when their canonical forms are: a sum of terms,
// each an integer coefficient times a product of atoms, where an atom is a
// symbol or an opaque floor-division, ceiling-division, modulo, min, max
// or exact division
// of two canonical expressions. Constants fold, like terms combine, products
// distribute over sums, and divisions that are exact cancel. Printing is
// deterministic (terms and atoms ordered by their printed form).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fuserc {

class Extent;
using SymbolBindings = std::map<std::string, int64_t, std::less<>>;

namespace extent_detail {
struct Atom;
struct Term {
  int64_t coeff = 0;
  std::vector<std::shared_ptr<const Atom>> factors; // sorted by printed form
};
struct Poly {
  std::vector<Term> terms; // sorted, no zero coefficients, at most one constant
  std::string text;        // canonical printed form, the identity of the poly
  uint8_t problems = 0;    // ExtentProblem bits, sticky through every operation
};
} // namespace extent_detail

// What went wrong while an extent was computed. Arithmetic never traps: it
// wraps, or gives up on an expression that would be too large, and records
// it here, so inference can report the op whose shape could not be computed.
enum ExtentProblem : uint8_t {
  kExtentOverflow = 1,   // a coefficient or constant wrapped past int64
  kExtentTooComplex = 2, // a product would have had too many terms; not computed
};

class Extent {
public:
  Extent() : Extent(int64_t{0}) {}
  Extent(int64_t value); // NOLINT: an integer is a static extent
  static Extent symbol(std::string_view name);

  friend Extent operator+(const Extent &a, const Extent &b);
  friend Extent operator-(const Extent &a, const Extent &b);
  friend Extent operator*(const Extent &a, const Extent &b);
  // Floor and ceiling division and modulo (divisor assumed positive).
  static Extent floorDiv(const Extent &a, const Extent &b);
  static Extent ceilDiv(const Extent &a, const Extent &b);
  // a / b that the source promises is whole (`C / 32`): a floor division
  // whose remainder the wrappers check at launch (exactDivisions()). It
  // cancels where provably exact, and prints as `(a / b)`.
  static Extent exactDiv(const Extent &a, const Extent &b);
  static Extent mod(const Extent &a, const Extent &b);
  static Extent min(const Extent &a, const Extent &b);
  static Extent max(const Extent &a, const Extent &b);

  // The value when the expression has no symbols.
  std::optional<int64_t> constant() const;
  bool isConstant(int64_t v) const { return constant() == v; }
  // The symbol name when the expression is exactly one symbol.
  std::optional<std::string> symbolName() const;
  // Every symbol the expression mentions, sorted and unique.
  std::vector<std::string> symbols() const;
  // The value under the bindings, or nullopt when a symbol is unbound or a
  // division by zero occurs.
  std::optional<int64_t> evaluate(const SymbolBindings &bindings) const;
  // The expression with bound symbols replaced by their values.
  Extent substitute(const SymbolBindings &bindings) const;
  // Every exact division the expression holds, innermost first, as
  // {dividend, divisor}, each once.
  std::vector<std::pair<Extent, Extent>> exactDivisions() const;
  // Whether one of them divides two numbers: it left a remainder (a whole
  // quotient folds), which no launch can remove.
  bool hasRemainder() const;
  // {a, rest} where the expression is a*symbol + rest, a a positive constant
  // and `rest` free of the symbol (how `32*G` binds G); nullopt otherwise.
  std::optional<std::pair<int64_t, Extent>> linearIn(const std::string &symbol) const;

  // ExtentProblem bits of this extent and of everything it was computed from.
  uint8_t problems() const { return poly_->problems; }

  const std::string &str() const { return poly_->text; }
  friend bool operator==(const Extent &a, const Extent &b) { return a.str() == b.str(); }
  friend bool operator!=(const Extent &a, const Extent &b) { return !(a == b); }

  const extent_detail::Poly &poly() const { return *poly_; }
  explicit Extent(std::shared_ptr<const extent_detail::Poly> p) : poly_(std::move(p)) {}

private:
  std::shared_ptr<const extent_detail::Poly> poly_;
};

// The extent as a C/C++/CUDA expression of type int64_t: `symbol(name)`
// gives the expression for each symbol; floor/ceil division, modulo, min and
// max call `fuserc_floordiv`, `fuserc_ceildiv`, `fuserc_mod`, `fuserc_min`
// and `fuserc_max`, which generated code defines. Constants get an `LL`
// suffix so the arithmetic is 64-bit.
std::string extentToCode(const Extent &extent,
                         const std::function<std::string(const std::string &)> &symbol);

// "[M, N]"-style text of a shape.
std::string shapeString(const std::vector<Extent> &shape);
// The product of the extents (1 for a scalar).
Extent numElements(const std::vector<Extent> &shape);

} // namespace fuserc
