// A generator of valid fusions: fuzz bytes in, `.fus` source out. It drives
// the libFuzzer target fuzz_pipeline and fuserc-fuzzgen (the differential
// fuzzer's front half, gpu/fuzz_diff.py).
//
// Each statement is built against the real IR (ops, operand and attribute
// kinds from ops.td; result types from ir/Inference.h), so every generated
// fusion is valid and reaches the passes, segmentation and code generation
// instead of stopping at a frontend diagnostic. Besides ops drawn at random
// from the table, patterns write what users write: reductions broadcast
// back against their input (along reduced and along kept dims), 0-d
// results used later, chains of views, pads and cats, indexing with index
// inputs whose value range is known, composites with their parameters,
// several outputs of different ranks with pinned layouts and in-place
// updates. The output is text, not IR, so that a failing case can be
// printed as a `.fus` file and become a regression test as it is.
#pragma once

#include "ByteReader.h"

#include "ir/Extent.h"

#include <map>
#include <string>
#include <vector>

namespace fuserc::fuzz {

// What a harness needs to run one generated fusion.
struct GeneratedFusion {
  std::string name;
  std::string text; // `fusion NAME { ... }`
  // Every symbol of its input shapes, sorted.
  std::vector<std::string> symbols;
  // Integer inputs used as indices: values must lie in [0, bound).
  std::map<std::string, Extent> indexBounds;
  // The shape of every input and op result, for sizing symbol bindings.
  std::vector<std::vector<Extent>> valueShapes;
};

struct GeneratedSource {
  std::string text; // one or more fusions in the text form
  std::vector<GeneratedFusion> fusions;
  SymbolBindings shapes;    // --shape bindings to compile with
  bool dotSegments = false; // --dump-format=dot
};

// One fusion called `name`.
GeneratedFusion generateFusion(ByteReader &bytes, const std::string &name);

// One or two fusions (f0, f1) and compile options, for fuzz_pipeline.
GeneratedSource generateSource(ByteReader &bytes);

} // namespace fuserc::fuzz
