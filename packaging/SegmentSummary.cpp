// The manifest's summary of a segmentation (see SegmentSummary.h).
#include "packaging/SegmentSummary.h"

#include "schedulers/SegmentedFusion.h"

#include <algorithm>

namespace fuserc {
namespace {

template <typename Values>
std::vector<std::string> names(const Values &values, const FusionAnalysis &analysis) {
  std::vector<std::string> out;
  for (const Value *v : values)
    out.push_back(analysis.name(*v));
  return out;
}

std::vector<SegmentSummary::Rejection> rejections(const std::vector<Rejection> &from) {
  std::vector<SegmentSummary::Rejection> out;
  for (const Rejection &r : from)
    out.push_back({r.scheduler, r.reason});
  return out;
}

const char *crossingKind(CrossingTensor::Kind kind) {
  switch (kind) {
  case CrossingTensor::Kind::Workspace:
    return "workspace";
  case CrossingTensor::Kind::Output:
    return "output";
  case CrossingTensor::Kind::View:
    return "view";
  }
  return "workspace";
}

} // namespace

SegmentSummary summarizeSegments(const SegmentedFusion &sf) {
  const FusionAnalysis &a = *sf.analysis;
  SegmentSummary out;
  out.fusion = sf.fusion->name();
  out.wholeFusion = rejections(sf.wholeFusion);
  for (const ScheduledSegment &s : sf.segments) {
    SegmentSummary::Segment segment;
    segment.id = s.id;
    segment.scheduler = std::string(s.scheduler->name());
    for (const Op *op : s.segment.ops())
      segment.ops.push_back({a.name(*op->result()), std::string(op->info().name)});
    segment.reads = names(s.segment.inputs(), a);
    segment.writes = names(s.segment.writtenOutputs(), a);
    for (const Value *v : s.segment.outputs()) {
      auto written = s.segment.writtenOutputs();
      if (std::find(written.begin(), written.end(), v) == written.end())
        segment.views.push_back(a.name(*v));
    }
    out.segments.push_back(std::move(segment));
  }
  for (const auto &op : sf.fusion->ops())
    if (const IndexMap *map = a.indexMap(*op->result())) {
      std::vector<std::string> strides;
      for (const Extent &stride : map->view.strides)
        strides.push_back(stride.str());
      out.indexMaps.push_back({a.name(*op->result()), std::string(op->info().name),
                               map->base->name(), map->view.offset.str(), std::move(strides)});
    }
  for (const auto &op : sf.fusion->ops())
    if (const OutputView *view = a.outputView(*op->result())) {
      std::vector<std::string> strides;
      for (const Extent &stride : view->view.strides)
        strides.push_back(stride.str());
      out.outputViews.push_back({view->output->name, a.name(*op->result()), std::move(strides)});
    }
  for (const CrossingTensor &t : sf.crossing)
    out.tensors.push_back({a.name(*t.value), std::string(dtypeName(t.value->dtype())),
                           std::string(dtypeName(t.storage)), t.producer, t.consumers,
                           crossingKind(t.kind), t.bytes.str()});
  for (const SegmentBoundary &b : sf.boundaries)
    out.boundaries.push_back({b.first, b.second, names(b.passed, a), names(b.shared, a),
                              b.cycleThrough, rejections(b.rejections)});
  return out;
}

} // namespace fuserc
