// Code generation for the pointwise scheduler: one kernel per segment,
// iterating over the segment's output in the memory order of its reference
// (first stored) output, in variants the host picks at launch:
//
//   vec<V>_i32/i64  every op elementwise, and after collapsing the dims that
//                   are contiguous in every tensor the innermost dim has
//                   stride 1 or 0 everywhere: each thread handles V
//                   contiguous elements of one row (16-byte loads and
//                   stores when aligned), rows decomposed once per vector;
//   vec1_i32/i64    the same, one element per thread (unaligned pointers,
//                   odd inner extents);
//   flat<V>_i32/i64 the vec<V> case where one dim is left and every tensor
//                   has stride 1 on it (all of the reference's shape,
//                   dense in one layout): a vector's offset is its own, no
//                   dims decomposed;
//   rvec<V>_i32/i64 segments that need coordinates (slice, pad, cat, iota,
//                   broadcasts, permutes), which the vec variants cannot
//                   run: V contiguous elements per thread along the
//                   reference's innermost dim, coordinates once per
//                   vector, resizes decided per vector; when shifts,
//                   extents, strides and pointers allow it (see
//                   PointwiseResizeVariant.h);
//   svec<V>_i32/i64 in place of vec1 and gen: V consecutive elements of
//                   the iteration per thread, across rows (odd inner
//                   extents); tensors dense in its order by vector, the
//                   others per lane (PointwiseStraddleVariant.cpp);
//   gen_i32/i64     any segment: one element per thread, coordinates from
//                   the linear index, every value indexed consumer-first.
//
// A segment with a two-pass scatter (schedulers/TwoPassScatter.h) runs these
// as its fill, the scatter replaced by its background, then its update pass
// over the index, scatter_i32/i64 (PointwiseScatterPass.cpp).
//
// i32 variants are used when every index and offset fits in 31 bits.
#pragma once

#include "codegen/core/KernelTensors.h"
#include "schedulers/KernelPlan.h"
#include "schedulers/SegmentedFusion.h"

#include <map>

namespace fuserc {

EmittedKernel emitPointwiseKernel(const KernelRequest &request, const IterationSchedule &schedule);

// Host C code the pointwise launch blocks call (defined once per header).
const std::string &pointwiseHostHelpers();

} // namespace fuserc
