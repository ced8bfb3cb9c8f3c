// Symbol bindings for generated fusions (see Bindings.h).
#include "Bindings.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace fuserc::fuzz {
namespace {

uint64_t splitmix64(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

constexpr int64_t kHuge = int64_t{1} << 62;

int64_t saturatingMul(int64_t a, int64_t b) { return (b != 0 && a > kHuge / b) ? kHuge : a * b; }

// The elements of every value at `symbols`, or nullopt when an extent is
// negative there (`N - 2` at N = 1) or an index range is empty.
std::optional<int64_t> elementsAt(const GeneratedFusion &fusion, const SymbolBindings &symbols) {
  int64_t total = 0;
  for (const std::vector<Extent> &shape : fusion.valueShapes) {
    int64_t n = 1;
    for (const Extent &e : shape) {
      std::optional<int64_t> v = e.evaluate(symbols);
      if (!v || *v < 0)
        return std::nullopt;
      n = saturatingMul(n, *v);
    }
    total = n > kHuge - total ? kHuge : total + n;
  }
  for (const auto &[name, bound] : fusion.indexBounds) {
    std::optional<int64_t> v = bound.evaluate(symbols);
    if (!v || *v < 1)
      return std::nullopt;
  }
  return total;
}

// `symbols`, raised where extents would be negative, then halved (largest
// symbol first) until the fusion fits in `maxElements`; nullopt when it
// cannot.
std::optional<Binding> fit(const GeneratedFusion &fusion, SymbolBindings symbols,
                           int64_t maxElements) {
  if (!elementsAt(fusion, symbols)) {
    static constexpr int64_t kFloors[] = {4, 8, 16, 64};
    for (int64_t floor : kFloors) {
      SymbolBindings raised = symbols;
      for (auto &[name, value] : raised)
        value = std::max(value, floor);
      if (elementsAt(fusion, raised)) {
        symbols = raised;
        break;
      }
    }
  }
  for (int step = 0; step < 128; ++step) {
    std::optional<int64_t> elements = elementsAt(fusion, symbols);
    if (!elements)
      return std::nullopt;
    if (*elements <= maxElements) {
      Binding b;
      b.symbols = symbols;
      b.elements = *elements;
      for (const auto &[name, bound] : fusion.indexBounds)
        b.intRanges[name] = {0, *bound.evaluate(symbols)};
      return b;
    }
    auto largest =
        std::max_element(symbols.begin(), symbols.end(),
                         [](const auto &a, const auto &b) { return a.second < b.second; });
    if (largest == symbols.end() || largest->second <= 1)
      return std::nullopt;
    largest->second = (largest->second + 1) / 2;
  }
  return std::nullopt;
}

} // namespace

std::vector<uint8_t> seedBytes(uint64_t seed, size_t count) {
  std::vector<uint8_t> bytes;
  bytes.reserve(count + 8);
  uint64_t state = seed;
  while (bytes.size() < count) {
    uint64_t word = splitmix64(state);
    for (int i = 0; i < 8 && bytes.size() < count; ++i)
      bytes.push_back(static_cast<uint8_t>(word >> (8 * i)));
  }
  return bytes;
}

std::vector<Binding> chooseBindings(const GeneratedFusion &fusion, uint64_t seed,
                                    int64_t maxElements) {
  static constexpr int64_t kPrimes[] = {7, 13, 5, 11, 3};
  static constexpr int64_t kOdd[] = {33, 101, 17, 65, 1001, 255};
  static constexpr int64_t kLarge[] = {4096, 4099, 8192, 12289, 16384, 32768, 65536, 65537};
  static constexpr int64_t kBeside[] = {1, 2, 3, 5};
  uint64_t state = seed ^ 0x6a09e667f3bcc908ULL;
  auto pick = [&](std::span<const int64_t> options) {
    return options[splitmix64(state) % options.size()];
  };
  const std::vector<std::string> &symbols = fusion.symbols;

  std::vector<std::pair<std::string, SymbolBindings>> candidates;
  auto add = [&](std::string label, auto valueOf) {
    SymbolBindings b;
    for (size_t i = 0; i < symbols.size(); ++i)
      b[symbols[i]] = valueOf(i);
    candidates.emplace_back(std::move(label), std::move(b));
  };
  size_t rotation = splitmix64(state) % std::size(kPrimes);
  add("ones", [](size_t) { return int64_t{1}; });
  add("primes", [&](size_t i) { return kPrimes[(rotation + i) % std::size(kPrimes)]; });
  size_t oddRotation = splitmix64(state) % std::size(kOdd);
  add("odd", [&](size_t i) { return kOdd[(oddRotation + i) % std::size(kOdd)]; });
  if (!symbols.empty()) {
    size_t big = splitmix64(state) % symbols.size();
    int64_t large = pick(kLarge);
    std::vector<int64_t> beside;
    for (size_t i = 0; i < symbols.size(); ++i)
      beside.push_back(pick(kBeside));
    add("large", [&](size_t i) { return i == big ? large : beside[i]; });
  }

  std::vector<Binding> out;
  for (const auto &[label, symbolValues] : candidates) {
    std::optional<Binding> b = fit(fusion, symbolValues, maxElements);
    if (!b)
      continue;
    bool repeat = std::any_of(out.begin(), out.end(),
                              [&](const Binding &o) { return o.symbols == b->symbols; });
    if (repeat && !symbols.empty())
      continue;
    b->label = label;
    out.push_back(std::move(*b));
  }
  // Special values at the first small binding (the primes, usually).
  if (!out.empty()) {
    Binding special = out.size() > 1 ? out[1] : out[0];
    special.label = "special";
    special.special = true;
    out.push_back(std::move(special));
  }
  return out;
}

} // namespace fuserc::fuzz
