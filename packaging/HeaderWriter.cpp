// Assembles NAME.h and NAME.c (see HeaderWriter.h) from their pieces
// (HeaderParts.h):
//
//   NAME.h: include guard, includes, extern "C" {
//     runtime declarations, per fusion: macros and prototypes
//   }
//   NAME.c: #include "NAME.h", extern "C" {
//     runtime support, the fatbin and its loader,
//     per fusion: argument structs, host helpers, validation, entry points
//   }
//
// The single-header form appends the implementation to NAME.h under
// `#if defined(NAME_IMPLEMENTATION)`, with its own guard outside the include
// guard, so the pattern — include, define NAME_IMPLEMENTATION, include
// again — adds it on the second inclusion.
#include "packaging/HeaderWriter.h"

#include "packaging/HeaderParts.h"

#include <algorithm>
#include <map>
#include <set>

namespace fuserc {

namespace {

using header::FusionModel;

// Two fusions, or a fusion and the runtime, must not define one identifier
// (fusion `a` has a_launch; fusion `a_describe` would have a_describe_outputs
// clash with a's describe_outputs...). Kernel symbols must be unique too: they
// share the fatbin's one namespace.
std::string findClash(const std::vector<FusionModel> &models) {
  std::map<std::string, std::string> owner;
  for (const std::string &id : header::runtimeIdentifiers())
    owner[id] = "the runtime support";
  for (const FusionModel &m : models)
    for (const std::string &id : header::fusionIdentifiers(m)) {
      auto [it, inserted] = owner.emplace(id, "fusion '" + m.fusion->name() + "'");
      if (!inserted)
        return "the identifier " + m.prefix + "_" + id + " of fusion '" + m.fusion->name() +
               "' is also defined by " + it->second + "; rename the fusion";
    }
  std::map<std::string, std::string> kernels;
  for (const FusionModel &m : models) {
    if (!m.code)
      continue;
    for (const KernelPlan &k : m.code->kernels)
      for (const KernelVariant &v : k.variants) {
        if (!isCIdentifier(v.symbol))
          return "kernel symbol '" + v.symbol + "' is not a C identifier";
        auto [it, inserted] = kernels.emplace(v.symbol, k.name);
        if (!inserted && it->second != k.name)
          return "kernels " + it->second + " and " + k.name + " both define the symbol " + v.symbol;
      }
  }
  return "";
}

// NAME__F names are reserved in C++ (not in C); clang's -Wreserved-identifier
// and -Wreserved-macro-identifier would report each one in users' builds.
constexpr const char *kReservedNamesAllowed =
    "#if defined(__cplusplus) && defined(__clang__)\n"
    "/* '__' separates the output name from a fusion's (docs/header.md) */\n"
    "#pragma clang diagnostic push\n"
    "#pragma clang diagnostic ignored \"-Wunknown-warning-option\"\n"
    "#pragma clang diagnostic ignored \"-Wreserved-identifier\"\n"
    "#pragma clang diagnostic ignored \"-Wreserved-macro-identifier\"\n"
    "#endif\n\n";
constexpr const char *kReservedNamesChecked =
    "#if defined(__cplusplus) && defined(__clang__)\n#pragma clang diagnostic pop\n#endif\n";

// Every kernel symbol, sorted, with the image defining it (all in image 0
// without images). Empty `error` unless a symbol has no image.
std::vector<header::EmbeddedKernel> kernelSymbols(const std::vector<FusionModel> &models,
                                                  const std::vector<UnitImage> &images,
                                                  std::string &error) {
  std::map<std::string, size_t> symbols;
  for (const FusionModel &m : models) {
    if (!m.code)
      continue;
    for (const KernelPlan &k : m.code->kernels)
      for (const KernelVariant &v : k.variants) {
        const std::optional<size_t> image =
            images.empty() ? std::optional<size_t>(0) : imageHolding(images, v.symbol);
        if (!image) {
          error = "internal: no image holds kernel " + v.symbol;
          return {};
        }
        symbols.emplace(v.symbol, *image);
      }
  }
  std::vector<header::EmbeddedKernel> out;
  for (const auto &[symbol, image] : symbols)
    out.push_back({symbol, image});
  return out;
}

bool launchesExtended(const std::vector<FusionModel> &models) {
  for (const FusionModel &m : models)
    if (m.code)
      for (const KernelPlan &k : m.code->kernels)
        if (k.extendedLaunch)
          return true;
  return false;
}

// `helpersDone`: host helpers already emitted; fusions of one code generator
// share them, and one copy is enough.
std::string fusionImplementation(const FusionModel &m, std::set<std::string> &helpersDone) {
  std::string out = "/* ---- fusion " + m.fusion->name() + " ---- */\n\n";
  if (m.code) {
    const std::string &helpers = m.code->hostHelpers;
    if (!helpers.empty() && helpersDone.insert(helpers).second)
      out += header::pasted(helpers, m.prefix, 0) + "\n";
    std::set<std::string> seen;
    for (const KernelPlan &k : m.code->kernels)
      if (!k.argsStruct.empty() && seen.insert(k.argsStruct).second)
        out += "/* The argument struct of " + k.name + ". */\n" +
               header::pasted(k.argsStruct, m.prefix, 0) + "\n";
  }
  return out + header::validationFunctions(m) + "\n" + header::entryPointDefinitions(m);
}

} // namespace

HeaderResult writeHeader(const std::string &name, const Module &module,
                         const std::vector<FusionCode> &code, const std::string &fatbin,
                         HeaderForm form, const std::vector<UnitImage> &images) {
  HeaderResult result;
  if (std::string problem = cNameProblem("the output name", name); !problem.empty()) {
    result.error = problem + " (choose another with --name)";
    return result;
  }
  std::vector<FusionModel> models;
  std::set<std::string> fusionNames;
  for (const auto &fusion : module.fusions) {
    if (std::string problem = cNameProblem("fusion name", fusion->name()); !problem.empty()) {
      result.error = problem;
      return result;
    }
    if (!fusionNames.insert(fusion->name()).second) {
      result.error = "two fusions are named '" + fusion->name() + "'";
      return result;
    }
    const FusionCode *fusionCode = nullptr;
    for (const FusionCode &c : code)
      if (c.fusion == fusion->name())
        fusionCode = &c;
    header::FusionModelResult built = header::buildFusionModel(name, *fusion, fusionCode);
    if (!built.error.empty()) {
      result.error = built.error;
      return result;
    }
    models.push_back(std::move(built.model));
  }
  if (std::string clash = findClash(models); !clash.empty()) {
    result.error = clash;
    return result;
  }

  std::string missing;
  const std::vector<header::EmbeddedKernel> kernels = kernelSymbols(models, images, missing);
  if (!missing.empty()) {
    result.error = missing;
    return result;
  }
  std::vector<size_t> offsets;
  for (const UnitImage &i : images)
    offsets.push_back(i.offset);

  const bool single = form == HeaderForm::Single;
  std::string guard = name + "_H_INCLUDED";
  std::string &out = result.text;
  if (single)
    out += "/* " + name +
           ".h: fused CUDA kernels, generated by fuserc. Do not edit.\n"
           "   Interface: docs/header.md. In exactly one translation unit:\n"
           "     #define " +
           name + "_IMPLEMENTATION\n     #include \"" + name +
           ".h\"\n"
           "   and link with the CUDA driver library (-lcuda). */\n";
  else
    out += "/* " + name +
           ".h: fused CUDA kernels, generated by fuserc. Do not edit.\n"
           "   Interface: docs/header.md. The implementation is " +
           name +
           ".c (C99): compile it once\n"
           "   and link with the CUDA driver library (-lcuda). */\n";
  out += "#ifndef " + guard + "\n#define " + guard + "\n\n";
  out +=
      "#include <cuda.h>\n#include <dlpack/dlpack.h>\n#include <stddef.h>\n#include <stdint.h>\n\n";
  out += std::string("#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n") + kReservedNamesAllowed;
  out += header::runtimeDeclarations(name);
  for (const FusionModel &m : models)
    out += "\n" + header::entryPointDeclarations(m);
  out += "\n" + std::string(kReservedNamesChecked) +
         "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n#endif /* " + guard + " */\n";

  std::string implementation;
  implementation +=
      "#include <pthread.h>\n#include <stdarg.h>\n#include <stdio.h>\n#include <string.h>\n\n";
  implementation +=
      std::string("#ifdef __cplusplus\nextern \"C\" {\n#endif\n") + kReservedNamesAllowed;
  implementation +=
      header::runtimeImplementation(name, kernels, fatbin, offsets, launchesExtended(models));
  std::set<std::string> helpersDone;
  for (const FusionModel &m : models)
    implementation += "\n" + fusionImplementation(m, helpersDone);
  implementation += "\n" + std::string(kReservedNamesChecked) +
                    "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n";
  if (single) {
    out += "\n#if defined(" + name + "_IMPLEMENTATION) && !defined(" + name +
           "_IMPLEMENTATION_DONE)\n#define " + name + "_IMPLEMENTATION_DONE\n\n";
    out += implementation + "\n#endif /* " + name + "_IMPLEMENTATION */\n";
  } else {
    result.source = "/* " + name + ".c: the implementation of " + name +
                    ".h, generated by fuserc. Do not edit.\n"
                    "   Compile it once (C99 or newer) and link with -lcuda. */\n";
    result.source += "#include \"" + name + ".h\"\n\n" + implementation;
  }
  result.ok = true;
  return result;
}

} // namespace fuserc
