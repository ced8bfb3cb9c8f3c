// Accumulator and store conversions of reduction kernels (see
// ReductionValues.h).
#include "codegen/core/ReductionValues.h"

#include "codegen/core/BlockReduce.h"
#include "codegen/core/CudaTypes.h"
#include "codegen/core/ElementwiseCode.h"
#include "ir/Printer.h"
#include "schedulers/KernelGenerator.h"

namespace fuserc {

DType computeDType(const Value &value) { return mathDType(value.dtype()); }

std::string reductionInputAsAccumulator(const Op &op, const std::string &var) {
  const Value &in = *op.operand(0);
  const DType result = op.result()->dtype();
  // Into the result's math domain (f16 / bf16 are carried at f32, not
  // rounded: docs/language.md), then into the accumulator.
  const DType resultMath = mathDType(result);
  std::string asResult =
      cudaConvert(var, in.isLiteral() ? in.dtype() : computeDType(in), resultMath);
  return cudaConvert(asResult, resultMath, reductionAccumulator(result));
}

std::string storeStatement(size_t t, DType storage, const Coords &coords,
                           const std::string &value) {
  std::string offset = "0";
  for (size_t d = 0; d < coords.size(); ++d)
    offset +=
        " + " + coords[d] + " * (I)a.st[" + std::to_string(t) + "][" + std::to_string(d) + "]";
  return "((" + cudaStorageType(storage) + " *)a.ptr[" + std::to_string(t) + "])[" + offset +
         "] = " + value + ";";
}

std::string storedExpression(ValueEmitter &emitter, const Value &value, DType storage,
                             bool foldCast, const Coords &coords) {
  const Op *op = value.definingOp();
  if (foldCast && op && op->kind() == OpKind::Cast && storage == value.dtype() &&
      (storage == DType::F16 || storage == DType::BF16)) {
    const Value &in = *op->operand(0);
    std::string var = emitter.emit(in, coords);
    return cudaToStorage(cudaConvert(var, in.isLiteral() ? in.dtype() : computeDType(in), storage),
                         storage);
  }
  const std::string var = emitter.emit(value, coords);
  if (storage == value.dtype())
    if (std::optional<std::string> element = emitter.loadedElement(var, storage))
      return *element;
  const DType math = storage == value.dtype() ? value.dtype() : storage;
  return cudaToStorage(cudaConvert(var, computeDType(value), math), storage);
}

Coords coordsInDomain(const std::vector<Extent> &shape, const std::vector<Extent> &domain,
                      const Coords &domainAt, const std::function<bool(size_t)> &skip) {
  std::vector<size_t> dims;
  for (size_t d = 0; d < domain.size(); ++d)
    if (!domain[d].isConstant(1) && !skip(d))
      dims.push_back(d);
  Coords at;
  size_t next = 0;
  for (const Extent &e : shape) {
    if (e.isConstant(1))
      at.push_back("0");
    else if (next < dims.size())
      at.push_back(domainAt[dims[next++]]);
    else
      throw CodegenError("internal: shape " + shapeString(shape) + " is not within " +
                         shapeString(domain));
  }
  return at;
}

} // namespace fuserc
