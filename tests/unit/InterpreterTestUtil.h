// Helpers for the reference interpreter's unit tests: build small fusions
// directly with the Fusion API (explicit result types, already-normalized
// attributes, no frontend) and run them.
#pragma once

#include "ir/Fusion.h"
#include "ir/interp/Interpreter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace fuserc::testutil {

using Shape = std::vector<int64_t>;

inline std::vector<Extent> extents(const Shape &shape) {
  return std::vector<Extent>(shape.begin(), shape.end());
}

inline Attributes makeAttrs(std::initializer_list<std::pair<std::string, AttrValue>> entries) {
  Attributes attrs;
  for (const auto &[name, value] : entries)
    attrs.set(name, value);
  return attrs;
}

inline Tensor floats(DType dtype, Shape shape, std::vector<double> values) {
  return Tensor::fromFloats(dtype, std::move(shape), values);
}
inline Tensor ints(DType dtype, Shape shape, std::vector<int64_t> values) {
  return Tensor::fromInts(dtype, std::move(shape), values);
}

inline std::vector<double> floatValues(const Tensor &t) {
  std::vector<double> values;
  for (size_t i = 0; i < t.numel(); ++i)
    values.push_back(t.getFloat(i));
  return values;
}
inline std::vector<int64_t> intValues(const Tensor &t) {
  std::vector<int64_t> values;
  for (size_t i = 0; i < t.numel(); ++i)
    values.push_back(t.getInt(i));
  return values;
}

// The nearest f32 to v, for expected values.
inline double f32(double v) { return static_cast<double>(static_cast<float>(v)); }

// A fusion under construction, with the inputs its test will pass.
class FusionBuilder {
public:
  FusionBuilder() : fusion_("test") {}

  Value *input(const std::string &name, DType dtype, std::vector<Extent> shape) {
    const size_t rank = shape.size();
    return fusion_.addTensorInput(name, dtype, std::move(shape), rowMajorLayout(rank), false, {});
  }
  Value *input(const std::string &name, DType dtype, const Shape &shape) {
    return input(name, dtype, extents(shape));
  }
  Value *scalar(const std::string &name, DType dtype) {
    return fusion_.addScalarInput(name, dtype, {});
  }
  // An input declared like `t` (a scalar input when t has rank 0).
  Value *inputLike(const std::string &name, const Tensor &t) {
    return t.rank() == 0 ? scalar(name, t.dtype()) : input(name, t.dtype(), t.shape());
  }
  Value *intLiteral(int64_t v) { return fusion_.addLiteral(Number::integer(v), {}); }
  Value *floatLiteral(double v) { return fusion_.addLiteral(Number::floating(v), {}); }

  Value *op(OpKind kind, std::vector<Value *> operands, DType dtype, std::vector<Extent> shape,
            Attributes attrs = {}, const std::string &name = "") {
    return fusion_
        .addOp(kind, std::move(operands), std::move(attrs), TensorType{dtype, std::move(shape)},
               name, {})
        ->result();
  }
  Value *op(OpKind kind, std::vector<Value *> operands, DType dtype, const Shape &shape,
            Attributes attrs = {}, const std::string &name = "") {
    return op(kind, std::move(operands), dtype, extents(shape), std::move(attrs), name);
  }
  void output(Value *v) {
    FusionOutput out;
    out.value = v;
    out.name = v->name().empty() ? "out" + std::to_string(fusion_.outputs().size()) : v->name();
    fusion_.addOutput(out);
  }

  const Fusion &fusion() const { return fusion_; }

private:
  Fusion fusion_;
};

// Runs the fusion, failing the test (and returning no outputs) on error.
inline std::vector<Tensor> run(const Fusion &fusion, const std::map<std::string, Tensor> &inputs,
                               const SymbolBindings &symbols = {}) {
  InterpreterResult result = interpret(fusion, inputs, symbols);
  EXPECT_TRUE(result.ok) << result.error;
  return result.outputs;
}

// Runs the fusion, expecting an error; returns its message.
inline std::string runError(const Fusion &fusion, const std::map<std::string, Tensor> &inputs,
                            const SymbolBindings &symbols = {}) {
  InterpreterResult result = interpret(fusion, inputs, symbols);
  EXPECT_FALSE(result.ok) << "expected an error";
  return result.error;
}

// Builds `kind` applied to inputs "in0", "in1", ... declared like
// `operands`, with an explicit result type, as the fusion's single output.
inline void buildOp(FusionBuilder &b, OpKind kind, const std::vector<Tensor> &operands, DType dtype,
                    const Shape &shape, Attributes attrs) {
  std::vector<Value *> values;
  for (size_t i = 0; i < operands.size(); ++i)
    values.push_back(b.inputLike("in" + std::to_string(i), operands[i]));
  b.output(b.op(kind, values, dtype, shape, std::move(attrs)));
}

inline std::map<std::string, Tensor> namedInputs(const std::vector<Tensor> &operands) {
  std::map<std::string, Tensor> inputs;
  for (size_t i = 0; i < operands.size(); ++i)
    inputs.emplace("in" + std::to_string(i), operands[i]);
  return inputs;
}

// Evaluates one op on tensor / scalar inputs and returns its output.
inline Tensor runOp(OpKind kind, const std::vector<Tensor> &operands, DType dtype,
                    const Shape &shape, Attributes attrs = {}) {
  FusionBuilder b;
  buildOp(b, kind, operands, dtype, shape, std::move(attrs));
  std::vector<Tensor> outputs = run(b.fusion(), namedInputs(operands));
  return outputs.empty() ? Tensor() : outputs.front();
}

// Evaluates one op expecting a run-time error; returns its message.
inline std::string runOpError(OpKind kind, const std::vector<Tensor> &operands, DType dtype,
                              const Shape &shape, Attributes attrs = {}) {
  FusionBuilder b;
  buildOp(b, kind, operands, dtype, shape, std::move(attrs));
  return runError(b.fusion(), namedInputs(operands));
}

} // namespace fuserc::testutil
