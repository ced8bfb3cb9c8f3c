// Consumer-first emission of a segment's values as CUDA statements.
//
// Every value is computed where it is used, at the coordinates that use
// needs: an elementwise op asks its operands for the same coordinates
// (broadcast dims at 0), a permute for permuted ones, a slice for shifted
// ones, a pad or cat branches on the coordinate, a reshape re-linearizes.
// A value asked for twice at the same coordinates is computed once (per
// scope: statements inside a branch are not visible after it).
//
// Reads of the segment's inputs go through an InputReader, so a scheduler
// decides how memory is addressed. In coordinate-free mode (fast paths
// where every tensor is addressed by the scheduler, lane by lane) no
// coordinates are tracked and only ops that keep them are allowed.
#pragma once

#include "ir/Fusion.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fuserc {

using Coords = std::vector<std::string>; // one index expression per logical dim

// What a reader gives for an input: an expression of the input dtype's
// compute type and, when that is fuserc_load of one stored element, the
// element itself (an expression of the storage type).
struct InputRead {
  InputRead(std::string v) : value(std::move(v)) {} // NOLINT: not a stored element
  InputRead(const char *v) : value(v) {}            // NOLINT: not a stored element
  static InputRead load(std::string element) {
    InputRead read("fuserc_load(" + element + ")");
    read.element = std::move(element);
    return read;
  }
  // Element e of the register vector `vector` of `width` elements of
  // `storage`: bf16 vectors of an even width convert it from its word
  // (fuserc_load_lane).
  static InputRead lane(const std::string &vector, const std::string &e, int width, DType storage) {
    InputRead read = load(vector + "[" + e + "]");
    if (storage == DType::BF16 && width % 2 == 0)
      read.value = "fuserc_load_lane(" + vector + ", " + e + ")";
    return read;
  }
  std::string value;
  std::string element; // empty when the value is not one stored element
};

class InputReader {
public:
  virtual ~InputReader() = default;
  // The element of segment input `input` at `coords` (empty in
  // coordinate-free mode).
  virtual InputRead read(const Value &input, const Coords &coords) = 0;
};

// Whether `op` yields the same value at every coordinate: elementwise ops
// (given such operands), `full` and the rank-0 `size` / `extent`.
bool isCoordinateFree(const Op &op);

// The value of a `size` or `extent` op as CUDA of its computation type,
// from the kernel's symbol arguments `symbols` (a.sym[k]) in 64 bits: an
// extent's value (N*N) is no index, which the index type bounds.
std::string extentValueCode(const Op &op, const std::vector<std::string> &symbols);

// Row-major strides of `shape`, as extents (a reshape re-linearizes by them).
std::vector<Extent> rowMajorStrides(const std::vector<Extent> &shape);

class ValueEmitter {
public:
  // `isInput(v)`: whether v is read from outside the segment. `symbols`:
  // the kernel's symbol arguments, a.sym[k] in this order, from which
  // symbolic extents are spelt in the index type.
  ValueEmitter(std::function<bool(const Value &)> isInput, InputReader &reader,
               std::vector<std::string> symbols, std::string indexType, bool coordinateFree);

  // A variable (or constant) holding `value` at `coords`, in the compute
  // type of its dtype; statements computing it are appended to the body.
  std::string emit(const Value &value, const Coords &coords);

  // Whether coordinate-free emission supports every op of `ops`.
  static bool supportsCoordinateFree(const std::vector<const Op *> &ops);

  // Declares which divisors a kernel keeps fixed while it emits many
  // elements (a row kernel's row's sum): a float division by `divisor` read
  // at `coords` multiplies by its reciprocal, computed once. The kernel
  // must say so of a divisor in every phase that computes the division or
  // in none, so that a value has one rounding wherever it is computed.
  void setInvariant(std::function<bool(const Value &divisor, const Coords &coords)> invariant) {
    invariant_ = std::move(invariant);
  }

  // The storage element `var` was loaded from, when `var` is a read of an
  // input of dtype `dtype` (f16 or bf16) with nothing computed on it
  // (InputRead::element): a store of it into memory of that dtype copies
  // the element itself instead of converting it to f32 and back.
  std::optional<std::string> loadedElement(const std::string &var, DType dtype) const;

  // Emits `value` as `by` (of its shape and dtype) wherever it is asked
  // for: a two-pass scatter's fill computes it as its background.
  void substitute(const Value &value, const Value &by) { substitutes_[&value] = &by; }
  // Emits `value` as `expression` (of its compute type) at every
  // coordinate: the update pass binds the scatter to its source's element.
  void bind(const Value &value, std::string expression) { bound_[&value] = std::move(expression); }

  // How many variables it has named, and where its names start: a second
  // emitter whose statements share a scope starts after the first's.
  int namesUsed() const { return next_; }
  void startNamesAt(int first) { next_ = first; }

  // The statements emitted so far, indented by `indent` spaces.
  std::string body(int indent) const;
  // The same, and forgets them: later statements may use the variables
  // they define (a kernel places them in an enclosing scope).
  std::string takeBody(int indent);

private:
  std::string emitOp(const Op &op, const Coords &coords);
  std::string emitElementwise(const Op &op, const Coords &coords);
  std::string emitCreation(const Op &op, const Coords &coords);
  std::string emitBranches(const Op &op, const Coords &coords);
  std::string emitScatter(const Op &op, const Coords &coords);
  Coords operandCoords(const Op &op, size_t operand, const Coords &coords);
  std::string define(const std::string &type, const std::string &expr);
  std::string ext(const Extent &e) const;
  void line(const std::string &text);

  std::function<bool(const Value &)> isInput_;
  InputReader &reader_;
  std::vector<std::string> symbols_;
  std::string index_;
  bool coordinateFree_;
  std::function<bool(const Value &, const Coords &)> invariant_;
  std::map<const Value *, const Value *> substitutes_;
  std::map<const Value *, std::string> bound_;
  std::vector<std::map<std::string, std::string>> scopes_; // memo: key -> variable
  // Variables defined as fuserc_load(element) of an f16 / bf16 input.
  std::map<std::string, std::pair<std::string, DType>> loaded_;
  std::vector<std::string> lines_;
  int depth_ = 0; // extra indentation inside branches
  int next_ = 0;
};

} // namespace fuserc
