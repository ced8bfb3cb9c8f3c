// Attribute values and their printing (see Attributes.h).
#include "ir/Attributes.h"

#include <cassert>
#include <charconv>
#include <cmath>

namespace fuserc {

std::string Number::str() const {
  if (isInteger)
    return std::to_string(intValue);
  if (std::isnan(floatValue))
    return "nan";
  if (std::isinf(floatValue))
    return floatValue < 0 ? "-inf" : "inf";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, floatValue);
  assert(ec == std::errc());
  std::string s(buf, end);
  // Keep it a float literal when read back.
  if (s.find_first_of(".en") == std::string::npos)
    s += ".0";
  return s;
}

namespace {

template <class T> std::string listString(const std::vector<T> &items) {
  std::string s = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i)
      s += ", ";
    if constexpr (std::is_same_v<T, Extent>)
      s += items[i].str();
    else
      s += std::to_string(items[i]);
  }
  return s + "]";
}

struct ValuePrinter {
  std::string operator()(int64_t v) const { return std::to_string(v); }
  std::string operator()(const Number &v) const { return v.str(); }
  std::string operator()(bool v) const { return v ? "true" : "false"; }
  std::string operator()(DType v) const { return std::string(dtypeName(v)); }
  std::string operator()(const std::string &v) const { return "\"" + v + "\""; }
  std::string operator()(const std::vector<int64_t> &v) const { return listString(v); }
  std::string operator()(const Extent &v) const { return v.str(); }
  std::string operator()(const std::vector<Extent> &v) const { return listString(v); }
};

} // namespace

std::string attrValueString(const AttrValue &value) { return std::visit(ValuePrinter{}, value); }

const AttrValue *Attributes::find(std::string_view name) const {
  for (const Entry &e : entries_)
    if (e.name == name)
      return &e.value;
  return nullptr;
}

void Attributes::set(std::string_view name, AttrValue value) {
  for (Entry &e : entries_)
    if (e.name == name) {
      e.value = std::move(value);
      return;
    }
  entries_.push_back({std::string(name), std::move(value)});
}

namespace {
template <class T> const T &get(const Attributes &attrs, std::string_view name) {
  const AttrValue *v = attrs.find(name);
  assert(v && std::holds_alternative<T>(*v) && "attribute missing or of another type");
  return std::get<T>(*v);
}
} // namespace

int64_t Attributes::integer(std::string_view name) const { return get<int64_t>(*this, name); }
const Number &Attributes::number(std::string_view name) const { return get<Number>(*this, name); }
bool Attributes::boolean(std::string_view name) const { return get<bool>(*this, name); }
DType Attributes::dtype(std::string_view name) const { return get<DType>(*this, name); }
const std::string &Attributes::text(std::string_view name) const {
  return get<std::string>(*this, name);
}
const std::vector<int64_t> &Attributes::axes(std::string_view name) const {
  return get<std::vector<int64_t>>(*this, name);
}
const Extent &Attributes::extent(std::string_view name) const { return get<Extent>(*this, name); }
const std::vector<Extent> &Attributes::extents(std::string_view name) const {
  return get<std::vector<Extent>>(*this, name);
}

bool operator==(const Attributes &a, const Attributes &b) {
  if (a.entries_.size() != b.entries_.size())
    return false;
  for (size_t i = 0; i < a.entries_.size(); ++i)
    if (a.entries_[i].name != b.entries_[i].name || !(a.entries_[i].value == b.entries_[i].value))
      return false;
  return true;
}

} // namespace fuserc
