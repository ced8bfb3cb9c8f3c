// The JSON value and its printer (see Json.h).
#include "support/Json.h"

#include <cstdio>

namespace fuserc {

std::string jsonQuote(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\b':
      out += "\\b";
      break;
    case '\f':
      out += "\\f";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char escaped[8];
        std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
        out += escaped;
      } else {
        out += c; // UTF-8 passes through
      }
    }
  }
  return out + "\"";
}

Json Json::strings(const std::vector<std::string> &items) {
  Json out = array();
  for (const std::string &s : items)
    out.push(s);
  return out;
}

Json &Json::push(Json item) {
  std::get<Array>(value_).push_back(std::move(item));
  return *this;
}

Json &Json::set(std::string key, Json item) {
  std::get<Object>(value_).emplace_back(std::move(key), std::move(item));
  return *this;
}

bool Json::isScalar() const {
  return !std::holds_alternative<Array>(value_) && !std::holds_alternative<Object>(value_);
}

bool Json::isEmpty() const {
  if (const auto *a = std::get_if<Array>(&value_))
    return a->empty();
  if (const auto *o = std::get_if<Object>(&value_))
    return o->empty();
  return false;
}

std::string Json::print(JsonLayout layout) const {
  std::string out;
  print(out, 0, layout);
  return out + "\n";
}

bool Json::printInline(std::string &out) const {
  if (const auto *b = std::get_if<bool>(&value_)) {
    out += *b ? "true" : "false";
  } else if (const auto *i = std::get_if<int64_t>(&value_)) {
    out += std::to_string(*i);
  } else if (const auto *s = std::get_if<std::string>(&value_)) {
    out += jsonQuote(*s);
  } else if (const auto *a = std::get_if<Array>(&value_)) {
    out += "[";
    for (size_t k = 0; k < a->size(); ++k) {
      if (!(*a)[k].isScalar())
        return false;
      out += k ? ", " : "";
      (*a)[k].printInline(out);
    }
    out += "]";
  } else if (const auto *o = std::get_if<Object>(&value_)) {
    out += "{";
    for (size_t k = 0; k < o->size(); ++k) {
      if (!(*o)[k].second.isScalar())
        return false;
      out += (k ? ", " : "") + jsonQuote((*o)[k].first) + ": ";
      (*o)[k].second.printInline(out);
    }
    out += "}";
  } else {
    out += "null";
  }
  return true;
}

void Json::print(std::string &out, size_t indent, JsonLayout layout) const {
  std::string oneLine;
  bool fits = false;
  if (printInline(oneLine)) {
    if (layout == JsonLayout::OnePerLine) {
      fits = isScalar() || isEmpty();
    } else {
      // `out` ends with the text before this value on its line.
      size_t lineStart = out.rfind('\n');
      size_t column = out.size() - (lineStart == std::string::npos ? 0 : lineStart + 1);
      fits = column + oneLine.size() <= 100;
    }
  }
  if (fits) {
    out += oneLine;
    return;
  }
  std::string inner(indent + 2, ' ');
  if (const auto *a = std::get_if<Array>(&value_)) {
    out += "[\n";
    for (size_t k = 0; k < a->size(); ++k) {
      out += inner;
      (*a)[k].print(out, indent + 2, layout);
      out += k + 1 < a->size() ? ",\n" : "\n";
    }
    out += std::string(indent, ' ') + "]";
  } else if (const auto *o = std::get_if<Object>(&value_)) {
    out += "{\n";
    for (size_t k = 0; k < o->size(); ++k) {
      out += inner + jsonQuote((*o)[k].first) + ": ";
      (*o)[k].second.print(out, indent + 2, layout);
      out += k + 1 < o->size() ? ",\n" : "\n";
    }
    out += std::string(indent, ' ') + "}";
  } else {
    out += oneLine; // a scalar longer than the line: it stays whole
  }
}

} // namespace fuserc
