// fatbinary invocation (see Fatbinary.h).
#include "packaging/Fatbinary.h"

#include "packaging/ToolkitProgram.h"
#include "support/FileBytes.h"
#include "support/TemporaryDirectory.h"

#include <limits>

namespace fuserc {
std::string findFatbinary() { return findToolkitProgram("fatbinary", "FUSERC_FATBINARY"); }

FatbinResult makeFatbinary(const std::string &fatbinaryPath,
                           const std::vector<FatbinImage> &images) {
  FatbinResult result;
  TemporaryDirectory dir("fuserc-fatbin");
  if (!dir.ok()) {
    result.error = "cannot create a temporary directory for fatbinary";
    return result;
  }
  std::vector<std::string> args = {fatbinaryPath, "--64", "--create=" + dir.file("out.fatbin")};
  for (size_t i = 0; i < images.size(); ++i) {
    const FatbinImage &image = images[i];
    std::string file = dir.file("image" + std::to_string(i) + (image.ptx ? ".ptx" : ".cubin"));
    if (!writeFileBytes(file, image.bytes)) {
      result.error = "cannot write '" + file + "'";
      return result;
    }
    args.push_back("--image3=kind=" + std::string(image.ptx ? "ptx" : "elf") + ",sm=" + image.sm +
                   ",file=" + file);
  }
  ToolkitRun run = runToolkitProgram(fatbinaryPath, args, dir.file("stderr.txt"));
  if (!run.ok) {
    result.error = run.error;
    return result;
  }
  std::optional<std::string> out =
      readFileBytes(dir.file("out.fatbin"), std::numeric_limits<uint64_t>::max());
  if (!out) {
    result.error = "fatbinary wrote no output";
    return result;
  }
  result.bytes = std::move(*out);
  result.ok = true;
  return result;
}

} // namespace fuserc
