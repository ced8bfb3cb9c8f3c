// The validation section of one fusion in the generated header (see
// HeaderParts.h): NAME_F_bind_inputs checks the tensor inputs and binds the
// device, the symbolic extents and every input's strides; NAME_F_expect_outputs
// computes what each output must look like (the describe_outputs answer);
// NAME_F_workspace_bytes evaluates the workspace size.
#include "packaging/HeaderParts.h"
#include "schedulers/OpFamilies.h"

#include <algorithm>

#include <set>
#include <utility>

namespace fuserc::header {
namespace {

std::string arraySize(size_t rank) { return std::to_string(rank == 0 ? 1 : rank); }

// `(void)x;` for every parameter `body` does not mention, so that no fusion
// trips -Wunused-parameter.
std::string voidUnused(const std::vector<std::string> &params, const std::string &body) {
  std::string out;
  for (const std::string &p : params)
    if (!mentions(body, p))
      out += "  (void)" + p + ";\n";
  return out;
}

// Per dim, the element stride of an output's expected layout.
std::string expectedStrides(const FusionOutput &out, const std::string &P) {
  const std::string &o = out.name;
  size_t rank = out.value->rank();
  std::string code;
  switch (out.kind) {
  case OutputKind::NewBuffer: {
    Layout layout = outputLayout(out);
    if (rank == 0)
      return code;
    std::string prev = std::to_string(layout[rank - 1]);
    code += "  e->strides_" + o + "[" + prev + "] = 1;\n";
    for (size_t k = rank - 1; k-- > 0;) {
      std::string d = std::to_string(layout[k]);
      code += "  e->strides_" + o + "[" + d + "] = e->strides_" + o + "[" + prev + "] * e->shape_" +
              o + "[" + prev + "];\n";
      prev = d;
    }
    return code;
  }
  case OutputKind::View: {
    const ViewInfo &view = *out.view;
    const std::string &base = view.base->name();
    for (size_t d = 0; d < rank; ++d)
      code += "  e->strides_" + o + "[" + std::to_string(d) +
              "] = " + checkedBoundExtent(view.strides[d], "b->") + ";\n";
    code += "  e->data_" + o + " = in_" + base + "->data;\n";
    code += "  " + P + "_TRY(" + P + "_check_view(\"" + o + "\", e->strides_" + o + ", " +
            std::to_string(rank) + ", in_" + base + "->byte_offset, " +
            checkedBoundExtent(view.offset, "b->") + ", " +
            std::to_string(dtypeBytes(view.base->dtype())) + ", &e->byte_offset_" + o + "));\n";
    code += "  e->device_" + o + " = in_" + base + "->device;\n";
    return code;
  }
  case OutputKind::InPlace: {
    const std::string &base = out.aliases->name();
    for (size_t d = 0; d < rank; ++d)
      code += "  e->strides_" + o + "[" + std::to_string(d) + "] = b->stride_" + base + "[" +
              std::to_string(d) + "];\n";
    code += "  e->data_" + o + " = in_" + base + "->data;\n";
    code += "  e->byte_offset_" + o + " = in_" + base + "->byte_offset;\n";
    code += "  e->device_" + o + " = in_" + base + "->device;\n";
    return code;
  }
  }
  return code;
}

std::string structs(const FusionModel &m) {
  const std::string &p = m.fusionPrefix;
  std::string out =
      "/* What the tensor inputs bind: the device, the symbolic extents, the strides. */\n"
      "typedef struct {\n"
      "  int32_t device_id;\n"
      "  const char *device_from; /* the first tensor on the device; NULL before */\n";
  for (const auto &[symbol, source] : m.symbols)
    out += "  int64_t sym_" + symbol + ";\n";
  for (const Value *v : m.tensorInputs)
    if (v->rank() > 0)
      out += "  int64_t stride_" + v->name() + "[" + std::to_string(v->rank()) + "];\n";
  out += "} " + p + "_bound;\n\n";

  out += "/* What each output must look like (describe_outputs' answer). */\ntypedef struct {\n";
  for (const FusionOutput &o : m.fusion->outputs()) {
    std::string size = arraySize(o.value->rank());
    out += "  int64_t shape_" + o.name + "[" + size + "];\n";
    out += "  int64_t strides_" + o.name + "[" + size + "];\n";
    if (o.kind != OutputKind::NewBuffer) {
      out += "  void *data_" + o.name + ";\n";
      out += "  uint64_t byte_offset_" + o.name + ";\n";
      out += "  DLDevice device_" + o.name + ";\n";
    }
  }
  out += "} " + p + "_expected;\n";
  return out;
}

// The sizes of the values the fusion computes on the way, whose extents
// come from the inputs' and may overflow where every input's and output's
// fit (x[N, 1] + y[1, M], summed): each distinct symbolic size once.
std::string intermediateSizes(const FusionModel &m) {
  const std::string &P = m.prefix;
  std::set<const Value *> ends;
  for (const Value *v : m.fusion->inputs())
    ends.insert(v);
  for (const FusionOutput &o : m.fusion->outputs())
    ends.insert(o.value);
  std::set<std::pair<std::string, size_t>> seen;
  std::string code;
  for (const auto &op : m.fusion->ops()) {
    const Value *v = op->result();
    if (!v || ends.count(v) || v->rank() == 0)
      continue;
    Extent count = numElements(v->shape());
    size_t bytes = dtypeBytes(v->dtype());
    if (count.constant() || !seen.insert({count.str(), bytes}).second)
      continue;
    code += "  " + P + "_TRY(" + P + "_check_count(\"" + v->name() + "\", \"" + count.str() +
            "\", " + checkedBoundExtent(count, "b->") + ", " + std::to_string(bytes) + "));\n";
  }
  return code;
}

// Every exact division in the fusion's extents (`C / 32`, a reshape's -1
// of [N, C] as [N, 32, -1]) must leave no remainder at this binding:
// checked once the symbols are bound, before any extent uses the quotient.
std::string exactDivisionChecks(const FusionModel &m) {
  const std::string &P = m.prefix;
  std::string code;
  for (const auto &[a, b] : exactDivisions(*m.fusion))
    code += "  " + P + "_TRY(" + P + "_check_exact_division(" + checkedBoundExtent(a, "b->") +
            ", " + checkedBoundExtent(b, "b->") + ", \"" + a.str() + "\", \"" + b.str() + "\"));\n";
  return code;
}

// A slice whose bounds depend on symbols stays inside its operand only at
// some bindings (a static end of 2 on a dim of extent N): checked once the
// symbols are bound, before any view or kernel reads through it.
std::string sliceChecks(const FusionModel &m) {
  const std::string &P = m.prefix;
  std::string code;
  for (const std::unique_ptr<Op> &op : m.fusion->ops()) {
    if (op->info().shapeRule != ShapeRule::Slice)
      continue;
    const size_t dim = static_cast<size_t>(op->attrs().integer("dim"));
    const Extent &start = op->attrs().extent("start"), &count = op->result()->shape()[dim],
                 &extent = op->operand(0)->shape()[dim];
    if (start.constant() && count.constant() && extent.constant())
      continue; // inference clamped and checked it
    // Checked arithmetic: an overflow (FUSERC_OVERFLOW, negative) fails.
    const std::string S = checkedBoundExtent(start, "b->"), C = checkedBoundExtent(count, "b->"),
                      E = checkedBoundExtent(extent, "b->"),
                      step = std::to_string(op->attrs().integer("step"));
    const std::string last = "fuserc_cadd(" + S + ", fuserc_cmul(" + C + " - 1, " + step + "LL))";
    code += "  if (" + C + " < 0 || (" + C + " > 0 && (" + S + " < 0 || " + last +
            " == FUSERC_OVERFLOW || " + last + " >= " + E + ")))\n";
    code += "    return " + P + "_fail(" + P + "_ERROR_INVALID_ARGUMENT, \"'" +
            op->result()->name() + "' (slice): %lld elements from %lld by step " + step +
            " do not fit dim " + std::to_string(dim) + " of " + op->operand(0)->name() +
            ", of extent %lld (" + extent.str() + ")\", (long long)" + C + ", (long long)" + S +
            ", (long long)" + E + ");\n";
  }
  return code;
}

// A max or min over no elements has no value (an error, as in torch.amax
// and the reference interpreter): refused where its reduced dims hold no
// element and its result holds some.
std::string emptyExtremeChecks(const FusionModel &m) {
  const std::string &P = m.prefix;
  std::string code;
  for (const std::unique_ptr<Op> &op : m.fusion->ops()) {
    // Unnamed ones come from composites (softmax, log_softmax, logsumexp),
    // where a max of no elements is -inf, their identity, and right.
    if ((op->kind() != OpKind::Max && op->kind() != OpKind::Min) || op->result()->name().empty())
      continue;
    const std::vector<Extent> &in = op->operand(0)->shape();
    std::vector<Extent> reducedDims;
    std::string dims;
    for (int64_t axis : op->attrs().axes("axes")) {
      const size_t d =
          static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(in.size()) : axis);
      reducedDims.push_back(in.at(d));
      dims += (dims.empty() ? "" : ", ") + std::to_string(d);
    }
    const Extent reduced = numElements(reducedDims), count = numElements(op->result()->shape());
    if ((reduced.constant() && *reduced.constant() != 0) ||
        (count.constant() && *count.constant() == 0))
      continue;
    const std::string name(op->info().name);
    code += "  if (" + checkedBoundExtent(reduced, "b->") + " == 0 && " +
            checkedBoundExtent(count, "b->") + " != 0)\n";
    code += "    return " + P + "_fail(" + P + "_ERROR_INVALID_ARGUMENT, \"'" +
            op->result()->name() + "' (" + name + "): a " + name +
            " of no elements: " + (reducedDims.size() == 1 ? "dim " : "dims ") + dims + " of " +
            op->operand(0)->name() + " (" + shapeString(in) + ") " +
            (reducedDims.size() == 1 ? "holds" : "hold") + " none\");\n";
  }
  return code;
}

// A scatter's index may not exceed its input in the dims it does not
// index (torch.scatter's rule; no kernel writes outside the input), and a
// two-pass scatter numbers a line's positions in 32 bits (its claims).
std::string scatterChecks(const FusionModel &m) {
  const std::string &P = m.prefix;
  std::string code;
  for (const std::unique_ptr<Op> &op : m.fusion->ops()) {
    if (op->info().shapeRule != ShapeRule::Scatter)
      continue;
    const size_t dim = static_cast<size_t>(op->attrs().integer("dim"));
    const Value &x = *op->operand(0), &index = *op->operand(1);
    const std::string &name = op->result()->name();
    const std::string what = name.empty() ? "a scatter: " : "'" + name + "' (scatter): ";
    for (size_t d = 0; d < x.rank(); ++d) {
      if (d == dim || index.shape()[d] == x.shape()[d])
        continue;
      const std::string I = checkedBoundExtent(index.shape()[d], "b->"),
                        X = checkedBoundExtent(x.shape()[d], "b->");
      code += "  if (" + I + " > " + X + ")\n";
      code += "    return " + P + "_fail(" + P + "_ERROR_INVALID_ARGUMENT, \"" + what +
              "the index's dim " + std::to_string(d) + " (%lld) exceeds the input's (%lld)\", " +
              "(long long)" + I + ", (long long)" + X + ");\n";
    }
    if (isTwoPassScatter(*op) && !index.shape()[dim].constant()) {
      const std::string K = checkedBoundExtent(index.shape()[dim], "b->");
      code += "  if (" + K + " >= 4294967295LL)\n";
      code += "    return " + P + "_fail(" + P + "_ERROR_INVALID_ARGUMENT, \"" + what +
              "%lld index positions along dim " + std::to_string(dim) +
              ", more than the 4294967294 a scatter kernel numbers\", (long long)" + K + ");\n";
    }
  }
  return code;
}

std::string bindInputs(const FusionModel &m) {
  const std::string &P = m.prefix;
  std::vector<std::string> params;
  for (const Value *v : m.tensorInputs)
    params.push_back("const DLTensor *in_" + v->name());
  params.push_back(m.fusionPrefix + "_bound *b");

  std::string layouts, body;
  body += "  b->device_id = 0;\n  b->device_from = NULL;\n";
  for (const Value *v : m.tensorInputs)
    body += "  " + P + "_TRY(" + P + "_check_tensor(\"" + v->name() + "\", in_" + v->name() + ", " +
            std::to_string(v->rank()) + ", " + dlpackCode(v->dtype(), P) + ", " +
            std::to_string(dtypeBytes(v->dtype()) * 8) + ", &b->device_id, &b->device_from));\n";

  // Extents in argument order: a symbol's first occurrence binds it.
  std::string deferred;
  for (const Value *v : m.tensorInputs) {
    const std::string &x = v->name();
    for (size_t d = 0; d < v->rank(); ++d) {
      const Extent &e = v->shape()[d];
      std::string dim = std::to_string(d);
      auto check = [&](const std::string &expected, const std::string &what,
                       const std::string &from) {
        return "  " + P + "_TRY(" + P + "_check_extent(\"" + x + "\", in_" + x + ", " + dim + ", " +
               expected + ", \"" + what + "\", \"" + from + "\"));\n";
      };
      if (auto c = e.constant()) {
        body += check(std::to_string(*c), "the declared extent", "");
      } else if (auto s = e.symbolName()) {
        const SymbolSource &source = m.symbols.at(*s);
        if (source.input == x && source.dim == d)
          body += "  b->sym_" + *s + " = in_" + x + "->shape[" + dim + "];\n";
        else
          body += check("b->sym_" + *s, "symbol " + *s, " (from " + source.input + ")");
      } else {
        deferred += check(checkedBoundExtent(e, "b->"), e.str(), "");
      }
    }
  }
  // Symbols only expressions name, solved in the order they bind
  // (`32*G`: G = extent / 32, a whole number), before the checks that use them.
  for (const std::string &s : m.solvedSymbols) {
    const SymbolSource &source = m.symbols.at(s);
    const std::string &x = source.input;
    const Value *input = *std::find_if(m.tensorInputs.begin(), m.tensorInputs.end(),
                                       [&](const Value *v) { return v->name() == x; });
    body += "  " + P + "_TRY(" + P + "_solve_extent(\"" + x + "\", in_" + x + ", " +
            std::to_string(source.dim) + ", " + std::to_string(source.coefficient) + "LL, " +
            checkedBoundExtent(*source.rest, "b->") + ", \"" + s + "\", \"" +
            input->shape()[source.dim].str() + "\", &b->sym_" + s + "));\n";
  }
  body += exactDivisionChecks(m);
  body += deferred;
  body += sliceChecks(m);
  body += emptyExtremeChecks(m);
  body += scatterChecks(m);

  for (const Value *v : m.tensorInputs) {
    if (v->rank() == 0)
      continue;
    const std::string &x = v->name();
    body += "  " + P + "_strides(in_" + x + ", b->stride_" + x + ");\n";
    if (v->isStrided()) {
      body += "  " + P + "_TRY(" + P + "_check_span(\"" + x + "\", in_" + x + ", b->stride_" + x +
              ", " + std::to_string(dtypeBytes(v->dtype())) + ")); /* strided: any strides */\n";
      continue;
    }
    Layout layout = inputLayout(*v);
    std::string list;
    for (size_t k = 0; k < layout.size(); ++k)
      list += (k ? ", " : "") + std::to_string(layout[k]);
    layouts += "  static const int layout_" + x + "[" + std::to_string(v->rank()) + "] = {" + list +
               "};\n";
    body += "  " + P + "_TRY(" + P + "_check_dense(\"" + x + "\", in_" + x + ", b->stride_" + x +
            ", layout_" + x + ", \"" + layoutText(layout) + "\"));\n";
  }
  body += intermediateSizes(m);
  body += "  return " + P + "_OK;\n";

  return "/* Checks the tensor inputs (pointer, rank, dtype, device, extents, strides)\n"
         "   and binds the symbols, in argument order; then the size of every value\n"
         "   computed on the way. */\n" +
         wrapCall("static " + P + "_status " + m.fusionPrefix + "_bind_inputs", params, " {") +
         "\n" + layouts + body + "}\n";
}

std::string expectOutputs(const FusionModel &m) {
  const std::string &P = m.prefix;
  std::vector<std::string> params = {"const " + m.fusionPrefix + "_bound *b"};
  std::vector<std::string> names = {"b", "e"};
  for (const Value *v : m.tensorInputs) {
    params.push_back("const DLTensor *in_" + v->name());
    names.push_back("in_" + v->name());
  }
  params.push_back(m.fusionPrefix + "_expected *e");

  std::string body;
  for (const FusionOutput &out : m.fusion->outputs()) {
    const std::string &o = out.name;
    std::string what = out.kind == OutputKind::NewBuffer
                           ? "a new buffer, dense in layout " + layoutText(outputLayout(out))
                       : out.kind == OutputKind::View ? "a view of " + out.view->base->name()
                                                      : "in place in " + out.aliases->name();
    body += "  /* " + o + ": " + what + " */\n";
    for (size_t d = 0; d < out.value->rank(); ++d)
      body += "  e->shape_" + o + "[" + std::to_string(d) +
              "] = " + checkedBoundExtent(out.value->shape()[d], "b->") + ";\n";
    // Checked before the strides, which multiply the extents.
    if (out.value->rank() > 0)
      body += "  " + P + "_TRY(" + P + "_check_output_extents(\"" + o + "\", e->shape_" + o + ", " +
              std::to_string(out.value->rank()) + ", " +
              std::to_string(dtypeBytes(out.value->dtype())) + "));\n";
    body += expectedStrides(out, P);
  }
  body += "  return " + P + "_OK;\n";
  return "/* The shape and strides of every output, and where views and in-place\n"
         "   outputs start, for these inputs. */\n" +
         wrapCall("static " + P + "_status " + m.fusionPrefix + "_expect_outputs", params, " {") +
         "\n" + voidUnused(names, body) + body + "}\n";
}

std::string workspaceBytes(const FusionModel &m) {
  std::string expr = m.code ? checkedBoundExtent(m.code->workspaceBytes, "b->") : "(0LL)";
  std::string body = "  return " + expr + ";\n";
  std::string text = m.code ? m.code->workspaceBytes.str() : "0";
  return "/* Workspace bytes: " + text +
         " (FUSERC_OVERFLOW when that overflows). */\nstatic int64_t " + m.fusionPrefix +
         "_workspace_bytes(const " + m.fusionPrefix + "_bound *b) {\n" + voidUnused({"b"}, body) +
         body + "}\n";
}

} // namespace

std::string validationFunctions(const FusionModel &m) {
  return structs(m) + "\n" + bindInputs(m) + "\n" + expectOutputs(m) + "\n" + workspaceBytes(m);
}

} // namespace fuserc::header
