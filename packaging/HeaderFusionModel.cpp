// The header's model of one fusion (see HeaderParts.h): which input binds
// each symbolic extent, and the checks that make the generated C valid —
// every extent the header evaluates has its symbols bound by an input, names
// cannot clash — plus the small C-spelling helpers the emitters share.
#include "packaging/HeaderParts.h"
#include "packaging/HeaderWriter.h"

#include "ir/ExtentCode.h"

#include <set>

namespace fuserc::header {

namespace {

// The symbols an extent needs, without the `x.strideK` ones (bound with x).
std::vector<std::string> shapeSymbols(const Extent &extent) {
  std::vector<std::string> out;
  for (const std::string &s : extent.symbols())
    if (s.find('.') == std::string::npos)
      out.push_back(s);
  return out;
}

// The symbols of `extent` no entry of `bound` binds.
std::vector<std::string> unboundSymbols(const Extent &extent,
                                        const std::map<std::string, SymbolSource> &bound) {
  std::vector<std::string> out;
  for (const std::string &s : shapeSymbols(extent))
    if (!bound.count(s))
      out.push_back(s);
  return out;
}

// How dim `d` of `input` binds a symbol: where its extent is `a*S + rest`
// for one unbound symbol S and `rest` of bound symbols only.
std::optional<SymbolSource> solvedSource(const Value &input, size_t d,
                                         const std::map<std::string, SymbolSource> &bound) {
  const std::vector<std::string> unbound = unboundSymbols(input.shape()[d], bound);
  if (unbound.size() != 1)
    return std::nullopt;
  const auto linear = input.shape()[d].linearIn(unbound.front());
  if (!linear)
    return std::nullopt;
  return SymbolSource{input.name(), d, linear->first, linear->second};
}

} // namespace

std::vector<std::pair<std::string, SymbolSource>> symbolBindings(const Fusion &fusion) {
  std::vector<std::pair<std::string, SymbolSource>> order;
  std::map<std::string, SymbolSource> bound;
  auto bind = [&](const std::string &symbol, const SymbolSource &source) {
    bound[symbol] = source;
    order.emplace_back(symbol, source);
  };
  std::vector<const Value *> tensors;
  for (const Value *v : fusion.inputs())
    if (!v->isScalarInput())
      tensors.push_back(v);
  for (const Value *v : tensors)
    for (size_t d = 0; d < v->rank(); ++d)
      if (auto symbol = v->shape()[d].symbolName(); symbol && !bound.count(*symbol))
        bind(*symbol, SymbolSource{v->name(), d, 1, std::nullopt});
  // Symbols only extent expressions name (`32*G`): solved from the first
  // dim, in argument order, linear in that one unbound symbol, repeated
  // while that binds more.
  for (bool progress = true; progress;) {
    progress = false;
    for (const Value *v : tensors)
      for (size_t d = 0; d < v->rank() && !progress; ++d)
        if (std::optional<SymbolSource> source = solvedSource(*v, d, bound)) {
          bind(unboundSymbols(v->shape()[d], bound).front(), *source);
          progress = true;
        }
  }
  return order;
}

FusionModelResult buildFusionModel(const std::string &prefix, const Fusion &fusion,
                                   const FusionCode *code) {
  FusionModelResult result;
  FusionModel &m = result.model;
  m.prefix = prefix;
  m.fusionPrefix = fusionSymbolPrefix(prefix, fusion.name());
  m.fusion = &fusion;
  m.code = code;
  auto fail = [&](const std::string &message) {
    result.error = "fusion '" + fusion.name() + "': " + message;
    return result;
  };

  std::set<std::string> names;
  for (const Value *v : fusion.inputs()) {
    if (!isCIdentifier(v->name()))
      return fail("input '" + v->name() + "' is not a C identifier");
    if (!names.insert(v->name()).second)
      return fail("input '" + v->name() + "' is declared twice");
    if (!v->isScalarInput())
      m.tensorInputs.push_back(v);
  }
  for (const auto &[symbol, source] : symbolBindings(fusion)) {
    m.symbols[symbol] = source;
    if (source.rest)
      m.solvedSymbols.push_back(symbol);
  }

  std::set<std::string> outputNames;
  bool anyWritten = false;
  for (const FusionOutput &out : fusion.outputs()) {
    if (!isCIdentifier(out.name))
      return fail("output '" + out.name + "' is not a C identifier");
    if (!outputNames.insert(out.name).second)
      return fail("output '" + out.name + "' is declared twice");
    anyWritten = anyWritten || out.kind != OutputKind::View;
    if (out.kind == OutputKind::View && (!out.view || !out.view->base))
      return fail("output '" + out.name + "' is a view without a base");
    if (out.kind == OutputKind::InPlace && !out.aliases)
      return fail("output '" + out.name + "' is in place but aliases no input");
    if (out.kind == OutputKind::View && out.view->base->dtype() != out.value->dtype())
      return fail("output '" + out.name + "' is a view of another dtype");
  }
  if (code && !code->unsupported.empty())
    return fail("no code could be generated: " + code->unsupported);
  if (anyWritten && (!code || code->kernels.empty()))
    return fail("no kernels were generated for it");

  // Every extent the header evaluates must be computable from the inputs.
  auto checkBound = [&](const Extent &e, const std::string &what) -> bool {
    for (const std::string &s : shapeSymbols(e))
      if (!m.symbols.count(s)) {
        result.error = "fusion '" + fusion.name() + "': " + what + " uses symbol " + s +
                       ", which no input's shape binds";
        return false;
      }
    return true;
  };
  for (const Value *v : m.tensorInputs)
    for (const Extent &e : v->shape())
      if (!checkBound(e, "input '" + v->name() + "'"))
        return result;
  for (const FusionOutput &out : fusion.outputs()) {
    for (const Extent &e : out.value->shape())
      if (!checkBound(e, "output '" + out.name + "'"))
        return result;
    if (out.view) {
      if (!checkBound(out.view->offset, "view '" + out.name + "'"))
        return result;
      for (const Extent &e : out.view->strides)
        if (!checkBound(e, "view '" + out.name + "'"))
          return result;
    }
  }
  if (code && !checkBound(code->workspaceBytes, "the workspace size"))
    return result;
  return result;
}

std::vector<std::string> fusionIdentifiers(const FusionModel &m) {
  std::string f = m.fusion->name();
  std::vector<std::string> ids = {
      f + "_NUM_INPUTS",     f + "_NUM_OUTPUTS",    f + "_describe_outputs", f + "_workspace_size",
      f + "_launch",         f + "_bound",          f + "_expected",         f + "_bind_inputs",
      f + "_expect_outputs", f + "_workspace_bytes"};
  for (size_t o = 0; o < m.fusion->outputs().size(); ++o)
    ids.push_back(f + "_OUTPUT_" + std::to_string(o) + "_RANK");
  return ids;
}

namespace {

std::string boundSymbol(const std::string &symbol, std::string_view bound) {
  size_t dot = symbol.find(".stride");
  if (dot == std::string::npos)
    return std::string(bound) + "sym_" + symbol;
  return std::string(bound) + "stride_" + symbol.substr(0, dot) + "[" + symbol.substr(dot + 7) +
         "]";
}

} // namespace

std::string boundExtent(const Extent &extent, std::string_view bound) {
  return extentToCode(extent, [&](const std::string &s) { return boundSymbol(s, bound); });
}

std::string checkedBoundExtent(const Extent &extent, std::string_view bound) {
  return extentToCheckedCode(extent, [&](const std::string &s) { return boundSymbol(s, bound); });
}

std::string dlpackCode(DType dtype, const std::string &prefix) {
  switch (dtype) {
  case DType::Bool:
    return prefix + "_DL_BOOL";
  case DType::I32:
  case DType::I64:
    return "kDLInt";
  case DType::F16:
  case DType::F32:
  case DType::F64:
    return "kDLFloat";
  case DType::BF16:
    return "kDLBfloat";
  }
  return "kDLFloat";
}

std::string cScalarType(DType dtype) {
  switch (dtype) {
  case DType::Bool:
  case DType::I32:
    return "int32_t";
  case DType::I64:
    return "int64_t";
  case DType::F16:
  case DType::BF16:
  case DType::F32:
    return "float";
  case DType::F64:
    return "double";
  }
  return "float";
}

std::string layoutText(const Layout &layout) {
  std::string out = "(";
  for (size_t i = 0; i < layout.size(); ++i)
    out += (i ? ", " : "") + std::to_string(layout[i]);
  return out + ")";
}

Layout outputLayout(const FusionOutput &output) {
  if (isPermutation(output.layout, output.value->rank()))
    return output.layout;
  return rowMajorLayout(output.value->rank());
}

Layout inputLayout(const Value &input) {
  if (isPermutation(input.layout(), input.rank()))
    return input.layout();
  return rowMajorLayout(input.rank());
}

std::string wrapCall(const std::string &head, const std::vector<std::string> &args,
                     const std::string &tail, size_t indent) {
  std::string out = std::string(indent, ' ') + head + "(";
  size_t align = indent + head.size() + 1;
  size_t column = out.size();
  for (size_t i = 0; i < args.size(); ++i) {
    std::string piece = args[i] + (i + 1 < args.size() ? "," : ")" + tail);
    if (i > 0 && column + 1 + piece.size() > 100) {
      out += "\n" + std::string(align, ' ');
      column = align;
    } else if (i > 0) {
      out += " ";
      ++column;
    }
    out += piece;
    column += piece.size();
  }
  if (args.empty())
    out += ")" + tail;
  return out;
}

} // namespace fuserc::header
