// Attribute value conversion and checking (see AttributeConversion.h).
#include "frontend/AttributeConversion.h"

#include "frontend/ExtentExpressions.h"

namespace fuserc {
namespace {

using Kind = ast::AttrValue::Kind;

struct Failure {
  AttrConversionError error;
};

std::string describe(const ast::AttrValue &v) {
  switch (v.kind) {
  case Kind::Integer:
    return "integer " + std::to_string(v.intValue);
  case Kind::Float:
    return "number " + Number::floating(v.floatValue).str();
  case Kind::Bool:
    return v.boolValue ? "'true'" : "'false'";
  case Kind::Identifier:
    return "identifier '" + v.text + "'";
  case Kind::String:
    return "string \"" + v.text + "\"";
  case Kind::List:
    return "a list";
  case Kind::Extent:
    return "an extent expression";
  }
  return "a value";
}

class Converter {
public:
  Converter(const OpInfo &op, const AttrSpec &spec, const std::set<std::string> &symbols)
      : op_(op), spec_(spec), symbols_(symbols) {}

  AttrValue convert(const ast::AttrValue &v) {
    switch (spec_.kind) {
    case AttrKind::Int:
    case AttrKind::Axis:
      return integer(v);
    case AttrKind::Number:
      if (v.kind == Kind::Integer)
        return Number::integer(v.intValue);
      if (v.kind == Kind::Float)
        return Number::floating(v.floatValue);
      mismatch(v, "a number");
    case AttrKind::Bool:
      if (v.kind != Kind::Bool)
        mismatch(v, "true or false");
      return v.boolValue;
    case AttrKind::DType:
      return dtype(v);
    case AttrKind::Enum:
      return enumValue(v);
    case AttrKind::AxisList:
      return list<int64_t>(v, "a list of axes like [0, -1]",
                           [&](const auto &item) { return integer(item); });
    case AttrKind::Extent:
      return extent(v);
    case AttrKind::ExtentList:
      return list<Extent>(v, "a list of extents like [M, 128]",
                          [&](const auto &item) { return extent(item); });
    }
    mismatch(v, "a value");
  }

private:
  std::string where() const {
    return "attribute '" + std::string(spec_.name) + "' of '" + std::string(op_.name) + "'";
  }

  [[noreturn]] void fail(std::string message, llvm::SMLoc loc) {
    throw Failure{{std::move(message), loc}};
  }

  [[noreturn]] void mismatch(const ast::AttrValue &v, const std::string &expected) {
    fail(where() + " expects " + expected + ", got " + describe(v), v.loc);
  }

  int64_t integer(const ast::AttrValue &v) {
    if (v.kind != Kind::Integer)
      mismatch(v, spec_.kind == AttrKind::Axis || spec_.kind == AttrKind::AxisList
                      ? std::string("an integer axis")
                      : std::string("an integer"));
    return v.intValue;
  }

  DType dtype(const ast::AttrValue &v) {
    std::string name = v.kind == Kind::Identifier || v.kind == Kind::String ? v.text : "";
    if (std::optional<DType> t = parseDType(name))
      return *t;
    mismatch(v, "a dtype (bool, i32, i64, f16, bf16, f32 or f64)");
  }

  std::string enumValue(const ast::AttrValue &v) {
    std::string choices;
    for (std::string_view c : spec_.choices)
      choices += (choices.empty() ? "\"" : ", \"") + std::string(c) + "\"";
    if (v.kind == Kind::String || v.kind == Kind::Identifier)
      for (std::string_view c : spec_.choices)
        if (c == v.text)
          return v.text;
    mismatch(v, "one of " + choices);
  }

  Extent extent(const ast::AttrValue &v) {
    if (v.kind == Kind::Integer)
      return Extent(v.intValue);
    if (v.kind == Kind::Identifier) {
      if (!symbols_.count(v.text)) {
        std::string known;
        for (const std::string &s : symbols_)
          known += (known.empty() ? "" : ", ") + s;
        fail(where() + " names '" + v.text + "', which is not a symbolic extent of this fusion" +
                 (known.empty() ? std::string(" (its inputs have only static extents)")
                                : " (symbols: " + known + ")"),
             v.loc);
      }
      return Extent::symbol(v.text);
    }
    if (v.kind == Kind::Extent) {
      std::variant<Extent, ExtentExprError> e = extentOf(*v.extent, &symbols_);
      if (auto *error = std::get_if<ExtentExprError>(&e))
        fail(where() + ": " + error->message, error->loc);
      return std::get<Extent>(e);
    }
    mismatch(v, "an extent (an integer, a symbol or an expression of them)");
  }

  template <class T, class F>
  std::vector<T> list(const ast::AttrValue &v, const std::string &expected, F convertItem) {
    if (v.kind != Kind::List)
      mismatch(v, expected);
    std::vector<T> items;
    for (const ast::AttrValue &item : v.items)
      items.push_back(convertItem(item));
    return items;
  }

  const OpInfo &op_;
  const AttrSpec &spec_;
  const std::set<std::string> &symbols_;
};

} // namespace

AttrConversion convertAttrValue(const OpInfo &op, const AttrSpec &spec, const ast::AttrValue &value,
                                const std::set<std::string> &symbols) {
  try {
    return Converter(op, spec, symbols).convert(value);
  } catch (Failure &f) {
    return std::move(f.error);
  }
}

} // namespace fuserc
