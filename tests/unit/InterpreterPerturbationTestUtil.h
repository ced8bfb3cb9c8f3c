// Helpers of the perturbed-interpreter tests (InterpreterPerturbation*Test.cpp).
#pragma once

#include "InterpreterTestUtil.h"

namespace fuserc::testutil {

// One perturbed run: every computed value moved by +-2^-20, signs from `seed`.
inline InterpreterResult perturbedRun(const Fusion &fusion,
                                      const std::map<std::string, Tensor> &inputs, uint64_t seed) {
  InterpreterOptions options;
  options.perturbation = 0x1p-20;
  options.seed = seed;
  return interpret(fusion, inputs, {}, options);
}

// The runs of a pair of opposite draws: perturbations of +-2^-20 from one seed.
inline std::vector<InterpreterResult>
oppositeDraws(const Fusion &fusion, const std::map<std::string, Tensor> &inputs, uint64_t seed) {
  std::vector<InterpreterResult> runs;
  for (double direction : {1.0, -1.0}) {
    InterpreterOptions options;
    options.perturbation = direction * 0x1p-20;
    options.seed = seed;
    runs.push_back(interpret(fusion, inputs, {}, options));
  }
  return runs;
}

// The GPU fuzzer's third draw: +2^-20 from `seed`, differences within
// their moves of zero exactly 0 (InterpreterOptions::cancelToZero).
inline InterpreterResult cancellingRun(const Fusion &fusion,
                                       const std::map<std::string, Tensor> &inputs, uint64_t seed) {
  InterpreterOptions options;
  options.perturbation = 0x1p-20;
  options.seed = seed;
  options.cancelToZero = true;
  return interpret(fusion, inputs, {}, options);
}

} // namespace fuserc::testutil
