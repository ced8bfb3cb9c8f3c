// How fuserc dtypes appear in generated CUDA: the storage type in memory,
// the type math is done in (f16/bf16 in float), conversions between them,
// and literals converted to a computation type the way the reference
// interpreter converts them.
#pragma once

#include "ir/Attributes.h"
#include "ir/DType.h"

#include <string>

namespace fuserc {

// "__half", "float", "long long", "bool", ...
std::string cudaStorageType(DType dtype);
// The type values of `dtype` are computed in: float for f16/bf16.
std::string cudaComputeType(DType dtype);
// `expr` of dtype `from` (in its compute type) as a value of `to` (in its
// compute type), with the interpreter's semantics: float -> int truncates
// and saturates (NaN gives 0), -> bool tests != 0, and f16/bf16 targets round.
std::string cudaConvert(const std::string &expr, DType from, DType to);
// A compute-typed value of `dtype` stored to memory.
std::string cudaToStorage(const std::string &expr, DType dtype);
// A literal as a constant of `dtype`'s compute type.
std::string cudaLiteral(const Number &value, DType dtype);

} // namespace fuserc
