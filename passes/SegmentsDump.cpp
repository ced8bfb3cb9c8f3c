// The `segments` dump (see SegmentsDump.h).
#include "passes/SegmentsDump.h"

#include "schedulers/FusionAnalysis.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

namespace fuserc {
namespace {

std::string sizeText(const Extent &bytes, const SymbolBindings &shapes) {
  std::string text = bytes.str();
  Extent substituted = bytes.substitute(shapes);
  // Sizes from --shape are checked one by one; their products may still overflow.
  std::string bound = substituted.problems() ? "more than 2^63" : substituted.str();
  if (bound != text)
    text += " = " + bound;
  return text + " bytes";
}

std::string counted(size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

template <typename Values> std::string nameList(const Values &values, const FusionAnalysis &a) {
  std::string list;
  for (const Value *v : values)
    list += (list.empty() ? "" : ", ") + a.name(*v);
  return list;
}

std::string segmentList(const std::vector<size_t> &ids) {
  std::string list = ids.size() == 1 ? "segment " : "segments ";
  for (size_t i = 0; i < ids.size(); ++i)
    list += (i ? ", " : "") + std::to_string(ids[i]);
  return list;
}

void printRejections(const std::vector<Rejection> &rejections, std::string_view indent,
                     llvm::raw_ostream &os) {
  for (const Rejection &r : rejections)
    os << "//" << indent << r.scheduler << ": " << r.reason << "\n";
}

void printTrailer(const SegmentedFusion &sf, const SymbolBindings &shapes, llvm::raw_ostream &os) {
  const FusionAnalysis &a = *sf.analysis;
  os << "// segments of " << sf.fusion->name() << ": " << sf.segments.size();
  if (!sf.wholeFusion.empty()) {
    os << "; no scheduler takes the whole fusion:\n";
    printRejections(sf.wholeFusion, "   ", os);
  } else {
    os << "\n";
  }
  for (const ScheduledSegment &s : sf.segments) {
    const Segment &seg = s.segment;
    std::vector<const Value *> results;
    for (const Op *op : seg.ops())
      results.push_back(op->result());
    os << "// segment " << s.id << ": " << s.scheduler->name() << ", "
       << counted(seg.ops().size(), "op", "ops") << ": " << nameList(results, a) << "\n";
    std::vector<const Value *> views;
    for (const Value *v : seg.outputs())
      if (std::find(seg.writtenOutputs().begin(), seg.writtenOutputs().end(), v) ==
          seg.writtenOutputs().end())
        views.push_back(v);
    auto listOrNothing = [&](std::span<const Value *const> values) {
      return values.empty() ? std::string("nothing") : nameList(values, a);
    };
    os << "//   reads " << listOrNothing(seg.inputs()) << "; writes "
       << listOrNothing(seg.writtenOutputs());
    if (!views.empty())
      os << "; views " << nameList(views, a);
    for (const Value *v : seg.writtenOutputs())
      if (const OutputView *view = a.outputView(*v))
        os << "; " << a.name(*v) << " into output " << view->output->name << " through its view";
    os << "\n";
  }
  if (sf.segments.size() < 2)
    return;
  for (const std::string &order : sf.inPlaceOrders)
    os << "// in place: " << order << "\n";
  for (const std::string &copy : sf.recomputations)
    os << "// recomputed: " << copy << "\n";

  if (sf.crossing.empty()) {
    os << "// tensors between segments: none\n";
  } else {
    os << "// tensors between segments (workspace: " << sizeText(sf.workspaceBytes, shapes)
       << "):\n";
    for (const CrossingTensor &t : sf.crossing) {
      os << "//   " << a.name(*t.value) << ": " << typeString(*t.value) << " from segment "
         << t.producer << " to " << segmentList(t.consumers) << ", ";
      if (t.storage != t.value->dtype())
        os << "kept as " << dtypeName(t.storage) << ", ";
      os << sizeText(t.bytes, shapes);
      switch (t.kind) {
      case CrossingTensor::Kind::Workspace:
        os << " in workspace\n";
        break;
      case CrossingTensor::Kind::Output:
        os << ", read back from the output\n";
        break;
      case CrossingTensor::Kind::View:
        os << ", read through the view\n";
        break;
      }
    }
  }

  if (sf.boundaries.empty()) {
    os << "// boundaries: none\n";
    return;
  }
  os << "// boundaries:\n";
  for (const SegmentBoundary &b : sf.boundaries) {
    std::vector<std::string> what;
    for (const Value *v : b.passed) {
      size_t from = sf.segmentOfOp[a.position(*v->definingOp())];
      what.push_back(a.name(*v) + " from " + std::to_string(from) + " to " +
                     std::to_string(from == b.first ? b.second : b.first));
    }
    if (!b.shared.empty())
      what.push_back("both read " + nameList(b.shared, a));
    os << "//   segments " << b.first << " and " << b.second << " (";
    for (size_t i = 0; i < what.size(); ++i)
      os << (i ? "; " : "") << what[i];
    os << ")";
    if (b.cycleThrough) {
      os << ": merging would create a cycle through segment " << *b.cycleThrough << "\n";
      continue;
    }
    os << ":\n";
    printRejections(b.rejections, "     ", os);
  }
}

// ColorBrewer Set3: light, distinct, readable under black text.
constexpr const char *kPalette[] = {"#8dd3c7", "#ffffb3", "#bebada", "#fb8072",
                                    "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
                                    "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f"};

std::string colorOf(size_t segment) {
  return kPalette[segment % (sizeof kPalette / sizeof kPalette[0])];
}

std::string nodeId(const Value &v) { return "v" + std::to_string(v.id()); }

void printDot(const SegmentedFusion &sf, const SymbolBindings &shapes, llvm::raw_ostream &os) {
  const FusionAnalysis &a = *sf.analysis;
  const Fusion &f = *sf.fusion;
  os << "digraph \"" << f.name() << "\" {\n"
     << "  graph [label=\"" << f.name() << ": "
     << counted(sf.segments.size(), "segment", "segments")
     << "\", labelloc=t, fontname=\"Helvetica\"];\n"
     << "  node [fontname=\"Helvetica\", fontsize=10];\n"
     << "  edge [fontname=\"Helvetica\", fontsize=9];\n";
  for (const Value *in : f.inputs())
    os << "  " << nodeId(*in) << " [shape=ellipse, label=\"" << in->name() << ": "
       << typeString(*in) << "\"];\n";
  for (const auto &op : f.ops())
    if (a.isRecomputed(*op)) {
      const IndexMap *map = a.indexMap(*op->result());
      const std::string what = map ? "index map of " + map->base->name()
                               : a.isOutputViewOfStored(*op->result())
                                   ? "written through by " + a.name(a.storedBeneath(*op->result()))
                                   : std::string("recomputed where read");
      os << "  " << nodeId(*op->result()) << " [shape=box, style=dashed, label=\""
         << a.name(*op->result()) << " = " << op->info().name << "(" << a.name(*op->operand(0))
         << ")\\n"
         << what << "\"];\n";
    }
  for (const ScheduledSegment &s : sf.segments) {
    os << "  subgraph cluster_" << s.id << " {\n"
       << "    label=\"segment " << s.id << ": " << s.scheduler->name() << "\";\n"
       << "    style=\"rounded\"; color=\"" << colorOf(s.id) << "\"; penwidth=2;\n";
    for (const Op *op : s.segment.ops()) {
      std::string args;
      for (const Value *operand : op->operands())
        args += (args.empty() ? "" : ", ") + a.name(*operand);
      os << "    " << nodeId(*op->result()) << " [shape=box, style=\"rounded,filled\", fillcolor=\""
         << colorOf(s.id) << "\", label=\"" << a.name(*op->result()) << " = " << op->info().name
         << "(" << args << ")\\n"
         << typeString(*op->result()) << "\"];\n";
    }
    os << "  }\n";
  }
  std::map<const Value *, const CrossingTensor *> crossing;
  for (const CrossingTensor &t : sf.crossing)
    crossing[t.value] = &t;
  for (const auto &op : f.ops()) {
    std::set<const Value *> drawn; // mul(x, x) reads x once
    for (const Value *operand : op->operands()) {
      if (operand->isLiteral() || !drawn.insert(operand).second)
        continue;
      os << "  " << nodeId(*operand) << " -> " << nodeId(*op->result());
      auto it = crossing.find(operand);
      if (it != crossing.end() && sf.segmentOfOp[a.position(*op)] != it->second->producer)
        os << " [style=bold, color=\"#e31a1c\", label=\"" << sizeText(it->second->bytes, shapes)
           << "\"]";
      os << ";\n";
    }
  }
  for (size_t i = 0; i < f.outputs().size(); ++i) {
    const FusionOutput &out = f.outputs()[i];
    os << "  out" << i << " [shape=ellipse, style=bold, label=\"output " << out.name << "\"];\n"
       << "  " << nodeId(*out.value) << " -> out" << i << ";\n";
  }
  os << "}\n";
}

} // namespace

PrintNotes segmentsDumpNotes(const std::vector<SegmentedFusion> &segmented,
                             const SymbolBindings &shapes) {
  auto notes = std::make_shared<std::map<const Value *, std::string>>();
  auto byFusion = std::make_shared<std::map<const Fusion *, const SegmentedFusion *>>();
  for (const SegmentedFusion &sf : segmented) {
    (*byFusion)[sf.fusion] = &sf;
    for (const auto &op : sf.fusion->ops())
      if (const IndexMap *map = sf.analysis->indexMap(*op->result()))
        (*notes)[op->result()] = "index map of " + map->base->name() + ": offset " +
                                 map->view.offset.str() + ", strides " +
                                 extentListString(map->view.strides) + "; no kernel";
      else if (sf.analysis->isRecomputedCast(*op->result()))
        (*notes)[op->result()] = "recomputed where read (a cast of " +
                                 sf.analysis->name(*op->operand(0)) + "); no kernel";
      else if (sf.analysis->isOutputViewOfStored(*op->result()))
        (*notes)[op->result()] = "stored by the kernel computing " +
                                 sf.analysis->name(sf.analysis->storedBeneath(*op->result())) +
                                 ", through this view; no kernel";
    for (const ScheduledSegment &s : sf.segments)
      for (const Op *op : s.segment.ops())
        (*notes)[op->result()] =
            "segment " + std::to_string(s.id) + " (" + std::string(s.scheduler->name()) + ")";
  }
  PrintNotes result;
  result.value = [notes](const Value &v) {
    auto it = notes->find(&v);
    return it == notes->end() ? std::string() : it->second;
  };
  result.trailer = [byFusion, shapes](const Fusion &f, const ValueNames &, llvm::raw_ostream &os) {
    auto it = byFusion->find(&f);
    if (it != byFusion->end())
      printTrailer(*it->second, shapes, os);
  };
  return result;
}

void printSegmentsDot(const std::vector<SegmentedFusion> &segmented, const SymbolBindings &shapes,
                      llvm::raw_ostream &os) {
  for (size_t i = 0; i < segmented.size(); ++i) {
    if (i)
      os << "\n";
    printDot(segmented[i], shapes, os);
  }
}

} // namespace fuserc
