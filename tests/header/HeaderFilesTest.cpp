// Writes the generated files the compile tests of tests/header/ build
// (CMakeLists.txt there): kernels.h and kernels.c (the split form) with the
// fusions `scale` and `views`, other.h (the single-header form) with `mask`
// and `take` (tests/unit/PackagingFixtures.h), each embedding a real fatbin
// of the fixtures' kernels (NVRTC for sm_80 and sm_90 plus PTX).
#include "PackagingFixtures.h"
#include "packaging/HeaderWriter.h"

#include <gtest/gtest.h>

#include <fstream>

namespace fuserc {
namespace {

void writeFile(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  ASSERT_TRUE(out.good()) << path;
}

void writeHeaderFor(const char *source, const std::string &name,
                    const std::vector<FusionCode> &code, HeaderForm form) {
  auto compiled = test::compile(source);
  ASSERT_TRUE(compiled->ok) << compiled->diagnostics;
  test::BuiltKernels kernels = test::buildKernels(code);
  ASSERT_TRUE(kernels.error.empty()) << kernels.error;
  HeaderResult header = writeHeader(name, compiled->module, code, kernels.fatbin, form);
  ASSERT_TRUE(header.ok) << header.error;
  const std::string dir = std::string(FUSERC_HEADER_TEST_DIR) + "/";
  writeFile(dir + name + ".h", header.text);
  if (form == HeaderForm::Split)
    writeFile(dir + name + ".c", header.source);
}

TEST(HeaderFiles, WritesTheHeadersTheCompileTestsBuild) {
  writeHeaderFor(test::kScaleAndViews, "kernels", {test::scaleCode(), test::viewsCode()},
                 HeaderForm::Split);
  writeHeaderFor(test::kMaskAndTake, "other", {test::maskCode(), test::takeCode()},
                 HeaderForm::Single);
}

} // namespace
} // namespace fuserc
