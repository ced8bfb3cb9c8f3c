// Internal to the fusion generator (FusionGenerator.cpp, GeneratorPatterns.cpp):
// the fusion under construction with its source text, the choices every
// pattern draws on (values, extents, axes), and the patterns themselves.
//
// Every op goes through GeneratorContext::emit, which asks the real type
// inference (ir/Inference.h) and adds the op only when it accepts, so a
// pattern may try something unlikely and simply get null back.
#pragma once

#include "ByteReader.h"
#include "FusionGenerator.h"

#include "ir/Fusion.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace fuserc::fuzz::detail {

class GeneratorContext {
public:
  GeneratorContext(ByteReader &source, std::string name);

  ByteReader &bytes;

  // --- The fusion and its text ---------------------------------------------

  // Adds `op(operands, attrs)` when inference accepts it (and its result is
  // not absurdly large); returns its result or null. `attrs` are printed as
  // given; inference normalizes a copy.
  Value *emit(std::string_view op, std::vector<Value *> operands, Attributes attrs = {});
  Value *emit(const OpInfo &info, std::vector<Value *> operands, Attributes attrs);

  Value *addTensorInput(std::string_view prefix, DType dtype, std::vector<Extent> shape,
                        Layout layout = {}, bool strided = false);
  // A scalar input; with `bound`, the harness draws it from [0, bound).
  Value *addScalarInput(std::string_view prefix, DType dtype,
                        std::optional<Extent> bound = std::nullopt);
  // An integer input whose values the harness draws from [0, bound).
  Value *addIndexInput(std::vector<Extent> shape, Extent bound);
  Value *literal();
  Value *literal(Number n);

  // The finished fusion: text and what a harness needs to run it.
  GeneratedFusion finish();

  // --- Choices -------------------------------------------------------------

  // A value of the pool (inputs and results), recent ones likelier.
  Value *anyValue();
  // A tensor of rank >= minRank satisfying `accept`, or null.
  Value *anyTensor(size_t minRank = 1, bool (*accept)(const Value *) = nullptr);
  // A value that broadcasts against `first`, or a literal.
  Value *partner(const Value *first);
  Value *scalarInput();
  Number number();
  DType anyDType();
  Layout randomPermutation(size_t rank);
  // A non-empty subset of [0, rank), sorted; sometimes all of it.
  std::vector<int64_t> axisSubset(size_t rank);
  // Axes as a user writes them: some counted from the end.
  std::vector<int64_t> spelledAxes(const std::vector<int64_t> &axes, size_t rank);
  // A symbol of the fusion usable in attributes (one of a used input's
  // shape, or of `x`'s), or nullopt.
  std::optional<Extent> usableSymbol(const Value *x);
  // A small static extent or a usable symbol.
  Extent smallExtent(const Value *x);

  const std::vector<Extent> &baseShape() const { return base_; }
  bool hasResults() const { return !results_.empty(); }

  // True when the generator can write the shape in the language: every
  // extent an integer or a symbol.
  static bool spellable(const Extent &e) { return e.constant() || e.symbolName(); }
  static bool spellable(const std::vector<Extent> &shape);
  // True when the extent may be 0 or less for some symbol binding (tried at
  // a few), e.g. `N - 2`.
  static bool mayBeEmpty(const Extent &e);

  // --- Building ------------------------------------------------------------

  void chooseBaseShape();
  void addOutputs();

private:
  void addToPool(Value *v, std::string name);
  bool attributeSymbolsUsable(const Attributes &attrs, std::span<Value *const> operands) const;
  bool mayAlias(const Value *v, const Value *input, const std::set<const Value *> &outputs) const;
  std::string freshName(std::string_view prefix);

  Fusion fusion_;
  std::vector<std::pair<const Value *, std::string>> inputLines_;
  std::string opLines_, outputLines_;
  std::vector<Extent> base_;
  std::vector<Value *> tensorInputs_, scalars_, results_;
  std::vector<Value *> pool_;
  std::map<const Value *, std::string> names_;
  std::set<const Value *> used_;
  std::map<std::string, int, std::less<>> prefixCounts_;
  std::map<std::string, Extent> indexBounds_;
};

// --- Patterns (GeneratorPatterns.cpp) ----------------------------------------
// Each adds one or a few related ops and returns false when it found nothing
// to apply to (the caller then tries another).

bool addElementwise(GeneratorContext &g);
bool addCast(GeneratorContext &g);
// A reduction over some axes, with or without keepdim, often broadcast back
// against its input: along the reduced dims (keepdim, unsqueeze,
// broadcast_in_dim) or right-aligned along the kept ones.
bool addReduction(GeneratorContext &g);
// A reduction over every axis (a 0-d tensor) used by a later op.
bool addZeroDim(GeneratorContext &g);
// One to three views: reshape, permute, expand, unsqueeze, squeeze, slice,
// broadcast_in_dim.
bool addViews(GeneratorContext &g);
bool addPadOrCat(GeneratorContext &g);
// index_select, gather or scatter with a fresh index input (values in range).
bool addIndexing(GeneratorContext &g);
bool addComposite(GeneratorContext &g);
// cumsum or cumprod of any tensor along one dim, sometimes with a dtype,
// often combined elementwise with its input (a prologue and an epilogue
// in the scan kernel).
bool addScan(GeneratorContext &g);
// full, iota or rand_like, combined with a value of the fusion.
bool addCreation(GeneratorContext &g);
// Any op of ops.td with random operands and attributes.
bool addAnyOp(GeneratorContext &g);

} // namespace fuserc::fuzz::detail
