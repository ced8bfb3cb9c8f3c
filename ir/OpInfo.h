// Op kinds and the op info table, both generated from ops.td.
//
// Everything the frontends, verifier and interpreter need to know about an op
// (operands, attributes, dtype and shape rules, CUDA expressions) is read
// from here; no code outside generated files lists ops by hand.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace fuserc {

enum class OpKind : uint16_t {
#define FUSERC_OP(Enum, Name) Enum,
#define GET_OP_KINDS
#include "OpTables.inc"
#undef FUSERC_OP
};

enum class ShapeRule : uint8_t {
#define FUSERC_SHAPE_RULE(Name, Description) Name,
#include "OpTables.inc"
};

enum class DTypeRule : uint8_t {
#define FUSERC_DTYPE_RULE(Name, Description) Name,
#include "OpTables.inc"
};

enum class AttrKind : uint8_t {
#define FUSERC_ATTR_KIND(Name, Description) Name,
#include "OpTables.inc"
};

enum class OperandKind : uint8_t {
#define FUSERC_OPERAND_KIND(Name, Description) Name,
#include "OpTables.inc"
};

struct OperandSpec {
  std::string_view name;
  OperandKind kind;
};

struct AttrSpec {
  std::string_view name;
  AttrKind kind;
  std::string_view defaultValue; // empty: absent unless given
  bool required;
  std::span<const std::string_view> choices; // AttrKind::Enum only
};

struct OpInfo {
  OpKind kind;
  std::string_view name;
  std::string_view summary;
  std::span<const OperandSpec> operands;
  std::span<const AttrSpec> attrs;
  ShapeRule shapeRule;
  DTypeRule dtypeRule;
  std::string_view cuda;    // floating-point computation type
  std::string_view cudaInt; // integer or bool computation type
  bool hasCpuFloat;
  bool hasCpuInt;
  bool viewable;
  bool composite;

  bool isVariadic() const {
    return !operands.empty() && operands.back().kind == OperandKind::Variadic;
  }
  const AttrSpec *findAttr(std::string_view attrName) const;
};

const OpInfo &opInfo(OpKind kind);
// The op called `name`, or null.
const OpInfo *lookupOp(std::string_view name);
std::span<const OpInfo> allOps();

std::string_view attrKindDescription(AttrKind kind);
std::string_view operandKindDescription(OperandKind kind);

} // namespace fuserc
