// A small builder for passes that create ops: every op goes through
// inferResultType, so its result type and the normal form of its attributes
// are always those the verifier expects, and a rewrite cannot build an op
// that does not type-check without noticing.
//
// `create` is the one entry point rewrites use; a pass may override it to
// simplify or reuse ops as they are built (canonicalization does CSE and
// folding there), so that ops built by a rewrite are canonical too. `add`
// always appends a new op. Literals are shared: one Value per number.
#pragma once

#include "ir/Fusion.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fuserc {

class FusionRewriter {
public:
  explicit FusionRewriter(Fusion &fusion) : fusion_(fusion) {}
  virtual ~FusionRewriter() = default;
  FusionRewriter(const FusionRewriter &) = delete;
  FusionRewriter &operator=(const FusionRewriter &) = delete;

  Fusion &fusion() { return fusion_; }
  // The source location new ops get (the op being rewritten, for messages).
  void setLoc(llvm::SMLoc loc) { loc_ = loc; }

  // kind(operands) with `attrs`; the result may be an existing value.
  // Throws std::logic_error when the op does not type-check (a bug in the
  // rewrite that asked for it).
  virtual Value *create(OpKind kind, std::vector<Value *> operands, Attributes attrs = {});
  // Always appends a new op; null (and `error` set) when it does not type-check.
  Value *tryAdd(OpKind kind, std::vector<Value *> operands, Attributes attrs,
                std::string *error = nullptr);
  Value *literal(Number value);

  // Shorthands for create().
  Value *unary(OpKind kind, Value *x) { return create(kind, {x}); }
  Value *binary(OpKind kind, Value *a, Value *b) { return create(kind, {a, b}); }
  Value *cast(Value *x, DType dtype);
  // `x` itself when it already has `dtype`.
  Value *castIfNeeded(Value *x, DType dtype) { return x->dtype() == dtype ? x : cast(x, dtype); }
  Value *reduce(OpKind kind, Value *x, std::vector<int64_t> axes, bool keepdim);

  // What identifies kind(operands) with `attrs` (normalized) for common
  // subexpression elimination: ops of equal keys compute the same value
  // (literals are shared, so a literal's identity is its value).
  static std::string cseKey(OpKind kind, const std::vector<Value *> &operands,
                            const Attributes &attrs);

protected:
  // The inferred type of kind(operands), normalizing `attrs`; nullopt (and
  // `error` set) when it does not type-check.
  static std::optional<TensorType> infer(OpKind kind, const std::vector<Value *> &operands,
                                         Attributes &attrs, std::string *error);
  Value *append(OpKind kind, std::vector<Value *> operands, Attributes attrs, TensorType type);

private:
  Fusion &fusion_;
  llvm::SMLoc loc_;
  // Literals by (is integer, value bits): 0.0 and -0.0 stay apart.
  std::map<std::pair<bool, uint64_t>, Value *> literals_;
};

} // namespace fuserc
