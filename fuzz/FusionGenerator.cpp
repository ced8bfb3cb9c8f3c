// The fusion generator of fuzz_pipeline (see FusionGenerator.h).
#include "FusionGenerator.h"

#include "ir/DType.h"
#include "ir/Fusion.h"
#include "ir/Inference.h"
#include "ir/OpInfo.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace fuserc::fuzz {
namespace {

constexpr std::string_view kSymbols[] = {"N", "M", "K"};
// Broadcast dims, odd sizes, vector-width multiples and large rows: the
// sizes the schedulers choose differently for.
constexpr int64_t kStaticExtents[] = {1, 2, 3, 4, 7, 8, 32, 33, 128, 1024, 4096};
// f32 most often, as in real fusions.
constexpr DType kInputDTypes[] = {DType::F32, DType::F32, DType::F32,  DType::F16, DType::BF16,
                                  DType::I64, DType::I32, DType::Bool, DType::F64};
constexpr DType kScalarDTypes[] = {DType::F32, DType::I64, DType::F16, DType::I32, DType::Bool};
constexpr double kLiterals[] = {0, 1, 2, -1, 0.5, -0.5, 1e-6, 3, 1e30};
constexpr int64_t kBindings[] = {1, 2, 3, 8, 128, 1000, 65536};

// Extents the language can spell: an integer or a symbol (derived ones like
// `N + 1` exist only in the IR).
bool spellable(const Extent &e) { return e.constant() || e.symbolName(); }

class FusionGenerator {
public:
  FusionGenerator(ByteReader &bytes, std::string name) : bytes_(bytes), fusion_(std::move(name)) {}

  std::string generate() {
    chooseBaseShape();
    size_t tensorInputs = 1 + bytes_.below(4);
    for (size_t i = 0; i < tensorInputs; ++i)
      addTensorInput("x" + std::to_string(i));
    size_t scalarInputs = bytes_.below(3);
    for (size_t i = 0; i < scalarInputs; ++i)
      addScalarInput("s" + std::to_string(i));
    size_t ops = 1 + bytes_.below(16);
    for (size_t attempt = 0; attempt < ops * 4 && results_.size() < ops && !bytes_.exhausted();
         ++attempt)
      tryAddOp();
    addOutputs();
    // Inputs nothing uses are an error; they are left out.
    std::string text = "fusion " + fusion_.name() + " {\n";
    for (const auto &[input, line] : inputLines_)
      if (used_.count(input))
        text += line;
    return text + opLines_ + outputLines_ + "}\n";
  }

private:
  void chooseBaseShape() {
    size_t rank = 1 + bytes_.below(4);
    for (size_t d = 0; d < rank; ++d)
      base_.push_back(bytes_.chance(40) ? Extent::symbol(bytes_.pick(kSymbols))
                                        : Extent(bytes_.pick(kStaticExtents)));
  }

  Layout randomPermutation(size_t rank) {
    Layout p = rowMajorLayout(rank);
    for (size_t i = rank; i > 1; --i)
      std::swap(p[i - 1], p[bytes_.below(i)]);
    return p;
  }

  static std::string shapeString(const std::vector<Extent> &shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i)
      s += (i ? ", " : "") + shape[i].str();
    return s + "]";
  }

  // A suffix of the base shape, some dims made broadcast dims, so that
  // inputs mostly broadcast against each other.
  void addTensorInput(const std::string &name) {
    DType dtype = bytes_.pick(kInputDTypes);
    size_t rank = base_.size() - bytes_.below(base_.size());
    std::vector<Extent> shape(base_.end() - static_cast<ptrdiff_t>(rank), base_.end());
    for (Extent &e : shape)
      if (bytes_.chance(15))
        e = Extent(1);
    Layout layout = bytes_.chance(20) ? randomPermutation(rank) : rowMajorLayout(rank);
    bool strided = bytes_.chance(10);
    std::string line =
        "  input " + name + ": " + std::string(dtypeName(dtype)) + shapeString(shape);
    if (layout != rowMajorLayout(rank))
      line += " layout" + layoutString(layout);
    if (strided)
      line += " strided";
    Value *v = fusion_.addTensorInput(name, dtype, shape, layout, strided, {});
    inputLines_.emplace_back(v, line + "\n");
    tensorInputs_.push_back(v);
    addToPool(v, name);
  }

  void addScalarInput(const std::string &name) {
    DType dtype = bytes_.pick(kScalarDTypes);
    Value *v = fusion_.addScalarInput(name, dtype, {});
    inputLines_.emplace_back(v, "  input " + name + ": " + std::string(dtypeName(dtype)) + "\n");
    scalars_.push_back(v);
    addToPool(v, name);
  }

  void addToPool(Value *v, std::string name) {
    pool_.push_back(v);
    names_[v] = std::move(name);
  }

  // Recent values are likelier, so chains grow long.
  Value *anyValue() {
    size_t n = pool_.size();
    if (bytes_.chance(70))
      return pool_[n - 1 - bytes_.below(std::min<size_t>(n, 6))];
    return pool_[bytes_.below(n)];
  }

  // One of kLiterals, whole ones sometimes written as integers.
  Number number() {
    double v = bytes_.pick(kLiterals);
    bool integral = std::abs(v) < 1e9 && v == std::trunc(v) && bytes_.chance(50);
    return integral ? Number::integer(static_cast<int64_t>(v)) : Number::floating(v);
  }

  Value *literal() {
    Number n = number();
    Value *lit = fusion_.addLiteral(n, {});
    names_[lit] = n.str();
    return lit;
  }

  // A value that broadcasts against `first`, or a literal.
  Value *partner(const Value *first) {
    if (!first || bytes_.chance(15))
      return literal();
    for (int tries = 0; tries < 8; ++tries) {
      Value *v = anyValue();
      if (broadcastShapes(first->shape(), v->shape()))
        return v;
    }
    return literal();
  }

  Value *integerValue() {
    std::vector<Value *> ints;
    for (Value *v : pool_)
      if (isInteger(v->dtype()) && !v->isRankZero())
        ints.push_back(v);
    return ints.empty() ? anyValue() : ints[bytes_.below(ints.size())];
  }

  Value *scalarValue() {
    return scalars_.empty() ? anyValue() : scalars_[bytes_.below(scalars_.size())];
  }

  std::vector<Value *> chooseOperands(const OpInfo &info) {
    std::vector<Value *> operands;
    for (const OperandSpec &spec : info.operands) {
      Value *first = operands.empty() ? nullptr : operands.front();
      switch (spec.kind) {
      case OperandKind::Tensor:
        operands.push_back(first ? partner(first) : (bytes_.chance(5) ? literal() : anyValue()));
        break;
      case OperandKind::Index:
        operands.push_back(integerValue());
        break;
      case OperandKind::Scalar:
        operands.push_back(scalarValue());
        break;
      case OperandKind::Variadic: {
        size_t n = 1 + bytes_.below(3);
        for (size_t i = 0; i < n; ++i)
          operands.push_back(first ? partner(first) : anyValue());
        break;
      }
      }
    }
    return operands;
  }

  int64_t axis(size_t rank) {
    if (rank == 0 || bytes_.chance(3))
      return static_cast<int64_t>(rank); // out of range
    int64_t a = static_cast<int64_t>(bytes_.below(rank));
    return bytes_.chance(25) ? a - static_cast<int64_t>(rank) : a;
  }

  std::vector<int64_t> axisList(const Value *x) {
    size_t rank = x ? x->rank() : 0;
    std::vector<int64_t> axes;
    switch (bytes_.below(3)) {
    case 0: // a permutation (permute's dims)
      for (int64_t d : randomPermutation(rank))
        axes.push_back(d);
      break;
    case 1: // the broadcast dims (squeeze's dims)
      for (size_t d = 0; d < rank; ++d)
        if (x->shape()[d].isConstant(1))
          axes.push_back(static_cast<int64_t>(d));
      break;
    default: // any subset (reduction axes)
      for (size_t d = 0; d < rank; ++d)
        if (bytes_.chance(50))
          axes.push_back(bytes_.chance(20) ? static_cast<int64_t>(d) - static_cast<int64_t>(rank)
                                           : static_cast<int64_t>(d));
      if (axes.empty())
        axes.push_back(axis(rank));
    }
    return axes;
  }

  Extent extent(const Value *x) {
    if (x && !x->isRankZero() && bytes_.chance(50)) {
      const Extent &e = x->shape()[bytes_.below(x->rank())];
      if (spellable(e))
        return e;
    }
    if (bytes_.chance(30)) // a symbol of the fusion, if it has one
      for (const Extent &e : base_)
        if (e.symbolName() && bytes_.chance(50))
          return e;
    return Extent(static_cast<int64_t>(bytes_.below(5)) - (bytes_.chance(10) ? 3 : 0));
  }

  std::vector<Extent> extentList(const Value *x) {
    std::vector<Extent> shape;
    switch (bytes_.below(4)) {
    case 0: // the operand's shape, perhaps with a new outer dim and its
            // broadcast dims expanded (expand, broadcast_in_dim)
      if (x)
        shape = x->shape();
      if (bytes_.chance(40))
        shape.insert(shape.begin(), base_.front());
      for (size_t d = 0; d < shape.size(); ++d)
        if (shape[d].isConstant(1) && bytes_.chance(50))
          shape[d] = base_[bytes_.below(base_.size())];
      break;
    case 1: // a suffix of the base shape (full, iota)
      shape.assign(base_.begin() + static_cast<ptrdiff_t>(bytes_.below(base_.size())), base_.end());
      break;
    case 2: // flattened, its length inferred (reshape)
      shape.push_back(Extent(-1));
      if (x && !x->isRankZero() && bytes_.chance(50))
        shape.push_back(x->shape().back());
      break;
    default: { // anything short
      size_t n = bytes_.below(4);
      for (size_t i = 0; i < n; ++i)
        shape.push_back(extent(x));
    }
    }
    for (Extent &e : shape)
      if (!spellable(e))
        e = Extent(-1);
    return shape;
  }

  AttrValue attrValue(const AttrSpec &spec, const Value *x) {
    switch (spec.kind) {
    case AttrKind::Int:
      return static_cast<int64_t>(bytes_.below(4)) - (bytes_.chance(10) ? 2 : 0);
    case AttrKind::Number:
      return number();
    case AttrKind::Bool:
      return bytes_.chance(50);
    case AttrKind::DType:
      return bytes_.pick(kAllDTypes);
    case AttrKind::Axis:
      return axis(x ? x->rank() : 0);
    case AttrKind::AxisList:
      return axisList(x);
    case AttrKind::Extent:
      return extent(x);
    case AttrKind::ExtentList:
      return extentList(x);
    case AttrKind::Enum:
      return std::string(bytes_.pick(spec.choices));
    }
    return int64_t{0};
  }

  void tryAddOp() {
    const OpInfo &info = bytes_.pick(allOps());
    std::vector<Value *> operands = chooseOperands(info);
    const Value *x = operands.empty() ? nullptr : operands.front();
    Attributes attrs;
    for (const AttrSpec &spec : info.attrs)
      if (spec.required || bytes_.chance(spec.defaultValue.empty() ? 30 : 40))
        attrs.set(spec.name, attrValue(spec, x));
    Attributes normalized = attrs;
    InferenceResult type = inferResultType(info.kind, operands, normalized);
    if (!std::holds_alternative<TensorType>(type))
      return;
    std::string name = "t" + std::to_string(results_.size());
    Op *op = fusion_.addOp(info.kind, operands, normalized, std::get<TensorType>(type), name, {});
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
    results_.push_back(op->result());
    addToPool(op->result(), name);
  }

  // Every result nothing uses (so nothing is dead), and a few more; some
  // with a pinned layout, some updating an input in place.
  void addOutputs() {
    std::vector<Value *> outputs;
    for (Value *v : results_)
      if (!used_.count(v) || bytes_.chance(15))
        outputs.push_back(v);
    if (outputs.empty())
      outputs.push_back(tensorInputs_.front());
    std::set<const Value *> aliased;
    for (Value *v : outputs) {
      used_.insert(v);
      std::string &text = outputLines_;
      text += "  output " + names_.at(v);
      if (!v->isRankZero() && bytes_.chance(15))
        text += " layout" + layoutString(randomPermutation(v->rank()));
      if (bytes_.chance(20))
        for (Value *in : tensorInputs_)
          // Only an input the fusion reads: `aliases` alone is no use.
          if (in != v && used_.count(in) && in->dtype() == v->dtype() &&
              in->shape() == v->shape() && aliased.insert(in).second) {
            text += " aliases " + names_.at(in);
            break;
          }
      text += "\n";
    }
  }

  ByteReader &bytes_;
  Fusion fusion_;
  // The source, in pieces: inputs are declared only when something uses them.
  std::vector<std::pair<const Value *, std::string>> inputLines_;
  std::string opLines_, outputLines_;
  std::vector<Extent> base_;
  std::vector<Value *> tensorInputs_, scalars_, results_;
  std::vector<Value *> pool_; // what operands are chosen from: inputs and results
  std::map<const Value *, std::string> names_;
  std::set<const Value *> used_;
};

} // namespace

GeneratedSource generateSource(ByteReader &bytes) {
  GeneratedSource source;
  size_t fusions = bytes.chance(20) ? 2 : 1;
  for (size_t i = 0; i < fusions; ++i)
    source.text += (i ? "\n" : "") + FusionGenerator(bytes, "f" + std::to_string(i)).generate();
  for (std::string_view symbol : kSymbols)
    if (bytes.chance(20))
      source.shapes[std::string(symbol)] = bytes.pick(kBindings);
  source.dotSegments = bytes.chance(10);
  return source;
}

} // namespace fuserc::fuzz
