// Writable forms of normalized attributes (see SourceAttributes.h).
#include "ir/SourceAttributes.h"

#include "ir/Inference.h"

#include <algorithm>

namespace fuserc {
namespace {

bool isWritable(const AttrValue &value) {
  if (const auto *e = std::get_if<Extent>(&value))
    return isWritableExtent(*e);
  if (const auto *list = std::get_if<std::vector<Extent>>(&value))
    return std::all_of(list->begin(), list->end(), isWritableExtent);
  return true;
}

// Attributes without the entry `name` (inference fills in its default).
Attributes without(const Attributes &attrs, const std::string &name) {
  Attributes out;
  for (const Attributes::Entry &e : attrs.entries())
    if (e.name != name)
      out.set(e.name, e.value);
  return out;
}

// The written forms to try for one attribute value, most natural first.
std::vector<std::optional<AttrValue>> candidates(const Op &op, const AttrValue &value) {
  std::vector<std::optional<AttrValue>> out; // nullopt: leave the attribute out
  if (const auto *list = std::get_if<std::vector<Extent>>(&value)) {
    // -1 where an extent is not writable: inferred (reshape) or kept (expand).
    std::vector<Extent> written = *list;
    for (Extent &e : written)
      if (!isWritableExtent(e))
        e = Extent(-1);
    out.emplace_back(written);
    return out;
  }
  const Extent &extent = std::get<Extent>(value);
  out.emplace_back(std::nullopt);
  // A bound counted from the end of an operand dim, as in PyTorch.
  for (const Value *operand : op.operands())
    for (const Extent &dim : operand->shape())
      if (auto c = (extent - dim).constant(); c && *c < 0)
        out.emplace_back(Extent(*c));
  return out;
}

// Whether `attrs` normalizes to `op`'s attributes and result type.
bool normalizesBack(const Op &op, Attributes attrs) {
  InferenceResult inferred = inferResultType(op.kind(), op.operands(), attrs);
  const auto *type = std::get_if<TensorType>(&inferred);
  return type && type->dtype == op.result()->dtype() && type->shape == op.result()->shape() &&
         attrs == op.attrs();
}

} // namespace

bool isWritableExtent(const Extent &extent) { return extent.constant() || extent.symbolName(); }

Attributes sourceAttributes(const Op &op) {
  Attributes written = op.attrs();
  for (const Attributes::Entry &e : op.attrs().entries()) {
    if (isWritable(e.value))
      continue;
    for (const std::optional<AttrValue> &c : candidates(op, e.value)) {
      Attributes trial = written;
      if (c)
        trial.set(e.name, *c);
      else
        trial = without(trial, e.name);
      if (normalizesBack(op, trial)) {
        written = std::move(trial);
        break;
      }
    }
  }
  return written;
}

} // namespace fuserc
