// Packaging compiled images into one fatbinary with the CUDA toolkit's
// `fatbinary` tool: a cubin per architecture plus PTX.
#pragma once

#include <string>
#include <vector>

namespace fuserc {

struct FatbinImage {
  std::string sm;   // "90"
  bool ptx = false; // PTX (true) or cubin (false)
  std::string bytes;
};

struct FatbinResult {
  bool ok = false;
  std::string error;
  std::string bytes;
};

// Runs `fatbinaryPath` over the images (written to a private temporary
// directory, removed afterwards). Deterministic for the same images.
FatbinResult makeFatbinary(const std::string &fatbinaryPath,
                           const std::vector<FatbinImage> &images);

// The toolkit's fatbinary: $FUSERC_FATBINARY, else the one found at build
// time, else `fatbinary` on PATH; empty when none exists.
std::string findFatbinary();

} // namespace fuserc
