// Name suggestions for misspellings (see Suggestions.h).
#include "frontend/Suggestions.h"

#include <algorithm>

namespace fuserc {

// The closest candidate within a small edit distance, or "". A candidate
// that differs in every character (`q` and `u`) is no plausible typo, so
// the distance must also be less than the longer name's length.
std::string closest(llvm::StringRef name, const std::vector<std::string> &candidates) {
  std::string best;
  unsigned bestDistance = std::max<unsigned>(2, name.size() / 3) + 1;
  for (const std::string &c : candidates) {
    // The lengths' difference is a lower bound of the distance.
    if (std::max(name.size(), c.size()) - std::min(name.size(), c.size()) >= bestDistance)
      continue;
    unsigned d = name.edit_distance(c, true, bestDistance);
    if (d < bestDistance && d < std::max(name.size(), c.size())) {
      bestDistance = d;
      best = c;
    }
  }
  return best;
}

// The "did you mean" tail of a message, or "".
std::string suggest(llvm::StringRef name, const std::vector<std::string> &candidates) {
  std::string best = closest(name, candidates);
  return best.empty() ? "" : "; did you mean '" + best + "'?";
}

} // namespace fuserc
