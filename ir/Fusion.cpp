// Construction and lookups of the Fusion IR (see Fusion.h).
#include "ir/Fusion.h"

#include <algorithm>
#include <set>

namespace fuserc {

Layout rowMajorLayout(size_t rank) {
  Layout layout(rank);
  for (size_t i = 0; i < rank; ++i)
    layout[i] = static_cast<int64_t>(i);
  return layout;
}

bool isPermutation(const Layout &layout, size_t rank) {
  if (layout.size() != rank)
    return false;
  std::vector<bool> seen(rank, false);
  for (int64_t d : layout) {
    if (d < 0 || d >= static_cast<int64_t>(rank) || seen[d])
      return false;
    seen[d] = true;
  }
  return true;
}

std::string layoutString(const Layout &layout) {
  std::string s = "(";
  for (size_t i = 0; i < layout.size(); ++i)
    s += (i ? ", " : "") + std::to_string(layout[i]);
  return s + ")";
}

std::string_view outputKindName(OutputKind kind) {
  switch (kind) {
  case OutputKind::NewBuffer:
    return "new buffer";
  case OutputKind::View:
    return "view";
  case OutputKind::InPlace:
    return "in-place";
  }
  return "?";
}

Value *Fusion::newValue(ValueKind kind) {
  values_.push_back(std::unique_ptr<Value>(new Value()));
  Value *v = values_.back().get();
  v->kind_ = kind;
  v->id_ = values_.size() - 1;
  return v;
}

Value *Fusion::addTensorInput(std::string name, DType dtype, std::vector<Extent> shape,
                              Layout layout, bool strided, llvm::SMLoc loc) {
  Value *v = newValue(ValueKind::Input);
  v->name_ = std::move(name);
  v->dtype_ = dtype;
  v->shape_ = std::move(shape);
  v->layout_ = std::move(layout);
  v->layoutOrigin_ = "declared";
  v->strided_ = strided;
  v->loc_ = loc;
  inputs_.push_back(v);
  return v;
}

Value *Fusion::addScalarInput(std::string name, DType dtype, llvm::SMLoc loc) {
  Value *v = newValue(ValueKind::Input);
  v->name_ = std::move(name);
  v->dtype_ = dtype;
  v->isScalarInput_ = true;
  v->loc_ = loc;
  inputs_.push_back(v);
  return v;
}

Value *Fusion::addLiteral(Number value, llvm::SMLoc loc) {
  Value *v = newValue(ValueKind::Literal);
  v->dtype_ = value.isInteger ? DType::I64 : DType::F64;
  v->literal_ = value;
  v->loc_ = loc;
  return v;
}

Op *Fusion::addOp(OpKind kind, std::vector<Value *> operands, Attributes attrs, TensorType type,
                  std::string name, llvm::SMLoc loc) {
  ops_.push_back(std::unique_ptr<Op>(new Op()));
  Op *op = ops_.back().get();
  op->kind_ = kind;
  op->operands_ = std::move(operands);
  op->attrs_ = std::move(attrs);
  op->loc_ = loc;
  Value *result = newValue(ValueKind::OpResult);
  result->name_ = std::move(name);
  result->dtype_ = type.dtype;
  result->shape_ = std::move(type.shape);
  result->definingOp_ = op;
  result->loc_ = loc;
  op->result_ = result;
  return op;
}

void Fusion::setLayout(Value *value, Layout layout, std::string origin) {
  value->layout_ = std::move(layout);
  value->layoutOrigin_ = std::move(origin);
}

void Fusion::setName(Value *value, std::string name) { value->name_ = std::move(name); }

Value *Fusion::findValue(std::string_view name) const {
  if (name.empty())
    return nullptr;
  for (const auto &v : values_)
    if (v->name() == name && !v->isLiteral())
      return v.get();
  return nullptr;
}

std::vector<std::string> Fusion::symbols() const {
  std::set<std::string> all;
  for (const Value *input : inputs_)
    for (const Extent &e : input->shape())
      for (std::string &s : e.symbols())
        all.insert(std::move(s));
  return {all.begin(), all.end()};
}

std::vector<std::pair<Extent, Extent>> exactDivisions(const Fusion &fusion) {
  std::vector<std::pair<Extent, Extent>> out;
  std::set<std::string> seen;
  for (const auto &v : fusion.values())
    for (const Extent &e : v->shape())
      for (auto &d : e.exactDivisions())
        if (seen.insert(d.first.str() + " / " + d.second.str()).second)
          out.push_back(std::move(d));
  return out;
}

} // namespace fuserc
