// Converts attribute values as written (ast::AttrValue) into typed IR
// attributes, checking them against the op's schema from ops.td.
#pragma once

#include "frontend/AST.h"
#include "ir/Attributes.h"
#include "ir/OpInfo.h"

#include <set>
#include <string>
#include <variant>

namespace fuserc {

struct AttrConversionError {
  std::string message;
  llvm::SMLoc loc; // the offending (list item) value; invalid: the whole value
};

using AttrConversion = std::variant<AttrValue, AttrConversionError>;

// `symbols` are the fusion's symbolic extents (from its input shapes): the
// only identifiers an extent attribute may name.
AttrConversion convertAttrValue(const OpInfo &op, const AttrSpec &spec, const ast::AttrValue &value,
                                const std::set<std::string> &symbols);

} // namespace fuserc
