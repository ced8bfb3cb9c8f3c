// The fusion generator (see FusionGenerator.h): the fusion under
// construction, the choices patterns draw on, the outputs, and the loop that
// applies patterns. The patterns are in GeneratorPatterns.cpp.
#include "FusionGenerator.h"
#include "GeneratorContext.h"

#include "ir/DType.h"
#include "ir/Fusion.h"
#include "ir/Inference.h"
#include "ir/OpInfo.h"

#include <algorithm>
#include <cmath>

namespace fuserc::fuzz {
namespace detail {
namespace {

constexpr std::string_view kSymbols[] = {"N", "M", "K"};
// Broadcast dims, odd sizes, vector-width multiples and longer rows; symbols
// give the large sizes (bound at launch).
constexpr int64_t kStaticExtents[] = {1, 2, 3, 4, 5, 7, 8, 16, 33, 64, 128, 1000};
// The product of a base shape's static extents stays below this.
constexpr int64_t kMaxStaticElements = 4096;
// An op result with more elements than this with every symbol at 1 is
// refused: harnesses must be able to run every fusion.
constexpr int64_t kMaxElementsAtOne = int64_t{1} << 20;
// f32 most often, as in real fusions.
constexpr DType kInputDTypes[] = {DType::F32, DType::F32, DType::F32,  DType::F16, DType::BF16,
                                  DType::I64, DType::I32, DType::Bool, DType::F64};
constexpr DType kScalarDTypes[] = {DType::F32, DType::F32,  DType::I64, DType::I32,
                                   DType::F16, DType::BF16, DType::F64, DType::Bool};
constexpr double kLiterals[] = {0, 1, 2, -1, 0.5, -0.5, 1e-6, 3, 1e30};
// Bindings at which mayBeEmpty evaluates extents.
constexpr int64_t kProbeValues[] = {1, 2, 3, 7, 64, 4099};

std::vector<std::string> shapeSymbols(const std::vector<Extent> &shape) {
  std::vector<std::string> out;
  for (const Extent &e : shape)
    for (std::string &s : e.symbols())
      out.push_back(std::move(s));
  return out;
}

std::string dimsText(const std::vector<Extent> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + shape[i].str();
  return s + "]";
}

} // namespace

GeneratorContext::GeneratorContext(ByteReader &source, std::string name)
    : bytes(source), fusion_(std::move(name)) {}

bool GeneratorContext::spellable(const std::vector<Extent> &shape) {
  return std::all_of(shape.begin(), shape.end(), [](const Extent &e) { return spellable(e); });
}

bool GeneratorContext::mayBeEmpty(const Extent &e) {
  std::vector<std::string> symbols = e.symbols();
  for (int64_t probe : kProbeValues) {
    SymbolBindings b;
    for (const std::string &s : symbols)
      b[s] = probe;
    std::optional<int64_t> v = e.evaluate(b);
    if (!v || *v <= 0)
      return true;
    if (symbols.empty())
      break;
  }
  return false;
}

std::string GeneratorContext::freshName(std::string_view prefix) {
  int &count = prefixCounts_[std::string(prefix)];
  return std::string(prefix) + std::to_string(count++);
}

void GeneratorContext::addToPool(Value *v, std::string name) {
  pool_.push_back(v);
  names_[v] = std::move(name);
}

Layout GeneratorContext::randomPermutation(size_t rank) {
  Layout p = rowMajorLayout(rank);
  for (size_t i = rank; i > 1; --i)
    std::swap(p[i - 1], p[bytes.below(i)]);
  return p;
}

void GeneratorContext::chooseBaseShape() {
  size_t rank = 1 + bytes.below(4);
  int64_t staticElements = 1;
  bool anySymbol = false;
  for (size_t d = 0; d < rank; ++d) {
    if (bytes.chance(55)) {
      // A symbol seen before makes square shapes ([N, N]), where a
      // right-aligned broadcast of a reduction is easy to get wrong.
      std::vector<Extent> seen;
      for (const Extent &e : base_)
        if (e.symbolName())
          seen.push_back(e);
      base_.push_back(!seen.empty() && bytes.chance(40) ? seen[bytes.below(seen.size())]
                                                        : Extent::symbol(bytes.pick(kSymbols)));
      anySymbol = true;
      continue;
    }
    int64_t e = bytes.pick(kStaticExtents);
    if (staticElements * e > kMaxStaticElements)
      e = 1;
    staticElements *= e;
    base_.push_back(Extent(e));
  }
  if (!anySymbol && bytes.chance(85))
    base_[bytes.below(rank)] = Extent::symbol(bytes.pick(kSymbols));
}

Value *GeneratorContext::addTensorInput(std::string_view prefix, DType dtype,
                                        std::vector<Extent> shape, Layout layout, bool strided) {
  if (!spellable(shape))
    return nullptr;
  if (layout.empty())
    layout = rowMajorLayout(shape.size());
  std::string name = freshName(prefix);
  std::string line = "  input " + name + ": " + std::string(dtypeName(dtype)) + dimsText(shape);
  if (layout != rowMajorLayout(shape.size()))
    line += " layout" + layoutString(layout);
  if (strided)
    line += " strided";
  Value *v = fusion_.addTensorInput(name, dtype, std::move(shape), layout, strided, {});
  inputLines_.emplace_back(v, line + "\n");
  tensorInputs_.push_back(v);
  addToPool(v, name);
  return v;
}

Value *GeneratorContext::addScalarInput(std::string_view prefix, DType dtype,
                                        std::optional<Extent> bound) {
  std::string name = freshName(prefix);
  if (bound)
    indexBounds_[name] = *bound;
  Value *v = fusion_.addScalarInput(name, dtype, {});
  inputLines_.emplace_back(v, "  input " + name + ": " + std::string(dtypeName(dtype)) + "\n");
  scalars_.push_back(v);
  addToPool(v, name);
  return v;
}

Value *GeneratorContext::addIndexInput(std::vector<Extent> shape, Extent bound) {
  DType dtype = bytes.chance(50) ? DType::I64 : DType::I32;
  Value *v = addTensorInput("i", dtype, std::move(shape));
  if (v)
    indexBounds_[v->name()] = std::move(bound);
  return v;
}

Number GeneratorContext::number() {
  double v = bytes.pick(kLiterals);
  bool integral = std::abs(v) < 1e9 && v == std::trunc(v) && bytes.chance(50);
  return integral ? Number::integer(static_cast<int64_t>(v)) : Number::floating(v);
}

Value *GeneratorContext::literal(Number n) {
  Value *lit = fusion_.addLiteral(n, {});
  names_[lit] = n.str();
  return lit;
}

Value *GeneratorContext::literal() { return literal(number()); }

DType GeneratorContext::anyDType() { return bytes.pick(kAllDTypes); }

Value *GeneratorContext::anyValue() {
  size_t n = pool_.size();
  if (bytes.chance(70))
    return pool_[n - 1 - bytes.below(std::min<size_t>(n, 6))];
  return pool_[bytes.below(n)];
}

Value *GeneratorContext::anyTensor(size_t minRank, bool (*accept)(const Value *)) {
  std::vector<Value *> candidates;
  for (Value *v : pool_)
    if (!v->isScalarInput() && v->rank() >= minRank && (!accept || accept(v)))
      candidates.push_back(v);
  if (candidates.empty())
    return nullptr;
  size_t n = candidates.size();
  if (bytes.chance(65))
    return candidates[n - 1 - bytes.below(std::min<size_t>(n, 5))];
  return candidates[bytes.below(n)];
}

Value *GeneratorContext::partner(const Value *first) {
  if (!first || bytes.chance(15))
    return literal();
  for (int tries = 0; tries < 8; ++tries) {
    Value *v = anyValue();
    if (broadcastShapes(first->shape(), v->shape()))
      return v;
  }
  return literal();
}

Value *GeneratorContext::scalarInput() {
  return scalars_.empty() ? anyValue() : scalars_[bytes.below(scalars_.size())];
}

std::vector<int64_t> GeneratorContext::axisSubset(size_t rank) {
  std::vector<int64_t> axes;
  if (rank == 0)
    return axes;
  bool all = bytes.chance(15);
  for (size_t d = 0; d < rank; ++d)
    if (all || bytes.chance(40))
      axes.push_back(static_cast<int64_t>(d));
  if (axes.empty())
    axes.push_back(bytes.chance(50) ? static_cast<int64_t>(rank - 1)
                                    : static_cast<int64_t>(bytes.below(rank)));
  return axes;
}

std::vector<int64_t> GeneratorContext::spelledAxes(const std::vector<int64_t> &axes, size_t rank) {
  std::vector<int64_t> out;
  for (int64_t a : axes)
    out.push_back(bytes.chance(25) ? a - static_cast<int64_t>(rank) : a);
  return out;
}

std::optional<Extent> GeneratorContext::usableSymbol(const Value *x) {
  std::vector<std::string> symbols;
  for (const Value *in : tensorInputs_)
    if (used_.count(in) || in == x)
      for (std::string &s : shapeSymbols(in->shape()))
        symbols.push_back(std::move(s));
  if (x)
    for (std::string &s : shapeSymbols(x->shape()))
      symbols.push_back(std::move(s));
  if (symbols.empty())
    return std::nullopt;
  return Extent::symbol(symbols[bytes.below(symbols.size())]);
}

Extent GeneratorContext::smallExtent(const Value *x) {
  static constexpr int64_t kSmall[] = {1, 2, 3, 5, 8, 13};
  if (bytes.chance(35))
    if (std::optional<Extent> s = usableSymbol(x))
      return *s;
  return Extent(bytes.pick(kSmall));
}

bool GeneratorContext::attributeSymbolsUsable(const Attributes &attrs,
                                              std::span<Value *const> operands) const {
  std::set<std::string> usable;
  for (const Value *in : tensorInputs_)
    if (used_.count(in) || std::find(operands.begin(), operands.end(), in) != operands.end())
      for (std::string &s : shapeSymbols(in->shape()))
        usable.insert(std::move(s));
  auto check = [&](const Extent &e) {
    for (const std::string &s : e.symbols())
      if (!usable.count(s))
        return false;
    return true;
  };
  for (const Attributes::Entry &entry : attrs.entries()) {
    if (const auto *e = std::get_if<Extent>(&entry.value); e && !check(*e))
      return false;
    if (const auto *list = std::get_if<std::vector<Extent>>(&entry.value))
      for (const Extent &e : *list)
        if (!check(e))
          return false;
  }
  return true;
}

Value *GeneratorContext::emit(std::string_view op, std::vector<Value *> operands,
                              Attributes attrs) {
  const OpInfo *info = lookupOp(op);
  return info ? emit(*info, std::move(operands), std::move(attrs)) : nullptr;
}

Value *GeneratorContext::emit(const OpInfo &info, std::vector<Value *> operands, Attributes attrs) {
  for (const Value *v : operands)
    if (!v)
      return nullptr;
  if (!attributeSymbolsUsable(attrs, operands))
    return nullptr;
  Attributes normalized = attrs;
  InferenceResult type = inferResultType(info.kind, operands, normalized);
  if (!std::holds_alternative<TensorType>(type))
    return nullptr;
  const TensorType &t = std::get<TensorType>(type);
  SymbolBindings ones;
  for (const std::string &s : shapeSymbols(t.shape))
    ones[s] = 1;
  std::optional<int64_t> elements = numElements(t.shape).evaluate(ones);
  if (!elements || *elements > kMaxElementsAtOne)
    return nullptr;
  // An extent no binding gives a value (`floordiv(0, 0)` from a reshape of
  // nothing with a -1): no harness could run the fusion.
  for (const Extent &e : t.shape)
    if (!e.evaluate(ones))
      return nullptr;
  std::string name = freshName("t");
  Op *added = fusion_.addOp(info.kind, operands, normalized, t, name, {});
  // The attributes as generated, not normalized: the frontend normalizes
  // them again, the way it does for a user's file.
  opLines_ += "  " + name + " = " + std::string(info.name) + "(";
  std::string separator;
  for (Value *v : operands) {
    opLines_ += separator + names_.at(v);
    separator = ", ";
    used_.insert(v);
  }
  for (const Attributes::Entry &e : attrs.entries()) {
    opLines_ += separator + e.name + "=" + attrValueString(e.value);
    separator = ", ";
  }
  opLines_ += ")\n";
  results_.push_back(added->result());
  addToPool(added->result(), name);
  return added->result();
}

// Whether `output v aliases input` passes alias analysis: same dtype and
// shape, v not (a cast of) the input itself, the input no other output, and
// every read of the input or of values computed from it elementwise at its
// shape (passes/AliasAnalysis.cpp, checkReadsOf).
bool GeneratorContext::mayAlias(const Value *v, const Value *input,
                                const std::set<const Value *> &outputs) const {
  if (v == input || !used_.count(input) || outputs.count(input) || v->dtype() != input->dtype() ||
      v->shape() != input->shape())
    return false;
  for (const Value *w = v; w->definingOp() && w->definingOp()->kind() == OpKind::Cast;) {
    w = w->definingOp()->operand(0);
    if (w == input)
      return false; // canonicalization folds the casts: the output is the input
  }
  // Values computed from v through a reduction or a view: a read of the
  // input that needs one of them cannot come before v's kernel writes the
  // input (fuserc refuses the alias: seed 7662).
  std::set<const Value *> fromV = {v}, pastV;
  for (const auto &op : fusion_.ops()) {
    auto any = [&](const std::set<const Value *> &s) {
      return std::any_of(op->operands().begin(), op->operands().end(),
                         [&](const Value *o) { return s.count(o) > 0; });
    };
    bool sameShapeElementwise =
        op->info().shapeRule == ShapeRule::Elementwise && op->result()->shape() == input->shape();
    if (any(pastV) || (any(fromV) && !sameShapeElementwise))
      pastV.insert(op->result());
    if (any(fromV))
      fromV.insert(op->result());
  }
  // A read of the input that needs a reduction (or another op not
  // elementwise at the input's shape) of what v is computed from: v may be
  // written in that reduction's kernel, before the read's (seed 45936:
  // v = cast(sum(x)), read with min(sum(x)); fuserc refuses the alias).
  auto ancestry = [](const Value *x) {
    std::set<const Value *> seen;
    std::vector<const Value *> stack = {x};
    while (!stack.empty()) {
      const Value *w = stack.back();
      stack.pop_back();
      if (seen.insert(w).second && w->definingOp())
        for (const Value *o : w->definingOp()->operands())
          stack.push_back(o);
    }
    return seen;
  };
  std::set<const Value *> ofV = ancestry(v);
  ofV.erase(input);
  auto needsReductionOfV = [&](const Value *operand) {
    for (const Value *w : ancestry(operand)) {
      const Op *def = w->definingOp();
      if (!def || (def->info().shapeRule == ShapeRule::Elementwise && w->shape() == input->shape()))
        continue;
      std::set<const Value *> from = ancestry(w);
      from.erase(input);
      if (std::any_of(from.begin(), from.end(), [&](const Value *u) { return ofV.count(u) > 0; }))
        return true;
    }
    return false;
  };
  std::set<const Value *> fromInput = {input};
  for (const auto &op : fusion_.ops()) {
    bool reads = std::any_of(op->operands().begin(), op->operands().end(),
                             [&](const Value *o) { return fromInput.count(o) > 0; });
    if (!reads || op->kind() == OpKind::RandLike)
      continue;
    if (std::any_of(op->operands().begin(), op->operands().end(),
                    [&](const Value *o) { return pastV.count(o) > 0 || needsReductionOfV(o); }))
      return false;
    if (op->info().shapeRule != ShapeRule::Elementwise || op->result()->shape() != input->shape())
      return false;
    fromInput.insert(op->result());
  }
  return true;
}

void GeneratorContext::addOutputs() {
  std::vector<Value *> outputs;
  for (Value *v : results_)
    if (!used_.count(v) || bytes.chance(20))
      outputs.push_back(v);
  // An input as it is: a view output.
  if (!tensorInputs_.empty() && bytes.chance(5)) {
    Value *in = tensorInputs_[bytes.below(tensorInputs_.size())];
    if (used_.count(in))
      outputs.push_back(in);
  }
  if (outputs.empty())
    outputs.push_back(!results_.empty() ? results_.back() : tensorInputs_.front());
  std::set<const Value *> outputSet(outputs.begin(), outputs.end());
  std::set<const Value *> aliased;
  for (Value *v : outputs) {
    used_.insert(v);
    outputLines_ += "  output " + names_.at(v);
    bool inPlace = false;
    if (!v->isInput() && bytes.chance(35) && !tensorInputs_.empty()) {
      size_t start = bytes.below(tensorInputs_.size());
      for (size_t k = 0; k < tensorInputs_.size() && !inPlace; ++k) {
        Value *in = tensorInputs_[(start + k) % tensorInputs_.size()];
        if (!aliased.count(in) && mayAlias(v, in, outputSet)) {
          outputLines_ += " aliases " + names_.at(in);
          aliased.insert(in);
          inPlace = true;
        }
      }
    }
    if (!inPlace && v->rank() >= 2 && bytes.chance(25))
      outputLines_ += " layout" + layoutString(randomPermutation(v->rank()));
    outputLines_ += "\n";
  }
}

GeneratedFusion GeneratorContext::finish() {
  GeneratedFusion out;
  out.name = fusion_.name();
  // Inputs nothing uses are an error; they are left out.
  std::set<std::string> symbols;
  std::string text = "fusion " + fusion_.name() + " {\n";
  for (const auto &[input, line] : inputLines_) {
    if (!used_.count(input))
      continue;
    text += line;
    for (std::string &s : shapeSymbols(input->shape()))
      symbols.insert(std::move(s));
    if (!input->isScalarInput())
      out.valueShapes.push_back(input->shape());
    if (auto it = indexBounds_.find(input->name()); it != indexBounds_.end())
      out.indexBounds.emplace(it->first, it->second);
  }
  for (const Value *v : results_)
    out.valueShapes.push_back(v->shape());
  out.text = text + opLines_ + outputLines_ + "}\n";
  out.symbols.assign(symbols.begin(), symbols.end());
  return out;
}

namespace {

using Pattern = bool (*)(GeneratorContext &);

struct WeightedPattern {
  Pattern apply;
  unsigned weight;
};

// How often each kind of statement is tried, out of the total weight.
constexpr WeightedPattern kPatterns[] = {
    {addElementwise, 28}, {addCast, 6},     {addReduction, 16}, {addZeroDim, 4},
    {addViews, 12},       {addPadOrCat, 6}, {addIndexing, 7},   {addComposite, 5},
    {addCreation, 5},     {addAnyOp, 11},   {addScan, 4},
};

Pattern pickPattern(ByteReader &bytes) {
  unsigned total = 0;
  for (const WeightedPattern &p : kPatterns)
    total += p.weight;
  size_t r = bytes.below(total);
  for (const WeightedPattern &p : kPatterns) {
    if (r < p.weight)
      return p.apply;
    r -= p.weight;
  }
  return kPatterns[0].apply;
}

// A suffix of the base shape, some dims made broadcast dims, so that inputs
// mostly broadcast against each other.
void addBaseInput(GeneratorContext &g) {
  ByteReader &bytes = g.bytes;
  const std::vector<Extent> &base = g.baseShape();
  DType dtype = bytes.pick(kInputDTypes);
  size_t rank = bytes.chance(4) ? 0 : base.size() - bytes.below(base.size());
  std::vector<Extent> shape(base.end() - static_cast<ptrdiff_t>(rank), base.end());
  for (Extent &e : shape)
    if (bytes.chance(15))
      e = Extent(1);
  Layout layout = bytes.chance(20) ? g.randomPermutation(rank) : rowMajorLayout(rank);
  g.addTensorInput("x", dtype, shape, layout, rank > 0 && bytes.chance(10));
}

} // namespace
} // namespace detail

GeneratedFusion generateFusion(ByteReader &bytes, const std::string &name) {
  detail::GeneratorContext g(bytes, name);
  g.chooseBaseShape();
  size_t tensorInputs = 1 + bytes.below(4);
  for (size_t i = 0; i < tensorInputs; ++i)
    detail::addBaseInput(g);
  size_t scalarInputs = bytes.below(3);
  for (size_t i = 0; i < scalarInputs; ++i)
    g.addScalarInput("s", bytes.pick(detail::kScalarDTypes));
  size_t patterns = 1 + bytes.below(14);
  size_t applied = 0;
  for (size_t attempt = 0; attempt < patterns * 4 && applied < patterns; ++attempt) {
    if (bytes.exhausted() && g.hasResults())
      break;
    if (detail::pickPattern(bytes)(g))
      ++applied;
  }
  g.addOutputs();
  return g.finish();
}

GeneratedSource generateSource(ByteReader &bytes) {
  static constexpr int64_t kBindings[] = {1, 2, 3, 8, 128, 1000, 65536};
  GeneratedSource source;
  size_t fusions = bytes.chance(20) ? 2 : 1;
  for (size_t i = 0; i < fusions; ++i) {
    source.fusions.push_back(generateFusion(bytes, "f" + std::to_string(i)));
    source.text += (i ? "\n" : "") + source.fusions.back().text;
  }
  // Only symbols of the fusions: fuserc refuses a --shape for another.
  for (const GeneratedFusion &f : source.fusions)
    for (const std::string &symbol : f.symbols)
      if (!source.shapes.count(symbol) && bytes.chance(20))
        source.shapes[symbol] = bytes.pick(kBindings);
  source.dotSegments = bytes.chance(10);
  return source;
}

} // namespace fuserc::fuzz
