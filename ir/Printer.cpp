// The IR printer (see Printer.h).
#include "ir/Printer.h"

#include <map>
#include <set>

namespace fuserc {
namespace {

class FusionPrinter {
public:
  FusionPrinter(const Fusion &fusion, llvm::raw_ostream &os) : fusion_(fusion), os_(os) {
    assignNames();
  }

  void print() {
    os_ << "fusion " << fusion_.name() << " {\n";
    for (const Value *in : fusion_.inputs())
      printInput(*in);
    for (const auto &op : fusion_.ops())
      printOp(*op);
    for (const FusionOutput &out : fusion_.outputs())
      printOutput(out);
    os_ << "}\n";
  }

private:
  void assignNames() {
    std::set<std::string> taken;
    for (const auto &v : fusion_.values())
      if (!v->name().empty())
        taken.insert(v->name());
    size_t next = 0;
    for (const auto &v : fusion_.values()) {
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

  std::string ref(const Value *v) const {
    if (v->isLiteral())
      return v->literal().str();
    return names_.at(v);
  }

  static std::string type(const Value &v) {
    return std::string(dtypeName(v.dtype())) + (v.isScalarInput() ? "" : shapeString(v.shape()));
  }

  void printInput(const Value &in) {
    os_ << "  input " << in.name() << ": " << type(in);
    if (!in.isScalarInput() && in.layout() != rowMajorLayout(in.rank()))
      os_ << " layout" << layoutString(in.layout());
    if (in.isStrided())
      os_ << " strided";
    os_ << "\n";
  }

  void printOp(const Op &op) {
    os_ << "  " << ref(op.result()) << " = " << op.info().name << "(";
    bool first = true;
    for (const Value *operand : op.operands()) {
      os_ << (first ? "" : ", ") << ref(operand);
      first = false;
    }
    for (const Attributes::Entry &e : op.attrs().entries()) {
      os_ << (first ? "" : ", ") << e.name << "=" << attrValueString(e.value);
      first = false;
    }
    os_ << ")  // " << type(*op.result()) << "\n";
  }

  void printOutput(const FusionOutput &out) {
    os_ << "  output " << ref(out.value);
    if (out.layout)
      os_ << " layout" << layoutString(*out.layout);
    if (out.aliases)
      os_ << " aliases " << ref(out.aliases);
    os_ << "  // " << type(*out.value) << "\n";
  }

  const Fusion &fusion_;
  llvm::raw_ostream &os_;
  std::map<const Value *, std::string> names_;
};

} // namespace

void printFusion(const Fusion &fusion, llvm::raw_ostream &os) { FusionPrinter(fusion, os).print(); }

void printModule(const Module &module, llvm::raw_ostream &os) {
  for (size_t i = 0; i < module.fusions.size(); ++i) {
    if (i)
      os << "\n";
    printFusion(*module.fusions[i], os);
  }
}

} // namespace fuserc
