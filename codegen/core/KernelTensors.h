// The tensors a segment's kernel reads and writes, and where each lives in
// the header's launch code: a fusion input (`in_x`), a fusion output
// (`out_y`, for new buffers and in-place updates), or a slot of the
// workspace for tensors passed between segments. Shared by every kernel
// generator, so they all address memory the same way.
#pragma once

#include "ir/DType.h"
#include "ir/Extent.h"
#include "schedulers/BuiltinSchedules.h"
#include "schedulers/KernelGenerator.h"
#include "schedulers/SegmentedFusion.h"

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace fuserc {

struct KernelTensor {
  const Value *value = nullptr;
  bool written = false;
  DType storage = DType::F32;       // f32 for f16/bf16 values in the workspace
  std::string pointer;              // host: char* expression
  std::vector<std::string> strides; // host: element stride per logical dim
  std::string what;                 // for comments: "input x", "output y", ...
};

struct KernelOperands {
  // Inputs first (in value order), then every buffer the stored outputs go
  // to (each non-view fusion output of the value, and its workspace slot).
  std::vector<KernelTensor> tensors;
  std::vector<const Value *> scalars; // scalar inputs, in value order
  // What the kernel computes from its tensors although no op of the segment
  // does: recomputed casts and the index maps it reads through their view
  // ops, chains included (what they read is in `tensors`).
  std::vector<const Value *> throughOps;
};

// Whether a kernel loads `value` from a tensor: the segment does not compute
// it, and the kernel does not read it through ops.
inline bool loadsFromTensor(const Segment &segment, const std::vector<const Value *> &throughOps,
                            const Value &value) {
  return !segment.defines(value) &&
         std::find(throughOps.begin(), throughOps.end(), &value) == throughOps.end();
}

// Which index maps among a segment's inputs (FusionAnalysis::indexMap), or
// under its recomputed casts, a kernel reads through their view ops, from
// their base inputs, as it reads views inside the segment. The others are
// tensors of their own: the base's memory through the view's offset and
// strides. Recomputed casts are always computed from what they cast.
using IndexMapsThroughOps = std::function<bool(const Value &indexMap)>;
inline bool everyIndexMap(const Value &) { return true; }
// Index maps whose chain of views slices: kernels that shift vectors by a
// slice's start (the pointwise resize variant) see the slice as an op.
bool slicedIndexMap(const Value &indexMap);

// Throws CodegenError for a tensor the segment cannot address; `kind`
// names the kernel kind in the message.
KernelOperands collectKernelOperands(const SegmentedFusion &segmented,
                                     const ScheduledSegment &segment,
                                     const WorkspaceOffsets &workspace, const std::string &kind,
                                     const IndexMapsThroughOps &throughOps = {});

// The ops of the values a kernel reads through ops (KernelOperands::
// throughOps), in fusion order: ops it computes besides its segment's.
std::vector<const Op *> opsReadThrough(const Segment &segment,
                                       const std::vector<const Value *> &throughOps);

// The written output a pointwise-like kernel's loops cover, as its
// schedule names it; throws CodegenError when the segment writes nothing.
const Value &iterationReference(const IterationSchedule &schedule, const ScheduledSegment &segment);

// The index of `value` in `tensors`: as a stored buffer when `written`,
// else as an input. Throws CodegenError when it is not there.
size_t kernelTensorIndex(const std::vector<KernelTensor> &tensors, const Value &value, bool written,
                         const FusionAnalysis &analysis);

// The argument struct's members `s<k>`, one per scalar input. The struct is
// also compiled as C99 by the header, so a bool scalar is an unsigned char.
std::string scalarArgsMembers(const std::vector<const Value *> &scalars);
// The end of a kernel's argument struct: the scalar members, the family's
// own `members` after them, the index flag when the segment checks indices,
// and the struct's name `<name>_args`.
std::string argsStructEnd(const std::vector<const Value *> &scalars, const std::string &members,
                          const Segment &segment, const std::string &name);
// The kernel's read of scalar input `input` (one of `scalars`) from `a`.
std::string scalarArgRead(const std::vector<const Value *> &scalars, const Value &input);

// Host statements (KernelPlan.h's contract) setting the argument struct's
// `a.sym[k]` to each bound symbol and `a.s<k>` to each scalar input.
std::string hostSymbolAndScalarArguments(const std::vector<std::string> &symbols,
                                         const std::vector<const Value *> &scalars);
// Host statements setting `a.ptr[t]` and `a.st[t][d]` for kernel tensor t.
std::string hostTensorArguments(size_t t, const KernelTensor &tensor);

// The global-memory bytes a kernel moves: every tensor it reads or writes,
// once, in its storage dtype (symbolic). `Tensors` holds KernelTensors or
// types derived from them.
template <typename Tensors> Extent kernelBytesMoved(const Tensors &tensors) {
  Extent bytes = 0;
  for (const KernelTensor &t : tensors)
    bytes = bytes + numElements(t.value->shape()) * static_cast<int64_t>(dtypeBytes(t.storage));
  return bytes;
}

// An extent in kernel code, as the index type `I`: symbols are read from
// the argument struct's `a.sym[k]`, k the symbol's position in `symbols`.
std::string kernelExtentCode(const Extent &extent, const std::vector<std::string> &symbols);
// The same in 64 bits (the a.sym[k] are long long), for an extent's value.
std::string kernelExtentValueCode(const Extent &extent, const std::vector<std::string> &symbols);

// Kernel statements declaring `const I c<d><tag>` for `dims` (memory order,
// outermost first) from the linear index `index`, innermost fastest, with
// `rem` as the running remainder; extents come from `a.size[d]`.
std::string decomposeIndexCode(const std::string &index, const std::vector<size_t> &dims,
                               const std::string &tag, const std::string &rem,
                               const std::string &pad);

// C code for the stride of `dim` of a tensor dense in `layout`.
std::string denseStrideCode(const std::vector<Extent> &shape, const Layout &layout, size_t dim,
                            const std::function<std::string(const std::string &)> &symbol);

} // namespace fuserc
