// fatbinary invocation (see Fatbinary.h).
#include "packaging/Fatbinary.h"

#include "support/FileBytes.h"
#include "support/TemporaryDirectory.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>

namespace fuserc {
std::string findFatbinary() {
  if (auto env = llvm::sys::Process::GetEnv("FUSERC_FATBINARY"); env && !env->empty())
    return *env;
#ifdef FUSERC_CUDA_BIN_DIR
  llvm::SmallString<256> configured(FUSERC_CUDA_BIN_DIR);
  llvm::sys::path::append(configured, "fatbinary");
  if (llvm::sys::fs::can_execute(configured))
    return std::string(configured);
#endif
  if (auto onPath = llvm::sys::findProgramByName("fatbinary"))
    return *onPath;
  return "";
}

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
  std::vector<llvm::StringRef> argv(args.begin(), args.end());
  std::string errors = dir.file("stderr.txt");
  llvm::Optional<llvm::StringRef> redirects[] = {llvm::None, llvm::None, llvm::StringRef(errors)};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(fatbinaryPath, argv, llvm::None, redirects, 0, 0, &message);
  if (rc != 0) {
    auto text = llvm::MemoryBuffer::getFile(errors);
    result.error = "'" + fatbinaryPath + "' failed" + (message.empty() ? "" : ": " + message) +
                   (text ? "\n" + (*text)->getBuffer().str() : "");
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
