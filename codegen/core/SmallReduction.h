// Small reductions (isSmallReduction: at most 8 elements, every reduced
// extent static) computed where they are used, like elementwise ops: the
// elements' coordinates, and the statements combining their values in the
// accumulator and order the reduction kernels use. Shared by the value
// emitters of pointwise kernels (ValueEmitter, LaneValueEmitter).
#pragma once

#include "codegen/core/ValueEmitter.h"

#include <functional>
#include <string>
#include <vector>

namespace fuserc {

// For each dim of `op`'s result, the operand dim it is, or -1 for a reduced
// dim kept with extent 1 (keepdim).
std::vector<int> smallReductionOperandDims(const Op &op);

// The coordinates of `op`'s operand for each element it reduces at result
// coordinates `coords`, in row-major order of the reduced dims.
std::vector<Coords> smallReductionElements(const Op &op, const Coords &coords);

// The result of `op` (an expression of its dtype's compute type) from its
// elements' `values` (expressions of the operand's compute type), each
// intermediate given to `define(type, expression)`, which returns the
// expression that reads it (the last one's is the result).
std::string smallReductionValue(
    const Op &op, const std::vector<std::string> &values,
    const std::function<std::string(const std::string &, const std::string &)> &define);

} // namespace fuserc
