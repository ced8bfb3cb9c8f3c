// fuserc's one JSON writer: a small value and its printer, for the manifest
// (packaging/ManifestWriter.h) and fuserc-interp's `--signature`. Objects
// keep their keys in insertion order, so the output is exactly as
// deterministic as the code that builds it (no hashing, no sorting, no
// floats).
//
// llvm/Support/JSON.h cannot replace it: with Clang in C++20 against
// libstdc++ 12 it does not compile (llvm-project issue #55780), and the
// sanitizer and fuzzing build is a Clang build.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace fuserc {

// How Json::print lays a document out; both indent by two spaces.
enum class JsonLayout {
  // An array or object whose members are all scalars stays on one line when
  // that line fits in 100 columns (the manifest).
  ShortListsInline,
  // Every member and element on a line of its own, `[]` and `{}` when
  // empty: llvm::json's layout with an indent of 2 (fuserc-interp).
  OnePerLine,
};

class Json {
public:
  using Array = std::vector<Json>;
  using Object = std::vector<std::pair<std::string, Json>>;

  Json() : value_(nullptr) {}
  Json(std::nullptr_t) : value_(nullptr) {}
  Json(bool b) : value_(b) {}
  Json(int v) : value_(int64_t{v}) {}
  Json(int64_t v) : value_(v) {}
  Json(uint64_t v) : value_(static_cast<int64_t>(v)) {}
  Json(std::string s) : value_(std::move(s)) {}
  Json(std::string_view s) : value_(std::string(s)) {}
  Json(const char *s) : value_(std::string(s)) {}
  Json(Array a) : value_(std::move(a)) {}
  Json(Object o) : value_(std::move(o)) {}

  static Json array() { return Json(Array{}); }
  static Json object() { return Json(Object{}); }
  // An array of strings.
  static Json strings(const std::vector<std::string> &items);

  // Appends to an array.
  Json &push(Json item);
  // Appends a member to an object (keys are not checked for repeats).
  Json &set(std::string key, Json item);

  // The document, ending with a newline.
  std::string print(JsonLayout layout = JsonLayout::ShortListsInline) const;

private:
  bool isScalar() const;
  bool isEmpty() const;
  void print(std::string &out, size_t indent, JsonLayout layout) const;
  // The one-line form, when the value and all its members are scalars.
  bool printInline(std::string &out) const;

  std::variant<std::nullptr_t, bool, int64_t, std::string, Array, Object> value_;
};

// `text` as a JSON string literal, quotes included.
std::string jsonQuote(std::string_view text);

} // namespace fuserc
