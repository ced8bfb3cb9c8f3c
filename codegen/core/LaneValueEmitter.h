// Consumer-first emission of a segment's values V lanes at a time, for
// kernels whose threads each compute V neighbouring elements along one dim
// (the pointwise generator's rvec variants, PointwiseResizeVariant.h).
//
// A value is asked for at the coordinates of its first lane plus `lane`,
// the dim along which lane l has coordinate base + l (-1 when every lane
// has the base coordinates: the lane dim was broadcast away). Values whose
// lanes are equal are scalars, the others arrays of V; each op computes
// its lanes in a fully unrolled loop. Slice, pad and cat are decided once
// per vector, on the base coordinate: along the lane dim this is right only
// when every shift (slice start, pad before, cat piece offset) and every
// piece boundary is a multiple of V and the base coordinate is, which the
// emitter records as requirements for the caller to check (at compile time
// when static, at launch when symbolic). A pad or cat whose static piece
// boundaries fall off the vector boundaries is computed lane by lane
// instead, each lane a scalar with element reads. Reads along the lane dim are one
// vector load at the base coordinates, so the caller must also make sure
// the tensor is contiguous along that dim and the address is aligned.
//
// Along the lane dim, pads and cats of narrow pieces compute every piece
// and select per vector, so a warp whose threads take different pieces does
// not run one branch after the other; each piece's reads are guarded by its
// condition. Vector loads inside the remaining branches are hoisted to just
// before the branch, guarded by the branch's condition (the compiler
// predicates them, so every piece's loads are issued at once).
//
// A reshape keeps the lanes only along the innermost dim of both shapes,
// of one extent (a multiple of V, recorded like a shift). Ops that cannot be
// computed this way (a reshape moving the lane dim, indexing by tensor
// values, rand_like, a slice with step > 1 along the lane dim) throw
// LaneRefusal, with the reason in words.
#pragma once

#include "codegen/core/ValueEmitter.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace fuserc {

// The lanes of a value: a scalar (or literal) when they are all equal, else
// an array of V.
struct LaneValue {
  std::string name;
  bool uniform = true;
  // The expression of lane `lane` (an index expression).
  std::string at(const std::string &lane) const { return uniform ? name : name + "[" + lane + "]"; }
};

struct LaneRefusal {
  std::string reason;
};

// Where an element of a tensor the segment reads lives.
struct LaneAddress {
  std::string pointer; // an expression of type `const <storage> *`, at the element
  DType storage;
  // Other threads read the same elements (fuserc_load_reused).
  bool reused = false;
};

class LaneReader {
public:
  virtual ~LaneReader() = default;
  // The expression of a scalar input.
  virtual std::string scalar(const Value &input) = 0;
  // The element of tensor input `input` at `coords`. With `lane` >= 0 the
  // V elements from there along dim `lane` are read as one vector. May
  // throw LaneRefusal.
  virtual LaneAddress address(const Value &input, const Coords &coords, int lane) = 0;
};

class LaneValueEmitter {
public:
  // `lanes`: V, at least 2; `name(v)` names values in requirements. Other
  // arguments as for ValueEmitter.
  LaneValueEmitter(std::function<bool(const Value &)> isInput, LaneReader &reader,
                   std::vector<std::string> symbols, std::function<std::string(const Value &)> name,
                   std::string indexType, int lanes);

  LaneValue emit(const Value &value, const Coords &coords, int lane);
  // Emits `value` as `by` (of its shape and dtype), as ValueEmitter does.
  void substitute(const Value &value, const Value &by) { substitutes_[&value] = &by; }

  // Extents that must be multiples of V for the emitted code to be right,
  // with what each is ("start of slice t3"), in the order met, unique.
  const std::vector<std::pair<Extent, std::string>> &requirements() const { return requirements_; }

  // The loop variable lane expressions are written in (an int).
  static const char *laneVariable() { return "l"; }

  // The statements emitted so far, indented by `indent` spaces.
  std::string body(int indent) const;

private:
  LaneValue emitOp(const Op &op, const Coords &coords, int lane);
  LaneValue emitRead(const Value &input, const Coords &coords, int lane);
  LaneValue emitElementwise(const Op &op, const Coords &coords, int lane);
  LaneValue emitBranches(const Op &op, const Coords &coords, int lane);
  bool piecesAlignToLanes(const Op &op) const;
  LaneValue emitLaneByLane(const Op &op, const Coords &coords, int lane);
  bool selectsPieces(const Op &op) const;
  LaneValue emitSelected(const Op &op, const Coords &coords, int lane);
  // The coordinates and lane dim operand `i` of `op` is asked for at.
  std::pair<Coords, int> operandAt(const Op &op, size_t i, const Coords &coords, int lane);
  void require(const Extent &extent, const std::string &what);
  LaneValue emitSmallReduction(const Op &op, const Coords &coords, int lane);
  LaneValue defineScalar(const std::string &type, const std::string &expr);
  LaneValue defineLanes(const std::string &type, const std::string &expr);
  // `target[l] = expr` for every lane l, in a fully unrolled loop.
  void assignLanes(const std::string &target, const std::string &expr);
  std::string fresh() { return "v" + std::to_string(next_++); }
  std::string ext(const Extent &e) const;
  void line(const std::string &text);
  void checkLimit() const;
  // Inserts `text` at the innermost hoist point (see Hoist).
  void hoistedLine(const std::string &text);

  std::function<bool(const Value &)> isInput_;
  LaneReader &reader_;
  std::vector<std::string> symbols_;
  std::function<std::string(const Value &)> name_;
  std::string index_;
  int lanes_;
  std::vector<std::pair<Extent, std::string>> requirements_;
  std::map<const Value *, const Value *> substitutes_;
  std::vector<std::map<std::string, LaneValue>> scopes_; // memo: key -> lanes
  std::vector<std::string> lines_;
  // Where the loads of the innermost branch being emitted go: the line
  // index before its `if`, that line's depth, the current piece's
  // condition, and the first fresh name the branches define (a load whose
  // address uses one, such as a reshape's linear index, stays in its branch).
  struct Hoist {
    size_t at;
    int depth;
    std::string guard;
    int firstInside;
  };
  // Whether `text` names a fresh value numbered `first` or later.
  static bool usesFreshFrom(const std::string &text, int first);
  std::vector<Hoist> hoists_;
  // Conditions of the selected pieces (emitSelected) being emitted, outermost
  // first: reads inside happen only where all hold.
  std::vector<std::string> guards_;
  int depth_ = 0;
  int next_ = 0;
};

} // namespace fuserc
