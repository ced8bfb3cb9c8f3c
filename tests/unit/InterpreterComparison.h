// The check that two interpreter runs of a fusion (before and after a pass)
// give the same outputs: integers equal, NaN where the other is NaN, the
// outputs `exact` names and infinities equal, other floats within
// decompositionTolerance (shared by the pass-equivalence and
// reduction-splitting tests).
#pragma once

#include "RandomInputs.h"

#include "ir/interp/Interpreter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

namespace fuserc::test {

inline void expectSameOutputs(const InterpreterResult &before, const InterpreterResult &after,
                              const std::function<bool(size_t)> &exact, const std::string &what) {
  ASSERT_TRUE(before.ok) << what << ": " << before.error;
  ASSERT_TRUE(after.ok) << what << ": " << after.error;
  ASSERT_EQ(before.outputs.size(), after.outputs.size()) << what;
  for (size_t o = 0; o < before.outputs.size(); ++o) {
    const Tensor &a = before.outputs[o];
    const Tensor &b = after.outputs[o];
    ASSERT_EQ(a.dtype(), b.dtype()) << what << " output " << o;
    ASSERT_EQ(a.shape(), b.shape()) << what << " output " << o;
    for (size_t i = 0; i < a.numel(); ++i) {
      const std::string where =
          what + " output " + std::to_string(o) + " element " + std::to_string(i);
      if (!a.isFloating()) {
        ASSERT_EQ(a.getInt(i), b.getInt(i)) << where;
        continue;
      }
      const double x = a.getFloat(i), y = b.getFloat(i);
      if (std::isnan(x) || std::isnan(y)) {
        ASSERT_TRUE(std::isnan(x) && std::isnan(y)) << where << ": " << x << " vs " << y;
      } else if (exact(o) || std::isinf(x)) {
        ASSERT_EQ(x, y) << where;
      } else {
        ASSERT_NEAR(x, y, decompositionTolerance(a.dtype()) * std::max(1.0, std::fabs(x))) << where;
      }
    }
  }
}

} // namespace fuserc::test
