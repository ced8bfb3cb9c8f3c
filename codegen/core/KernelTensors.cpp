// Kernel operands and their host addresses (see KernelTensors.h).
#include "codegen/core/KernelTensors.h"
#include "codegen/core/CudaTypes.h"
#include "codegen/core/IndexChecks.h"

#include "schedulers/KernelGenerator.h"

#include <algorithm>

namespace fuserc {
namespace {

std::string outPointer(const std::string &name) {
  return "(char *)out_" + name + "->data + out_" + name + "->byte_offset";
}

// The host variables holding a tensor's strides (KernelPlan.h): an output
// may share its name with an input (a copy of it in another layout).
std::vector<std::string> stridesOf(const std::string &prefix, const std::string &name,
                                   size_t rank) {
  std::vector<std::string> s;
  for (size_t d = 0; d < rank; ++d)
    s.push_back(prefix + name + "_" + std::to_string(d));
  return s;
}

class OperandCollector {
public:
  OperandCollector(const SegmentedFusion &sf, const ScheduledSegment &seg,
                   const WorkspaceOffsets &workspace, const std::string &kind,
                   const IndexMapsThroughOps &throughOps)
      : sf_(sf), seg_(seg), analysis_(*sf.analysis), workspace_(workspace), kind_(kind),
        throughOps_(throughOps) {}

  KernelOperands run() {
    KernelOperands out;
    std::vector<const Value *> inputs;
    auto readThroughOps = [&](const Value *from, const Value *to) {
      for (const Value *m = from; m != to; m = m->definingOp()->operand(0))
        if (std::find(out.throughOps.begin(), out.throughOps.end(), m) == out.throughOps.end())
          out.throughOps.push_back(m);
    };
    for (const Value *v : seg_.segment.inputs()) {
      // A recomputed cast is computed from what it casts, always.
      const Value *read = v;
      while (analysis_.isRecomputedCast(*read))
        read = read->definingOp()->operand(0);
      readThroughOps(v, read);
      const IndexMap *map = analysis_.indexMap(*read);
      if (map && throughOps_ && throughOps_(*read)) {
        readThroughOps(read, map->base);
        read = map->base;
      }
      inputs.push_back(read);
    }
    std::sort(inputs.begin(), inputs.end(),
              [](const Value *x, const Value *y) { return x->id() < y->id(); });
    inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
    for (const Value *v : inputs) {
      if (v->isScalarInput())
        out.scalars.push_back(v);
      else
        out.tensors.push_back(input(*v));
    }
    for (const Value *v : seg_.segment.writtenOutputs()) {
      if (const OutputView *view = analysis_.outputView(*v))
        out.tensors.push_back(viewOfOutput(*v, *view));
      for (const FusionOutput *o : analysis_.outputsOf(*v))
        if (o->kind != OutputKind::View)
          out.tensors.push_back({v, true, v->dtype(), outPointer(o->name),
                                 stridesOf("ostride_", o->name, v->rank()), "output " + o->name});
      if (const CrossingTensor *c = sf_.crossingOf(*v);
          c && c->kind == CrossingTensor::Kind::Workspace)
        out.tensors.push_back(workspaceSlot(*v, *c, true));
    }
    return out;
  }

private:
  KernelTensor workspaceSlot(const Value &v, const CrossingTensor &c, bool written) const {
    auto it = workspace_.find(&v);
    if (it == workspace_.end())
      throw CodegenError("no workspace slot for " + analysis_.quoted(v));
    auto sym = [](const std::string &s) { return "sym_" + s; };
    KernelTensor t{&v,        written,
                   c.storage, "ws + " + extentToCode(it->second, sym),
                   {},        "workspace " + analysis_.name(v)};
    const Layout layout = analysis_.storedLayout(v);
    for (size_t d = 0; d < v.rank(); ++d)
      t.strides.push_back(denseStrideCode(v.shape(), layout, d, sym));
    return t;
  }

  // A tensor addressed through a view of a buffer starting at `buffer`
  // (host char*): its offset and strides in elements of `elementBytes`.
  static KernelTensor viewTensor(const Value &v, bool written, const std::string &buffer,
                                 size_t elementBytes, const Extent &offset,
                                 const std::vector<Extent> &strides, const std::string &what) {
    auto host = [](const std::string &s) {
      const size_t dot = s.find(".stride");
      return dot == std::string::npos ? "sym_" + s
                                      : "stride_" + s.substr(0, dot) + "_" + s.substr(dot + 7);
    };
    KernelTensor t{
        &v,
        written,
        v.dtype(),
        buffer + " + (" + extentToCode(offset, host) + ") * " + std::to_string(elementBytes),
        {},
        what};
    for (const Extent &stride : strides)
      t.strides.push_back(extentToCode(stride, host));
    return t;
  }

  // A tensor read through a view of input `base`'s memory: an index map, or
  // a fusion output that alias analysis made a view.
  static KernelTensor viewOfInput(const Value &v, const Value &base, const Extent &offset,
                                  const std::vector<Extent> &strides, const std::string &what) {
    return viewTensor(v, false,
                      "(char *)in_" + base.name() + "->data + in_" + base.name() + "->byte_offset",
                      dtypeBytes(base.dtype()), offset, strides, what);
  }

  // A value stored into an output's buffer through the output's view of it.
  KernelTensor viewOfOutput(const Value &v, const OutputView &view) const {
    return viewTensor(v, true, outPointer(view.output->name), dtypeBytes(v.dtype()),
                      view.view.offset, view.view.strides,
                      "output " + view.output->name + " (a view of " + analysis_.name(v) + ")");
  }

  KernelTensor input(const Value &v) const {
    if (const IndexMap *map = analysis_.indexMap(v))
      return viewOfInput(v, *map->base, map->view.offset, map->view.strides,
                         "index map " + analysis_.name(v) + " of input " + map->base->name());
    if (v.isInput())
      return {&v,
              false,
              v.dtype(),
              "(char *)in_" + v.name() + "->data + in_" + v.name() + "->byte_offset",
              stridesOf("stride_", v.name(), v.rank()),
              "input " + v.name()};
    const CrossingTensor *c = sf_.crossingOf(v);
    if (!c)
      throw CodegenError("segment " + std::to_string(seg_.id) + " reads " + analysis_.quoted(v) +
                         ", which no other segment passes to it");
    switch (c->kind) {
    case CrossingTensor::Kind::Workspace:
      return workspaceSlot(v, *c, false);
    case CrossingTensor::Kind::Output: {
      const FusionOutput *o = analysis_.outputsOf(v).front();
      return {&v,
              false,
              v.dtype(),
              outPointer(o->name),
              stridesOf("ostride_", o->name, v.rank()),
              "output " + o->name};
    }
    case CrossingTensor::Kind::View: {
      const FusionOutput *o = analysis_.outputsOf(v).front();
      if (o->view && o->view->base)
        return viewOfInput(v, *o->view->base, o->view->offset, o->view->strides,
                           "view output " + o->name + " of input " + o->view->base->name());
      break;
    }
    }
    throw CodegenError("segment " + std::to_string(seg_.id) + " reads " + analysis_.quoted(v) +
                       " through a view output without a base, which " + kind_ +
                       " kernels cannot address");
  }

  const SegmentedFusion &sf_;
  const ScheduledSegment &seg_;
  const FusionAnalysis &analysis_;
  const WorkspaceOffsets &workspace_;
  std::string kind_;
  const IndexMapsThroughOps &throughOps_;
};

} // namespace

KernelOperands collectKernelOperands(const SegmentedFusion &segmented,
                                     const ScheduledSegment &segment,
                                     const WorkspaceOffsets &workspace, const std::string &kind,
                                     const IndexMapsThroughOps &throughOps) {
  return OperandCollector(segmented, segment, workspace, kind, throughOps).run();
}

bool slicedIndexMap(const Value &indexMap) {
  for (const Value *v = &indexMap; v->definingOp(); v = v->definingOp()->operand(0))
    if (v->definingOp()->info().shapeRule == ShapeRule::Slice)
      return true;
  return false;
}

std::vector<const Op *> opsReadThrough(const Segment &segment,
                                       const std::vector<const Value *> &throughOps) {
  const FusionAnalysis &a = segment.analysis();
  std::vector<const Op *> ops;
  for (const Value *v : throughOps)
    ops.push_back(v->definingOp());
  std::sort(ops.begin(), ops.end(),
            [&](const Op *x, const Op *y) { return a.position(*x) < a.position(*y); });
  return ops;
}

const Value &iterationReference(const IterationSchedule &schedule,
                                const ScheduledSegment &segment) {
  if (!schedule.reference)
    throw CodegenError("segment " + std::to_string(segment.id) + " stores nothing");
  return *schedule.reference;
}

size_t kernelTensorIndex(const std::vector<KernelTensor> &tensors, const Value &value, bool written,
                         const FusionAnalysis &analysis) {
  for (size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i].value == &value && tensors[i].written == written)
      return i;
  throw CodegenError("internal: no kernel tensor for " + analysis.quoted(value));
}

std::string scalarArgsMembers(const std::vector<const Value *> &scalars) {
  std::string s;
  for (size_t k = 0; k < scalars.size(); ++k) {
    const DType dtype = scalars[k]->dtype();
    s += "  " + (dtype == DType::Bool ? std::string("unsigned char") : cudaComputeType(dtype)) +
         " s" + std::to_string(k) + ";\n";
  }
  return s;
}

std::string argsStructEnd(const std::vector<const Value *> &scalars, const std::string &members,
                          const Segment &segment, const std::string &name) {
  return scalarArgsMembers(scalars) + members +
         (segmentChecksIndices(segment) ? indexFlagMember() : std::string()) + "} " + name +
         "_args;\n";
}

std::string scalarArgRead(const std::vector<const Value *> &scalars, const Value &input) {
  const auto it = std::find(scalars.begin(), scalars.end(), &input);
  if (it == scalars.end())
    throw CodegenError("internal: '" + input.name() + "' is not a scalar input of the kernel");
  const std::string member = "a.s" + std::to_string(it - scalars.begin());
  return input.dtype() == DType::Bool ? "(" + member + " != 0)" : member;
}

std::string hostSymbolAndScalarArguments(const std::vector<std::string> &symbols,
                                         const std::vector<const Value *> &scalars) {
  std::string s;
  for (size_t k = 0; k < symbols.size(); ++k)
    s += "  a.sym[" + std::to_string(k) + "] = sym_" + symbols[k] + ";\n";
  for (size_t k = 0; k < scalars.size(); ++k)
    s += "  a.s" + std::to_string(k) + " = " +
         (scalars[k]->dtype() == DType::Bool ? "(unsigned char)(in_" + scalars[k]->name() + " != 0)"
                                             : "in_" + scalars[k]->name()) +
         ";\n";
  return s;
}

std::string hostTensorArguments(size_t t, const KernelTensor &tensor) {
  const std::string ts = std::to_string(t);
  std::string s = "  a.ptr[" + ts + "] = " + tensor.pointer + ";  /* " + tensor.what + " */\n";
  for (size_t d = 0; d < tensor.strides.size(); ++d)
    s += "  a.st[" + ts + "][" + std::to_string(d) + "] = " + tensor.strides[d] + ";\n";
  return s;
}

namespace {

// `extent` as C over the symbol arguments a.sym[k] (long long).
std::string symbolArgumentsCode(const Extent &extent, const std::vector<std::string> &symbols) {
  return extentToCode(extent, [&](const std::string &s) {
    size_t k = std::find(symbols.begin(), symbols.end(), s) - symbols.begin();
    return "a.sym[" + std::to_string(k) + "]";
  });
}

} // namespace

std::string kernelExtentCode(const Extent &extent, const std::vector<std::string> &symbols) {
  return "((I)" + symbolArgumentsCode(extent, symbols) + ")";
}

std::string kernelExtentValueCode(const Extent &extent, const std::vector<std::string> &symbols) {
  return "((long long)" + symbolArgumentsCode(extent, symbols) + ")";
}

std::string denseStrideCode(const std::vector<Extent> &shape, const Layout &layout, size_t dim,
                            const std::function<std::string(const std::string &)> &symbol) {
  Extent stride = 1;
  auto pos = std::find(layout.begin(), layout.end(), static_cast<int64_t>(dim));
  for (auto it = pos + 1; it != layout.end(); ++it)
    stride = stride * shape[static_cast<size_t>(*it)];
  return extentToCode(stride, symbol);
}

std::string decomposeIndexCode(const std::string &index, const std::vector<size_t> &dims,
                               const std::string &tag, const std::string &rem,
                               const std::string &pad) {
  if (dims.empty())
    return "";
  std::string s = pad + "I " + rem + " = " + index + ";\n";
  for (size_t k = dims.size(); k-- > 0;) {
    const std::string d = std::to_string(dims[k]), c = "c" + d + tag;
    if (k == 0) {
      s += pad + "const I " + c + " = " + rem + ";\n";
      continue;
    }
    s += pad + "const I " + c + " = " + rem + " % (I)a.size[" + d + "];\n";
    s += pad + rem + " = " + rem + " / (I)a.size[" + d + "];\n";
  }
  return s;
}

} // namespace fuserc
