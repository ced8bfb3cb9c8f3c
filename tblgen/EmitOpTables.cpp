// Backend: ops.td -> OpTables.inc (see Emitters.h).
//
// Sections, each guarded by a macro the includer defines:
//   GET_OP_KINDS          FUSERC_OP(Enum, "name") per op
//   FUSERC_SHAPE_RULE, FUSERC_DTYPE_RULE, FUSERC_ATTR_KIND,
//   FUSERC_OPERAND_KIND   one macro call per rule or kind def
//   GET_OP_INFO           the constexpr OpInfo table, indexed by OpKind
//   GET_CPU_ELEMENTWISE   per-op scalar functions of the reference interpreter
//   GET_CPU_REDUCTIONS    per-op reductions of the reference interpreter
//   GET_CPU_EVALUATORS    per-op evaluator function table
#include "Emitters.h"
#include "OpRecords.h"

#include "llvm/TableGen/TableGenBackend.h"

namespace fuserc::tblgen {
namespace {

void quoted(llvm::raw_ostream &os, llvm::StringRef s) {
  os << '"';
  os.write_escaped(s);
  os << '"';
}

void emitRuleMacro(llvm::raw_ostream &os, const llvm::RecordKeeper &records,
                   llvm::StringRef className, llvm::StringRef field, llvm::StringRef macro) {
  os << "#ifdef " << macro << "\n";
  for (const NamedRule &r : collectRules(records, className, field)) {
    os << macro << "(" << r.name << ", ";
    quoted(os, r.description);
    os << ")\n";
  }
  os << "#undef " << macro << "\n#endif\n\n";
}

void emitOpInfo(llvm::raw_ostream &os, const std::vector<OpRecord> &ops) {
  os << "#ifdef GET_OP_INFO\n#undef GET_OP_INFO\nnamespace op_tables {\n";
  for (const OpRecord &op : ops) {
    if (!op.operands().empty()) {
      os << "inline constexpr OperandSpec k" << op.enumName() << "Operands[] = {";
      for (const OperandRecord &o : op.operands()) {
        os << "\n    {";
        quoted(os, o.name);
        os << ", OperandKind::" << o.kind << "},";
      }
      os << "};\n";
    }
    for (const AttrRecord &a : op.attrs()) {
      if (a.choices.empty())
        continue;
      os << "inline constexpr std::string_view k" << op.enumName() << "_" << a.name
         << "Choices[] = {";
      for (const std::string &c : a.choices) {
        quoted(os, c);
        os << ", ";
      }
      os << "};\n";
    }
    if (!op.attrs().empty()) {
      os << "inline constexpr AttrSpec k" << op.enumName() << "Attrs[] = {";
      for (const AttrRecord &a : op.attrs()) {
        os << "\n    {";
        quoted(os, a.name);
        os << ", AttrKind::" << a.kind << ", ";
        quoted(os, a.defaultValue);
        os << ", " << (a.required ? "true" : "false") << ", ";
        if (a.choices.empty())
          os << "{}";
        else
          os << "k" << op.enumName() << "_" << a.name << "Choices";
        os << "},";
      }
      os << "};\n";
    }
  }
  os << "} // namespace op_tables\n\n";
  os << "inline constexpr OpInfo kOpInfos[] = {\n";
  for (const OpRecord &op : ops) {
    os << "  {OpKind::" << op.enumName() << ", ";
    quoted(os, op.name());
    os << ",\n   ";
    quoted(os, op.summary());
    os << ",\n   ";
    if (op.operands().empty())
      os << "{}";
    else
      os << "op_tables::k" << op.enumName() << "Operands";
    os << ", ";
    if (op.attrs().empty())
      os << "{}";
    else
      os << "op_tables::k" << op.enumName() << "Attrs";
    os << ", ShapeRule::" << op.shapeRule() << ", DTypeRule::" << op.dtypeRule() << ",\n   ";
    quoted(os, op.cuda());
    os << ", ";
    quoted(os, op.cudaInt());
    os << ",\n   /*hasCpuFloat=*/" << (op.cpu().empty() ? "false" : "true") << ", /*hasCpuInt=*/"
       << (op.cpuInt().empty() ? "false" : "true") << ", /*viewable=*/"
       << (op.viewable() ? "true" : "false") << ", /*composite=*/"
       << (op.composite() ? "true" : "false") << "},\n";
  }
  os << "};\n#endif\n\n";
}

// The scalar functions take all three operands so one signature serves every
// arity; unused ones are silenced.
void emitCpuElementwise(llvm::raw_ostream &os, const std::vector<OpRecord> &ops) {
  os << "#ifdef GET_CPU_ELEMENTWISE\n#undef GET_CPU_ELEMENTWISE\n";
  auto emitDomain = [&](const char *type, const char *fn, bool intDomain) {
    os << type << " " << fn << "(OpKind kind, " << type << " a, " << type << " b, " << type
       << " c, const Attributes &attrs) {\n"
       << "  (void)a; (void)b; (void)c; (void)attrs;\n  switch (kind) {\n";
    for (const OpRecord &op : ops) {
      const std::string &expr = intDomain ? op.cpuInt() : op.cpu();
      if (!op.isElementwise() || expr.empty())
        continue;
      os << "  case OpKind::" << op.enumName() << ":\n    return static_cast<" << type << ">("
         << expr << ");\n";
    }
    os << "  default:\n    break;\n  }\n  return noCpuDomain(kind, \""
       << (intDomain ? "integer" : "floating-point") << "\");\n}\n\n";
  };
  emitDomain("double", "cpuElementwiseFloat", false);
  emitDomain("int64_t", "cpuElementwiseInt", true);
  os << "#endif\n\n";
}

void emitCpuReductions(llvm::raw_ostream &os, const std::vector<OpRecord> &ops) {
  os << "#ifdef GET_CPU_REDUCTIONS\n#undef GET_CPU_REDUCTIONS\n";
  for (const char *type : {"double", "int64_t"}) {
    os << type << " cpuReduce(OpKind kind, std::span<const " << type
       << "> values, const Attributes &attrs) {\n  (void)attrs;\n  switch (kind) {\n";
    for (const OpRecord &op : ops) {
      if (!op.isReduction())
        continue;
      os << "  case OpKind::" << op.enumName() << ":\n    return static_cast<" << type << ">("
         << op.cpu() << ");\n";
    }
    os << "  default:\n    break;\n  }\n  return static_cast<" << type
       << ">(noCpuDomain(kind, \"reduction\"));\n}\n\n";
  }
  os << "#endif\n\n";
}

void emitCpuEvaluators(llvm::raw_ostream &os, const std::vector<OpRecord> &ops) {
  os << "#ifdef GET_CPU_EVALUATORS\n#undef GET_CPU_EVALUATORS\n"
     << "inline constexpr CpuEvaluator kCpuEvaluators[] = {\n";
  for (const OpRecord &op : ops)
    os << "  &" << op.cpuEval() << ", // " << op.name() << "\n";
  os << "};\n#endif\n";
}

} // namespace

void emitOpTables(const llvm::RecordKeeper &records, llvm::raw_ostream &os) {
  llvm::emitSourceFileHeader("fuserc op tables (from ops.td)", os);
  std::vector<OpRecord> ops = collectOps(records);

  os << "#ifdef GET_OP_KINDS\n";
  for (const OpRecord &op : ops) {
    os << "FUSERC_OP(" << op.enumName() << ", ";
    quoted(os, op.name());
    os << ")\n";
  }
  os << "#undef GET_OP_KINDS\n#endif\n\n";

  emitRuleMacro(os, records, "ShapeRule", "name", "FUSERC_SHAPE_RULE");
  emitRuleMacro(os, records, "DTypeRule", "name", "FUSERC_DTYPE_RULE");
  emitRuleMacro(os, records, "AttrType", "kind", "FUSERC_ATTR_KIND");
  emitRuleMacro(os, records, "OperandKind", "kind", "FUSERC_OPERAND_KIND");

  emitOpInfo(os, ops);
  emitCpuElementwise(os, ops);
  emitCpuReductions(os, ops);
  emitCpuEvaluators(os, ops);
}

} // namespace fuserc::tblgen
