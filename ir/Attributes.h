// Typed attribute values of an op, kept in the order of the op's schema.
#pragma once

#include "ir/DType.h"
#include "ir/Extent.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace fuserc {

// A numeric literal: integer literals keep their exact value.
struct Number {
  bool isInteger = false;
  int64_t intValue = 0;
  double floatValue = 0;

  static Number integer(int64_t v) { return {true, v, static_cast<double>(v)}; }
  static Number floating(double v) { return {false, 0, v}; }
  double asDouble() const { return isInteger ? static_cast<double>(intValue) : floatValue; }
  // Round-trippable text: integers as digits, floats always with '.', 'e',
  // "inf" or "nan".
  std::string str() const;
  // NaN equals NaN: a literal `nan` is one value, and attributes holding
  // it compare equal (the verifier re-normalizes and compares).
  friend bool operator==(const Number &a, const Number &b) {
    return a.isInteger == b.isInteger && a.intValue == b.intValue &&
           (a.floatValue == b.floatValue ||
            (a.floatValue != a.floatValue && b.floatValue != b.floatValue));
  }
};

// Int, Axis -> int64_t; Number -> Number; Bool -> bool; DType -> DType;
// Enum -> std::string; AxisList -> std::vector<int64_t>; Extent -> Extent;
// ExtentList -> std::vector<Extent>.
using AttrValue = std::variant<int64_t, Number, bool, DType, std::string, std::vector<int64_t>,
                               Extent, std::vector<Extent>>;

std::string attrValueString(const AttrValue &value);

class Attributes {
public:
  struct Entry {
    std::string name;
    AttrValue value;
  };

  bool has(std::string_view name) const { return find(name) != nullptr; }
  const AttrValue *find(std::string_view name) const;
  // Replaces the value of `name`, or appends it.
  void set(std::string_view name, AttrValue value);

  // Typed accessors; the attribute must be present with that type.
  int64_t integer(std::string_view name) const;
  const Number &number(std::string_view name) const;
  bool boolean(std::string_view name) const;
  DType dtype(std::string_view name) const;
  const std::string &text(std::string_view name) const;
  const std::vector<int64_t> &axes(std::string_view name) const;
  const Extent &extent(std::string_view name) const;
  const std::vector<Extent> &extents(std::string_view name) const;

  const std::vector<Entry> &entries() const { return entries_; }
  std::vector<Entry> &entries() { return entries_; }
  friend bool operator==(const Attributes &a, const Attributes &b);

private:
  std::vector<Entry> entries_;
};

} // namespace fuserc
