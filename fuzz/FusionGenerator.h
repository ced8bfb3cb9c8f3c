// The generator behind fuzz_pipeline: fuzz bytes in, `.fus` source out.
//
// Each statement is built against the real IR (ops, operand and attribute
// kinds from ops.td; result types from ir/Inference.h), so nearly every
// generated fusion is valid and reaches the passes, segmentation and code
// generation instead of stopping at a frontend diagnostic. The output is
// text, not IR, so that a crashing input can be printed as a `.fus` file
// and become a regression test as it is.
#pragma once

#include "ByteReader.h"

#include "ir/Extent.h"

#include <string>

namespace fuserc::fuzz {

struct GeneratedSource {
  std::string text;         // one or more fusions in the text form
  SymbolBindings shapes;    // --shape bindings to compile with
  bool dotSegments = false; // --dump-format=dot
};

GeneratedSource generateSource(ByteReader &bytes);

} // namespace fuserc::fuzz
