// The fusion generator's patterns (see GeneratorContext.h): each writes one
// kind of statement, or a few that belong together, the way users write
// them.
#include "GeneratorContext.h"

#include "ir/Inference.h"

#include <algorithm>

namespace fuserc::fuzz::detail {
namespace {

bool isFloatingValue(const Value *v) { return isFloating(v->dtype()); }

std::vector<int64_t> complement(const std::vector<int64_t> &axes, size_t rank) {
  std::vector<int64_t> out;
  for (size_t d = 0; d < rank; ++d)
    if (!std::binary_search(axes.begin(), axes.end(), static_cast<int64_t>(d)))
      out.push_back(static_cast<int64_t>(d));
  return out;
}

// Whether argmax or argmin along `dim` of x (negative from the end) has no
// answer at some binding: the dim is out of range or may be empty (the
// interpreter refuses the position of the extreme of nothing, as PyTorch).
bool noExtremeAlong(const Value &x, int64_t dim) {
  const auto rank = static_cast<int64_t>(x.rank());
  if (dim < -rank || dim >= rank)
    return true;
  return GeneratorContext::mayBeEmpty(x.shape()[static_cast<size_t>(dim < 0 ? dim + rank : dim)]);
}

int64_t spelledAxis(GeneratorContext &g, int64_t axis, size_t rank) {
  return g.spelledAxes({axis}, rank).front();
}

Value *combine(GeneratorContext &g, Value *a, Value *b) {
  static constexpr std::string_view kBinary[] = {"add", "sub", "mul", "div", "maximum", "sub"};
  std::string_view op = g.bytes.pick(kBinary);
  return g.bytes.chance(80) ? g.emit(op, {a, b}) : g.emit(op, {b, a});
}

// Ops by family, from the op table.
std::vector<const OpInfo *> opsWhere(bool (*accept)(const OpInfo &)) {
  std::vector<const OpInfo *> out;
  for (const OpInfo &info : allOps())
    if (accept(info))
      out.push_back(&info);
  return out;
}

// ---------------------------------------------------------------------------
// Random operands and attributes for any op (addAnyOp, addElementwise).

// The first operand of an op whose dtype rule wants a kind of value: a
// bool condition for `where`, bool or integers for bitwise ops.
Value *firstOperand(GeneratorContext &g, const OpInfo &info) {
  if (info.dtypeRule == DTypeRule::Where) {
    if (Value *cond = g.anyTensor(0, [](const Value *v) { return v->dtype() == DType::Bool; }))
      return cond;
    Value *x = g.anyTensor(0);
    return x ? g.emit("gt", {x, g.literal(Number::integer(0))}) : nullptr;
  }
  if (info.dtypeRule == DTypeRule::PromoteIntegral)
    if (Value *x = g.anyTensor(0, [](const Value *v) { return isIntegral(v->dtype()); }))
      return x;
  return g.bytes.chance(5) ? g.literal() : g.anyValue();
}

std::vector<Value *> chooseOperands(GeneratorContext &g, const OpInfo &info) {
  std::vector<Value *> operands;
  for (const OperandSpec &spec : info.operands) {
    Value *first = operands.empty() ? nullptr : operands.front();
    switch (spec.kind) {
    case OperandKind::Tensor:
      operands.push_back(first ? g.partner(first) : firstOperand(g, info));
      break;
    case OperandKind::Index: // addIndexing's business (index values in range)
      operands.push_back(g.anyTensor(1, [](const Value *v) { return isInteger(v->dtype()); }));
      break;
    case OperandKind::Scalar:
      operands.push_back(g.scalarInput());
      break;
    case OperandKind::Variadic: {
      size_t n = 1 + g.bytes.below(3);
      for (size_t i = 0; i < n; ++i)
        operands.push_back(first ? g.partner(first) : g.anyValue());
      break;
    }
    }
  }
  return operands;
}

int64_t randomAxis(GeneratorContext &g, size_t rank) {
  if (rank == 0 || g.bytes.chance(3))
    return static_cast<int64_t>(rank); // out of range: inference refuses it
  return spelledAxis(g, static_cast<int64_t>(g.bytes.below(rank)), rank);
}

std::vector<int64_t> randomAxisList(GeneratorContext &g, const Value *x) {
  size_t rank = x ? x->rank() : 0;
  switch (g.bytes.below(3)) {
  case 0: { // a permutation (permute's dims)
    Layout p = g.randomPermutation(rank);
    return std::vector<int64_t>(p.begin(), p.end());
  }
  case 1: { // the broadcast dims (squeeze's dims)
    std::vector<int64_t> axes;
    for (size_t d = 0; d < rank; ++d)
      if (x->shape()[d].isConstant(1))
        axes.push_back(static_cast<int64_t>(d));
    return axes;
  }
  default: // a subset (reduction axes)
    return rank ? g.spelledAxes(g.axisSubset(rank), rank)
                : std::vector<int64_t>{randomAxis(g, rank)};
  }
}

Extent randomExtent(GeneratorContext &g, const Value *x) {
  if (x && !x->isRankZero() && g.bytes.chance(50)) {
    const Extent &e = x->shape()[g.bytes.below(x->rank())];
    if (GeneratorContext::spellable(e))
      return e;
  }
  if (g.bytes.chance(30))
    if (std::optional<Extent> s = g.usableSymbol(x))
      return *s;
  return Extent(static_cast<int64_t>(g.bytes.below(5)) - (g.bytes.chance(10) ? 3 : 0));
}

std::vector<Extent> randomExtentList(GeneratorContext &g, const Value *x) {
  std::vector<Extent> shape;
  const std::vector<Extent> &base = g.baseShape();
  switch (g.bytes.below(4)) {
  case 0: // the operand's shape, perhaps with a new outer dim and its
          // broadcast dims expanded (expand, broadcast_in_dim)
    if (x)
      shape = x->shape();
    if (g.bytes.chance(40))
      shape.insert(shape.begin(), g.smallExtent(x));
    for (Extent &e : shape)
      if (e.isConstant(1) && g.bytes.chance(50))
        e = g.smallExtent(x);
    break;
  case 1: // a suffix of the base shape (full, iota)
    shape.assign(base.begin() + static_cast<ptrdiff_t>(g.bytes.below(base.size())), base.end());
    break;
  case 2: // flattened, its length inferred (reshape)
    shape.push_back(Extent(-1));
    if (x && !x->isRankZero() && g.bytes.chance(50))
      shape.push_back(x->shape().back());
    break;
  default: { // anything short
    size_t n = g.bytes.below(4);
    for (size_t i = 0; i < n; ++i)
      shape.push_back(randomExtent(g, x));
  }
  }
  for (Extent &e : shape)
    if (!GeneratorContext::spellable(e))
      e = Extent(-1);
  return shape;
}

AttrValue randomAttrValue(GeneratorContext &g, const AttrSpec &spec, const Value *x) {
  switch (spec.kind) {
  case AttrKind::Int:
    return static_cast<int64_t>(g.bytes.below(4)) - (g.bytes.chance(10) ? 2 : 0);
  case AttrKind::Number:
    return g.number();
  case AttrKind::Bool:
    return g.bytes.chance(50);
  case AttrKind::DType:
    return g.anyDType();
  case AttrKind::Axis:
    return randomAxis(g, x ? x->rank() : 0);
  case AttrKind::AxisList:
    return randomAxisList(g, x);
  case AttrKind::Extent:
    return randomExtent(g, x);
  case AttrKind::ExtentList:
    return randomExtentList(g, x);
  case AttrKind::Enum:
    return std::string(g.bytes.pick(spec.choices));
  }
  return int64_t{0};
}

Value *emitWithRandomAttributes(GeneratorContext &g, const OpInfo &info) {
  std::vector<Value *> operands = chooseOperands(g, info);
  const Value *x = operands.empty() ? nullptr : operands.front();
  Attributes attrs;
  for (const AttrSpec &spec : info.attrs)
    if (spec.required || g.bytes.chance(spec.defaultValue.empty() ? 30 : 40))
      attrs.set(spec.name, randomAttrValue(g, spec, x));
  if (x && (info.kind == OpKind::ArgMax || info.kind == OpKind::ArgMin) &&
      noExtremeAlong(*x, attrs.integer("dim")))
    return nullptr;
  return g.emit(info, operands, attrs);
}

// ---------------------------------------------------------------------------
// Views.

// A reshape of x that users write: flattened, the last two dims merged, a
// static dim split, or unit dims inserted. A dim the language cannot spell
// becomes the -1 to infer.
Value *reshapeOf(GeneratorContext &g, Value *x) {
  std::vector<Extent> shape = x->shape();
  switch (g.bytes.below(4)) {
  case 0:
    shape = {Extent(-1)};
    break;
  case 1:
    if (shape.size() < 2)
      return nullptr;
    shape.resize(shape.size() - 2);
    shape.push_back(Extent(-1));
    break;
  case 2: {
    std::vector<size_t> splittable;
    for (size_t d = 0; d < shape.size(); ++d)
      if (auto c = shape[d].constant(); c && *c >= 4 && *c % 2 == 0)
        splittable.push_back(d);
    if (splittable.empty()) {
      if (shape.empty())
        return nullptr;
      size_t d = g.bytes.below(shape.size()); // N -> [1, N] or [N, 1]
      shape.insert(shape.begin() + static_cast<ptrdiff_t>(d + g.bytes.below(2)), Extent(1));
      break;
    }
    size_t d = splittable[g.bytes.below(splittable.size())];
    int64_t e = *shape[d].constant();
    int64_t a = e % 4 == 0 && g.bytes.chance(50) ? 4 : 2;
    shape[d] = Extent(e / a);
    shape.insert(shape.begin() + static_cast<ptrdiff_t>(d), Extent(a));
    break;
  }
  default:
    shape.insert(shape.begin() + static_cast<ptrdiff_t>(g.bytes.below(shape.size() + 1)),
                 Extent(1));
  }
  size_t unspellable = 0;
  for (Extent &e : shape)
    if (!GeneratorContext::spellable(e)) {
      e = Extent(-1);
      ++unspellable;
    }
  if (unspellable > 1 ||
      (unspellable == 1 && std::count(shape.begin(), shape.end(), Extent(-1)) > 1))
    shape = {Extent(-1)};
  Attributes attrs;
  attrs.set("shape", shape);
  return g.emit("reshape", {x}, attrs);
}

Value *expandOf(GeneratorContext &g, Value *x) {
  std::vector<Extent> shape;
  bool grows = false;
  if (g.bytes.chance(30)) {
    shape.push_back(g.smallExtent(x));
    grows = true;
  }
  for (const Extent &e : x->shape()) {
    if (e.isConstant(1) && g.bytes.chance(70)) {
      shape.push_back(g.smallExtent(x));
      grows = true;
    } else {
      shape.push_back(GeneratorContext::spellable(e) && g.bytes.chance(50) ? e : Extent(-1));
    }
  }
  if (!grows)
    return nullptr;
  Attributes attrs;
  attrs.set("shape", shape);
  return g.emit("expand", {x}, attrs);
}

Value *sliceOf(GeneratorContext &g, Value *x) {
  if (x->isRankZero())
    return nullptr;
  size_t rank = x->rank();
  int64_t dim = static_cast<int64_t>(g.bytes.below(rank));
  const Extent &extent = x->shape()[dim];
  Attributes attrs;
  attrs.set("dim", spelledAxis(g, dim, rank));
  int64_t start = static_cast<int64_t>(g.bytes.below(4));
  if (start || g.bytes.chance(30))
    attrs.set("start", Extent(start));
  if (extent.constant()) {
    if (g.bytes.chance(50))
      attrs.set("end", Extent(start + 1 + static_cast<int64_t>(g.bytes.below(8))));
  } else if (g.bytes.chance(40)) {
    // A static end past a symbolic extent would read out of bounds for
    // small bindings; one counted from the end stays inside.
    attrs.set("end", Extent(-1 - static_cast<int64_t>(g.bytes.below(2))));
  }
  if (g.bytes.chance(30))
    attrs.set("step", int64_t{1} + static_cast<int64_t>(g.bytes.below(3)));
  return g.emit("slice", {x}, attrs);
}

Value *oneView(GeneratorContext &g, Value *x) {
  size_t rank = x->rank();
  Attributes attrs;
  switch (g.bytes.below(7)) {
  case 0:
    return reshapeOf(g, x);
  case 1: {
    if (rank < 2)
      return nullptr;
    Layout p = g.randomPermutation(rank);
    attrs.set("dims", std::vector<int64_t>(p.begin(), p.end()));
    return g.emit("permute", {x}, attrs);
  }
  case 2:
    return expandOf(g, x);
  case 3:
    attrs.set("dim", spelledAxis(g, static_cast<int64_t>(g.bytes.below(rank + 1)), rank + 1));
    return g.emit("unsqueeze", {x}, attrs);
  case 4: {
    std::vector<int64_t> ones;
    for (size_t d = 0; d < rank; ++d)
      if (x->shape()[d].isConstant(1) && (ones.empty() || g.bytes.chance(60)))
        ones.push_back(static_cast<int64_t>(d));
    if (ones.empty())
      return nullptr;
    attrs.set("dims", g.spelledAxes(ones, rank));
    return g.emit("squeeze", {x}, attrs);
  }
  case 5:
    return sliceOf(g, x);
  default: {
    if (!GeneratorContext::spellable(x->shape()))
      return nullptr;
    size_t at = g.bytes.below(rank + 1);
    std::vector<Extent> shape = x->shape();
    shape.insert(shape.begin() + static_cast<ptrdiff_t>(at), g.smallExtent(x));
    std::vector<int64_t> dims;
    for (size_t d = 0; d <= rank; ++d)
      if (d != at)
        dims.push_back(static_cast<int64_t>(d));
    attrs.set("shape", shape);
    attrs.set("broadcast_dims", dims);
    return g.emit("broadcast_in_dim", {x}, attrs);
  }
  }
}

// A value of the pool shaped like x except along `dim`, for cat.
Value *catPartner(GeneratorContext &g, Value *x, size_t dim) {
  for (int tries = 0; tries < 6; ++tries) {
    Value *v = g.anyTensor(x->rank());
    if (!v || v->rank() != x->rank())
      continue;
    bool fits = true;
    for (size_t d = 0; d < x->rank() && fits; ++d)
      fits = d == dim || v->shape()[d] == x->shape()[d];
    if (fits)
      return v;
  }
  static constexpr std::string_view kUnary[] = {"neg", "abs", "exp", "relu"};
  return g.bytes.chance(50) ? x : g.emit(g.bytes.pick(kUnary), {x});
}

// A parameter shaped `shape` for a normalization: a new input mostly.
Value *parameter(GeneratorContext &g, std::string_view prefix, const Value *x,
                 const std::vector<Extent> &shape) {
  if (g.bytes.chance(20))
    for (int tries = 0; tries < 4; ++tries) {
      Value *v = g.anyTensor(shape.size(), isFloatingValue);
      if (v && v->shape() == shape)
        return v;
    }
  static constexpr DType kParams[] = {DType::F32, DType::F16, DType::BF16};
  DType dtype = g.bytes.chance(60) ? x->dtype() : g.bytes.pick(kParams);
  return g.addTensorInput(prefix, dtype, shape);
}

} // namespace

bool addElementwise(GeneratorContext &g) {
  static const std::vector<const OpInfo *> ops = opsWhere([](const OpInfo &info) {
    return info.shapeRule == ShapeRule::Elementwise && info.kind != OpKind::Cast;
  });
  return emitWithRandomAttributes(g, *g.bytes.pick(std::span<const OpInfo *const>(ops)));
}

bool addCast(GeneratorContext &g) {
  Value *x = g.anyTensor(0);
  Attributes attrs;
  attrs.set("dtype", g.anyDType());
  return g.emit("cast", {x}, attrs);
}

bool addAnyOp(GeneratorContext &g) {
  // Not the indexing ops: any integer value as an index would be out of
  // range at run time; addIndexing draws index inputs in range instead.
  static const std::vector<const OpInfo *> ops = opsWhere([](const OpInfo &info) {
    return std::none_of(info.operands.begin(), info.operands.end(),
                        [](const OperandSpec &o) { return o.kind == OperandKind::Index; });
  });
  return emitWithRandomAttributes(g, *g.bytes.pick(std::span<const OpInfo *const>(ops)));
}

bool addReduction(GeneratorContext &g) {
  static constexpr std::string_view kReductions[] = {"sum", "sum",  "mean", "max",
                                                     "min", "prod", "var"};
  Value *x = g.anyTensor(1);
  if (!x)
    return false;
  size_t rank = x->rank();
  std::string_view op = g.bytes.pick(kReductions);
  std::vector<int64_t> axes = g.axisSubset(rank);
  // The max or min of nothing has no value (the interpreter refuses it).
  if (op == "max" || op == "min")
    for (int64_t a : axes)
      if (GeneratorContext::mayBeEmpty(x->shape()[a]))
        op = "sum";
  bool keep = g.bytes.chance(40);
  Attributes attrs;
  attrs.set("axes", g.spelledAxes(axes, rank));
  if (keep || g.bytes.chance(30))
    attrs.set("keepdim", keep);
  if ((op == "sum" || op == "mean") && g.bytes.chance(12))
    attrs.set("dtype", g.bytes.chance(50) ? DType::F32 : DType::F64);
  if (op == "var" && g.bytes.chance(30))
    attrs.set("correction", static_cast<int64_t>(g.bytes.below(2)));
  Value *r = g.emit(op, {x}, attrs);
  if (!r)
    return false;
  if (!g.bytes.chance(75))
    return true;

  // Back against x: right-aligned when the shapes allow it (along the kept
  // dims: [M] against [M, M]), else along the reduced dims.
  Value *back = r;
  bool rightAligned = broadcastShapes(x->shape(), r->shape()).has_value();
  if (!keep && r->rank() < rank && (!rightAligned || g.bytes.chance(50))) {
    if (g.bytes.chance(50) && GeneratorContext::spellable(x->shape())) {
      Attributes b;
      b.set("shape", x->shape());
      b.set("broadcast_dims", complement(axes, rank));
      back = g.emit("broadcast_in_dim", {r}, b);
    } else {
      for (int64_t a : axes) {
        Attributes u;
        u.set("dim", a);
        back = back ? g.emit("unsqueeze", {back}, u) : nullptr;
      }
    }
  } else if (keep && g.bytes.chance(25) && GeneratorContext::spellable(x->shape())) {
    Attributes e;
    e.set("shape", x->shape());
    back = g.emit("expand", {r}, e);
  }
  if (!back)
    return true;
  combine(g, g.bytes.chance(75) ? x : g.partner(back), back);
  return true;
}

bool addZeroDim(GeneratorContext &g) {
  static constexpr std::string_view kReductions[] = {"sum", "max", "mean", "min"};
  Value *x = g.anyTensor(1);
  if (!x)
    return false;
  std::string_view op = g.bytes.pick(kReductions);
  std::vector<int64_t> all;
  for (size_t d = 0; d < x->rank(); ++d) {
    all.push_back(static_cast<int64_t>(d));
    if (GeneratorContext::mayBeEmpty(x->shape()[d]))
      op = "sum";
  }
  Attributes attrs;
  attrs.set("axes", g.spelledAxes(all, x->rank()));
  Value *r = g.emit(op, {x}, attrs);
  if (!r)
    return false;
  Value *y = g.bytes.chance(60) ? x : g.anyTensor(0);
  if (y)
    combine(g, y, r);
  return true;
}

bool addViews(GeneratorContext &g) {
  Value *x = g.anyTensor(0);
  if (!x)
    return false;
  Value *v = x;
  size_t n = 1 + g.bytes.below(3);
  for (size_t i = 0; i < n; ++i)
    if (Value *next = oneView(g, v))
      v = next;
  if (v == x)
    return false;
  if (g.bytes.chance(50))
    combine(g, v, g.partner(v));
  return true;
}

bool addPadOrCat(GeneratorContext &g) {
  Value *x = g.anyTensor(1);
  if (!x)
    return false;
  size_t rank = x->rank();
  size_t dim = g.bytes.below(rank);
  Attributes attrs;
  attrs.set("dim", spelledAxis(g, static_cast<int64_t>(dim), rank));
  if (g.bytes.chance(50)) {
    attrs.set("before", Extent(static_cast<int64_t>(g.bytes.below(4))));
    attrs.set("after", Extent(static_cast<int64_t>(g.bytes.below(4))));
    if (g.bytes.chance(50))
      attrs.set("value", g.number());
    return g.emit("pad", {x}, attrs);
  }
  std::vector<Value *> operands = {x};
  size_t more = 1 + g.bytes.below(2);
  for (size_t i = 0; i < more; ++i)
    operands.push_back(catPartner(g, x, dim));
  if (g.bytes.chance(30))
    std::swap(operands.front(), operands.back());
  return g.emit("cat", operands, attrs);
}

bool addIndexing(GeneratorContext &g) {
  Value *x = g.anyTensor(1);
  if (!x)
    return false;
  size_t rank = x->rank();
  size_t dim = g.bytes.below(rank);
  const Extent bound = x->shape()[dim];
  if (GeneratorContext::mayBeEmpty(bound))
    return false; // no index is in range of an empty dim
  Attributes attrs;
  attrs.set("dim", spelledAxis(g, static_cast<int64_t>(dim), rank));
  switch (g.bytes.below(3)) {
  case 0:
    return g.emit("index_select", {x, g.addIndexInput({g.smallExtent(x)}, bound)}, attrs);
  case 1: {
    // Other dims as x's: an index may not exceed the input there.
    std::vector<Extent> shape = x->shape();
    shape[dim] = g.smallExtent(x);
    return g.emit("gather", {x, g.addIndexInput(shape, bound)}, attrs);
  }
  default: {
    std::vector<Extent> shape = x->shape();
    if (g.bytes.chance(60))
      shape[dim] = g.smallExtent(x);
    Value *index = g.addIndexInput(shape, bound);
    Value *src = nullptr;
    if (g.bytes.chance(50))
      src = g.addTensorInput("u", x->dtype(), shape);
    else
      src = g.bytes.chance(70) ? g.literal() : g.scalarInput();
    return g.emit("scatter", {x, index, src}, attrs);
  }
  }
}

bool addComposite(GeneratorContext &g) {
  Value *x = g.anyTensor(1, isFloatingValue);
  if (!x)
    return false;
  size_t rank = x->rank();
  Attributes attrs;
  switch (g.bytes.below(4)) {
  case 0:
  case 1: {
    static constexpr std::string_view kAlongDim[] = {"softmax",     "log_softmax", "softmax",
                                                     "log_softmax", "argmax",      "argmin"};
    const size_t dim = g.bytes.below(rank);
    attrs.set("dim", spelledAxis(g, static_cast<int64_t>(dim), rank));
    std::string_view op = g.bytes.pick(kAlongDim);
    if (op == "argmax" || op == "argmin") {
      if (noExtremeAlong(*x, static_cast<int64_t>(dim)))
        op = "softmax";
      else if (g.bytes.chance(40))
        attrs.set("keepdim", true);
    }
    return g.emit(op, {x}, attrs);
  }
  default: {
    std::vector<int64_t> axes;
    if (g.bytes.chance(70)) {
      size_t k = 1 + g.bytes.below(rank);
      for (size_t d = rank - k; d < rank; ++d)
        axes.push_back(static_cast<int64_t>(d));
    } else {
      axes = g.axisSubset(rank);
    }
    std::vector<Extent> paramShape;
    for (int64_t a : axes)
      paramShape.push_back(x->shape()[a]);
    attrs.set("axes", g.spelledAxes(axes, rank));
    if (g.bytes.chance(30))
      attrs.set("eps", Number::floating(g.bytes.chance(50) ? 1e-5 : 1e-3));
    Value *w = parameter(g, "w", x, paramShape);
    if (g.bytes.chance(50))
      return g.emit("rms_norm", {x, w}, attrs);
    return g.emit("layer_norm", {x, w, parameter(g, "b", x, paramShape)}, attrs);
  }
  }
}

bool addScan(GeneratorContext &g) {
  Value *x = g.anyTensor(1);
  if (!x)
    return false;
  Attributes attrs;
  attrs.set("dim", spelledAxis(g, static_cast<int64_t>(g.bytes.below(x->rank())), x->rank()));
  if (g.bytes.chance(25))
    attrs.set("dtype", g.anyDType());
  Value *scan = g.emit(g.bytes.chance(70) ? "cumsum" : "cumprod", {x}, attrs);
  if (!scan || !g.bytes.chance(50))
    return scan != nullptr;
  return g.emit(g.bytes.chance(50) ? "add" : "mul", {scan, x}, {}) != nullptr;
}

namespace {

// A size as a value: y.size(d), or the extent expression of one of y's
// dims or a product of two, combined with y.
bool addSizeValue(GeneratorContext &g, Value *y) {
  const size_t rank = y->rank();
  const size_t d = g.bytes.below(rank);
  Attributes attrs;
  if (g.bytes.chance(30))
    attrs.set("dtype", g.anyDType());
  Value *size = nullptr;
  if (g.bytes.chance(50)) {
    attrs.set("dim", spelledAxis(g, static_cast<int64_t>(d), rank));
    size = g.emit("size", {y}, attrs);
  } else {
    // The draws come first, so a seed's bytes are read alike either way.
    const Extent &other = y->shape()[g.bytes.below(rank)];
    const bool product = g.bytes.chance(40) && GeneratorContext::spellable(other);
    if (!GeneratorContext::spellable(y->shape()[d]))
      return false;
    attrs.set("value", product ? y->shape()[d] * other : y->shape()[d]);
    size = g.emit("extent", {}, attrs);
  }
  if (size && g.bytes.chance(75))
    combine(g, y, size);
  return size != nullptr;
}

} // namespace

bool addCreation(GeneratorContext &g) {
  Value *y = g.anyTensor(0);
  if (!y)
    return false;
  if (y->rank() > 0 && g.bytes.chance(25))
    return addSizeValue(g, y);
  if (g.bytes.chance(30)) {
    Value *x = g.anyTensor(0, isFloatingValue);
    if (!x)
      return false;
    // Any seed and offset would do; small non-negative ones read well.
    Value *seed =
        g.addScalarInput("seed", g.bytes.chance(50) ? DType::I64 : DType::I32, Extent(1000));
    Value *offset = g.addScalarInput("offset", DType::I64, Extent(1000));
    Value *r = g.emit("rand_like", {x, seed, offset});
    if (r && g.bytes.chance(50))
      combine(g, x, r);
    return r != nullptr;
  }
  // Shaped like a suffix of y, so that it combines with y.
  std::vector<Extent> shape(
      y->shape().begin() + static_cast<ptrdiff_t>(g.bytes.below(y->rank() + 1)), y->shape().end());
  if (!GeneratorContext::spellable(shape))
    return false;
  Attributes attrs;
  attrs.set("shape", shape);
  Value *created = nullptr;
  if (g.bytes.chance(50) || shape.empty()) {
    attrs.set("value", g.number());
    attrs.set("dtype", g.anyDType());
    created = g.emit("full", {}, attrs);
  } else {
    attrs.set("dim",
              spelledAxis(g, static_cast<int64_t>(g.bytes.below(shape.size())), shape.size()));
    if (g.bytes.chance(50))
      attrs.set("dtype", g.anyDType());
    created = g.emit("iota", {}, attrs);
  }
  if (created && g.bytes.chance(75))
    combine(g, y, created);
  return created != nullptr;
}

} // namespace fuserc::fuzz::detail
