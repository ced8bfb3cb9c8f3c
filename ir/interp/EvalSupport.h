// Machinery shared by the per-family evaluators of the reference
// interpreter (internal to ir/interp): result allocation, row-major index
// iteration, broadcasting, dtype-aware element reads, and the split of a
// tensor's dims into kept and reduced ones.
#pragma once

#include "ir/interp/Evaluators.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fuserc {

// Called by the generated evaluation functions when an op has no
// expression for the requested domain; throws EvalError.
[[noreturn]] int noCpuDomain(OpKind kind, const char *domain);

namespace interp {

// The dtype values of `dtype` are held in between ops: f16 and bf16 math
// happens in f32 on the GPU, so their intermediates are f32 tensors (and
// this is also the floating type their arithmetic is computed in).
DType storageDType(DType dtype);

// A zero-filled tensor for `op`'s result: its evaluated shape, stored as
// storageDType of its dtype.
Tensor makeResult(const Op &op, const EvalContext &ctx);

// "<op name>" plus " ('<result name>')" when the result is named, for
// error messages.
std::string describeOp(const Op &op);
std::string shapeText(const std::vector<int64_t> &shape);

int64_t dot(const std::vector<int64_t> &index, const std::vector<int64_t> &strides);

// Calls fn(index, linear) for every multi-index of `shape` in row-major
// order; once with an empty index for rank 0, never when an extent is 0.
template <typename Fn> void forEachIndex(const std::vector<int64_t> &shape, Fn &&fn) {
  size_t count = 1;
  for (int64_t extent : shape)
    count *= static_cast<size_t>(extent);
  std::vector<int64_t> index(shape.size(), 0);
  for (size_t linear = 0; linear < count; ++linear) {
    fn(static_cast<const std::vector<int64_t> &>(index), linear);
    for (size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}

// Strides that read `t` as if broadcast (right-aligned, extent-1 dims
// repeated) to `shape`; EvalError when it does not broadcast.
std::vector<int64_t> broadcastStrides(const Tensor &t, const std::vector<int64_t> &shape,
                                      const Op &op, size_t operandIndex);

// Element i of `t` as a value of floating dtype `floatType` (integers are
// rounded once, wider floats rounded to it).
double readAsFloat(const Tensor &t, size_t i, DType floatType);
// Element i of `t` as a value of integral dtype `intType` (wrapped; floats
// truncated first).
int64_t readAsInt(const Tensor &t, size_t i, DType intType);
// dst[j] = src[i], converted to dst's dtype.
void copyElement(const Tensor &src, size_t i, Tensor &dst, size_t j);

// The offsets of a row-major tensor's elements, split into the dims kept
// and the dims in `axes`: element (k, r) is at keptOffsets[k] +
// reducedOffsets[r]. Both lists are row-major over their dims; the reduced
// dims are taken in the order `axes` lists them.
struct AxisSplit {
  std::vector<int64_t> keptOffsets;
  std::vector<int64_t> reducedOffsets;
  std::vector<int64_t> reducedShape;
};
AxisSplit splitAxes(const std::vector<int64_t> &shape, const std::vector<int64_t> &axes,
                    const Op &op);
// The split of `x` by the op's `axes` (or argmax's `dim`) attribute, checked to give one kept
// element per element of `result`.
AxisSplit splitReducedAxes(const Op &op, const Tensor &x, const Tensor &result);

// Operand i, checked to exist (guards against a malformed IR).
const Tensor &operandAt(const Op &op, std::span<const Tensor *const> operands, size_t i);

// An axis attribute checked against `rank` (attributes arrive normalized;
// this guards the interpreter against a malformed IR).
int64_t checkedAxis(const Op &op, std::string_view attrName, int64_t axis, size_t rank);

} // namespace interp
} // namespace fuserc
