// Architectures sharing one PTX (see SharedPtx.h).
#include "packaging/SharedPtx.h"

#include "packaging/NvrtcCompiler.h"

#include <cctype>
#include <cstdlib>
#include <optional>
#include <set>

namespace fuserc {
namespace {

constexpr const char *kArchMacro = "__CUDA_ARCH__";
// Other ways a source tells architectures apart (<nv/target>'s queries,
// the feature-set macros): any of them keeps each arch on its own.
constexpr const char *kOtherArchTests[] = {"NV_PROVIDES_SM_",
                                           "NV_IS_EXACTLY_SM_",
                                           "__CUDA_ARCH_FEAT_",
                                           "__CUDA_ARCH_SPECIFIC__",
                                           "__CUDA_ARCH_FAMILY_SPECIFIC__",
                                           "__CUDA_ARCH_LIST__"};

// The thresholds N of every `__CUDA_ARCH__ >= N` in `source`; nothing when
// __CUDA_ARCH__ appears in any other form.
std::optional<std::set<int>> archThresholds(const std::string &source) {
  for (const char *test : kOtherArchTests)
    if (source.find(test) != std::string::npos)
      return std::nullopt;
  std::set<int> thresholds;
  const std::string macro = kArchMacro;
  for (size_t at = source.find(macro); at != std::string::npos;
       at = source.find(macro, at + macro.size())) {
    size_t i = at + macro.size();
    auto skipSpaces = [&] {
      while (i < source.size() && (source[i] == ' ' || source[i] == '\t'))
        ++i;
    };
    skipSpaces();
    if (source.compare(i, 2, ">=") != 0)
      return std::nullopt;
    i += 2;
    skipSpaces();
    const size_t digits = i;
    while (i < source.size() && std::isdigit(static_cast<unsigned char>(source[i])))
      ++i;
    if (i == digits || i - digits > 6)
      return std::nullopt;
    thresholds.insert(std::atoi(source.substr(digits, i - digits).c_str()));
  }
  return thresholds;
}

// __CUDA_ARCH__ for a plain numbered arch ("sm_86" -> 860); nothing for
// one with a feature suffix or another form.
std::optional<int> archValue(const std::string &arch) {
  const std::string digits = smNumber(arch);
  if (digits.empty() || !std::isdigit(static_cast<unsigned char>(digits.back())))
    return std::nullopt;
  return std::atoi(digits.c_str()) * 10;
}

} // namespace

std::vector<std::vector<std::string>> ptxSharingGroups(const std::string &source,
                                                       const std::vector<std::string> &archs) {
  std::vector<std::vector<std::string>> groups;
  const std::optional<std::set<int>> thresholds = archThresholds(source);
  auto sameSide = [&](int a, int b) {
    for (int t : *thresholds)
      if ((a >= t) != (b >= t))
        return false;
    return true;
  };
  std::optional<int> previous;
  for (const std::string &arch : archs) {
    const std::optional<int> value = archValue(arch);
    if (thresholds && value && previous && sameSide(*previous, *value))
      groups.back().push_back(arch);
    else
      groups.push_back({arch});
    previous = value;
  }
  return groups;
}

std::string virtualArch(const std::string &arch) {
  return arch.rfind("sm_", 0) == 0 ? "compute_" + arch.substr(3) : arch;
}

} // namespace fuserc
