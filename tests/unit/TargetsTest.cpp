// driver/Targets.h: which architectures fuserc compiles for, and
// nvrtcRejection, through which the pipeline fuzzer asks NVRTC about the
// CUDA it generated.
#include "driver/Targets.h"

#include <gtest/gtest.h>

namespace fuserc {
namespace {

TEST(Targets, NvrtcRejectionIsNothingForCudaNvrtcCompiles) {
  EXPECT_EQ(nvrtcRejection("extern \"C\" __global__ void k(float *p) { p[0] = 1.0f; }\n", "sm_90"),
            std::nullopt);
}

TEST(Targets, NvrtcRejectionIsNvrtcsLogForCudaItRejects) {
  // A single-piece cat once emitted an `else` without an `if`.
  std::optional<std::string> log = nvrtcRejection(
      "extern \"C\" __global__ void k(float *p) { else { p[0] = 1.0f; } }\n", "sm_90");
  ASSERT_TRUE(log.has_value());
  EXPECT_NE(log->find("error"), std::string::npos) << *log;
}

TEST(Targets, Sm75IsRefusedAndSm90Accepted) {
  EXPECT_TRUE(unsupportedArchitecture("sm_75").has_value());
  EXPECT_FALSE(unsupportedArchitecture("sm_90").has_value());
}

} // namespace
} // namespace fuserc
