// How reduction kernels turn values into accumulators and stored results:
// a reduction's input converted to its accumulator type, and the
// expression stored into an output of a given storage dtype (a cast to
// f16 / bf16 computed in the kernel is stored from its input, so it is
// rounded once), and where a value sits in the reduction's domain. Shared
// by the row and column generators.
#pragma once

#include "codegen/core/ValueEmitter.h"
#include "schedulers/Segment.h"

#include <functional>
#include <string>
#include <vector>

namespace fuserc {

// The dtype `value` is computed in: f32 for f16 / bf16.
DType computeDType(const Value &value);

// `var`, the value of reduction `op`'s input, as the reduction's
// accumulator type (through the result dtype, as the reference does).
std::string reductionInputAsAccumulator(const Op &op, const std::string &var);

// The expression stored for `value` at `coords` into memory of `storage`
// dtype; `foldCast`: whether a cast defining `value` may be folded into the
// store (the cast is an op of the segment and not a reduction result).
std::string storedExpression(ValueEmitter &emitter, const Value &value, DType storage,
                             bool foldCast, const Coords &coords);

// The statement storing `value` into kernel tensor `t` (of `storage` dtype)
// at `coords`, through the argument struct's pointer a.ptr[t] and element
// strides a.st[t][d], in index type I.
std::string storeStatement(size_t t, DType storage, const Coords &coords, const std::string &value);

// Coordinates for a value of `shape` inside a reduction's `domain`: its
// non-1 dims take, in order, the non-1 domain dims that `skip` does not
// exclude (a reduced value skips the reduced dims), at `domainAt`; its 1
// dims take 0.
Coords coordsInDomain(const std::vector<Extent> &shape, const std::vector<Extent> &domain,
                      const Coords &domainAt, const std::function<bool(size_t)> &skip);

} // namespace fuserc
