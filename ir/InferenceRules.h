// Internal to ir/: the context shared by the dtype rules (Inference.cpp)
// and the shape rules (ShapeRules.cpp) — the op, its operands and
// attributes, failure reporting and axis normalization.
#pragma once

#include "ir/Inference.h"

#include <algorithm>
#include <string>

namespace fuserc::inference_detail {

// Thrown by a rule at the first problem; inferResultType returns its error.
struct Failure {
  InferenceError error;
};

[[noreturn]] inline void fail(std::string message, int operand = -1, std::string attr = {},
                              int attrItem = -1) {
  throw Failure{{std::move(message), operand, std::move(attr), attrItem}};
}

inline std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

inline std::string typeString(const Value *v) {
  if (v->isLiteral())
    return "literal " + v->literal().str();
  return std::string(dtypeName(v->dtype())) + shapeString(v->shape());
}

class RuleContext {
public:
  RuleContext(OpKind kind, std::span<Value *const> operands, Attributes &attrs)
      : info_(opInfo(kind)), operands_(operands), attrs_(attrs) {}

protected:
  std::string opName() const { return quoted(info_.name); }
  Value *operand(size_t i) const { return operands_[i]; }

  // `item` is the axis' index in a list attribute (-1 for a single axis),
  // so the diagnostic can point at the entry itself.
  int64_t normalizeAxis(int64_t axis, size_t rank, std::string_view attr, int item = -1) const {
    int64_t r = static_cast<int64_t>(rank);
    if (axis < -r || axis >= r) {
      std::string range = r == 0 ? "a rank-0 tensor has no axes"
                                 : "expected an axis in [" + std::to_string(-r) + ", " +
                                       std::to_string(r - 1) + "]";
      fail(opName() + " axis " + std::to_string(axis) + " is out of range for a rank-" +
               std::to_string(r) + " tensor (" + range + ")",
           -1, std::string(attr), item);
    }
    return axis < 0 ? axis + r : axis;
  }

  int64_t axisAttr(std::string_view attr, size_t rank) {
    int64_t axis = normalizeAxis(attrs_.integer(attr), rank, attr);
    attrs_.set(attr, axis);
    return axis;
  }

  // Normalized, sorted, unique axes.
  std::vector<int64_t> axisSetAttr(std::string_view attr, size_t rank, bool allowEmpty) {
    const std::vector<int64_t> given = attrs_.axes(attr);
    std::vector<int64_t> axes;
    for (size_t i = 0; i < given.size(); ++i)
      axes.push_back(normalizeAxis(given[i], rank, attr, int(i)));
    // Reported at the second mention, with the list as written: [1, -1]
    // names dim 1 twice only once negative axes are counted from the end.
    for (size_t i = 0; i < axes.size(); ++i)
      for (size_t j = 0; j < i; ++j)
        if (axes[i] == axes[j])
          fail(opName() + " " + quoted(attr) + " " + attrValueString(given) + " names dim " +
                   std::to_string(axes[i]) + " of the rank-" + std::to_string(rank) +
                   " operand twice",
               -1, std::string(attr), int(i));
    std::vector<int64_t> sorted = axes;
    std::sort(sorted.begin(), sorted.end());
    if (sorted.empty() && !allowEmpty)
      fail(opName() + " needs at least one axis in " + quoted(attr), -1, std::string(attr));
    attrs_.set(attr, sorted);
    return sorted;
  }

  // `item` is the extent's index in the list attribute `attr`.
  void requireNonNegative(const Extent &e, std::string_view attr, size_t item) const {
    if (auto c = e.constant(); c && *c < 0)
      fail(opName() + " extent " + std::to_string(*c) + " in " + quoted(attr) + " is negative", -1,
           std::string(attr), int(item));
  }

  const OpInfo &info_;
  std::span<Value *const> operands_;
  Attributes &attrs_;
};

// The shape rule of the op (ShapeRules.cpp); normalizes the attributes it reads.
std::vector<Extent> inferShapeRule(OpKind kind, std::span<Value *const> operands,
                                   Attributes &attrs);

} // namespace fuserc::inference_detail
