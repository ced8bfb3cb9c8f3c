// The strided-view algebra (see ViewAnalysis.h).
#include "ir/ViewAnalysis.h"

#include <algorithm>

namespace fuserc {
namespace {

// Inserts the dims marked in `isNew` into `order` (which holds every other
// dim of the result, already numbered for it): each just outside the dim
// that follows it, or innermost when it is last. Goes from the last dim to
// the first so that the follower is always placed already.
void placeNewDims(Layout &order, const std::vector<bool> &isNew) {
  int64_t rank = int64_t(isNew.size());
  for (int64_t d = rank - 1; d >= 0; --d) {
    if (!isNew[d])
      continue;
    auto at = d + 1 < rank ? std::find(order.begin(), order.end(), d + 1) : order.end();
    order.insert(at, d);
  }
}

Extent product(const std::vector<Extent> &extents, const std::vector<size_t> &dims, size_t begin,
               size_t count) {
  Extent p(1);
  for (size_t k = begin; k < begin + count; ++k)
    p = p * extents[dims[k]];
  return p;
}

std::vector<size_t> dimsHoldingData(const std::vector<Extent> &shape) {
  std::vector<size_t> dims;
  for (size_t d = 0; d < shape.size(); ++d)
    if (!shape[d].isConstant(1))
      dims.push_back(d);
  return dims;
}

} // namespace

std::string extentListString(const std::vector<Extent> &extents) {
  std::string s = "(";
  for (size_t i = 0; i < extents.size(); ++i)
    s += (i ? ", " : "") + extents[i].str();
  return s + ")";
}

std::vector<Extent> denseStrides(const std::vector<Extent> &shape, const Layout &layout) {
  std::vector<Extent> strides(shape.size());
  Extent inner(1);
  for (size_t k = layout.size(); k-- > 0;) {
    strides[layout[k]] = inner;
    inner = inner * shape[layout[k]];
  }
  return strides;
}

StridedView inputView(const Value &input) {
  StridedView view;
  view.shape = input.shape();
  view.order = input.layout();
  if (!input.isStrided()) {
    view.strides = denseStrides(view.shape, view.order);
    return view;
  }
  for (size_t d = 0; d < input.rank(); ++d)
    view.strides.push_back(Extent::symbol(input.name() + ".stride" + std::to_string(d)));
  return view;
}

StridedView permuteView(const StridedView &in, const std::vector<int64_t> &dims) {
  StridedView out;
  out.offset = in.offset;
  std::vector<int64_t> whereTo(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    out.shape.push_back(in.shape[dims[i]]);
    out.strides.push_back(in.strides[dims[i]]);
    whereTo[dims[i]] = int64_t(i);
  }
  for (int64_t d : in.order)
    out.order.push_back(whereTo[d]);
  return out;
}

StridedView squeezeView(const StridedView &in, const std::vector<int64_t> &dims) {
  StridedView out;
  out.offset = in.offset;
  std::vector<int64_t> whereTo(in.shape.size(), -1);
  for (size_t d = 0; d < in.shape.size(); ++d) {
    if (std::find(dims.begin(), dims.end(), int64_t(d)) != dims.end())
      continue;
    whereTo[d] = int64_t(out.shape.size());
    out.shape.push_back(in.shape[d]);
    out.strides.push_back(in.strides[d]);
  }
  for (int64_t d : in.order)
    if (whereTo[d] >= 0)
      out.order.push_back(whereTo[d]);
  return out;
}

StridedView unsqueezeView(const StridedView &in, int64_t dim) {
  StridedView out = in;
  // Just outside the dim that follows: PyTorch's stride for the new dim.
  Extent stride = size_t(dim) < in.shape.size() ? in.strides[dim] * in.shape[dim] : Extent(1);
  out.shape.insert(out.shape.begin() + dim, Extent(1));
  out.strides.insert(out.strides.begin() + dim, stride);
  for (int64_t &d : out.order)
    d += d >= dim ? 1 : 0;
  std::vector<bool> isNew(out.shape.size(), false);
  isNew[dim] = true;
  placeNewDims(out.order, isNew);
  return out;
}

StridedView broadcastInDimView(const StridedView &in, const std::vector<Extent> &shape,
                               const std::vector<int64_t> &broadcastDims) {
  StridedView out;
  out.offset = in.offset;
  out.shape = shape;
  out.strides.assign(shape.size(), Extent(0));
  std::vector<bool> isNew(shape.size(), true);
  for (size_t i = 0; i < broadcastDims.size(); ++i) {
    int64_t d = broadcastDims[i];
    isNew[d] = false;
    // An extent-1 dim that grows reads its one element again and again.
    bool grows = in.shape[i].isConstant(1) && shape[d] != in.shape[i];
    out.strides[d] = grows ? Extent(0) : in.strides[i];
  }
  for (int64_t d : in.order)
    out.order.push_back(broadcastDims[d]);
  placeNewDims(out.order, isNew);
  return out;
}

StridedView expandView(const StridedView &in, const std::vector<Extent> &shape) {
  // expand is broadcast_in_dim with the operand's dims right-aligned.
  std::vector<int64_t> dims;
  size_t lead = shape.size() - in.shape.size();
  for (size_t i = 0; i < in.shape.size(); ++i)
    dims.push_back(int64_t(lead + i));
  return broadcastInDimView(in, shape, dims);
}

StridedView sliceView(const StridedView &in, int64_t dim, const Extent &start, int64_t step,
                      const Extent &extent) {
  StridedView out = in;
  out.offset = in.offset + start * in.strides[dim];
  out.strides[dim] = in.strides[dim] * step;
  out.shape[dim] = extent;
  return out;
}

std::optional<std::vector<ReshapeRun>> reshapeRuns(const std::vector<Extent> &from,
                                                   const std::vector<Extent> &to) {
  const std::vector<size_t> fromDims = dimsHoldingData(from), toDims = dimsHoldingData(to);
  std::vector<ReshapeRun> runs;
  size_t i = 0, j = 0;
  while (i < fromDims.size() || j < toDims.size()) {
    size_t fromLeft = fromDims.size() - i, toLeft = toDims.size() - j;
    bool found = false;
    // Smallest total length first, then fewest input dims: with static
    // extents this is the one minimal run; with symbolic ones it is the
    // first pair whose canonical products agree.
    for (size_t total = 2; total <= fromLeft + toLeft && !found; ++total) {
      for (size_t a = 1; a < total && !found; ++a) {
        size_t b = total - a;
        if (a > fromLeft || b > toLeft)
          continue;
        if (product(from, fromDims, i, a) != product(to, toDims, j, b))
          continue;
        ReshapeRun run;
        run.from.assign(fromDims.begin() + i, fromDims.begin() + i + a);
        run.to.assign(toDims.begin() + j, toDims.begin() + j + b);
        runs.push_back(std::move(run));
        i += a;
        j += b;
        found = true;
      }
    }
    if (!found)
      return std::nullopt;
  }
  return runs;
}

ViewStep reshapeView(const StridedView &in, const std::vector<Extent> &shape) {
  ViewStep step;
  std::string what = "reshape from " + shapeString(in.shape) + " with strides " +
                     extentListString(in.strides) + " to " + shapeString(shape);
  std::optional<std::vector<ReshapeRun>> runs = reshapeRuns(in.shape, shape);
  if (!runs) {
    step.whyNot = what + " pairs no runs of dims with equal extent products";
    return step;
  }

  StridedView out;
  out.offset = in.offset;
  out.shape = shape;
  out.strides.assign(shape.size(), Extent(0));
  for (const ReshapeRun &run : *runs) {
    // The run's input dims must be one block of memory to be re-split.
    for (size_t k = 0; k + 1 < run.from.size(); ++k) {
      size_t outer = run.from[k], inner = run.from[k + 1];
      Extent needed = in.strides[inner] * in.shape[inner];
      if (in.strides[outer] == needed)
        continue;
      bool known = in.strides[outer].constant() && needed.constant();
      step.whyNot = what + " merges dims " + std::to_string(outer) + " and " +
                    std::to_string(inner) + ", which are not " + (known ? "" : "known to be ") +
                    "contiguous in memory (stride[" + std::to_string(outer) +
                    "] = " + in.strides[outer].str() + ", stride[" + std::to_string(inner) +
                    "] * extent[" + std::to_string(inner) + "] = " + needed.str() + ")";
      return step;
    }
    Extent stride = in.strides[run.from.back()];
    for (size_t k = run.to.size(); k-- > 0;) {
      out.strides[run.to[k]] = stride;
      stride = stride * shape[run.to[k]];
    }
  }

  // Each run takes the place in memory of its input dims.
  std::vector<int64_t> runOf(in.shape.size(), -1);
  for (size_t r = 0; r < runs->size(); ++r)
    for (size_t d : (*runs)[r].from)
      runOf[d] = int64_t(r);
  std::vector<bool> placed(runs->size(), false);
  for (int64_t d : in.order) {
    int64_t r = runOf[d];
    if (r < 0 || placed[r])
      continue;
    placed[r] = true;
    for (size_t t : (*runs)[r].to)
      out.order.push_back(int64_t(t));
  }
  // Static-1 output dims are new: stride and place just outside the next dim.
  std::vector<bool> isNew(shape.size(), false);
  for (size_t d = shape.size(); d-- > 0;) {
    if (!shape[d].isConstant(1))
      continue;
    isNew[d] = true;
    out.strides[d] = d + 1 < shape.size() ? out.strides[d + 1] * shape[d + 1] : Extent(1);
  }
  placeNewDims(out.order, isNew);
  step.view = std::move(out);
  return step;
}

ViewStep viewThroughOp(const Op &op, const StridedView &operand) {
  const Attributes &attrs = op.attrs();
  const std::vector<Extent> &resultShape = op.result()->shape();
  ViewStep step;
  switch (op.info().shapeRule) {
  case ShapeRule::Permute:
    step.view = permuteView(operand, attrs.axes("dims"));
    break;
  case ShapeRule::Squeeze:
    step.view = squeezeView(operand, attrs.axes("dims"));
    break;
  case ShapeRule::Unsqueeze:
    step.view = unsqueezeView(operand, attrs.integer("dim"));
    break;
  case ShapeRule::BroadcastInDim:
    step.view = broadcastInDimView(operand, resultShape, attrs.axes("broadcast_dims"));
    break;
  case ShapeRule::Expand:
    step.view = expandView(operand, resultShape);
    break;
  case ShapeRule::Slice: {
    int64_t dim = attrs.integer("dim");
    step.view =
        sliceView(operand, dim, attrs.extent("start"), attrs.integer("step"), resultShape[dim]);
    break;
  }
  case ShapeRule::Reshape:
    return reshapeView(operand, resultShape);
  default:
    step.whyNot = "'" + std::string(op.info().name) + "' computes new values";
    break;
  }
  return step;
}

bool isDegenerateDim(const StridedView &view, size_t dim) {
  return view.shape[dim].isConstant(1) || view.strides[dim].isConstant(0);
}

} // namespace fuserc
