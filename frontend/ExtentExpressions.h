// Extent expressions as written (ast::ExtentExpr: `32*G`, `C / 32`,
// `ceildiv(N, 128)`) to the IR's canonical extents, with the errors a user
// can make in them: unknown symbols and functions, a division that is not
// exact, a divisor that is not positive, arithmetic past int64.
#pragma once

#include "frontend/AST.h"
#include "ir/Extent.h"

#include <set>
#include <string>
#include <variant>

namespace fuserc {

struct ExtentExprError {
  std::string message;
  llvm::SMLoc loc;
};

// `symbols`: the symbols an expression may name; nullptr allows any (an
// input declaration introduces them).
std::variant<Extent, ExtentExprError> extentOf(const ast::ExtentExpr &expr,
                                               const std::set<std::string> *symbols);

// Adds every symbol `expr` names to `symbols`.
void collectExtentSymbols(const ast::ExtentExpr &expr, std::set<std::string> &symbols);

} // namespace fuserc
