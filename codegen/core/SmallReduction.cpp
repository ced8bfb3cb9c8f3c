// Small reductions computed where they are used (see SmallReduction.h).
#include "codegen/core/SmallReduction.h"

#include "codegen/core/BlockReduce.h"
#include "codegen/core/CudaTypes.h"
#include "codegen/core/ElementwiseCode.h"
#include "codegen/core/ReductionValues.h"

#include <algorithm>

namespace fuserc {

std::vector<int> smallReductionOperandDims(const Op &op) {
  const std::vector<int64_t> &axes = op.attrs().axes("axes");
  const bool keepdim = op.attrs().boolean("keepdim");
  std::vector<int> dims;
  for (size_t d = 0; d < op.operand(0)->rank(); ++d) {
    const bool reduced = std::count(axes.begin(), axes.end(), int64_t(d)) > 0;
    if (!reduced)
      dims.push_back(static_cast<int>(d));
    else if (keepdim)
      dims.push_back(-1);
  }
  return dims;
}

std::vector<Coords> smallReductionElements(const Op &op, const Coords &coords) {
  const Value &x = *op.operand(0);
  Coords base(x.rank());
  const std::vector<int> dims = smallReductionOperandDims(op);
  for (size_t r = 0; r < dims.size(); ++r)
    if (dims[r] >= 0)
      base[static_cast<size_t>(dims[r])] = coords[r];
  std::vector<Coords> elements{base};
  const std::vector<int64_t> &axes = op.attrs().axes("axes");
  for (size_t d = 0; d < x.rank(); ++d) {
    if (std::count(axes.begin(), axes.end(), int64_t(d)) == 0)
      continue;
    const int64_t extent = *x.shape()[d].constant();
    std::vector<Coords> next;
    for (const Coords &at : elements)
      for (int64_t k = 0; k < extent; ++k) {
        next.push_back(at);
        next.back()[d] = std::to_string(k);
      }
    elements = std::move(next);
  }
  return elements;
}

std::string smallReductionValue(
    const Op &op, const std::vector<std::string> &values,
    const std::function<std::string(const std::string &, const std::string &)> &define) {
  const DType result = op.result()->dtype();
  const DType acc = reductionAccumulator(result);
  const std::string A = cudaComputeType(acc);
  const OpKind kind = op.kind();
  const std::string combiner = reductionCombiner(kind) + "()";
  std::vector<std::string> inputs;
  for (const std::string &v : values) {
    const std::string converted = reductionInputAsAccumulator(op, v);
    inputs.push_back(converted == v ? v : define(A, converted));
  }
  std::string p = reductionIdentity(kind, acc);
  for (const std::string &in : inputs)
    p = define(A, combiner + "(" + p + ", " + in + ")");
  const std::string count = "(" + A + ")" + std::to_string(values.size());
  std::string value = p;
  if (kind == OpKind::Mean) {
    value = define(A, p + " / " + count);
  } else if (kind == OpKind::Var) {
    // Two passes as the row kernels take them: the mean, then the squared
    // deviations from it, each sum rounded on its own.
    const std::string m = define(A, p + " / " + count);
    std::string q = reductionIdentity(OpKind::Sum, acc);
    for (const std::string &in : inputs) {
      const std::string d = define(A, roundedSub(acc, in, m));
      q = define(A, roundedAdd(acc, q, d + " * " + d));
    }
    const int64_t correction = op.attrs().find("correction") ? op.attrs().integer("correction") : 1;
    const int64_t divisor = std::max<int64_t>(static_cast<int64_t>(values.size()) - correction, 0);
    value = define(A, q + " / (" + A + ")" + std::to_string(divisor));
  }
  return define(cudaComputeType(result), cudaConvert(value, acc, mathDType(result)));
}

} // namespace fuserc
