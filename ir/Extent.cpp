// Symbolic extent algebra (see Extent.h): canonical polynomials over symbols and opaque atoms.
#include "ir/Extent.h"
#include "ir/ExtentCode.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <numeric>
#include <set>
#include <utility>

namespace fuserc {
namespace extent_detail {

enum class AtomKind { Symbol, FloorDiv, CeilDiv, Mod, Min, Max, ExactDiv };

// A symbol, or an operation the algebra could not simplify. The printed text is the atom's
// identity: factors are sorted and compared by it, so equal texts mean interchangeable atoms.
struct Atom {
  AtomKind kind = AtomKind::Symbol;
  std::string name;             // the symbol's name (Symbol only)
  std::vector<Extent> operands; // the two operands (every kind but Symbol)
  std::string text;
  uint8_t problems = 0; // of the operands
};

} // namespace extent_detail

namespace {

using extent_detail::Atom;
using extent_detail::AtomKind;
using extent_detail::Poly;
using extent_detail::Term;
using AtomPtr = std::shared_ptr<const Atom>;

// Coefficient arithmetic wraps on overflow (two's complement) instead of invoking UB; the
// overflow builtins store the wrapped result and say whether it wrapped, which extents record
// (ExtentProblem) so that inference can report it.
int64_t addWrap(int64_t a, int64_t b, uint8_t *problems = nullptr) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r) && problems)
    *problems |= kExtentOverflow;
  return r;
}

int64_t mulWrap(int64_t a, int64_t b, uint8_t *problems = nullptr) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r) && problems)
    *problems |= kExtentOverflow;
  return r;
}

int64_t negWrap(int64_t a, uint8_t *problems = nullptr) {
  int64_t r;
  if (__builtin_sub_overflow(int64_t{0}, a, &r) && problems)
    *problems |= kExtentOverflow;
  return r;
}

// A product of polynomials with more terms than this is not expanded (see kExtentTooComplex):
// distributing products of sums could otherwise take exponential time and memory.
constexpr size_t kMaxProductTerms = 4096;

// Floor/ceil division and floor modulo of constants. Division by -1 is special-cased because
// INT64_MIN / -1 traps; it wraps like the other operations instead.
std::optional<int64_t> floorDivConst(int64_t a, int64_t b) {
  if (b == 0)
    return std::nullopt;
  if (b == -1)
    return negWrap(a);
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0)))
    --q;
  return q;
}

std::optional<int64_t> ceilDivConst(int64_t a, int64_t b) {
  if (b == 0)
    return std::nullopt;
  if (b == -1)
    return negWrap(a);
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) == (b < 0)))
    ++q;
  return q;
}

std::optional<int64_t> modConst(int64_t a, int64_t b) {
  if (b == 0)
    return std::nullopt;
  if (b == -1)
    return 0;
  int64_t r = a % b;
  // Floor semantics: the remainder takes the divisor's sign.
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

std::optional<int64_t> foldConst(AtomKind kind, int64_t a, int64_t b) {
  switch (kind) {
  case AtomKind::FloorDiv:
    return floorDivConst(a, b);
  case AtomKind::ExactDiv:
    // Only a whole quotient has a value: the division promised one.
    if (std::optional<int64_t> r = modConst(a, b); !r || *r != 0)
      return std::nullopt;
    return floorDivConst(a, b);
  case AtomKind::CeilDiv:
    return ceilDivConst(a, b);
  case AtomKind::Mod:
    return modConst(a, b);
  case AtomKind::Min:
    return std::min(a, b);
  case AtomKind::Max:
    return std::max(a, b);
  case AtomKind::Symbol:
    break;
  }
  return std::nullopt;
}

const char *kindName(AtomKind kind) {
  switch (kind) {
  case AtomKind::FloorDiv:
  case AtomKind::ExactDiv:
    return "floordiv";
  case AtomKind::CeilDiv:
    return "ceildiv";
  case AtomKind::Mod:
    return "mod";
  case AtomKind::Min:
    return "min";
  case AtomKind::Max:
    return "max";
  case AtomKind::Symbol:
    break;
  }
  return "symbol";
}

// The product of the factors as printed, e.g. "M*N"; empty for a constant term. Terms with the
// same key are like terms, and terms are ordered by it.
std::string monomialKey(const std::vector<AtomPtr> &factors) {
  std::string key;
  for (const AtomPtr &f : factors) {
    if (!key.empty())
      key += '*';
    key += f->text;
  }
  return key;
}

std::string magnitudeString(int64_t c) {
  // Through unsigned so that INT64_MIN has a magnitude.
  uint64_t mag = c < 0 ? uint64_t{0} - static_cast<uint64_t>(c) : static_cast<uint64_t>(c);
  return std::to_string(mag);
}

// Puts arbitrary terms into canonical form: factors sorted, like terms combined, zero terms
// dropped, terms ordered by monomial text with the constant last, and the text printed.
Extent makeExtent(std::vector<Term> terms, uint8_t problems = 0) {
  std::map<std::string, Term> merged;
  for (Term &t : terms) {
    for (const AtomPtr &f : t.factors)
      problems |= f->problems;
    std::sort(t.factors.begin(), t.factors.end(),
              [](const AtomPtr &a, const AtomPtr &b) { return a->text < b->text; });
    int64_t coeff = t.coeff;
    auto [it, inserted] = merged.try_emplace(monomialKey(t.factors), std::move(t));
    if (!inserted)
      it->second.coeff = addWrap(it->second.coeff, coeff, &problems);
  }

  // The map orders by key; the constant's key "" sorts first, but it is printed last.
  std::vector<std::pair<std::string, Term>> ordered;
  for (auto &[key, t] : merged)
    if (!key.empty() && t.coeff != 0)
      ordered.emplace_back(key, std::move(t));
  if (auto it = merged.find(""); it != merged.end() && it->second.coeff != 0)
    ordered.emplace_back("", std::move(it->second));

  auto poly = std::make_shared<Poly>();
  poly->problems = problems;
  for (auto &[key, t] : ordered) {
    bool negative = t.coeff < 0;
    if (poly->text.empty())
      poly->text += negative ? "-" : "";
    else
      poly->text += negative ? " - " : " + ";
    std::string mag = magnitudeString(t.coeff);
    if (key.empty())
      poly->text += mag;
    else
      poly->text += (mag == "1" ? "" : mag + "*") + key;
    poly->terms.push_back(std::move(t));
  }
  if (poly->terms.empty())
    poly->text = "0";
  return Extent(std::shared_ptr<const Poly>(std::move(poly)));
}

Extent fromAtom(AtomPtr atom) {
  std::vector<Term> terms(1);
  terms[0].coeff = 1;
  terms[0].factors.push_back(std::move(atom));
  return makeExtent(std::move(terms));
}

Extent opaque(AtomKind kind, const Extent &a, const Extent &b) {
  auto atom = std::make_shared<Atom>();
  atom->kind = kind;
  atom->operands = {a, b};
  atom->problems = a.problems() | b.problems();
  // An exact division prints as the source writes it, each side in
  // parentheses unless it is one symbol or number: (C / 32), ((A + B) / (2*N)).
  auto side = [](const Extent &e) {
    return e.constant() || e.symbolName() ? e.str() : "(" + e.str() + ")";
  };
  atom->text = kind == AtomKind::ExactDiv
                   ? "(" + side(a) + " / " + side(b) + ")"
                   : std::string(kindName(kind)) + "(" + a.str() + ", " + b.str() + ")";
  return fromAtom(std::move(atom));
}

// c / d when d divides c exactly (d == -1 handled apart: INT64_MIN % -1 traps).
std::optional<int64_t> exactCoeffQuotient(int64_t c, int64_t d) {
  if (d == 0)
    return std::nullopt;
  if (d == -1)
    return negWrap(c);
  if (c % d != 0)
    return std::nullopt;
  return c / d;
}

// The quotient of `a` by the single term `d`, when every term of `a` is an exact multiple of
// it: coefficients divisible and d's factors a sub-multiset of the term's. Then floor and ceil
// division agree and the remainder is zero, so the division cancels.
std::optional<Extent> exactQuotient(const Poly &a, const Term &d) {
  std::vector<Term> out;
  for (const Term &t : a.terms) {
    std::optional<int64_t> coeff = exactCoeffQuotient(t.coeff, d.coeff);
    if (!coeff)
      return std::nullopt;
    // Both factor lists are sorted by text, so one merge-like pass removes d's factors; a
    // factor of d missing from t leaves `j` short of the end.
    Term q;
    q.coeff = *coeff;
    size_t j = 0;
    for (const AtomPtr &f : t.factors) {
      if (j < d.factors.size() && d.factors[j]->text == f->text)
        ++j;
      else
        q.factors.push_back(f);
    }
    if (j != d.factors.size())
      return std::nullopt;
    out.push_back(std::move(q));
  }
  return makeExtent(std::move(out));
}

// `e` with the problems of the extents it was simplified from added.
Extent withProblems(Extent e, uint8_t problems) {
  if ((e.problems() | problems) == e.problems())
    return e;
  auto poly = std::make_shared<Poly>(e.poly());
  poly->problems |= problems;
  return Extent(std::shared_ptr<const Poly>(std::move(poly)));
}

// a / b with the factors of the single-term divisor b that divide every term
// of a taken out of both: (C*H*N*W) / (32*N) is (C*H*W) / 32. Only an exact
// division may cancel so (a floor division of a part is not the whole's).
std::pair<Extent, Extent> reducedQuotient(const Extent &a, const Extent &b) {
  if (b.poly().terms.size() != 1)
    return {a, b};
  Extent x = a, y = b;
  for (const AtomPtr &f : b.poly().terms[0].factors) {
    Term single;
    single.coeff = 1;
    single.factors = {f};
    std::optional<Extent> qa = exactQuotient(x.poly(), single);
    std::optional<Extent> qb = exactQuotient(y.poly(), single);
    if (qa && qb) {
      x = *qa;
      y = *qb;
    }
  }
  int64_t g = std::abs(y.poly().terms.empty() ? 0 : y.poly().terms[0].coeff);
  for (const Term &t : x.poly().terms)
    g = std::gcd(g, std::abs(t.coeff));
  if (g > 1) {
    Term common;
    common.coeff = g;
    if (std::optional<Extent> qa = exactQuotient(x.poly(), common))
      if (std::optional<Extent> qb = exactQuotient(y.poly(), common)) {
        x = *qa;
        y = *qb;
      }
  }
  return {x, y};
}

Extent divide(AtomKind kind, const Extent &a0, const Extent &b0) {
  const auto [a, b] =
      kind == AtomKind::ExactDiv ? reducedQuotient(a0, b0) : std::pair<Extent, Extent>{a0, b0};
  const uint8_t problems = a.problems() | b.problems();
  std::optional<int64_t> ca = a.constant(), cb = b.constant();
  if (ca && cb) {
    if (std::optional<int64_t> v = foldConst(kind, *ca, *cb))
      return withProblems(*v, problems);
    return opaque(kind, a, b); // division by zero: evaluate() reports it
  }
  // A single-term divisor (a nonzero constant, a symbol, 2*C, ...) may divide exactly; this
  // also covers x / 1 == x and mod(x, 1) == 0.
  if (b.poly().terms.size() == 1) {
    if (std::optional<Extent> q = exactQuotient(a.poly(), b.poly().terms[0]))
      return withProblems(kind == AtomKind::Mod ? Extent(0) : *q, problems);
  }
  return opaque(kind, a, b);
}

Extent minMax(AtomKind kind, const Extent &a, const Extent &b) {
  std::optional<int64_t> ca = a.constant(), cb = b.constant();
  if (ca && cb)
    return withProblems(*foldConst(kind, *ca, *cb), a.problems() | b.problems());
  if (a == b)
    return a;
  // Commutative: order operands by text so min(a, b) and min(b, a) are the same atom.
  return a.str() < b.str() ? opaque(kind, a, b) : opaque(kind, b, a);
}

Extent apply(AtomKind kind, const Extent &a, const Extent &b) {
  switch (kind) {
  case AtomKind::FloorDiv:
    return Extent::floorDiv(a, b);
  case AtomKind::ExactDiv:
    return Extent::exactDiv(a, b);
  case AtomKind::CeilDiv:
    return Extent::ceilDiv(a, b);
  case AtomKind::Mod:
    return Extent::mod(a, b);
  case AtomKind::Min:
    return Extent::min(a, b);
  case AtomKind::Max:
    return Extent::max(a, b);
  case AtomKind::Symbol:
    break;
  }
  return Extent();
}

void collectSymbols(const Poly &p, std::set<std::string> &out) {
  for (const Term &t : p.terms)
    for (const AtomPtr &f : t.factors) {
      if (f->kind == AtomKind::Symbol)
        out.insert(f->name);
      for (const Extent &operand : f->operands)
        collectSymbols(operand.poly(), out);
    }
}

std::optional<int64_t> evaluateAtom(const Atom &atom, const SymbolBindings &bindings) {
  if (atom.kind == AtomKind::Symbol) {
    auto it = bindings.find(atom.name);
    if (it == bindings.end())
      return std::nullopt;
    return it->second;
  }
  std::optional<int64_t> a = atom.operands[0].evaluate(bindings);
  std::optional<int64_t> b = atom.operands[1].evaluate(bindings);
  if (!a || !b)
    return std::nullopt;
  return foldConst(atom.kind, *a, *b);
}

// `t` with an exact-division factor (a / d) cancelled, where the rest of
// the term is an exact multiple of the single-term divisor d: (rest / d) * a.
std::optional<Extent> cancelExactDivision(const Term &t) {
  for (size_t i = 0; i < t.factors.size(); ++i) {
    const Atom &f = *t.factors[i];
    if (f.kind != AtomKind::ExactDiv || f.operands[1].poly().terms.size() != 1)
      continue;
    Term rest = t;
    rest.factors.erase(rest.factors.begin() + static_cast<std::ptrdiff_t>(i));
    std::sort(rest.factors.begin(), rest.factors.end(),
              [](const AtomPtr &x, const AtomPtr &y) { return x->text < y->text; });
    Poly restPoly;
    restPoly.terms.push_back(rest);
    if (std::optional<Extent> q = exactQuotient(restPoly, f.operands[1].poly().terms[0]))
      return *q * f.operands[0];
  }
  return std::nullopt;
}

} // namespace

Extent::Extent(int64_t value) {
  std::vector<Term> terms(1);
  terms[0].coeff = value;
  poly_ = makeExtent(std::move(terms)).poly_;
}

Extent Extent::symbol(std::string_view name) {
  auto atom = std::make_shared<Atom>();
  atom->kind = AtomKind::Symbol;
  atom->name = std::string(name);
  atom->text = atom->name;
  return fromAtom(std::move(atom));
}

Extent operator+(const Extent &a, const Extent &b) {
  std::vector<Term> terms = a.poly().terms;
  terms.insert(terms.end(), b.poly().terms.begin(), b.poly().terms.end());
  return makeExtent(std::move(terms), a.problems() | b.problems());
}

Extent operator-(const Extent &a, const Extent &b) {
  uint8_t problems = a.problems() | b.problems();
  std::vector<Term> terms = a.poly().terms;
  for (Term t : b.poly().terms) {
    t.coeff = negWrap(t.coeff, &problems);
    terms.push_back(std::move(t));
  }
  return makeExtent(std::move(terms), problems);
}

Extent operator*(const Extent &a, const Extent &b) {
  uint8_t problems = a.problems() | b.problems();
  if (a.poly().terms.size() * b.poly().terms.size() > kMaxProductTerms) {
    auto poly = std::make_shared<Poly>();
    poly->text = "<too complex>";
    poly->problems = problems | kExtentTooComplex;
    return Extent(std::shared_ptr<const Poly>(std::move(poly)));
  }
  // Distribute: every term of a times every term of b; makeExtent sorts and combines.
  std::vector<Term> terms;
  for (const Term &x : a.poly().terms)
    for (const Term &y : b.poly().terms) {
      Term t;
      t.coeff = mulWrap(x.coeff, y.coeff, &problems);
      t.factors = x.factors;
      t.factors.insert(t.factors.end(), y.factors.begin(), y.factors.end());
      terms.push_back(std::move(t));
    }
  // A term holding an exact division by a multiple of the rest of it is
  // that multiple times the dividend: 32*(C / 32)*N is C*N.
  std::vector<Term> kept;
  Extent cancelled;
  bool anyCancelled = false;
  for (Term &t : terms) {
    std::optional<Extent> replaced = cancelExactDivision(t);
    if (replaced) {
      cancelled = cancelled + *replaced;
      anyCancelled = true;
    } else {
      kept.push_back(std::move(t));
    }
  }
  Extent product = makeExtent(std::move(kept), problems);
  return anyCancelled ? withProblems(product + cancelled, problems) : product;
}

Extent Extent::floorDiv(const Extent &a, const Extent &b) {
  return divide(AtomKind::FloorDiv, a, b);
}
Extent Extent::ceilDiv(const Extent &a, const Extent &b) { return divide(AtomKind::CeilDiv, a, b); }
Extent Extent::exactDiv(const Extent &a, const Extent &b) {
  return divide(AtomKind::ExactDiv, a, b);
}
Extent Extent::mod(const Extent &a, const Extent &b) { return divide(AtomKind::Mod, a, b); }
Extent Extent::min(const Extent &a, const Extent &b) { return minMax(AtomKind::Min, a, b); }
Extent Extent::max(const Extent &a, const Extent &b) { return minMax(AtomKind::Max, a, b); }

std::optional<int64_t> Extent::constant() const {
  const std::vector<Term> &terms = poly_->terms;
  if (poly_->problems & kExtentTooComplex)
    return std::nullopt; // its terms were never computed
  if (terms.empty())
    return 0;
  if (terms.size() == 1 && terms[0].factors.empty())
    return terms[0].coeff;
  return std::nullopt;
}

std::optional<std::string> Extent::symbolName() const {
  const std::vector<Term> &terms = poly_->terms;
  if (terms.size() != 1 || terms[0].coeff != 1 || terms[0].factors.size() != 1 ||
      terms[0].factors[0]->kind != AtomKind::Symbol)
    return std::nullopt;
  return terms[0].factors[0]->name;
}

std::vector<std::string> Extent::symbols() const {
  std::set<std::string> names;
  collectSymbols(*poly_, names);
  return {names.begin(), names.end()};
}

std::optional<int64_t> Extent::evaluate(const SymbolBindings &bindings) const {
  int64_t sum = 0;
  for (const Term &t : poly_->terms) {
    int64_t product = t.coeff;
    for (const AtomPtr &f : t.factors) {
      std::optional<int64_t> v = evaluateAtom(*f, bindings);
      if (!v)
        return std::nullopt;
      product = mulWrap(product, *v);
    }
    sum = addWrap(sum, product);
  }
  return sum;
}

namespace {
void collectExactDivisions(const Poly &p, std::vector<std::pair<Extent, Extent>> &out) {
  for (const Term &t : p.terms)
    for (const AtomPtr &f : t.factors) {
      for (const Extent &operand : f->operands)
        collectExactDivisions(operand.poly(), out);
      if (f->kind == AtomKind::ExactDiv && std::find_if(out.begin(), out.end(), [&](const auto &d) {
                                             return d.first == f->operands[0] &&
                                                    d.second == f->operands[1];
                                           }) == out.end())
        out.emplace_back(f->operands[0], f->operands[1]);
    }
}
} // namespace

std::vector<std::pair<Extent, Extent>> Extent::exactDivisions() const {
  std::vector<std::pair<Extent, Extent>> out;
  collectExactDivisions(*poly_, out);
  return out;
}

bool Extent::hasRemainder() const {
  for (const auto &[dividend, divisor] : exactDivisions())
    if (dividend.constant() && divisor.constant())
      return true;
  return false;
}

std::optional<std::pair<int64_t, Extent>> Extent::linearIn(const std::string &symbol) const {
  const Extent rest = substitute({{symbol, 0}});
  const std::optional<int64_t> a = (substitute({{symbol, 1}}) - rest).constant();
  // `rest` is free of the symbol: substitute replaced every occurrence.
  if (!a || *a <= 0 || *this != Extent(*a) * Extent::symbol(symbol) + rest)
    return std::nullopt;
  return std::make_pair(*a, rest);
}

Extent Extent::substitute(const SymbolBindings &bindings) const {
  // Rebuild through the algebra so that newly constant parts fold and divisions re-simplify.
  Extent sum;
  for (const Term &t : poly_->terms) {
    Extent product = t.coeff;
    for (const AtomPtr &f : t.factors) {
      if (f->kind == AtomKind::Symbol) {
        auto it = bindings.find(f->name);
        product = product * (it != bindings.end() ? Extent(it->second) : fromAtom(f));
      } else {
        product = product * apply(f->kind, f->operands[0].substitute(bindings),
                                  f->operands[1].substitute(bindings));
      }
    }
    sum = sum + product;
  }
  return sum;
}

namespace {

// extentToCode and extentToCheckedCode: `+` and `*` as operators, or as
// calls of the checked helpers.
std::string extentCode(const Extent &extent,
                       const std::function<std::string(const std::string &)> &symbol,
                       bool checked) {
  auto constant = [](int64_t v) {
    // INT64_MIN has no literal; spell it as an expression.
    if (v == INT64_MIN)
      return std::string("(-9223372036854775807LL - 1)");
    return "(" + std::to_string(v) + "LL)";
  };
  auto combine = [&](const std::string &a, const std::string &b, const char *op, const char *call) {
    if (a.empty())
      return b;
    return checked ? std::string(call) + "(" + a + ", " + b + ")" : a + " " + op + " " + b;
  };
  const Poly &poly = extent.poly();
  if (poly.terms.empty())
    return constant(0);
  std::string sum;
  for (const Term &t : poly.terms) {
    std::string product;
    if (t.coeff != 1 || t.factors.empty())
      product = constant(t.coeff);
    for (const AtomPtr &f : t.factors) {
      std::string atom;
      if (f->kind == AtomKind::Symbol) {
        atom = "(" + symbol(f->name) + ")";
      } else {
        // An exact division is a floor division the wrappers checked first.
        static const char *const kFunctions[] = {"",    "floordiv", "ceildiv", "mod",
                                                 "min", "max",      "floordiv"};
        atom = std::string(checked ? "fuserc_c" : "fuserc_") +
               kFunctions[static_cast<int>(f->kind)] + "(" +
               extentCode(f->operands[0], symbol, checked) + ", " +
               extentCode(f->operands[1], symbol, checked) + ")";
      }
      product = combine(product, atom, "*", "fuserc_cmul");
    }
    sum = combine(sum, product, "+", "fuserc_cadd");
  }
  return "(" + sum + ")";
}

} // namespace

std::string extentToCode(const Extent &extent,
                         const std::function<std::string(const std::string &)> &symbol) {
  return extentCode(extent, symbol, false);
}

std::string extentToCheckedCode(const Extent &extent,
                                const std::function<std::string(const std::string &)> &symbol) {
  return extentCode(extent, symbol, true);
}

std::string shapeString(const std::vector<Extent> &shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    out += (i ? ", " : "") + shape[i].str();
  return out + "]";
}

Extent numElements(const std::vector<Extent> &shape) {
  Extent product = 1;
  for (const Extent &e : shape)
    product = product * e;
  return product;
}

} // namespace fuserc
