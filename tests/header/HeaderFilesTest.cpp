// Writes the generated headers the compile tests of tests/header/ build
// (CMakeLists.txt there): kernels.h with the fusions `scale` and `views`,
// other.h with `mask` and `take` (tests/unit/PackagingFixtures.h), each embedding a real
// fatbin of the fixtures' kernels (NVRTC for sm_80 and sm_90 plus PTX).
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
                    const std::vector<FusionCode> &code) {
  auto compiled = test::compile(source);
  ASSERT_TRUE(compiled->ok) << compiled->diagnostics;
  test::BuiltKernels kernels = test::buildKernels(code);
  ASSERT_TRUE(kernels.error.empty()) << kernels.error;
  HeaderResult header = writeHeader(name, compiled->module, code, kernels.fatbin);
  ASSERT_TRUE(header.ok) << header.error;
  writeFile(std::string(FUSERC_HEADER_TEST_DIR) + "/" + name + ".h", header.text);
}

TEST(HeaderFiles, WritesTheHeadersTheCompileTestsBuild) {
  writeHeaderFor(test::kScaleAndViews, "kernels", {test::scaleCode(), test::viewsCode()});
  writeHeaderFor(test::kMaskAndTake, "other", {test::maskCode(), test::takeCode()});
}

} // namespace
} // namespace fuserc
