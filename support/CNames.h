// The spelling of generated C names: which identifiers may name an output
// set or a fusion, and how the two join into the prefix of a fusion's C
// functions so that no two (name, fusion) pairs share one (docs/header.md).
#pragma once

#include <string>
#include <string_view>

namespace fuserc {

// [A-Za-z_][A-Za-z0-9_]*
bool isCIdentifier(std::string_view text);

// Why `text` cannot be an output name or a fusion name, or "" when it can:
// a C identifier with no "__" (the separator of fusionSymbolPrefix) that
// neither begins nor ends with '_'. `what` names it in the reason ("fusion
// name 'a__b'...").
std::string cNameProblem(std::string_view what, std::string_view text);

// NAME__F: the prefix of fusion F's C functions and macros in output set NAME.
// Unambiguous because neither part may contain "__" or touch it with '_'.
std::string fusionSymbolPrefix(std::string_view name, std::string_view fusion);

} // namespace fuserc
