// The reference interpreter's driver: binds symbols from the input shapes,
// evaluates the ops in order with the per-family evaluators, and converts
// the outputs to their declared dtypes (see Interpreter.h for the rounding
// contract).
#include "ir/interp/Interpreter.h"

#include "ir/interp/EvalSupport.h"
#include "ir/interp/Perturbation.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <set>
#include <vector>

namespace fuserc {
namespace {

// Thrown while binding inputs; becomes InterpreterResult::error.
struct BindError {
  std::string message;
};

std::string inputDim(const Value &input, size_t dim) {
  return "input '" + input.name() + "' dim " + std::to_string(dim);
}

// Binds the symbols of the input shapes, checking every input against its
// declaration. Symbols remember where they were bound, for messages.
class InputBinder {
public:
  explicit InputBinder(SymbolBindings &symbols) : symbols_(symbols) {
    for (const auto &[name, value] : symbols_)
      origins_[name] = "the given bindings";
  }

  void bind(const Value &input, const Tensor &t) {
    const std::string subject = "input '" + input.name() + "'";
    if (t.dtype() != input.dtype())
      fail(subject + ": expected dtype " + std::string(dtypeName(input.dtype())) + ", found " +
           std::string(dtypeName(t.dtype())));
    if (t.rank() != input.rank())
      fail(subject + ": expected rank " + std::to_string(input.rank()) + " (shape " +
           shapeString(input.shape()) + "), found rank " + std::to_string(t.rank()) + " (shape " +
           interp::shapeText(t.shape()) + ")");
    for (size_t d = 0; d < t.rank(); ++d)
      bindDim(input, d, t.shape()[d]);
  }

  // Checks the extents that are neither constants nor single symbols, once
  // every input has been bound.
  void checkDeferred() {
    solveDeferred();
    for (const auto &[input, dim, found] : deferred_) {
      const Extent &e = input->shape()[dim];
      const std::optional<int64_t> expected = e.evaluate(symbols_);
      if (!expected)
        fail(inputDim(*input, dim) + ": cannot evaluate extent '" + e.str() + "'");
      if (*expected != found)
        fail(inputDim(*input, dim) + ": expected " + e.str() + " = " + std::to_string(*expected) +
             ", found " + std::to_string(found));
    }
  }

  // Every exact division in the fusion's extents leaves no remainder at
  // these bindings, as the wrappers check.
  void checkExactDivisions(const Fusion &fusion) {
    for (const auto &[a, b] : exactDivisions(fusion)) {
      const std::optional<int64_t> x = a.evaluate(symbols_), y = b.evaluate(symbols_);
      if (x && y && *y > 0 && *x % *y == 0)
        continue;
      fail(a.str() + " is " + (x ? std::to_string(*x) : "unknown") + ", not a multiple of " +
           b.str() + " (" + (y ? std::to_string(*y) : "unknown") + "), which the exact division " +
           a.str() + " / " + b.str() + " needs");
    }
  }

private:
  [[noreturn]] static void fail(std::string message) { throw BindError{std::move(message)}; }

  // Symbols only extent expressions name (`[N, 32*G]`): each bound from the
  // first deferred extent that is a*S + rest in it alone, as the header does.
  void solveDeferred() {
    for (bool progress = true; progress;) {
      progress = false;
      for (const auto &[input, dim, found] : deferred_) {
        const Extent &e = input->shape()[dim];
        std::vector<std::string> unbound;
        for (const std::string &s : e.symbols())
          if (!symbols_.count(s))
            unbound.push_back(s);
        if (unbound.size() != 1)
          continue;
        const auto linear = e.linearIn(unbound.front());
        const std::optional<int64_t> rest =
            linear ? linear->second.evaluate(symbols_) : std::nullopt;
        if (!rest)
          continue;
        if (found < *rest || (found - *rest) % linear->first != 0)
          fail(inputDim(*input, dim) + ": " + std::to_string(found) + " is not " + e.str() +
               " for any whole " + unbound.front() + " >= 0");
        symbols_[unbound.front()] = (found - *rest) / linear->first;
        origins_[unbound.front()] = inputDim(*input, dim);
        progress = true;
        break;
      }
    }
  }

  void bindDim(const Value &input, size_t dim, int64_t found) {
    const Extent &e = input.shape()[dim];
    if (std::optional<int64_t> c = e.constant()) {
      if (*c != found)
        fail(inputDim(input, dim) + ": expected " + std::to_string(*c) + ", found " +
             std::to_string(found));
      return;
    }
    std::optional<std::string> symbol = e.symbolName();
    if (!symbol) {
      deferred_.push_back({&input, dim, found});
      return;
    }
    auto it = symbols_.find(*symbol);
    if (it == symbols_.end()) {
      symbols_.emplace(*symbol, found);
      origins_[*symbol] = inputDim(input, dim);
    } else if (it->second != found) {
      fail(inputDim(input, dim) + ": expected " + *symbol + " = " + std::to_string(it->second) +
           " (bound by " + origins_[*symbol] + "), found " + std::to_string(found));
    }
  }

  struct Deferred {
    const Value *input;
    size_t dim;
    int64_t found;
  };
  SymbolBindings &symbols_;
  std::map<std::string, std::string> origins_;
  std::vector<Deferred> deferred_;
};

Tensor literalTensor(const Value &literal) {
  Tensor t(literal.dtype(), {});
  const Number &n = literal.literal();
  if (n.isInteger)
    t.setInt(0, n.intValue);
  else
    t.setFloat(0, n.floatValue);
  return t;
}

// The value of `t` with exactly dtype `dtype`: f16 / bf16 values held in
// f32 are rounded here, where they are stored.
Tensor withDType(const Tensor &t, DType dtype) {
  if (t.dtype() == dtype)
    return t;
  Tensor out(dtype, t.shape());
  for (size_t i = 0; i < t.numel(); ++i)
    interp::copyElement(t, i, out, i);
  return out;
}

InterpreterResult failure(InterpreterResult result, std::string message) {
  result.ok = false;
  result.error = std::move(message);
  result.outputs.clear();
  return result;
}

} // namespace

InterpreterResult interpret(const Fusion &fusion, const std::map<std::string, Tensor> &inputs,
                            const SymbolBindings &symbols, const InterpreterOptions &options) {
  InterpreterResult result;
  result.symbols = symbols;
  std::vector<std::optional<Tensor>> values(fusion.values().size());

  try {
    InputBinder binder(result.symbols);
    std::set<std::string> known;
    for (const Value *input : fusion.inputs()) {
      known.insert(input->name());
      auto it = inputs.find(input->name());
      if (it == inputs.end())
        return failure(std::move(result), "missing input '" + input->name() + "'");
      binder.bind(*input, it->second);
      values[input->id()] = it->second;
    }
    binder.checkDeferred();
    binder.checkExactDivisions(fusion);
    for (const auto &[name, tensor] : inputs)
      if (!known.count(name))
        return failure(std::move(result), "unknown input '" + name + "' (the fusion '" +
                                              fusion.name() + "' has no input of that name)");
  } catch (const BindError &e) {
    return failure(std::move(result), e.message);
  }

  for (const auto &value : fusion.values())
    if (value->isLiteral())
      values[value->id()] = literalTensor(*value);

  const EvalContext ctx{result.symbols, options.perturbation != 0};
  const bool perturbed = options.perturbation != 0;
  // Values a kernel computes, directly or through exact ops (an abs or a
  // view of a computed value): a kernel may recompute them per use.
  std::vector<bool> computed(fusion.values().size(), false);
  // Perturbed runs: the computed values without moves (what uses move away
  // from, and where decisions tie).
  std::vector<std::optional<Tensor>> plain(fusion.values().size());
  // Perturbed runs of fusions with a bool decision on floats (a cast to
  // bool, a logical op: decidesOnExactValue): every value as the reference
  // computes it (no moves, its own order), which tells a NaN the kernel
  // order made (an order that decides underflow) from a real one.
  const bool tracksExact =
      perturbed && std::any_of(fusion.ops().begin(), fusion.ops().end(),
                               [](const auto &op) { return interp::decidesOnExactValue(*op); });
  const EvalContext exactCtx{result.symbols, false};
  std::vector<std::optional<Tensor>> exact(fusion.values().size());
  for (const auto &op : fusion.ops()) {
    try {
      std::vector<const Tensor *> operands, plains, plainOperands, exactOperands;
      std::vector<bool> computedOperands;
      std::vector<Tensor> uses; // perturbed runs: each use's own view of a computed value
      uses.reserve(op->operands().size());
      for (const Value *operand : op->operands()) {
        if (!values[operand->id()])
          throw EvalError(interp::describeOp(*op) + ": an operand is used before it is defined");
        const Tensor &value = *values[operand->id()];
        computedOperands.push_back(computed[operand->id()]);
        const Tensor *unmoved = plain[operand->id()] ? &*plain[operand->id()] : nullptr;
        if (perturbed && computed[operand->id()] && value.isFloating()) {
          uses.push_back(interp::perturbedUse(value, unmoved, *op, operands.size(), options));
          operands.push_back(&uses.back());
        } else {
          operands.push_back(&value);
        }
        plains.push_back(unmoved);
        plainOperands.push_back(unmoved ? unmoved : &value);
        exactOperands.push_back(exact[operand->id()] ? &*exact[operand->id()] : &value);
      }
      Tensor t = cpuEvaluator(op->kind())(*op, operands, ctx);
      // The evaluators allocate through makeResult; a mismatch is a bug in
      // one of them, caught here rather than silently propagated.
      const std::vector<int64_t> shape = ctx.resultShape(*op);
      const DType dtype = interp::storageDType(op->result()->dtype());
      if (t.shape() != shape || t.dtype() != dtype)
        throw EvalError(interp::describeOp(*op) + ": the evaluator returned " +
                        std::string(dtypeName(t.dtype())) + interp::shapeText(t.shape()) +
                        ", expected " + std::string(dtypeName(dtype)) + interp::shapeText(shape));
      const bool fromComputed = interp::computes(*op) ||
                                std::find(computedOperands.begin(), computedOperands.end(), true) !=
                                    computedOperands.end();
      computed[op->result()->id()] = fromComputed;
      if (perturbed && fromComputed)
        plain[op->result()->id()] = cpuEvaluator(op->kind())(*op, plainOperands, ctx);
      if (perturbed && t.isFloating() && interp::computes(*op))
        interp::perturbResult(t, plain[op->result()->id()] ? &*plain[op->result()->id()] : nullptr,
                              *op, operands, computedOperands, ctx, options);
      if (tracksExact && fromComputed)
        exact[op->result()->id()] = cpuEvaluator(op->kind())(*op, exactOperands, exactCtx);
      if (perturbed)
        interp::tieNearDecisions(t, *op, operands, plains, exactOperands, options);
      values[op->result()->id()] = std::move(t);
    } catch (const EvalError &e) {
      return failure(std::move(result), e.what());
    } catch (const std::exception &e) {
      return failure(std::move(result), interp::describeOp(*op) + ": " + e.what());
    }
  }

  for (const FusionOutput &output : fusion.outputs()) {
    const std::optional<Tensor> &value = values.at(output.value->id());
    if (!value)
      return failure(std::move(result), "an output is never computed");
    result.outputs.push_back(withDType(*value, output.value->dtype()));
  }
  result.ok = true;
  return result;
}

} // namespace fuserc
