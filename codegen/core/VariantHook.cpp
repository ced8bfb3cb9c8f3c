// The testing hook of launch blocks (see VariantHook.h): host C, each piece
// inside `#ifdef FUSERC_TEST_VARIANTS`, so that builds without the macro
// compile none of it.
#include "codegen/core/VariantHook.h"

namespace fuserc {

namespace {

const char *const kOpen = "#ifdef FUSERC_TEST_VARIANTS\n";
const char *const kClose = "#endif\n";

std::string indent(const std::string &body, const std::string &pad) {
  std::string out;
  size_t start = 0;
  while (start < body.size()) {
    size_t end = body.find('\n', start);
    if (end == std::string::npos)
      end = body.size();
    out += pad + body.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return out;
}

} // namespace

std::string variantHookPick(const std::string &kernel, size_t alternatives,
                            const std::string &pad) {
  return kOpen + pad + "int forced = fuserc_test_variant(\"" + kernel + "\", " +
         std::to_string(alternatives) + ");\n" + kClose;
}

std::string variantHookForce(size_t first, const std::vector<ForcedVariant> &alternatives,
                             const std::string &pad) {
  if (alternatives.empty())
    return "";
  std::string s = kOpen;
  for (size_t i = 0; i < alternatives.size(); ++i) {
    const ForcedVariant &v = alternatives[i];
    s += pad + "if (forced == " + std::to_string(first + i) +
         (v.condition.empty() ? "" : " && (" + v.condition + ")") + ") {\n";
    s += indent(v.body, pad + "  ");
    s += pad + "}\n";
  }
  return s + kClose;
}

std::string variantHookLaunched(const std::string &kernelExpr, const std::string &pad) {
  return kOpen + pad + "fuserc_test_launched(" + kernelExpr + ");\n" + kClose;
}

} // namespace fuserc
