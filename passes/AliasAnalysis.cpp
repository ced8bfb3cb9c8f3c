// Alias analysis (see AliasAnalysis.h): classifies each output as a view, an
// in-place update or a new buffer, checks in-place updates for read/write
// hazards, and annotates the `alias` dump. The strided-view algebra itself
// is in ViewAnalysis.h.
#include "passes/AliasAnalysis.h"

#include "ir/ViewAnalysis.h"

namespace fuserc {
namespace {

std::string quoted(std::string_view name) { return "'" + std::string(name) + "'"; }

// An output's value as a view of a tensor input, or why it is not one.
struct OutputView {
  Value *base = nullptr;           // reached from it through view ops only
  std::optional<StridedView> view; // when the view is expressible
  std::string whyNot;              // base set but no view: why
};

OutputView viewOfValue(Value *value) {
  std::vector<const Op *> chain; // from the value back to the base
  Value *v = value;
  while (const Op *op = v->definingOp()) {
    if (!op->info().viewable)
      break;
    chain.push_back(op);
    v = op->operand(0);
  }
  OutputView result;
  if (!v->isInput() || v->isScalarInput())
    return result;
  result.base = v;
  StridedView view = inputView(*v);
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    ViewStep step = viewThroughOp(**it, view);
    if (!step.view) {
      result.whyNot = std::move(step.whyNot);
      return result;
    }
    view = std::move(*step.view);
  }
  result.view = std::move(view);
  return result;
}

// A view whose memory order contradicts a pinned layout is not a view: the
// output gets a buffer in the pinned order. Dims that do not move through
// memory (extent 1, stride 0) fit any order.
OutputView classifyOutput(const FusionOutput &out) {
  OutputView v = viewOfValue(out.value);
  if (!v.view || !out.pinnedLayout)
    return v;
  const StridedView &view = *v.view;
  auto moves = [&](size_t d) { return !isDegenerateDim(view, d); };
  if (sameOrderOn(*out.pinnedLayout, view.order, moves))
    return v;
  v.whyNot = "the pinned layout" + layoutString(*out.pinnedLayout) +
             " is not the view's memory order " + layoutString(view.order);
  v.view.reset();
  return v;
}

class AliasAnalysis {
public:
  AliasAnalysis(Fusion &fusion, DiagnosticEngine &diag) : fusion_(fusion), diag_(diag) {}

  bool run() {
    unsigned errorsBefore = diag_.errorCount();
    for (FusionOutput &out : fusion_.mutableOutputs()) {
      out.view.reset();
      if (out.aliases) {
        out.kind = OutputKind::InPlace;
        checkInPlace(out);
        continue;
      }
      OutputView v = classifyOutput(out);
      if (!v.view) {
        out.kind = OutputKind::NewBuffer;
        continue;
      }
      out.kind = OutputKind::View;
      out.view = ViewInfo{v.base, v.view->offset, v.view->strides};
      if (!out.pinnedLayout) {
        out.layout = v.view->order;
        out.layoutOrigin = "view of " + v.base->name();
      }
    }
    return diag_.errorCount() == errorsBefore;
  }

private:
  // `output y aliases x`: y is written into x's buffer, in x's memory order,
  // so every read of x must happen at the index being written.
  void checkInPlace(FusionOutput &out) {
    const Value *x = out.aliases;
    if (!out.pinnedLayout) {
      if (out.layout != x->layout()) {
        out.layout = x->layout();
        out.layoutOrigin = "in-place into " + x->name();
      }
    } else {
      auto holdsData = [&](size_t d) { return !x->shape()[d].isConstant(1); };
      if (!sameOrderOn(*out.pinnedLayout, x->layout(), holdsData)) {
        std::string pinned = "layout" + layoutString(*out.pinnedLayout);
        reportHazard(out,
                     "its pinned " + pinned + " is not the memory order " +
                         layoutString(x->layout()) + " of " + quoted(x->name()),
                     "drop '" + pinned + "' to write " + quoted(out.name) + " in the order of " +
                         quoted(x->name()) + ", or " + dropAliases(out));
      }
    }

    if (out.value == x)
      reportHazard(
          out, "it is " + quoted(x->name()) + " itself, unchanged, so there is nothing to write",
          "drop 'aliases " + x->name() + "' (the output is then a view of " + quoted(x->name()) +
              " and needs no kernel)");

    checkReadsOf(out);

    // Ops that make x into another output's view are hazards found above; an
    // output that is x itself reads it through no op.
    for (const FusionOutput &other : fusion_.outputs()) {
      if (&other == &out || other.value != x || other.aliases || !classifyOutput(other).view)
        continue;
      reportHazard(out, "output " + quoted(other.name) + " is " + quoted(x->name()) +
                            " itself, a view of its memory, and would show the updated values");
      diag_.note(other.loc, "output " + quoted(other.name) + " is declared here");
    }
  }

  // Reads of x other than at the index being written: a view of x would
  // read x's memory in the kernel that writes it (an error); anything else
  // computes in a kernel that segmentation orders before that one.
  void checkReadsOf(const FusionOutput &out) {
    const Value *x = out.aliases;
    for (const InPlaceRead &read : readsOtherThanElementwise(fusion_, *x)) {
      const Op &op = *read.op;
      if (!op.info().viewable)
        continue;
      std::string opName = quoted(op.info().name);
      unsigned line = diag_.lineNumber(op.loc());
      std::string where = line ? " (line " + std::to_string(line) + ")" : "";
      reportHazard(out, opName + where + " " + describeInPlaceRead(read, *x) +
                            ", a view that would read elements of " + quoted(x->name()) +
                            " after the update has overwritten them");
      std::string what = op.operand(read.operand) == x
                             ? quoted(x->name())
                             : "a value computed from " + quoted(x->name());
      diag_.note(op.loc(), opName + " reads " + what + " here");
    }
  }

  static std::string dropAliases(const FusionOutput &out) {
    return "drop 'aliases " + out.aliases->name() + "' to write " + quoted(out.name) +
           " to a new buffer";
  }

  // "output 'y' cannot update 'x' in place: WHY; FIX", at the aliases clause.
  void reportHazard(const FusionOutput &out, const std::string &why, const std::string &fix) {
    diag_.error(out.aliasesLoc, "output " + quoted(out.name) + " cannot update " +
                                    quoted(out.aliases->name()) + " in place: " + why + "; " + fix);
  }
  void reportHazard(const FusionOutput &out, const std::string &why) {
    reportHazard(out, why, dropAliases(out));
  }

  Fusion &fusion_;
  DiagnosticEngine &diag_;
};

// " (origin)" unless the origin is what the output's kind already says.
std::string layoutNote(const FusionOutput &out, const std::string &impliedOrigin) {
  if (out.layout.empty())
    return "";
  std::string note = "layout" + layoutString(out.layout);
  if (!out.layoutOrigin.empty() && out.layoutOrigin != impliedOrigin)
    note += " (" + out.layoutOrigin + ")";
  return note;
}

std::string outputNote(const FusionOutput &out) {
  switch (out.kind) {
  case OutputKind::View: {
    const ViewInfo &view = *out.view;
    std::string base = view.base->name();
    return "view of " + base + ": offset " + view.offset.str() + ", strides " +
           extentListString(view.strides) + ", " + layoutNote(out, "view of " + base);
  }
  case OutputKind::InPlace: {
    std::string base = out.aliases->name();
    return "in-place into " + base + ", " + layoutNote(out, "in-place into " + base);
  }
  case OutputKind::NewBuffer:
    break;
  }
  std::string note = "new buffer, " + layoutNote(out, "");
  OutputView v = classifyOutput(out);
  if (v.base && !v.whyNot.empty())
    note += "; not a view of " + v.base->name() + ": " + v.whyNot;
  return note;
}

std::string counted(size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

void printSummary(const Fusion &fusion, const ValueNames &, llvm::raw_ostream &os) {
  size_t views = 0, inPlace = 0, newBuffers = 0;
  for (const FusionOutput &out : fusion.outputs())
    (out.kind == OutputKind::View      ? views
     : out.kind == OutputKind::InPlace ? inPlace
                                       : newBuffers)++;
  std::vector<std::string> parts;
  if (views)
    parts.push_back(counted(views, "view", "views"));
  if (inPlace)
    parts.push_back(counted(inPlace, "in-place update", "in-place updates"));
  if (newBuffers)
    parts.push_back(counted(newBuffers, "new buffer", "new buffers"));
  os << "// outputs of " << fusion.name() << ": ";
  for (size_t i = 0; i < parts.size(); ++i)
    os << (i ? ", " : "") << parts[i];
  if (!inPlace && !newBuffers)
    os << " (no kernel needed)";
  os << "\n";
}

} // namespace

std::vector<InPlaceRead> readsOtherThanElementwise(const Fusion &fusion, const Value &x) {
  std::vector<InPlaceRead> reads;
  std::vector<bool> fromX(fusion.values().size(), false);
  fromX[x.id()] = true;
  for (const auto &op : fusion.ops()) {
    const std::vector<Value *> &operands = op->operands();
    size_t k = 0;
    while (k < operands.size() && !fromX[operands[k]->id()])
      ++k;
    if (k == operands.size() || op->kind() == OpKind::RandLike) // rand_like: the shape only
      continue;
    // A scatter reads its background element by element (each element is
    // the background's or a source's), when nothing else of it is from x.
    const bool scatterBackground =
        op->info().shapeRule == ShapeRule::Scatter && k == 0 &&
        std::none_of(operands.begin() + 1, operands.end(),
                     [&](const Value *v) { return static_cast<bool>(fromX[v->id()]); });
    if ((op->info().shapeRule == ShapeRule::Elementwise || scatterBackground) &&
        op->result()->shape() == x.shape())
      fromX[op->result()->id()] = true;
    else
      reads.push_back({op.get(), k});
  }
  return reads;
}

std::string describeInPlaceRead(const InPlaceRead &read, const Value &x,
                                const std::string &operandName) {
  const Op &op = *read.op;
  const size_t k = read.operand;
  const Value &operand = *op.operand(k);
  const std::string shown = operandName.empty() ? operand.name() : operandName;
  std::string what = &operand == &x   ? quoted(x.name())
                     : !shown.empty() ? quoted(shown) + " (computed from " + quoted(x.name()) + ")"
                                      : "a value computed from " + quoted(x.name());
  const Attributes &attrs = op.attrs();
  auto attr = [&](std::string_view name) { return attrValueString(*attrs.find(name)); };
  std::string reshaped = shapeString(operand.shape()) + " to " + shapeString(op.result()->shape());
  switch (op.info().shapeRule) {
  case ShapeRule::Elementwise:
  case ShapeRule::BroadcastInDim:
  case ShapeRule::Expand:
    return "broadcasts " + what + " from " + reshaped;
  case ShapeRule::Reduction:
    return "reduces " + what + " over axes " + attr("axes");
  case ShapeRule::Scan:
    return "scans " + what + " along dim " + attr("dim");
  case ShapeRule::Permute:
    return "permutes " + what + " with dims=" + attr("dims");
  case ShapeRule::Reshape:
  case ShapeRule::Squeeze:
  case ShapeRule::Unsqueeze:
    return "changes the shape of " + what + " from " + reshaped;
  case ShapeRule::Slice:
    return "slices " + what + " along dim " + attr("dim");
  case ShapeRule::Pad:
    return "pads " + what + " along dim " + attr("dim");
  case ShapeRule::Cat:
    return "concatenates " + what + " along dim " + attr("dim");
  case ShapeRule::IndexSelect:
  case ShapeRule::Gather:
  case ShapeRule::Scatter:
    if (k < op.info().operands.size() && op.info().operands[k].kind == OperandKind::Index)
      return "uses " + what + " as indices";
    if (k == 0)
      return "reads " + what + " at positions taken from an index tensor";
    return "scatters " + what + " to positions taken from an index tensor";
  default:
    return "reads " + what + " across elements";
  }
}

bool analyzeAliases(Fusion &fusion, DiagnosticEngine &diag) {
  return AliasAnalysis(fusion, diag).run();
}

PrintNotes aliasDumpNotes() {
  PrintNotes notes;
  notes.output = outputNote;
  notes.trailer = printSummary;
  return notes;
}

} // namespace fuserc
