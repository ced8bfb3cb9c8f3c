// The IR printer (see Printer.h).
#include "ir/Printer.h"

#include "ir/SourceAttributes.h"

#include <set>

namespace fuserc {

ValueNames::ValueNames(const Fusion &fusion) {
  std::set<std::string> taken;
  for (const auto &v : fusion.values())
    if (!v->name().empty())
      taken.insert(v->name());
  size_t next = 0;
  for (const auto &v : fusion.values()) {
    if (v->isLiteral())
      continue;
    if (!v->name().empty()) {
      names_[v.get()] = v->name();
      continue;
    }
    std::string name;
    do
      name = "_" + std::to_string(next++);
    while (taken.count(name));
    names_[v.get()] = name;
  }
}

std::string ValueNames::operator()(const Value *v) const {
  if (v->isLiteral())
    return v->literal().str();
  auto it = names_.find(v);
  return it == names_.end() ? "<unknown>" : it->second;
}

std::string typeString(const Value &v) {
  return std::string(dtypeName(v.dtype())) + (v.isScalarInput() ? "" : shapeString(v.shape()));
}

namespace {

class FusionPrinter {
public:
  FusionPrinter(const Fusion &fusion, llvm::raw_ostream &os, const PrintNotes &notes)
      : fusion_(fusion), os_(os), notes_(notes), ref_(fusion) {}

  void print() {
    os_ << "fusion " << fusion_.name() << " {\n";
    for (const Value *in : fusion_.inputs())
      printInput(*in);
    for (const auto &op : fusion_.ops())
      printOp(*op);
    for (const FusionOutput &out : fusion_.outputs())
      printOutput(out);
    os_ << "}\n";
    if (notes_.trailer)
      notes_.trailer(fusion_, ref_, os_);
  }

private:
  void endLine(std::string comment, const std::string &note) {
    if (!note.empty())
      comment += (comment.empty() ? "" : "  ") + note;
    if (!comment.empty())
      os_ << "  // " << comment;
    os_ << "\n";
  }

  std::string valueNote(const Value &v) const { return notes_.value ? notes_.value(v) : ""; }

  void printInput(const Value &in) {
    os_ << "  input " << in.name() << ": " << typeString(in);
    if (!in.isScalarInput() && in.layout() != rowMajorLayout(in.rank()))
      os_ << " layout" << layoutString(in.layout());
    if (in.isStrided())
      os_ << " strided";
    endLine("", valueNote(in));
  }

  void printOp(const Op &op) {
    os_ << "  " << ref_(op.result()) << " = " << op.info().name << "(";
    bool first = true;
    for (const Value *operand : op.operands()) {
      os_ << (first ? "" : ", ") << ref_(operand);
      first = false;
    }
    const Attributes written = sourceAttributes(op);
    for (const Attributes::Entry &e : written.entries()) {
      os_ << (first ? "" : ", ") << e.name << "=" << attrValueString(e.value);
      first = false;
    }
    os_ << ")";
    endLine(typeString(*op.result()), valueNote(*op.result()));
  }

  void printOutput(const FusionOutput &out) {
    std::string ref = ref_(out.copies ? out.copies : out.value);
    os_ << "  output " << ref;
    if (out.pinnedLayout)
      os_ << " layout" << layoutString(*out.pinnedLayout);
    if (out.aliases)
      os_ << " aliases " << ref_(out.aliases);
    std::string comment = typeString(*out.value);
    if (out.copies)
      comment += ", copied by " + ref_(out.value);
    if (out.name != ref)
      comment += ", named '" + out.name + "'";
    endLine(comment, notes_.output ? notes_.output(out) : "");
  }

  const Fusion &fusion_;
  llvm::raw_ostream &os_;
  const PrintNotes &notes_;
  ValueNames ref_;
};

} // namespace

void printFusion(const Fusion &fusion, llvm::raw_ostream &os, const PrintNotes &notes) {
  FusionPrinter(fusion, os, notes).print();
}

void printModule(const Module &module, llvm::raw_ostream &os, const PrintNotes &notes) {
  for (size_t i = 0; i < module.fusions.size(); ++i) {
    if (i)
      os << "\n";
    printFusion(*module.fusions[i], os, notes);
  }
}

} // namespace fuserc
