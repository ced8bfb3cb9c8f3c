// The runtime support every generated header carries (see HeaderParts.h):
// the C files of packaging/runtime/, embedded at build time (CMakeLists.txt,
// cmake/FusercEmbed.cmake), with the fatbin and its kernels' names between
// them, FUSERC_NAME spelled as the header's name.
#include "packaging/HeaderParts.h"

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
extern const std::string_view kLaunchEx;       // launch_ex.c
} // namespace embedded

namespace {

bool isWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Whether byte `c` stands for itself in the string literal.
bool literalByte(unsigned char c) {
  // '?' would start trigraphs; '"' and '\\' need escapes.
  return c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '?';
}

// The fatbin as one string literal in a union with uint64_t, which aligns
// it to 8 bytes in C99 and C++ alike. Printable bytes stand for themselves
// and the rest are octal escapes, as short as the next character allows (an
// escape takes up to three octal digits), so the literal is about 2.5 times
// the image's size and compilers read it far faster than a list of byte
// constants. The runtime needs POSIX threads, so every compiler that builds
// it (gcc, clang, ...) takes literals of any length. Lines of about 96
// characters.
std::string embedFatbin(const std::string &prefix, const std::string &fatbin) {
  std::string out = "/* The kernels' images (" + std::to_string(fatbin.size()) +
                    " bytes): a fatbinary per kernel, each a cubin per architecture and PTX\n"
                    "   of the newest, at NAME_image_offsets. */\n";
  // C99 promises literals of 4095 characters; -Wpedantic says so.
  out += "#if defined(__GNUC__)\n#pragma GCC diagnostic push\n"
         "#pragma GCC diagnostic ignored \"-Woverlength-strings\"\n#endif\n";
  out += "static const union {\n  char bytes[" + std::to_string(fatbin.size() + 1) +
         "];\n  uint64_t align;\n} " + prefix + "_fatbin = {\n";
  out.reserve(out.size() + fatbin.size() * 3);
  std::string line = "  \"";
  for (size_t i = 0; i < fatbin.size(); ++i) {
    const unsigned char c = fatbin[i];
    if (literalByte(c)) {
      line += char(c);
    } else {
      // A shorter escape would swallow a following literal octal digit.
      const bool digitNext = i + 1 < fatbin.size() && fatbin[i + 1] >= '0' && fatbin[i + 1] <= '7';
      line += '\\';
      if (digitNext || c >= 0100)
        line += char('0' + (c >> 6));
      if (digitNext || c >= 010)
        line += char('0' + ((c >> 3) & 7));
      line += char('0' + (c & 7));
    }
    if (line.size() >= 94) {
      out.append(line).append("\"\n");
      line.resize(3);
    }
  }
  if (line.size() > 3 || fatbin.empty())
    out += line + "\"\n";
  return out + "};\n#if defined(__GNUC__)\n#pragma GCC diagnostic pop\n#endif\n";
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
                                  const std::vector<EmbeddedKernel> &kernels,
                                  const std::string &fatbin,
                                  const std::vector<size_t> &imageOffsets, bool extendedLaunch) {
  std::string out;
  for (std::string_view file :
       {embedded::kMacros, embedded::kExtentHelpers, embedded::kErrors, embedded::kArgumentChecks})
    out += "\n" + substitutePrefix(file, prefix);
  out += "\n/* ---- the embedded kernels ---- */\n\n";
  out += embedFatbin(prefix, fatbin);
  const std::vector<size_t> offsets = imageOffsets.empty() ? std::vector<size_t>{0} : imageOffsets;
  out += "\n#define " + prefix + "_NUM_IMAGES " + std::to_string(offsets.size()) + "\n";
  out += "static const size_t " + prefix + "_image_offsets[" + prefix + "_NUM_IMAGES] = {";
  for (size_t i = 0; i < offsets.size(); ++i)
    out += (i ? ", " : "") + std::to_string(offsets[i]);
  out += "};\n";
  out += "\n#define " + prefix + "_NUM_KERNELS " + std::to_string(kernels.size()) + "\n";
  out += "static const char *const " + prefix + "_kernel_names[] = {";
  for (const EmbeddedKernel &k : kernels)
    out += "\n  \"" + k.symbol + "\",";
  out += kernels.empty() ? "NULL};\n" : "\n  NULL};\n";
  out += "/* The image holding each kernel. */\n";
  out += "static const unsigned " + prefix + "_kernel_images[] = {";
  for (const EmbeddedKernel &k : kernels)
    out += std::to_string(k.image) + ", ";
  out += "0};\n";
  out += "\n" + substitutePrefix(embedded::kLoader, prefix);
  if (extendedLaunch)
    out += "\n" + substitutePrefix(embedded::kLaunchEx, prefix);
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
          embedded::kArgumentChecks, embedded::kLoader, embedded::kLaunchEx})
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
