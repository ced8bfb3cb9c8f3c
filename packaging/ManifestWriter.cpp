// The manifest writer (see ManifestWriter.h). One function per JSON object
// kind; keys are written in a fixed order, and every list follows the
// module's order (fusions, inputs, outputs), the code's (kernels, variants)
// or the segmentation's (segments by id), so equal inputs give equal bytes.
#include "packaging/ManifestWriter.h"

#include "packaging/HeaderParts.h"

#include "ir/ViewAnalysis.h"
#include "packaging/HeaderWriter.h"
#include "support/Json.h"

#include <algorithm>
#include <cstdlib>

#ifndef FUSERC_VERSION
#define FUSERC_VERSION "unknown"
#endif
#ifndef FUSERC_CUDA_TOOLKIT_VERSION
#define FUSERC_CUDA_TOOLKIT_VERSION "unknown"
#endif

namespace fuserc {
namespace {

Json extents(const std::vector<Extent> &list) {
  Json out = Json::array();
  for (const Extent &e : list)
    out.push(e.str());
  return out;
}

Json layoutJson(const Layout &layout) {
  Json out = Json::array();
  for (int64_t d : layout)
    out.push(d);
  return out;
}

Layout layoutOr(const Layout &layout, size_t rank) {
  return isPermutation(layout, rank) ? layout : rowMajorLayout(rank);
}

Json inputJson(const Value &v) {
  Json out = Json::object();
  out.set("name", v.name());
  if (v.isScalarInput()) {
    out.set("kind", "scalar")
        .set("dtype", dtypeName(v.dtype()))
        .set("c_type", header::cScalarType(v.dtype()));
    return out;
  }
  Layout layout = layoutOr(v.layout(), v.rank());
  out.set("kind", "tensor")
      .set("dtype", dtypeName(v.dtype()))
      .set("shape", extents(v.shape()))
      .set("layout", layoutJson(layout))
      .set("strided", v.isStrided())
      .set("strides",
           extents(v.isStrided() ? inputView(v).strides : denseStrides(v.shape(), layout)));
  return out;
}

Json outputJson(const FusionOutput &o) {
  Layout layout = layoutOr(o.layout, o.value->rank());
  std::vector<Extent> strides;
  Json view = nullptr;
  switch (o.kind) {
  case OutputKind::NewBuffer:
    strides = denseStrides(o.value->shape(), layout);
    break;
  case OutputKind::View:
    strides = o.view->strides;
    view = Json::object()
               .set("base", o.view->base->name())
               .set("offset", o.view->offset.str())
               .set("strides", extents(o.view->strides));
    break;
  case OutputKind::InPlace:
    strides = o.aliases->isStrided() ? inputView(*o.aliases).strides
                                     : denseStrides(o.aliases->shape(),
                                                    layoutOr(o.aliases->layout(), o.value->rank()));
    break;
  }
  Json out = Json::object();
  out.set("name", o.name)
      .set("dtype", dtypeName(o.value->dtype()))
      .set("shape", extents(o.value->shape()))
      .set("layout", layoutJson(layout))
      .set("layout_origin", o.layoutOrigin)
      .set("kind", o.kind == OutputKind::NewBuffer ? "new_buffer"
                   : o.kind == OutputKind::View    ? "view"
                                                   : "in_place")
      .set("strides", extents(strides))
      .set("aliases", o.aliases ? Json(o.aliases->name()) : Json())
      .set("view", view);
  return out;
}

Json rejectionsJson(const std::vector<SegmentSummary::Rejection> &rejections) {
  Json out = Json::array();
  for (const SegmentSummary::Rejection &r : rejections)
    out.push(Json::object().set("scheduler", r.scheduler).set("reason", r.reason));
  return out;
}

Json ids(const std::vector<size_t> &list) {
  Json out = Json::array();
  for (size_t id : list)
    out.push(uint64_t{id});
  return out;
}

// segments, index_maps, output_views, tensors_between_segments, segment_boundaries,
// whole_fusion_rejections.
void setSegmentation(Json &fusion, const SegmentSummary *summary) {
  Json segments = Json::array(), indexMaps = Json::array(), outputViews = Json::array(),
       tensors = Json::array(), boundaries = Json::array();
  Json whole = Json::array();
  if (summary) {
    for (const SegmentSummary::Segment &s : summary->segments) {
      Json ops = Json::array();
      for (const SegmentSummary::Op &op : s.ops)
        ops.push(Json::object().set("value", op.value).set("op", op.op));
      segments.push(Json::object()
                        .set("id", uint64_t{s.id})
                        .set("scheduler", s.scheduler)
                        .set("ops", ops)
                        .set("reads", Json::strings(s.reads))
                        .set("writes", Json::strings(s.writes))
                        .set("views", Json::strings(s.views)));
    }
    for (const SegmentSummary::IndexMap &m : summary->indexMaps)
      indexMaps.push(Json::object()
                         .set("value", m.value)
                         .set("op", m.op)
                         .set("base", m.base)
                         .set("offset", m.offset)
                         .set("strides", Json::strings(m.strides)));
    for (const SegmentSummary::OutputView &v : summary->outputViews)
      outputViews.push(Json::object()
                           .set("output", v.output)
                           .set("stored", v.stored)
                           .set("strides", Json::strings(v.strides)));
    for (const SegmentSummary::Tensor &t : summary->tensors)
      tensors.push(Json::object()
                       .set("name", t.name)
                       .set("dtype", t.dtype)
                       .set("storage", t.storage)
                       .set("producer", uint64_t{t.producer})
                       .set("consumers", ids(t.consumers))
                       .set("kind", t.kind)
                       .set("bytes", t.bytes));
    for (const SegmentSummary::Boundary &b : summary->boundaries)
      boundaries.push(
          Json::object()
              .set("segments", ids({b.first, b.second}))
              .set("passed", Json::strings(b.passed))
              .set("shared", Json::strings(b.shared))
              .set("cycle_through", b.cycleThrough ? Json(uint64_t{*b.cycleThrough}) : Json())
              .set("rejections", rejectionsJson(b.rejections)));
    whole = rejectionsJson(summary->wholeFusion);
  }
  fusion.set("segments", segments)
      .set("index_maps", indexMaps)
      .set("output_views", outputViews)
      .set("tensors_between_segments", tensors)
      .set("segment_boundaries", boundaries)
      .set("whole_fusion_rejections", whole);
}

Json resourcesJson(const KernelResources &r) {
  return Json::object()
      .set("registers", r.registers)
      .set("shared_bytes", r.sharedBytes)
      .set("stack_bytes", r.stackBytes)
      .set("spill_store_bytes", r.spillStoreBytes)
      .set("spill_load_bytes", r.spillLoadBytes);
}

// Per arch, what ptxas reported for `symbol`; null for an arch that has no
// report for it.
Json variantResources(const std::string &symbol, const ManifestContents &c) {
  Json out = Json::object();
  for (const std::string &arch : c.toolchain.archs) {
    Json entry;
    if (c.resources)
      if (auto it = c.resources->find(arch); it != c.resources->end())
        for (const KernelResources &r : it->second)
          if (r.kernel == symbol)
            entry = resourcesJson(r);
    out.set(arch, entry);
  }
  return out;
}

// A schedule parameter with its type: a number, a flag, text, or an array
// of numbers.
Json parameterJson(const ScheduleValue &value) {
  if (const auto *n = std::get_if<int64_t>(&value))
    return Json(*n);
  if (const auto *b = std::get_if<bool>(&value))
    return Json(*b);
  if (const auto *s = std::get_if<std::string>(&value))
    return Json(*s);
  Json numbers = Json::array();
  for (int64_t n : std::get<std::vector<int64_t>>(value))
    numbers.push(n);
  return numbers;
}

// The index in `images` of the image defining `symbol`; null when none does.
Json imageIndex(const std::string &symbol, const ManifestContents &c) {
  const std::optional<size_t> image = imageHolding(c.images, symbol);
  return image ? Json(uint64_t{*image}) : Json();
}

Json kernelJson(const KernelPlan &k, const ManifestContents &c) {
  Json parameters = Json::object();
  for (const ScheduleField &p : k.parameters)
    parameters.set(p.name, parameterJson(p.value));
  Json variants = Json::array();
  for (const KernelVariant &v : k.variants)
    variants.push(Json::object()
                      .set("symbol", v.symbol)
                      .set("condition", v.condition)
                      .set("resources", variantResources(v.symbol, c))
                      .set("image", imageIndex(v.symbol, c)));
  return Json::object()
      .set("name", k.name)
      .set("segment", k.segment)
      .set("scheduler", k.scheduler)
      .set("family", k.family)
      .set("ops", Json::strings(k.ops))
      .set("parameters", parameters)
      .set("variants", variants)
      .set("selection", k.selection)
      .set("launch_geometry", k.launchGeometry)
      .set("variants_left_out", k.leftOut.empty() ? Json() : Json(k.leftOut))
      .set("bytes_moved", k.bytesMoved.str());
}

Json fusionJson(const Fusion &f, const ManifestContents &c) {
  const FusionCode *code = nullptr;
  for (const FusionCode &fc : c.code)
    if (fc.fusion == f.name())
      code = &fc;
  const SegmentSummary *summary = nullptr;
  for (const SegmentSummary &s : c.segments)
    if (s.fusion == f.name())
      summary = &s;

  Json inputs = Json::array(), outputs = Json::array(), kernels = Json::array();
  for (const Value *v : f.inputs())
    inputs.push(inputJson(*v));
  for (const FusionOutput &o : f.outputs())
    outputs.push(outputJson(o));
  if (code)
    for (const KernelPlan &k : code->kernels)
      kernels.push(kernelJson(k, c));

  Json out = Json::object();
  out.set("name", f.name());
  out.set("c_prefix", isCIdentifier(c.name) ? Json(fusionSymbolPrefix(c.name, f.name())) : Json());
  out.set("inputs", inputs).set("outputs", outputs);
  setSegmentation(out, summary);
  out.set("kernels", kernels);
  out.set("workspace_bytes", code ? code->workspaceBytes.str() : "0");
  Json symbols = Json::array();
  for (const auto &[symbol, source] : header::symbolBindings(f))
    symbols.push(Json::object()
                     .set("name", symbol)
                     .set("input", source.input)
                     .set("dim", static_cast<int64_t>(source.dim))
                     .set("coefficient", source.coefficient)
                     .set("rest", source.rest ? Json(source.rest->str()) : Json()));
  out.set("symbols", symbols);
  Json divisions = Json::array();
  for (const auto &[a, b] : exactDivisions(f))
    divisions.push(Json::object().set("dividend", a.str()).set("divisor", b.str()));
  out.set("exact_divisions", divisions);
  return out;
}

int smValue(const std::string &arch) {
  std::string digits = smNumber(arch);
  return digits.empty() ? -1 : std::atoi(digits.c_str());
}

} // namespace

ToolchainInfo currentToolchain(const std::vector<std::string> &archs) {
  ToolchainInfo info;
  info.fusercVersion = FUSERC_VERSION;
  info.cudaToolkitVersion = FUSERC_CUDA_TOOLKIT_VERSION;
  info.nvrtcVersion = nvrtcVersionString();
  info.archs = archs;
  auto newest = std::max_element(archs.begin(), archs.end(), [](const auto &a, const auto &b) {
    return smValue(a) < smValue(b);
  });
  if (newest != archs.end())
    info.ptxArch = *newest;
  return info;
}

std::string writeManifest(const ManifestContents &c) {
  Json fusions = Json::array();
  if (c.module)
    for (const auto &f : c.module->fusions)
      fusions.push(fusionJson(*f, c));
  Json doc = Json::object();
  doc.set("format", "fuserc-manifest")
      .set("version", kManifestVersion)
      .set("name", c.name)
      .set("fuserc_version", c.toolchain.fusercVersion)
      .set("cuda_toolkit_version", c.toolchain.cudaToolkitVersion)
      .set("nvrtc_version", c.toolchain.nvrtcVersion)
      .set("archs", Json::strings(c.toolchain.archs))
      .set("ptx_arch", c.toolchain.ptxArch)
      .set("variants", c.variants);
  Json images = Json::array();
  for (const UnitImage &i : c.images)
    images.push(Json::object()
                    .set("unit", i.unit)
                    .set("offset", uint64_t{i.offset})
                    .set("bytes", uint64_t{i.size})
                    .set("ptx_arch", i.ptxArch));
  doc.set("images", images).set("fusions", fusions);
  return doc.print();
}

} // namespace fuserc
