// The strided-view algebra behind alias analysis (docs/passes.md, "Alias analysis"): a view of an
// input's memory — offset, shape, strides and memory order — pushed through
// the shape ops that only re-index memory: permute, squeeze, unsqueeze,
// broadcast_in_dim, expand (broadcast dims get stride 0), slice, and reshape
// when the strides can express it. Every other op computes new values.
//
// Element i of a view lives at offset + sum(i[d] * strides[d]), in elements.
// Strides may be symbolic (symbolic extents, or a `strided` input's
// `x.stride0`, ...), so the memory order — the dims sorted by stride,
// outermost first — cannot always be recomputed by comparing strides. It is
// carried along instead: a dim keeps its place through permute, squeeze,
// slice and broadcasts; a dim an op creates (unsqueeze, a broadcast's new
// dims, a reshape's static-1 dims) sits just outside the dim that follows it
// in the result, or innermost when it is last. That is also PyTorch's rule
// for the stride of an unsqueezed dim, so strides and order agree.
#pragma once

#include "ir/Fusion.h"

#include <optional>
#include <string>
#include <vector>

namespace fuserc {

struct StridedView {
  Extent offset;
  std::vector<Extent> shape;
  std::vector<Extent> strides;
  Layout order; // memory order, outermost first
};

// The view an op produces from its operand's view, or why its result is not
// a view of the operand's memory.
struct ViewStep {
  std::optional<StridedView> view;
  std::string whyNot;
};

// Strides of a tensor that is dense in `layout`: the stride of dim
// layout[k] is the product of the extents of the dims inner to it.
std::vector<Extent> denseStrides(const std::vector<Extent> &shape, const Layout &layout);
// A tensor input as a view of its own memory: dense inputs get denseStrides,
// `strided` inputs the symbols `x.stride0`, `x.stride1`, ...; offset 0.
StridedView inputView(const Value &input);

StridedView permuteView(const StridedView &in, const std::vector<int64_t> &dims);
StridedView squeezeView(const StridedView &in, const std::vector<int64_t> &dims);
StridedView unsqueezeView(const StridedView &in, int64_t dim);
StridedView broadcastInDimView(const StridedView &in, const std::vector<Extent> &shape,
                               const std::vector<int64_t> &broadcastDims);
StridedView expandView(const StridedView &in, const std::vector<Extent> &shape);
// `extent` is the sliced dim's new extent.
StridedView sliceView(const StridedView &in, int64_t dim, const Extent &start, int64_t step,
                      const Extent &extent);
ViewStep reshapeView(const StridedView &in, const std::vector<Extent> &shape);

// The view of `op`'s result, given the view of its first operand.
ViewStep viewThroughOp(const Op &op, const StridedView &operand);

// A reshape pairs runs of input dims with runs of output dims whose extent
// products are equal. Static-1 dims belong to no run: they hold no data.
struct ReshapeRun {
  std::vector<size_t> from; // input dims, increasing
  std::vector<size_t> to;   // output dims, increasing
};
// The runs, each the smallest pair of prefixes (of the dims not yet in a run)
// whose products are equal Extents; nullopt when some dims find no partner.
std::optional<std::vector<ReshapeRun>> reshapeRuns(const std::vector<Extent> &from,
                                                   const std::vector<Extent> &to);

// A dim that does not move through memory: static extent 1, or stride 0.
bool isDegenerateDim(const StridedView &view, size_t dim);
// Whether two memory orders agree on the dims `matters` accepts.
template <typename Pred> bool sameOrderOn(const Layout &a, const Layout &b, Pred matters) {
  Layout fa, fb;
  for (int64_t d : a)
    if (matters(size_t(d)))
      fa.push_back(d);
  for (int64_t d : b)
    if (matters(size_t(d)))
      fb.push_back(d);
  return fa == fb;
}

// "(N*C, 1)".
std::string extentListString(const std::vector<Extent> &extents);

} // namespace fuserc
