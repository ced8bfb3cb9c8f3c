// Shared by the row reduction codegen tests (RowReductionCodegenTest.cpp,
// RowSplitCodegenTest.cpp): the checks of a fusion's one row kernel.
#pragma once

#include "CodegenTestSupport.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fuserc::test {

// The one kernel of the one fusion, which must be a row reduction of
// `scheduler`: every contiguous variant at the widest vector and at 1
// (the split one where it applies, else the grid one: a kernel with
// scratch has one of them, the grid one with combine slots), then the
// general ones; under the default budget the cached variants at the widest
// vector run one kernel.
inline const KernelPlan &onlyRowKernel(const Generated &g, const std::string &scheduler,
                                       VariantBudget budget = VariantBudget::Default) {
  EXPECT_EQ(g.code.size(), 1u);
  EXPECT_EQ(g.code.at(0).kernels.size(), 1u);
  const KernelPlan &k = g.code.at(0).kernels.at(0);
  EXPECT_EQ(k.scheduler, scheduler);
  const std::string vector = parameter(k, "vector");
  std::vector<std::string> expected;
  for (const char *shape : {"t1x8", "g8x8", "w32x8", "w32x16", "w32x32", "b128x16", "b128x32",
                            "b256x32", "b512x32", "m512", "m1024", "c512", "s512", "g512"}) {
    const bool grid = k.argsStruct.find("char *slots;") != std::string::npos;
    if (std::string(shape) == "c512" &&
        !(k.extendedLaunch && k.hostLaunch.find("_c512") != std::string::npos))
      continue; // rows without a cache have no cluster variant
    if (std::string(shape) == "s512" && (k.scratchBytes.isConstant(0) || grid))
      continue; // segments of more than one phase have no split variant
    if (std::string(shape) == "g512" && !grid)
      continue;
    // The default budget's one cached kernel at the widest vector.
    const bool cached = std::string(shape) == "m512" || std::string(shape) == "m1024";
    if (budget == VariantBudget::Default && cached && vector != "1") {
      if (std::string(shape) == "m512")
        expected.push_back("v" + vector + "_m");
    } else {
      expected.push_back("v" + vector + "_" + shape);
    }
    // At vectors of 1, the register variants of at most 16 elements per
    // thread; the cached ones.
    const bool narrow = std::string(shape).find("x32") == std::string::npos;
    if (vector != "1" && narrow)
      expected.push_back(std::string("v1_") + shape);
    // Rows off the vector boundary over 256 positions, up to 2048: the
    // headed kernels.
    const std::string s = shape;
    if (vector != "1" && (s == "w32x16" || s == "w32x32" || s == "b128x16"))
      expected.push_back("h" + vector + "_" + shape);
  }
  for (const char *general : {"warp32x4", "block256x4", "loop512"})
    expected.push_back(general);
  EXPECT_EQ(variantSuffixes(k), expected);
  return k;
}

// The text of kernel `name` in the module.
inline std::string kernelText(const std::string &source, const std::string &name) {
  const size_t at = source.find(name + "(");
  if (at == std::string::npos)
    return "";
  return source.substr(at, source.find("extern \"C\"", at) - at);
}

} // namespace fuserc::test
