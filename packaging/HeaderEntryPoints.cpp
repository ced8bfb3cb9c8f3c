// The public functions of one fusion in the generated header (see
// HeaderParts.h and docs/header.md): their declarations with the size
// macros, and their definitions — describe_outputs, workspace_size, and
// launch, which validates every argument and then runs the kernels' host
// code (schedulers/KernelPlan.h) with the variables that code expects in scope.
#include "packaging/HeaderParts.h"

#include "ir/Printer.h"

namespace fuserc::header {
namespace {

// Every call of every entry point passes its own name first in messages.
std::string setCaller(const FusionModel &m, const std::string &function) {
  return "  " + m.prefix + "_caller = \"" + m.fusionPrefix + "_" + function + "\";\n";
}

std::vector<std::string> tensorInputParams(const FusionModel &m) {
  std::vector<std::string> params;
  for (const Value *v : m.tensorInputs)
    params.push_back("const DLTensor *in_" + v->name());
  return params;
}

std::vector<std::string> outputParams(const FusionModel &m) {
  std::vector<std::string> params;
  for (const FusionOutput &o : m.fusion->outputs())
    params.push_back("DLTensor *out_" + o.name);
  return params;
}

std::vector<std::string> launchParams(const FusionModel &m) {
  std::vector<std::string> params;
  for (const Value *v : m.fusion->inputs())
    params.push_back(v->isScalarInput() ? cScalarType(v->dtype()) + " in_" + v->name()
                                        : "const DLTensor *in_" + v->name());
  for (const std::string &p : outputParams(m))
    params.push_back(p);
  params.insert(params.end(), {"void *workspace", "size_t workspace_bytes", "CUstream stream"});
  return params;
}

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string> &b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The call `NAME_F_bind_inputs(in_x, ..., &bound)`.
std::string bindCall(const FusionModel &m) {
  std::vector<std::string> args;
  for (const Value *v : m.tensorInputs)
    args.push_back("in_" + v->name());
  args.push_back("&bound");
  return wrapCall(m.prefix + "_TRY(" + m.fusionPrefix + "_bind_inputs", args, ");", 2) + "\n";
}

std::string expectCall(const FusionModel &m) {
  std::vector<std::string> args = {"&bound"};
  for (const Value *v : m.tensorInputs)
    args.push_back("in_" + v->name());
  args.push_back("&expected");
  return wrapCall(m.prefix + "_TRY(" + m.fusionPrefix + "_expect_outputs", args, ");", 2) + "\n";
}

std::string outputSummary(const FusionOutput &o) {
  std::string text = o.name + " " + std::string(dtypeName(o.value->dtype())) +
                     shapeString(o.value->shape()) + ": ";
  switch (o.kind) {
  case OutputKind::NewBuffer:
    return text + "new buffer, layout " + layoutText(outputLayout(o));
  case OutputKind::View:
    return text + "view of " + o.view->base->name();
  case OutputKind::InPlace:
    return text + "in place in " + o.aliases->name();
  }
  return text;
}

std::string describeOutputs(const FusionModel &m) {
  const std::string &P = m.prefix;
  std::string body = "  " + m.fusionPrefix + "_bound bound;\n  " + m.fusionPrefix +
                     "_expected expected;\n" + setCaller(m, "describe_outputs") + bindCall(m) +
                     expectCall(m);
  std::string fill;
  for (const FusionOutput &o : m.fusion->outputs()) {
    std::string rank = std::to_string(o.value->rank());
    body += "  " + P + "_TRY(" + P + "_check_describable(\"" + o.name + "\", out_" + o.name + ", " +
            rank + "));\n";
    fill += wrapCall(P + "_describe",
                     {"out_" + o.name, rank, dlpackCode(o.value->dtype(), P),
                      std::to_string(dtypeBytes(o.value->dtype()) * 8), "expected.shape_" + o.name,
                      "expected.strides_" + o.name},
                     ";", 2) +
            "\n";
    if (o.kind != OutputKind::NewBuffer) {
      fill += "  out_" + o.name + "->data = expected.data_" + o.name + ";\n";
      fill += "  out_" + o.name + "->byte_offset = expected.byte_offset_" + o.name + ";\n";
      fill += "  out_" + o.name + "->device = expected.device_" + o.name + ";\n";
    }
  }
  return wrapCall(P + "_status " + m.fusionPrefix + "_describe_outputs",
                  concat(tensorInputParams(m), outputParams(m)), " {") +
         "\n" + body + fill + "  return " + P + "_succeed();\n}\n";
}

std::string workspaceSize(const FusionModel &m) {
  const std::string &P = m.prefix;
  std::string body = "  " + m.fusionPrefix + "_bound bound;\n  int64_t needed;\n" +
                     setCaller(m, "workspace_size") + "  if (!bytes)\n    return " + P + "_fail(" +
                     P + "_ERROR_INVALID_ARGUMENT, \"bytes is NULL\");\n" + bindCall(m) +
                     "  needed = " + m.fusionPrefix + "_workspace_bytes(&bound);\n  " + P +
                     "_TRY(" + P + "_check_workspace_needed(needed));\n" +
                     "  *bytes = (size_t)needed;\n";
  return wrapCall(P + "_status " + m.fusionPrefix + "_workspace_size",
                  concat(tensorInputParams(m), {"size_t *bytes"}), " {") +
         "\n" + body + "  return " + P + "_succeed();\n}\n";
}

// The checks of one output in launch.
std::string checkOutput(const FusionModel &m, const FusionOutput &o) {
  const std::string &P = m.prefix;
  std::string what = o.kind == OutputKind::NewBuffer
                         ? "dense in layout " + layoutText(outputLayout(o))
                     : o.kind == OutputKind::View ? "a view of " + o.view->base->name()
                                                  : "in place in " + o.aliases->name();
  std::string code =
      wrapCall(P + "_TRY(" + P + "_check_tensor",
               {"\"" + o.name + "\"", "out_" + o.name, std::to_string(o.value->rank()),
                dlpackCode(o.value->dtype(), P), std::to_string(dtypeBytes(o.value->dtype()) * 8),
                "&bound.device_id", "&bound.device_from"},
               ");", 2) +
      "\n";
  code += wrapCall(P + "_TRY(" + P + "_check_layout",
                   {"\"" + o.name + "\"", "out_" + o.name, "expected.shape_" + o.name,
                    "expected.strides_" + o.name, "\"" + what + "\""},
                   ");", 2) +
          "\n";
  if (o.kind != OutputKind::NewBuffer)
    code += wrapCall(P + "_TRY(" + P + "_check_address",
                     {"\"" + o.name + "\"", "out_" + o.name, "expected.data_" + o.name,
                      "expected.byte_offset_" + o.name,
                      "\"" +
                          (o.kind == OutputKind::View ? "the view of " + o.view->base->name()
                                                      : o.aliases->name()) +
                          "\""},
                     ");", 2) +
            "\n";
  if (o.kind != OutputKind::View)
    return code;
  // Nothing writes a view: it may be left out.
  std::string indented;
  size_t start = 0;
  while (start < code.size()) {
    size_t end = code.find('\n', start);
    indented += "  " + code.substr(start, end + 1 - start);
    start = end + 1;
  }
  return "  if (out_" + o.name + ") { /* a view: NULL is fine, nothing writes it */\n" + indented +
         "  }\n";
}

// `(void)name;` for each name `code` does not use, wrapped at 100 columns.
std::string voidUnused(const std::vector<std::string> &names, const std::string &code,
                       size_t indent) {
  std::string out, line;
  for (const std::string &n : names) {
    if (mentions(code, n))
      continue;
    std::string piece = "(void)" + n + ";";
    if (!line.empty() && indent + line.size() + 1 + piece.size() > 100) {
      out += std::string(indent, ' ') + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + piece;
  }
  return line.empty() ? out : out + std::string(indent, ' ') + line + "\n";
}

// The block after validation: the variables of the host code contract
// (schedulers/KernelPlan.h), then each kernel's host launch code in order.
std::string hostBlock(const FusionModel &m) {
  const std::string &P = m.prefix;
  std::string hostCode;
  if (m.code)
    for (const KernelPlan &k : m.code->kernels)
      hostCode += "\n    /* kernel " + k.name + ": segment " + std::to_string(k.segment) + ", " +
                  k.scheduler + " */\n    {\n" + pasted(k.hostLaunch, P, 6) + "    }\n";

  std::vector<std::string> names;
  std::string scope = "    /* What the kernels' host code reads (codegen/KernelPlan.h). */\n";
  auto declare = [&](const std::string &type, const std::string &name, const std::string &value) {
    scope += "    " + type + (type.back() == '*' ? "" : " ") + name + " = " + value + ";\n";
    names.push_back(name);
  };
  for (const auto &[symbol, source] : m.symbols)
    declare("int64_t", "sym_" + symbol, "bound.sym_" + symbol);
  for (const Value *v : m.tensorInputs)
    for (size_t d = 0; d < v->rank(); ++d)
      declare("int64_t", "stride_" + v->name() + "_" + std::to_string(d),
              "bound.stride_" + v->name() + "[" + std::to_string(d) + "]");
  const auto &outputs = m.fusion->outputs();
  for (size_t i = 0; i < outputs.size(); ++i)
    for (size_t d = 0; d < outputs[i].value->rank(); ++d)
      declare("int64_t", "ostride_" + outputs[i].name + "_" + std::to_string(d),
              "expected.strides_" + outputs[i].name + "[" + std::to_string(d) + "]");
  declare("char *", "ws", "workspace_needed > 0 ? (char *)workspace : NULL");
  declare(P + "_status", "st", P + "_OK");
  names.push_back("stream");
  for (const Value *v : m.fusion->inputs())
    if (v->isScalarInput())
      names.push_back("in_" + v->name());
  return "  {\n" + scope + voidUnused(names, hostCode, 4) + hostCode + "  }\n";
}

// The checks that ask the driver, after every other check passed (see
// check_context in runtime/argument_checks.c): the current context's
// device, the stream's context, then the memory of each tensor and of the
// workspace.
std::string memoryChecks(const FusionModel &m) {
  const std::string &P = m.prefix;
  std::string code;
  auto check = [&](const std::string &name, const std::string &tensor) {
    code += "  " + P + "_TRY(" + P + "_check_tensor_memory(\"" + name + "\", " + tensor +
            ", bound.device_id));\n";
  };
  for (const Value *v : m.tensorInputs)
    check(v->name(), "in_" + v->name());
  for (const FusionOutput &o : m.fusion->outputs())
    check(o.name, "out_" + o.name);
  if (code.empty())
    return "";
  return "  if (bound.device_from) {\n    " + P + "_TRY(" + P +
         "_check_context(bound.device_id, bound.device_from));\n    " + P + "_TRY(" + P +
         "_check_stream(stream, bound.device_id, bound.device_from));\n  }\n" + code +
         "  if (workspace_needed > 0)\n    " + P + "_TRY(" + P +
         "_check_memory(\"workspace\", workspace, bound.device_id));\n";
}

bool checksIndices(const FusionModel &m) { return m.code && !m.code->indexChecks.empty(); }

// A C string literal of `text`.
std::string cStringLiteral(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) < 0x20)
      continue;
    out += c;
  }
  return out + "\"";
}

std::string launch(const FusionModel &m) {
  const std::string &P = m.prefix;
  std::string body = "  " + m.fusionPrefix + "_bound bound;\n  " + m.fusionPrefix +
                     "_expected expected;\n  int64_t workspace_needed;\n" + setCaller(m, "launch") +
                     bindCall(m) + expectCall(m);
  for (const FusionOutput &o : m.fusion->outputs())
    body += checkOutput(m, o);
  body += "  workspace_needed = " + m.fusionPrefix + "_workspace_bytes(&bound);\n";
  body +=
      "  " + P + "_TRY(" + P + "_check_workspace(workspace_needed, workspace, workspace_bytes));\n";
  body += memoryChecks(m);
  if (!checksIndices(m))
    return wrapCall(P + "_status " + m.fusionPrefix + "_launch", launchParams(m), " {") + "\n" +
           body + hostBlock(m) + "  return " + P + "_succeed();\n}\n";
  // The index flag around the kernels (codegen/core/IndexChecks.h).
  body += "  " + P + "_TRY(" + P + "_index_flag_clear(workspace, stream));\n";
  std::string report =
      "  " + P + "_TRY(" + P + "_index_flag_read(workspace, stream, &index_error));\n";
  report += "  switch (index_error) {\n  case 0:\n    break;\n";
  for (const IndexCheck &c : m.code->indexChecks)
    report += "  case " + std::to_string(c.code) + ":\n    return " + P + "_fail(" + P +
              "_ERROR_INDEX_OUT_OF_RANGE, \"%s\", " + cStringLiteral(c.what) + ");\n";
  report +=
      "  default:\n    return " + P + "_fail(" + P +
      "_ERROR_INDEX_OUT_OF_RANGE, \"an index is out of range (flag %d)\", index_error);\n  }\n";
  return wrapCall(P + "_status " + m.fusionPrefix + "_launch", launchParams(m), " {") + "\n" +
         "  int index_error = 0;\n" + body + hostBlock(m) + report + "  return " + P +
         "_succeed();\n}\n";
}

} // namespace

std::string pasted(const std::string &text, const std::string &prefix, size_t indent) {
  std::string code;
  std::string named = substitutePrefix(text, prefix);
  size_t start = 0;
  while (start < named.size()) {
    size_t end = named.find('\n', start);
    std::string line = named.substr(start, end == std::string::npos ? end : end - start);
    code += line.empty() ? "\n" : std::string(indent, ' ') + line + "\n";
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  return code;
}

std::string entryPointDeclarations(const FusionModel &m) {
  const std::string &P = m.prefix;
  const Fusion &f = *m.fusion;
  std::string out = "/* ---- fusion " + f.name() + " ----\n   inputs:\n";
  for (const Value *v : f.inputs()) {
    out += "     " + v->name() + " " + typeString(*v);
    if (v->isScalarInput())
      out += " (scalar, passed as " + cScalarType(v->dtype()) + ")";
    else
      out += v->isStrided() ? ", any strides" : ", layout " + layoutText(inputLayout(*v));
    out += "\n";
  }
  out += "   outputs:\n";
  for (const FusionOutput &o : f.outputs())
    out += "     " + outputSummary(o) + "\n";
  out += "*/\n";
  out += "#define " + m.fusionPrefix + "_NUM_INPUTS " + std::to_string(f.inputs().size()) + "\n";
  out += "#define " + m.fusionPrefix + "_NUM_OUTPUTS " + std::to_string(f.outputs().size()) + "\n";
  for (size_t o = 0; o < f.outputs().size(); ++o)
    out += "#define " + m.fusionPrefix + "_OUTPUT_" + std::to_string(o) + "_RANK " +
           std::to_string(f.outputs()[o].value->rank()) + " /* " + f.outputs()[o].name + " */\n";
  out += "\n";
  out += wrapCall(P + "_status " + m.fusionPrefix + "_describe_outputs",
                  concat(tensorInputParams(m), outputParams(m)), ";") +
         "\n";
  out += wrapCall(P + "_status " + m.fusionPrefix + "_workspace_size",
                  concat(tensorInputParams(m), {"size_t *bytes"}), ";") +
         "\n";
  if (checksIndices(m))
    out += "/* Out-of-range indices return " + P +
           "_ERROR_INDEX_OUT_OF_RANGE: launch reads the\n   kernels' index flag back, so it "
           "returns when they are done (it synchronizes `stream`).\n   While `stream` is "
           "captured into a CUDA graph, the flag is neither zeroed nor read. */\n";
  out += wrapCall(P + "_status " + m.fusionPrefix + "_launch", launchParams(m), ";") + "\n";
  return out;
}

std::string entryPointDefinitions(const FusionModel &m) {
  return describeOutputs(m) + "\n" + workspaceSize(m) + "\n" + launch(m);
}

} // namespace fuserc::header
