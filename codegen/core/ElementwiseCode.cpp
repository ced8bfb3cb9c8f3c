// CUDA text of elementwise ops (see ElementwiseCode.h).
#include "codegen/core/ElementwiseCode.h"

#include "codegen/core/CudaTypes.h"
#include "ir/Inference.h"
#include "schedulers/KernelGenerator.h"

#include <cctype>

namespace fuserc {
namespace {

std::string attributeText(const AttrValue &value) {
  if (const auto *text = std::get_if<std::string>(&value))
    return *text;
  return attrValueString(value);
}

} // namespace

DType mathDType(DType d) { return d == DType::F16 || d == DType::BF16 ? DType::F32 : d; }

std::string elementwiseTemplate(const Op &op) {
  const OpInfo &info = op.info();
  const ComputeDomain domain = elementwiseComputeDomain(op);
  std::string expr(domain.floating ? info.cuda : info.cudaInt);
  // A float power by the literal 2 or 3 is a product: exact for squares
  // and far cheaper than pow (gelu's cubes, variances' squares).
  if (op.kind() == OpKind::Pow && domain.floating && op.operand(1)->isLiteral()) {
    if (op.operand(1)->literal().asDouble() == 2.0)
      expr = "($0 * $0)";
    else if (op.operand(1)->literal().asDouble() == 3.0)
      expr = "($0 * $0 * $0)";
  }
  if (expr.empty())
    throw CodegenError("'" + std::string(info.name) + "' has no CUDA expression for " +
                       std::string(dtypeName(domain.operands)) + " operands");
  return expr;
}

DType elementwiseOperandDType(const Op &op, size_t i) {
  const bool where = op.info().dtypeRule == DTypeRule::Where;
  return where && i == 0 ? DType::Bool : elementwiseComputeDomain(op).operands;
}

std::string substituteTemplate(const Op &op, const std::string &expr,
                               const std::vector<std::string> &operands) {
  std::string text;
  for (size_t i = 0; i < expr.size(); ++i) {
    if (expr[i] != '$') {
      text += expr[i];
      continue;
    }
    size_t j = i + 1;
    while (j < expr.size() && (std::isalnum(static_cast<unsigned char>(expr[j])) || expr[j] == '_'))
      ++j;
    std::string name = expr.substr(i + 1, j - i - 1);
    if (!name.empty() && std::isdigit(static_cast<unsigned char>(name[0])))
      text += operands.at(static_cast<size_t>(std::stoi(name)));
    else if (const AttrValue *a = op.attrs().find(name))
      text += attributeText(*a);
    else
      throw CodegenError("CUDA expression of '" + std::string(op.info().name) + "' names $" + name);
    i = j - 1;
  }
  return text;
}

std::string elementwiseResult(const Op &op, const std::string &text) {
  const ComputeDomain domain = elementwiseComputeDomain(op);
  const DType result = op.result()->dtype();
  if (op.kind() == OpKind::Cast)
    return cudaConvert(text, domain.operands, result);
  DType produced = op.info().dtypeRule == DTypeRule::PromoteToBool ? DType::Bool : domain.operands;
  return cudaConvert(text, produced, mathDType(result));
}

std::string valueAtKey(const Value &value, const std::vector<std::string> &coords) {
  std::string key = "v" + std::to_string(value.id()) + "@";
  for (const std::string &c : coords)
    key += c + ",";
  return key;
}

std::string indentedLines(const std::vector<std::string> &lines, int indent) {
  const std::string pad(static_cast<size_t>(indent), ' ');
  std::string text;
  for (const std::string &l : lines)
    text += pad + l + "\n";
  return text;
}

} // namespace fuserc
