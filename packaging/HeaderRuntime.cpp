// The runtime support every generated header carries (see HeaderParts.h):
// the C files of packaging/runtime/, embedded at build time (CMakeLists.txt,
// cmake/FusercEmbed.cmake), with the fatbin and its kernels' names between
// them, FUSERC_NAME spelled as the header's name.
#include "packaging/HeaderParts.h"

#include <cstdio>
#include <initializer_list>
#include <set>

namespace fuserc::header {

// packaging/runtime/, each file without its first comment.
namespace embedded {
extern const std::string_view kApi;            // api.h
extern const std::string_view kMacros;         // macros.h
extern const std::string_view kExtentHelpers;  // extent_helpers.h
extern const std::string_view kErrors;         // errors.c
extern const std::string_view kArgumentChecks; // argument_checks.c
extern const std::string_view kLoader;         // loader.c
extern const std::string_view kClusterLaunch;  // cluster_launch.c
} // namespace embedded

namespace {

bool isWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// The fatbin as a byte array in a union with uint64_t, which aligns it to
// 8 bytes in C99 and C++ alike; 16 bytes per line.
std::string embedFatbin(const std::string &prefix, const std::string &fatbin) {
  std::string out = "/* The fatbin (" + std::to_string(fatbin.size()) +
                    " bytes): a cubin per architecture and PTX of the newest. */\n";
  size_t size = fatbin.empty() ? 1 : fatbin.size();
  out += "static const union {\n  unsigned char bytes[" + std::to_string(size) +
         "];\n  uint64_t align;\n} " + prefix + "_fatbin = {{\n";
  if (fatbin.empty())
    out += "  0\n";
  for (size_t i = 0; i < fatbin.size(); i += 16) {
    out += " ";
    for (size_t j = i; j < fatbin.size() && j < i + 16; ++j) {
      char byte[8];
      std::snprintf(byte, sizeof byte, " 0x%02x", static_cast<unsigned char>(fatbin[j]));
      out += byte;
      if (j + 1 < fatbin.size())
        out += ",";
    }
    out += "\n";
  }
  return out + "}};\n";
}

} // namespace

std::string substitutePrefix(std::string_view text, std::string_view prefix) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  size_t pos = 0;
  while (true) {
    size_t hit = text.find(kNamePlaceholder, pos);
    out.append(text.substr(pos, hit - pos));
    if (hit == std::string_view::npos)
      return out;
    out.append(prefix);
    pos = hit + kNamePlaceholder.size();
  }
}

bool mentions(std::string_view code, std::string_view identifier) {
  for (size_t pos = code.find(identifier); pos != std::string_view::npos;
       pos = code.find(identifier, pos + 1)) {
    size_t end = pos + identifier.size();
    if ((pos == 0 || !isWordChar(code[pos - 1])) && (end == code.size() || !isWordChar(code[end])))
      return true;
  }
  return false;
}

std::string runtimeDeclarations(const std::string &prefix) {
  return substitutePrefix(embedded::kApi, prefix);
}

std::string runtimeImplementation(const std::string &prefix,
                                  const std::vector<std::string> &kernels,
                                  const std::string &fatbin, bool clusters) {
  std::string out;
  for (std::string_view file :
       {embedded::kMacros, embedded::kExtentHelpers, embedded::kErrors, embedded::kArgumentChecks})
    out += "\n" + substitutePrefix(file, prefix);
  out += "\n/* ---- the embedded kernels ---- */\n\n";
  out += embedFatbin(prefix, fatbin);
  out += "\n#define " + prefix + "_NUM_KERNELS " + std::to_string(kernels.size()) + "\n";
  out += "static const char *const " + prefix + "_kernel_names[] = {";
  for (const std::string &k : kernels)
    out += "\n  \"" + k + "\",";
  out += kernels.empty() ? "NULL};\n" : "\n  NULL};\n";
  out += "\n" + substitutePrefix(embedded::kLoader, prefix);
  if (clusters)
    out += "\n" + substitutePrefix(embedded::kClusterLaunch, prefix);
  return out;
}

const std::vector<std::string> &runtimeIdentifiers() {
  // Every FUSERC_NAME_<id> the runtime files mention (NAME_fatbin and the
  // other names the writer emits between them among them), and the guards.
  static const std::vector<std::string> kIdentifiers = [] {
    std::set<std::string> ids = {"H_INCLUDED", "IMPLEMENTATION", "IMPLEMENTATION_DONE"};
    const std::string lead = std::string(kNamePlaceholder) + "_";
    for (std::string_view file :
         {embedded::kApi, embedded::kMacros, embedded::kExtentHelpers, embedded::kErrors,
          embedded::kArgumentChecks, embedded::kLoader, embedded::kClusterLaunch})
      for (size_t pos = file.find(lead); pos != std::string_view::npos;
           pos = file.find(lead, pos + 1)) {
        if (pos > 0 && isWordChar(file[pos - 1]))
          continue;
        size_t end = pos + lead.size();
        while (end < file.size() && isWordChar(file[end]))
          ++end;
        ids.emplace(file.substr(pos + lead.size(), end - pos - lead.size()));
      }
    return std::vector<std::string>(ids.begin(), ids.end());
  }();
  return kIdentifiers;
}

} // namespace fuserc::header
