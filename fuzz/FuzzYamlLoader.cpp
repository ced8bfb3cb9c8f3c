// libFuzzer target for the YAML frontend: arbitrary bytes as a `.yaml` file
// (yaml-cpp, our YAML loader, statement strings parsed by the text parser).
#include "LoadSource.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuserc::fuzz::loadAsFile("input.yaml", data, size);
  return 0;
}
