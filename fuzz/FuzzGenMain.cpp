// fuserc-fuzzgen: the fusion generator (FusionGenerator.h) on the command
// line, for the differential fuzzer gpu/fuzz_diff.py. A seed becomes bytes
// through a fixed PRNG (Bindings.h, seedBytes), so a seed names the same
// fusion on every machine:
//
//   fuserc-fuzzgen --seed 7               the fusion f7 as `.fus` text
//   fuserc-fuzzgen --seed 7 --count 100   f7 ... f106, one after the other
//   fuserc-fuzzgen --seed 7 --bindings    JSON: the symbol bindings to run
//                                         each at, with index input ranges
//
// Exit codes: 0 success, 2 usage error.
#include "Bindings.h"
#include "FusionGenerator.h"

#include "support/Json.h"

#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

namespace fuserc::fuzz {
namespace {

// Enough for every choice of the largest fusions; once the bytes run out
// every choice is the first option.
constexpr size_t kBytesPerSeed = 8192;

struct Options {
  uint64_t seed = 0;
  uint64_t count = 1;
  bool bindings = false;
  int64_t maxElements = int64_t{1} << 24;
};

GeneratedFusion generate(uint64_t seed) {
  std::vector<uint8_t> bytes = seedBytes(seed, kBytesPerSeed);
  ByteReader reader(bytes);
  return generateFusion(reader, "f" + std::to_string(seed));
}

Json bindingJson(const Binding &b) {
  Json shape = Json::object();
  for (const auto &[symbol, value] : b.symbols)
    shape.set(symbol, value);
  Json ranges = Json::object();
  for (const auto &[name, range] : b.intRanges)
    ranges.set(name, Json::array().push(range.first).push(range.second));
  return Json::object()
      .set("label", b.label)
      .set("shape", shape)
      .set("int_ranges", ranges)
      .set("special", b.special)
      .set("elements", b.elements);
}

int run(const Options &options) {
  Json all = Json::array();
  for (uint64_t i = 0; i < options.count; ++i) {
    uint64_t seed = options.seed + i;
    GeneratedFusion fusion = generate(seed);
    if (!options.bindings) {
      llvm::outs() << (i ? "\n" : "") << "// fuserc-fuzzgen --seed " << seed << "\n" << fusion.text;
      continue;
    }
    Json bindings = Json::array();
    for (const Binding &b : chooseBindings(fusion, seed, options.maxElements))
      bindings.push(bindingJson(b));
    all.push(Json::object()
                 .set("seed", seed)
                 .set("fusion", fusion.name)
                 .set("symbols", Json::strings(fusion.symbols))
                 .set("bindings", bindings));
  }
  if (options.bindings)
    llvm::outs() << all.print(JsonLayout::ShortListsInline);
  return 0;
}

} // namespace
} // namespace fuserc::fuzz

int main(int argc, char **argv) {
  fuserc::fuzz::Options options;
  CLI::App app{"fuserc-fuzzgen: generated fusions (and bindings to run them at) from seeds",
               "fuserc-fuzzgen"};
  app.add_option("--seed", options.seed, "the first seed")->required();
  app.add_option("--count", options.count, "how many seeds, from --seed on (default 1)")
      ->check(CLI::PositiveNumber);
  app.add_flag("--bindings", options.bindings,
               "print the symbol bindings (JSON) instead of the fusions");
  app.add_option("--max-elements", options.maxElements,
                 "cap on the elements of all of a fusion's values at one binding (default 2^24)")
      ->check(CLI::PositiveNumber);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  return fuserc::fuzz::run(options);
}
