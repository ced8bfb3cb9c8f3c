// Helpers shared by the code generation tests: run the pipeline and the code
// generator on a fusion's source, read a repository file, and compile the
// generated module with NVRTC.
#pragma once

#include "TestSupport.h"

#include "codegen/BuiltinGenerators.h"
#include "codegen/FusionCodegen.h"
#include "driver/Pipeline.h"
#include "packaging/NvrtcCompiler.h"
#include "schedulers/KernelGenerator.h"
#include "schedulers/SchedulerRegistry.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace fuserc::test {

struct Generated {
  std::string source;
  std::vector<FusionCode> code;
  std::string error; // the CodegenError, when there was one
};

// `only`: restrict the schedulers (like --schedulers), e.g. to force the
// pointwise code generator onto index transforms the transpose scheduler
// would otherwise claim. `name` decides the form (".yaml" for YAML);
// `variants` is --variants.
inline Generated generate(std::string_view text, std::vector<std::string> only = {},
                          std::string_view name = "test.fus",
                          VariantBudget variants = VariantBudget::Default) {
  Generated g;
  Loaded r = load(text, name);
  EXPECT_TRUE(r.ok) << r.diagnostics;
  if (!r.ok)
    return g;
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  DiagnosticEngine diag(os);
  CompileOptions options;
  SchedulerRegistry registry;
  registerBuiltinSchedulers(registry, builtinGenerators());
  auto selected = registry.select(only);
  PipelineResult result =
      runPipeline(r.module, options, std::get<std::vector<const Scheduler *>>(selected), diag);
  EXPECT_EQ(result.status, PipelineResult::Status::Ok) << result.message << os.str();
  try {
    for (SegmentedFusion &s : result.segmentations) {
      makeSchedules(s);
      g.code.push_back(generateFusionCode(s, variants));
    }
    g.source = moduleCudaSource(g.code);
  } catch (const CodegenError &e) {
    g.error = e.what();
  }
  return g;
}

// A file of the repository, by its path from the root.
inline std::string fileText(const std::string &relative) {
  std::string path = std::string(FUSERC_SOURCE_DIR) + "/" + relative;
  auto buffer = llvm::MemoryBuffer::getFile(path);
  EXPECT_TRUE(bool(buffer)) << path;
  return buffer ? (*buffer)->getBuffer().str() : "";
}

// The symbols of a kernel's variants, in the plan's order; and the same
// without the kernel's name and its "_".
inline std::vector<std::string> variantSymbols(const KernelPlan &k) {
  std::vector<std::string> symbols;
  for (const KernelVariant &v : k.variants)
    symbols.push_back(v.symbol);
  return symbols;
}
inline std::vector<std::string> variantSuffixes(const KernelPlan &k) {
  std::vector<std::string> suffixes;
  for (const KernelVariant &v : k.variants)
    suffixes.push_back(v.symbol.substr(k.name.size() + 1));
  return suffixes;
}

// The scheduler parameter `name` of a kernel plan ("" and a test failure
// when it has none).
inline std::string parameter(const KernelPlan &k, const std::string &name) {
  for (const ScheduleField &p : k.parameters)
    if (p.name == name)
      return scheduleValueString(p.value);
  ADD_FAILURE() << "no parameter " << name;
  return "";
}

// How many times `needle` occurs in `text` (overlapping occurrences too).
inline size_t occurrences(const std::string &text, const std::string &needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++n;
  return n;
}

inline void expectCompiles(const Generated &g,
                           std::vector<const char *> archs = {"sm_80", "sm_90"}) {
  ASSERT_EQ(g.error, "");
  for (const char *arch : archs) {
    NvrtcOutput out = compileWithNvrtc(g.source, "fusion.cu", arch, false, defaultNvrtcOptions());
    ASSERT_TRUE(out.ok) << arch << ":\n" << out.log << "\n" << g.source;
  }
}

// Host C text (the helpers headers paste in) checked by running it: writes
// `source` as NAME.c, compiles it with the system C compiler (C99, -Werror)
// and runs it. The exit status, 0 when every check in it passed.
inline int compileAndRunC(const std::string &name, const std::string &source) {
  llvm::SmallString<128> dir;
  if (llvm::sys::fs::createUniqueDirectory("fuserc-" + name, dir))
    return -1;
  const std::string c = std::string(dir) + "/" + name + ".c", exe = std::string(dir) + "/" + name;
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(c, ec);
    if (ec)
      return -1;
    os << source;
  }
  int status = std::system(("cc -std=c99 -Wall -Wextra -Werror -o " + exe + " " + c).c_str());
  if (status == 0)
    status = std::system(exe.c_str());
  llvm::sys::fs::remove_directories(dir);
  return status;
}

} // namespace fuserc::test
