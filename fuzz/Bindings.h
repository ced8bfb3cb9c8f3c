// Symbol bindings to run a generated fusion at (fuserc-fuzzgen --bindings):
// every symbol 1, small primes, sizes that are not multiples of 8 (vector
// widths), and one symbol large (4096 to 65537, where schedulers pick split,
// cached or streaming variants), each within a cap on the elements of all
// the fusion's values together, so the CPU reference stays fast. Index
// inputs get their value range at each binding.
#pragma once

#include "FusionGenerator.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace fuserc::fuzz {

// A deterministic byte stream (splitmix64): the same seed gives the same
// bytes, and so the same fusion, on every machine.
std::vector<uint8_t> seedBytes(uint64_t seed, size_t count);

struct Binding {
  std::string label; // "ones", "primes", "odd", "large", "special"
  SymbolBindings symbols;
  // Integer inputs' values lie in [low, high).
  std::map<std::string, std::pair<int64_t, int64_t>> intRanges;
  bool special = false; // inputs may hold +-0, +-inf and NaN
  int64_t elements = 0; // of every input and op result together
};

// At least three bindings (fewer only when the fusion exceeds the cap at
// every binding tried); `seed` picks among the candidate sizes.
std::vector<Binding> chooseBindings(const GeneratedFusion &fusion, uint64_t seed,
                                    int64_t maxElements);

} // namespace fuserc::fuzz
