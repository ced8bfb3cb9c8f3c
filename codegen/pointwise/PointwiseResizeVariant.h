// The pointwise generator's rvec<V>_i32/i64 variants, for segments the
// coordinate-free vec variants cannot run (slice, pad, cat, iota,
// broadcasts and permutes need coordinates): each thread computes V
// contiguous elements along the innermost memory dim of the reference
// output, from coordinates computed once per vector (LaneValueEmitter).
// Reads along that dim are one vector load at the vector's base
// coordinates, slice/pad/cat decide once per vector.
//
// Generated when every op can be computed lane by lane and every static
// shift and piece boundary along the lane dim is a multiple of V; the host
// runs it when, in addition, the reference's innermost extent and every
// symbolic shift are multiples of V, and every tensor read or written by
// vector has stride 1 along the lane dim, other strides multiples of V and
// an address aligned to the vector. Otherwise the launch falls back to svec
// (PointwiseStraddleVariant.cpp) or gen.
#pragma once

#include "codegen/core/KernelTensors.h"
#include "schedulers/FusionAnalysis.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace fuserc {

// What the pointwise generator knows of its kernel.
struct PointwiseKernelShape {
  const Segment &segment;
  const FusionAnalysis &analysis;
  const std::vector<KernelTensor> &tensors; // in argument-struct order
  const std::vector<const Value *> &scalars;
  const std::vector<const Value *> &throughOps; // computed from tensors outside the segment
  const Value &reference;                       // the first stored output: the iteration space
  const Layout &order;                          // its memory order, outermost first
  std::vector<std::string> symbols;
  std::string base; // kernel name prefix, "<fusion>_k<segment>"
  int block;        // threads per block
  // A two-pass scatter, which these kernels (the fill) compute as its
  // background; none when the segment has none.
  const Op *scatter = nullptr;
};

class ResizeVectorVariant {
public:
  // Plans the variant for V = `lanes` and emits its kernels, or records
  // why it cannot be generated.
  ResizeVectorVariant(const PointwiseKernelShape &shape, int lanes);

  bool available() const { return refusal_.empty(); }
  // Why the variant is not generated (empty when it is).
  const std::string &refusal() const { return refusal_; }
  int lanes() const { return lanes_; }

  std::string kernelName(bool wide) const;
  // Both kernels' CUDA source.
  const std::string &source() const { return source_; }
  // Members the variant adds to the argument struct.
  std::string argsMembers() const;
  // Host statements, after `a` is filled: set `int rvec` to whether the
  // variant can run, and its magic numbers when it can.
  std::string hostSelect() const;
  // The conditions, in words, for the manifest's selection rule.
  std::string selection() const;
  std::string description(bool wide) const;

private:
  std::string emitKernel(bool wide);

  PointwiseKernelShape kernel_;
  int lanes_;
  size_t inner_ = 0; // the reference's innermost memory dim: the lane dim
  std::string refusal_;
  std::string source_;
  std::vector<std::pair<Extent, std::string>> multiples_; // symbolic, checked at launch
  std::map<size_t, std::set<size_t>> vectorDims_;         // tensor -> dims read by vector
  std::set<size_t> linear_; // tensors addressed by the linear index (dense in `order`)
  std::map<size_t, std::set<std::string>> readsAt_; // tensor -> coordinate tuples read at
  std::set<size_t> reread_;                         // tensors read at more than one
};

} // namespace fuserc
