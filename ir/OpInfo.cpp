// The generated op info table and lookups over it (see OpInfo.h).
#include "ir/OpInfo.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <string>
#include <unordered_map>

namespace fuserc {
namespace {

#define GET_OP_INFO
#include "OpTables.inc"

} // namespace

const AttrSpec *OpInfo::findAttr(std::string_view attrName) const {
  for (const AttrSpec &spec : attrs)
    if (spec.name == attrName)
      return &spec;
  return nullptr;
}

const OpInfo &opInfo(OpKind kind) {
  const OpInfo &info = kOpInfos[static_cast<size_t>(kind)];
  assert(info.kind == kind && "op table out of order");
  return info;
}

const OpInfo *lookupOp(std::string_view name) {
  static const std::unordered_map<std::string_view, const OpInfo *> byName = [] {
    std::unordered_map<std::string_view, const OpInfo *> map;
    for (const OpInfo &info : kOpInfos)
      map.emplace(info.name, &info);
    return map;
  }();
  auto it = byName.find(name);
  return it == byName.end() ? nullptr : it->second;
}

std::span<const OpInfo> allOps() { return kOpInfos; }

std::string_view attrKindDescription(AttrKind kind) {
  static constexpr std::string_view descriptions[] = {
#define FUSERC_ATTR_KIND(Name, Description) Description,
#include "OpTables.inc"
  };
  return descriptions[static_cast<size_t>(kind)];
}

std::string_view operandKindDescription(OperandKind kind) {
  static constexpr std::string_view descriptions[] = {
#define FUSERC_OPERAND_KIND(Name, Description) Description,
#include "OpTables.inc"
  };
  return descriptions[static_cast<size_t>(kind)];
}

} // namespace fuserc
