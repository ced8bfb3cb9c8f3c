// Reads and validates the op records of ops.td (see OpRecords.h).
#include "OpRecords.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/TableGen/Error.h"

#include <algorithm>

using llvm::PrintFatalError;
using llvm::Record;

namespace fuserc::tblgen {
namespace {

// Sorts defs by their position in the source so output follows ops.td.
std::vector<Record *> inSourceOrder(std::vector<Record *> defs) {
  std::stable_sort(defs.begin(), defs.end(),
                   [](Record *a, Record *b) { return a->getID() < b->getID(); });
  return defs;
}

bool isIdentifier(llvm::StringRef s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
    return false;
  return llvm::all_of(
      s, [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

bool isInteger(llvm::StringRef s) {
  long long v;
  return !s.getAsInteger(10, v);
}

bool isNumber(llvm::StringRef s) {
  double v;
  return isInteger(s) || !s.getAsDouble(v);
}

void checkDefault(const Record *op, const AttrRecord &a) {
  if (a.required && !a.defaultValue.empty())
    PrintFatalError(op, "attribute '" + a.name + "' is required and cannot have a default");
  if (a.defaultValue.empty())
    return;
  const std::string &d = a.defaultValue;
  bool ok = true;
  if (a.kind == "Int" || a.kind == "Axis")
    ok = isInteger(d);
  else if (a.kind == "Number")
    ok = isNumber(d);
  else if (a.kind == "Bool")
    ok = d == "true" || d == "false";
  else if (a.kind == "Enum")
    ok = llvm::is_contained(a.choices, d);
  else if (a.kind == "Extent")
    ok = isInteger(d) || isIdentifier(d);
  else if (a.kind == "DType")
    ok = llvm::is_contained(
        std::vector<std::string>{"bool", "i32", "i64", "f16", "bf16", "f32", "f64"}, d);
  else
    PrintFatalError(op, "attribute '" + a.name + "' of kind " + a.kind + " cannot have a default");
  if (!ok)
    PrintFatalError(op, "default '" + d + "' of attribute '" + a.name + "' is not a valid " +
                            a.description);
}

} // namespace

OpRecord::OpRecord(const Record *def) : def_(def) {
  llvm::StringRef defName = def->getName();
  if (!defName.endswith("Op") || defName.size() < 3)
    PrintFatalError(def, "op def '" + defName + "' must be named <Name>Op");
  enumName_ = defName.drop_back(2).str();
  name_ = def->getValueAsString("name").str();
  summary_ = def->getValueAsString("summary").str();
  category_ = def->getValueAsString("category").str();
  shapeRule_ = def->getValueAsDef("shape")->getValueAsString("name").str();
  dtypeRule_ = def->getValueAsDef("dtype")->getValueAsString("name").str();
  cuda_ = def->getValueAsString("cuda").str();
  cudaInt_ = def->getValueAsString("cudaInt").str();
  cpu_ = def->getValueAsString("cpu").str();
  cpuInt_ = def->getValueAsString("cpuInt").str();
  cpuEval_ = def->getValueAsString("cpuEval").str();
  viewable_ = def->getValueAsBit("viewable");
  composite_ = def->getValueAsBit("composite");

  for (const Record *arg : def->getValueAsListOfDefs("operands")) {
    const Record *kind = arg->getValueAsDef("kind");
    operands_.push_back({arg->getValueAsString("name").str(), kind->getValueAsString("kind").str(),
                         kind->getValueAsString("description").str()});
  }
  for (const Record *attr : def->getValueAsListOfDefs("attrs")) {
    const Record *type = attr->getValueAsDef("type");
    AttrRecord a;
    a.name = attr->getValueAsString("name").str();
    a.kind = type->getValueAsString("kind").str();
    a.description = type->getValueAsString("description").str();
    a.defaultValue = attr->getValueAsString("default").str();
    a.required = attr->getValueAsBit("required");
    for (llvm::StringRef c : type->getValueAsListOfStrings("choices"))
      a.choices.push_back(c.str());
    attrs_.push_back(std::move(a));
  }
  validate();
}

void OpRecord::validate() const {
  if (!isIdentifier(name_))
    PrintFatalError(def_, "op name '" + name_ + "' is not an identifier");
  if (category_.empty())
    PrintFatalError(def_, "op '" + name_ + "' has no category");
  if (summary_.empty())
    PrintFatalError(def_, "op '" + name_ + "' has no summary");
  if (cpuEval_.empty() || !isIdentifier(cpuEval_))
    PrintFatalError(def_, "op '" + name_ + "' needs a cpuEval function name");

  llvm::StringSet<> seen;
  for (size_t i = 0; i < operands_.size(); ++i) {
    const OperandRecord &o = operands_[i];
    if (!seen.insert(o.name).second)
      PrintFatalError(def_, "op '" + name_ + "' has two operands named '" + o.name + "'");
    if (o.kind == "Variadic" && i + 1 != operands_.size())
      PrintFatalError(def_, "variadic operand '" + o.name + "' of op '" + name_ +
                                "' must be the last operand");
  }
  for (const AttrRecord &a : attrs_) {
    if (!seen.insert(a.name).second)
      PrintFatalError(def_,
                      "op '" + name_ + "' has two operands or attributes named '" + a.name + "'");
    if (a.kind == "Enum" && a.choices.empty())
      PrintFatalError(def_,
                      "enum attribute '" + a.name + "' of op '" + name_ + "' lists no choices");
    checkDefault(def_, a);
  }

  if (isElementwise()) {
    if (operands_.empty() || operands_.size() > 3)
      PrintFatalError(def_, "elementwise op '" + name_ + "' must have 1 to 3 operands");
    bool integralOnly = dtypeRule_ == "PromoteIntegral";
    if (!integralOnly && cpu_.empty())
      PrintFatalError(def_, "elementwise op '" + name_ +
                                "' needs a 'cpu' expression for floating-point operands");
    if (!integralOnly && cuda_.empty())
      PrintFatalError(def_, "elementwise op '" + name_ +
                                "' needs a 'cuda' expression for floating-point operands");
    bool floatOnly = dtypeRule_ == "PromoteFloat";
    if (!floatOnly && (cpuInt_.empty() || cudaInt_.empty()))
      PrintFatalError(def_, "elementwise op '" + name_ + "' with dtype rule " + dtypeRule_ +
                                " can compute on integers and needs 'cpuInt' and 'cudaInt'");
    for (const std::string *expr : {&cuda_, &cudaInt_}) {
      for (size_t pos = expr->find('$'); pos != std::string::npos; pos = expr->find('$', pos + 1)) {
        llvm::StringRef rest = llvm::StringRef(*expr).substr(pos + 1);
        if (!rest.empty() && std::isdigit(static_cast<unsigned char>(rest[0]))) {
          if (size_t(rest[0] - '0') >= operands_.size())
            PrintFatalError(def_, "CUDA expression of '" + name_ + "' uses $" +
                                      std::string(1, rest[0]) + " but the op has " +
                                      std::to_string(operands_.size()) + " operand(s)");
          continue;
        }
        llvm::StringRef attr = rest.take_while(
            [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
        bool known = llvm::any_of(attrs_, [&](const AttrRecord &a) { return a.name == attr; });
        if (!known)
          PrintFatalError(def_, "CUDA expression of '" + name_ + "' uses '$" + attr +
                                    "', which is neither an operand number nor an attribute");
      }
    }
  } else if (!cuda_.empty() || !cudaInt_.empty()) {
    PrintFatalError(def_,
                    "op '" + name_ + "' is not elementwise and cannot have a CUDA expression");
  }
  if (isReduction() && cpu_.empty())
    PrintFatalError(def_, "reduction '" + name_ + "' needs a 'cpu' expression over 'values'");
}

std::vector<OpRecord> collectOps(const llvm::RecordKeeper &records) {
  std::vector<OpRecord> ops;
  llvm::StringMap<const Record *> byName;
  for (const Record *def : inSourceOrder(records.getAllDerivedDefinitions("Op"))) {
    ops.emplace_back(def);
    auto [it, inserted] = byName.try_emplace(ops.back().name(), def);
    if (!inserted) {
      llvm::PrintError(def, "op name '" + ops.back().name() + "' is defined twice");
      PrintFatalError(it->second, "previous definition of '" + ops.back().name() + "'");
    }
  }
  if (ops.empty())
    PrintFatalError("no ops defined (no def derives from class 'Op')");
  return ops;
}

std::vector<NamedRule> collectRules(const llvm::RecordKeeper &records, llvm::StringRef className,
                                    llvm::StringRef nameField) {
  std::vector<NamedRule> rules;
  llvm::StringSet<> seen;
  for (const Record *def : inSourceOrder(records.getAllDerivedDefinitions(className))) {
    std::string name = def->getValueAsString(nameField).str();
    if (!isIdentifier(name))
      PrintFatalError(def, className + " name '" + name + "' is not an identifier");
    if (!seen.insert(name).second)
      continue; // e.g. several EnumAttr instances share kind "Enum"
    rules.push_back({name, def->getValueAsString("description").str()});
  }
  return rules;
}

} // namespace fuserc::tblgen
