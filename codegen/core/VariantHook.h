// The testing hook through which a harness forces a kernel's other
// variants (docs/header.md, "Testing hook"). Compiled only where the
// including translation unit defines FUSERC_TEST_VARIANTS: each launch
// block asks `fuserc_test_variant(kernel, n)` for one of its n
// alternatives (or a negative number: the launch's own choice), applies
// that alternative where its conditions hold for the arguments (else keeps
// its own choice), and reports the kernel it launches through
// `fuserc_test_launched`. The harness defines both functions.
#pragma once

#include <string>
#include <vector>

namespace fuserc {

// One alternative: statements (`body`, one per line, unpadded) that apply
// it when `condition` holds for the launch's arguments.
struct ForcedVariant {
  std::string condition;
  std::string body;
};

// `int forced = fuserc_test_variant("kernel", alternatives);`
std::string variantHookPick(const std::string &kernel, size_t alternatives, const std::string &pad);
// The alternatives numbered from `first` (the numbers their launch block
// asked for in variantHookPick), each applied when picked and valid.
std::string variantHookForce(size_t first, const std::vector<ForcedVariant> &alternatives,
                             const std::string &pad);
// Reports the kernel the launch runs (`kernelExpr`: a C string expression).
std::string variantHookLaunched(const std::string &kernelExpr, const std::string &pad);

} // namespace fuserc
