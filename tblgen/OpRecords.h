// Typed, validated views of the records in ops.td.
//
// Every backend reads ops.td through these classes instead of looking up
// fields by string, and every mistake in ops.td is reported here, once, with
// PrintFatalError pointing at the offending record.
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/TableGen/Record.h"

#include <string>
#include <vector>

namespace fuserc::tblgen {

struct AttrRecord {
  std::string name;
  std::string kind;        // AttrKind enumerator, e.g. "AxisList"
  std::string description; // of the attribute type
  std::string defaultValue;
  bool required = false;
  std::vector<std::string> choices;
};

struct OperandRecord {
  std::string name;
  std::string kind; // OperandKind enumerator
  std::string description;
};

// A rule def (DTypeRule, ShapeRule) or kind def (AttrType, OperandKind).
struct NamedRule {
  std::string name;
  std::string description;
};

class OpRecord {
public:
  explicit OpRecord(const llvm::Record *def);

  const llvm::Record *def() const { return def_; }
  // C++ enumerator name: the def name without its "Op" suffix.
  const std::string &enumName() const { return enumName_; }
  const std::string &name() const { return name_; }
  const std::string &summary() const { return summary_; }
  const std::string &category() const { return category_; }
  const std::vector<OperandRecord> &operands() const { return operands_; }
  const std::vector<AttrRecord> &attrs() const { return attrs_; }
  const std::string &shapeRule() const { return shapeRule_; }
  const std::string &dtypeRule() const { return dtypeRule_; }
  const std::string &cuda() const { return cuda_; }
  const std::string &cudaInt() const { return cudaInt_; }
  const std::string &cpu() const { return cpu_; }
  const std::string &cpuInt() const { return cpuInt_; }
  const std::string &cpuEval() const { return cpuEval_; }
  bool viewable() const { return viewable_; }
  bool composite() const { return composite_; }
  bool isElementwise() const { return shapeRule_ == "Elementwise"; }
  bool isReduction() const { return cpuEval_ == "evalReduction"; }

private:
  void validate() const;

  const llvm::Record *def_;
  std::string enumName_, name_, summary_, category_, shapeRule_, dtypeRule_;
  std::string cuda_, cudaInt_, cpu_, cpuInt_, cpuEval_;
  std::vector<OperandRecord> operands_;
  std::vector<AttrRecord> attrs_;
  bool viewable_ = false, composite_ = false;
};

// All ops of ops.td in definition order, validated as a whole (unique names).
std::vector<OpRecord> collectOps(const llvm::RecordKeeper &records);

// All defs deriving from `className` (e.g. "ShapeRule"), in definition order.
std::vector<NamedRule> collectRules(const llvm::RecordKeeper &records, llvm::StringRef className,
                                    llvm::StringRef nameField);

} // namespace fuserc::tblgen
