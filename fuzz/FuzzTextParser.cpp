// libFuzzer target for the text frontend: arbitrary bytes as a `.fus` file
// (lexer, parser, attribute conversion, IR building).
#include "LoadSource.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuserc::fuzz::loadAsFile("input.fus", data, size);
  return 0;
}
