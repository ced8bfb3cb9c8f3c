// The spelling of generated C names (see CNames.h).
#include "support/CNames.h"

#include <algorithm>

namespace fuserc {

bool isCIdentifier(std::string_view text) {
  if (text.empty() || (text[0] >= '0' && text[0] <= '9'))
    return false;
  return std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

std::string cNameProblem(std::string_view what, std::string_view text) {
  std::string quoted = std::string(what) + " '" + std::string(text) + "'";
  if (!isCIdentifier(text))
    return quoted + " is not a C identifier";
  if (text.find("__") != std::string_view::npos)
    return quoted + " contains '__', which generated C names keep to separate the output name "
                    "from a fusion's";
  if (text.front() == '_' || text.back() == '_')
    return quoted + (text.front() == '_' ? " begins" : " ends") +
           " with '_', which would touch the '__' separating the output name from a fusion's "
           "in generated C names";
  return "";
}

std::string fusionSymbolPrefix(std::string_view name, std::string_view fusion) {
  return std::string(name) + "__" + std::string(fusion);
}

} // namespace fuserc
