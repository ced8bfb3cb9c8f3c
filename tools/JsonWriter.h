// A streaming JSON writer for fuserc-interp's `--signature`, printing the
// layout llvm::json prints with an indent of 2 (one member or element per
// line, `[]` and `{}` when empty); keys come out in the order given.
//
// llvm/Support/JSON.h itself cannot be used: with Clang in C++20 against
// libstdc++ 12 it does not compile (llvm-project issue #55780), and the
// sanitizer and fuzzing build is a Clang build.
#pragma once

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace fuserc {

class JsonWriter {
public:
  explicit JsonWriter(llvm::raw_ostream &os) : os_(os) {}

  void objectBegin() { open('{'); }
  void objectEnd() { close('}'); }
  void arrayBegin() { open('['); }
  void arrayEnd() { close(']'); }
  // The next value is this member's.
  void key(std::string_view name) {
    nextLine();
    string(name);
    os_ << ": ";
    afterKey_ = true;
  }
  void value(std::string_view s) {
    beforeValue();
    string(s);
  }
  void value(const char *s) { value(std::string_view(s)); }
  void value(int64_t v) {
    beforeValue();
    os_ << v;
  }
  void value(bool b) {
    beforeValue();
    os_ << (b ? "true" : "false");
  }
  void null() {
    beforeValue();
    os_ << "null";
  }

private:
  // A comma after the previous entry of the enclosing container, then a
  // new line at its depth.
  void nextLine() {
    if (empty_.empty())
      return;
    if (!empty_.back())
      os_ << ",";
    empty_.back() = false;
    os_ << "\n";
    os_.indent(2 * static_cast<unsigned>(empty_.size()));
  }
  void beforeValue() {
    if (afterKey_)
      afterKey_ = false;
    else
      nextLine();
  }
  void open(char bracket) {
    beforeValue();
    os_ << bracket;
    empty_.push_back(true);
  }
  void close(char bracket) {
    bool wasEmpty = empty_.back();
    empty_.pop_back();
    if (!wasEmpty) {
      os_ << "\n";
      os_.indent(2 * static_cast<unsigned>(empty_.size()));
    }
    os_ << bracket;
  }
  void string(std::string_view s) {
    os_ << '"';
    for (char c : s) {
      if (c == '"' || c == '\\')
        os_ << '\\' << c;
      else if (static_cast<unsigned char>(c) < 0x20)
        os_ << llvm::format("\\u%04x", static_cast<unsigned>(c));
      else
        os_ << c;
    }
    os_ << '"';
  }

  llvm::raw_ostream &os_;
  std::vector<bool> empty_; // per open container: nothing written in it yet
  bool afterKey_ = false;
};

} // namespace fuserc
