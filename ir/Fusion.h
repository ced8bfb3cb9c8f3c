// The Fusion IR: a fusion is a list of inputs, ops in definition
// (topological) order, and outputs. Values are SSA: each is an input, a
// numeric literal, or the result of exactly one op.
#pragma once

#include "ir/Attributes.h"
#include "ir/DType.h"
#include "ir/Extent.h"
#include "ir/OpInfo.h"

#include "llvm/Support/SMLoc.h"

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace fuserc {

class Op;

// A memory order: a permutation of the logical dims, outermost first.
using Layout = std::vector<int64_t>;
Layout rowMajorLayout(size_t rank);
bool isPermutation(const Layout &layout, size_t rank);
std::string layoutString(const Layout &layout);

enum class ValueKind : uint8_t { Input, Literal, OpResult };

class Value {
public:
  ValueKind kind() const { return kind_; }
  bool isInput() const { return kind_ == ValueKind::Input; }
  bool isLiteral() const { return kind_ == ValueKind::Literal; }
  // User-given name; empty for anonymous results (nested calls) and literals.
  const std::string &name() const { return name_; }
  DType dtype() const { return dtype_; }
  const std::vector<Extent> &shape() const { return shape_; }
  size_t rank() const { return shape_.size(); }
  // Scalar inputs and literals are rank 0; so may be op results.
  bool isRankZero() const { return shape_.empty(); }
  // A scalar passed at launch (`input s: f32`), as opposed to a tensor input.
  bool isScalarInput() const { return isInput() && isScalarInput_; }

  // Memory order, outermost first. Tensor inputs: as declared. Op results:
  // empty until layout inference chooses one (see passes/LayoutInference.h).
  const Layout &layout() const { return layout_; }
  // Where the layout came from, in words ("declared", "from x through add").
  const std::string &layoutOrigin() const { return layoutOrigin_; }
  // Inputs only.
  bool isStrided() const { return strided_; }
  // Literals only.
  const Number &literal() const { return literal_; }
  // Op results only.
  Op *definingOp() const { return definingOp_; }

  llvm::SMLoc loc() const { return loc_; }
  // Position in the fusion's value list: stable, follows definition order.
  size_t id() const { return id_; }

private:
  friend class Fusion;
  Value() = default;

  ValueKind kind_ = ValueKind::Input;
  std::string name_;
  DType dtype_ = DType::F32;
  std::vector<Extent> shape_;
  bool isScalarInput_ = false;
  Layout layout_;
  std::string layoutOrigin_;
  bool strided_ = false;
  Number literal_;
  Op *definingOp_ = nullptr;
  llvm::SMLoc loc_;
  size_t id_ = 0;
};

class Op {
public:
  OpKind kind() const { return kind_; }
  const OpInfo &info() const { return opInfo(kind_); }
  const std::vector<Value *> &operands() const { return operands_; }
  Value *operand(size_t i) const { return operands_[i]; }
  const Attributes &attrs() const { return attrs_; }
  Value *result() const { return result_; }
  llvm::SMLoc loc() const { return loc_; }

private:
  friend class Fusion;
  Op() = default;

  OpKind kind_ = OpKind{};
  std::vector<Value *> operands_;
  Attributes attrs_;
  Value *result_ = nullptr;
  llvm::SMLoc loc_;
};

// How an output gets its memory (decided by alias analysis).
enum class OutputKind : uint8_t {
  NewBuffer, // written by a kernel into a buffer the caller provides
  View,      // a view of an input's memory: no kernel, no copy
  InPlace,   // written by a kernel into the buffer of the input it aliases
};
std::string_view outputKindName(OutputKind kind);

// An output that is a view of an input: element i of the output lives at
// base + offset + sum(i[d] * strides[d]), in elements of the base's dtype.
// Strides of a dense base follow from its shape and layout; a `strided`
// base's strides are the symbols `x.stride0`, `x.stride1`, ...
struct ViewInfo {
  Value *base = nullptr;
  Extent offset;
  std::vector<Extent> strides;
};

struct FusionOutput {
  // The output's name in the ABI (header, manifest). It starts as the name of
  // the value, and stays when a pass replaces or renames the value.
  std::string name;
  Value *value = nullptr;
  std::optional<Layout> pinnedLayout; // `layout(...)` given by the user
  Value *aliases = nullptr;           // in-place update of this input
  // Input copies (passes/InputCopies.h): the input this output is, whose
  // copy in the output's layout is `value`. Dumps print the output as the
  // input, so that they read back to the same IR.
  Value *copies = nullptr;
  llvm::SMLoc loc;
  llvm::SMLoc aliasesLoc; // the `aliases` clause, for hazard diagnostics

  // Layout inference: the memory order (the pinned one when given) and
  // where it came from.
  Layout layout;
  std::string layoutOrigin;
  // Alias analysis.
  OutputKind kind = OutputKind::NewBuffer;
  std::optional<ViewInfo> view; // kind == View

  // Every value it points at replaced by `map(value)`: a pass rebuilding
  // the fusion maps its outputs into the new one.
  template <typename Map> void remapValues(Map map) {
    value = map(value);
    if (aliases)
      aliases = map(aliases);
    if (copies)
      copies = map(copies);
    if (view)
      view->base = map(view->base);
  }
};

struct TensorType {
  DType dtype;
  std::vector<Extent> shape;
};

class Fusion {
public:
  explicit Fusion(std::string name, llvm::SMLoc loc = {}) : name_(std::move(name)), loc_(loc) {}
  Fusion(const Fusion &) = delete;
  Fusion &operator=(const Fusion &) = delete;

  const std::string &name() const { return name_; }
  llvm::SMLoc loc() const { return loc_; }

  Value *addTensorInput(std::string name, DType dtype, std::vector<Extent> shape, Layout layout,
                        bool strided, llvm::SMLoc loc);
  Value *addScalarInput(std::string name, DType dtype, llvm::SMLoc loc);
  // A literal operand: rank 0, "weak" in type promotion, i64, f64 or bool.
  Value *addLiteral(Number value, llvm::SMLoc loc);
  // Appends an op; its result gets `type`. `name` may be empty (anonymous).
  Op *addOp(OpKind kind, std::vector<Value *> operands, Attributes attrs, TensorType type,
            std::string name, llvm::SMLoc loc);
  void addOutput(FusionOutput output) { outputs_.push_back(std::move(output)); }
  std::vector<FusionOutput> &mutableOutputs() { return outputs_; }
  // Sets the memory order of a value (layout inference).
  void setLayout(Value *value, Layout layout, std::string origin);
  // Gives an op result a (new) name; passes use it to keep the names a user
  // knows when values are merged.
  void setName(Value *value, std::string name);

  const std::vector<Value *> &inputs() const { return inputs_; }
  const std::vector<std::unique_ptr<Op>> &ops() const { return ops_; }
  const std::vector<FusionOutput> &outputs() const { return outputs_; }
  const std::vector<std::unique_ptr<Value>> &values() const { return values_; }
  // The input, user-named op result, or null.
  Value *findValue(std::string_view name) const;
  // Every symbol used by input shapes, sorted.
  std::vector<std::string> symbols() const;

private:
  Value *newValue(ValueKind kind);

  std::string name_;
  llvm::SMLoc loc_;
  std::vector<std::unique_ptr<Value>> values_;
  std::vector<std::unique_ptr<Op>> ops_;
  std::vector<Value *> inputs_;
  std::vector<FusionOutput> outputs_;
};

// The fusions of one or more input files, in file order.
struct Module {
  std::vector<std::unique_ptr<Fusion>> fusions;
  // Symbols bound before inference (`--shape SYM=N`), set before loading:
  // every extent a fusion loaded into the module spells with SYM is N.
  SymbolBindings bound;
  // Every symbol the loaded fusions declare in their inputs, bound or not.
  std::set<std::string> declaredSymbols;
};

// Every exact division (Extent::exactDiv) in the extents of the fusion's
// values, each once, as {dividend, divisor}: what the wrappers and the
// interpreter check leaves no remainder at launch.
std::vector<std::pair<Extent, Extent>> exactDivisions(const Fusion &fusion);

} // namespace fuserc
