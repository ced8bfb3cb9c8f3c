// Following coordinates to the reads of reduction results (see
// ReductionResultReads.h).
#include "schedulers/ReductionResultReads.h"

#include "ir/Printer.h"
#include "schedulers/OpFamilies.h"

#include <algorithm>
#include <set>
#include <unordered_set>

namespace fuserc {
namespace {

// Per dim of a value: the domain dim whose loop coordinate indexes it, or
// kConstant for a dim of extent 1 (always read at 0).
constexpr int kConstant = -1;
using Coords = std::vector<int>;

class ReadTracer {
public:
  ReadTracer(const Segment &segment, const ReductionRows &rows)
      : segment_(segment), rows_(rows), a_(segment.analysis()) {
    std::vector<bool> depends = dependsOnReduction(segment);
    for (size_t i = 0; i < segment.ops().size(); ++i)
      if (depends[i])
        dependent_.insert(segment.ops()[i]->result());
  }

  std::optional<std::string> run() {
    for (const Op *reduction : rows_.reductions)
      trace(*reduction->operand(0), over(reduction->operand(0)->shape(), /*reduced=*/false),
            *reduction);
    for (const Value *out : segment_.writtenOutputs()) {
      const bool domain = rows_.isDomainShape(out->shape());
      if (domain || rows_.isReducedShape(out->shape()))
        trace(*out, over(out->shape(), !domain), *out->definingOp());
      if (reason_)
        break;
    }
    return reason_;
  }

private:
  // The coordinates of a value over the rows' domain (or, `reduced`, over
  // the rows): its dims of extent other than 1 are the domain's (kept)
  // dims of extent other than 1, in order.
  Coords over(const std::vector<Extent> &shape, bool reduced) const {
    std::vector<int> dims;
    for (size_t d = 0; d < rows_.domain.size(); ++d) {
      const bool isReduced =
          std::find(rows_.axes.begin(), rows_.axes.end(), int64_t(d)) != rows_.axes.end();
      if (!rows_.domain[d].isConstant(1) && !(reduced && isReduced))
        dims.push_back(static_cast<int>(d));
    }
    Coords coords;
    size_t next = 0;
    for (const Extent &e : shape)
      coords.push_back(e.isConstant(1) || next >= dims.size() ? kConstant : dims[next++]);
    return coords;
  }

  // `value` is read at `coords` by `reader` (an op of the segment).
  void trace(const Value &value, const Coords &coords, const Op &reader) {
    if (reason_ || !dependent_.count(&value) || !segment_.defines(value))
      return; // no reduction result below: read by coordinates from memory
    if (!visited_.insert({&value, coords}).second)
      return;
    const Op &op = *value.definingOp();
    if (isReduction(op))
      return checkRead(op, coords, reader);
    const std::vector<Extent> &shape = value.shape();
    // An expand broadcasts as an elementwise op's operands do.
    if (isElementwise(op) || op.info().shapeRule == ShapeRule::Expand) {
      for (const Value *operand : op.operands()) {
        if (operand->isLiteral() || operand->isScalarInput())
          continue;
        const std::vector<Extent> &s = operand->shape();
        Coords c;
        for (size_t k = 0; k < s.size(); ++k)
          c.push_back(s[k].isConstant(1) ? kConstant : coords[shape.size() - s.size() + k]);
        trace(*operand, c, op);
      }
      return;
    }
    if (op.info().shapeRule == ShapeRule::BroadcastInDim) {
      const std::vector<int64_t> &dims = op.attrs().axes("broadcast_dims");
      const Value &x = *op.operand(0);
      Coords c;
      for (size_t k = 0; k < x.rank(); ++k)
        c.push_back(x.shape()[k].isConstant(1) ? kConstant : coords[static_cast<size_t>(dims[k])]);
      return trace(x, c, op);
    }
    if (op.info().shapeRule == ShapeRule::Unsqueeze) {
      Coords c = coords;
      c.erase(c.begin() + normalized(op.attrs().integer("dim"), shape.size()));
      return trace(*op.operand(0), c, op);
    }
    if (op.info().shapeRule == ShapeRule::Squeeze) {
      const size_t rank = op.operand(0)->rank();
      std::set<size_t> squeezed;
      for (int64_t d : op.attrs().axes("dims"))
        squeezed.insert(normalized(d, rank));
      Coords c;
      for (size_t d = 0, k = 0; d < rank; ++d)
        c.push_back(squeezed.count(d) ? kConstant : coords[k++]);
      return trace(*op.operand(0), c, op);
    }
    reason_ = a_.describe(op) + " re-indexes a value computed from a reduction result; a kernel "
                                "that keeps reduction results per row reads them only through "
                                "elementwise ops, broadcasts, squeeze and unsqueeze";
  }

  static size_t normalized(int64_t dim, size_t rank) {
    return static_cast<size_t>(dim < 0 ? dim + static_cast<int64_t>(rank) : dim);
  }

  // A reduction result read at `coords`: it must be at the row's own.
  void checkRead(const Op &reduction, const Coords &coords, const Op &reader) {
    const Value &result = *reduction.result();
    const Coords own = over(result.shape(), /*reduced=*/true);
    for (size_t k = 0; k < own.size(); ++k) {
      if (own[k] == kConstant || coords[k] == own[k])
        continue;
      std::string where = coords[k] == kConstant ? "at a single row"
                                                 : "along dim " + std::to_string(coords[k]) +
                                                       " of " + shapeString(rows_.domain);
      const bool reducedDim =
          coords[k] != kConstant &&
          std::find(rows_.axes.begin(), rows_.axes.end(), int64_t(coords[k])) != rows_.axes.end();
      reason_ = a_.describe(reader) + " reads " + a_.quoted(result) + " " + typeString(result) +
                " with its dim " + std::to_string(k) + " " + where +
                (reducedDim ? ", which " + a_.quoted(result) + " reduces" : "") +
                " (broadcasting is right-aligned); a kernel that keeps reduction results per "
                "row uses one only at its own row, broadcast back over the reduced axes " +
                axesString(rows_.axes) + " (keepdim=true, or unsqueeze)";
      return;
    }
  }

  const Segment &segment_;
  const ReductionRows &rows_;
  const FusionAnalysis &a_;
  std::unordered_set<const Value *> dependent_;
  std::set<std::pair<const Value *, Coords>> visited_;
  std::optional<std::string> reason_;
};

} // namespace

std::optional<std::string> checkReductionResultReads(const Segment &segment,
                                                     const ReductionRows &rows) {
  return ReadTracer(segment, rows).run();
}

} // namespace fuserc
