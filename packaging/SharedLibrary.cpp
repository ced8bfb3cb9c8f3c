// Compiling the header into libNAME.so (see SharedLibrary.h).
#include "packaging/SharedLibrary.h"

#include "support/FileBytes.h"
#include "support/TemporaryDirectory.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

#include <limits>

namespace fuserc {
namespace {

// $variable when set and not empty, else `configured`.
std::string fromEnvironment(const char *variable, const char *configured) {
  if (auto env = llvm::sys::Process::GetEnv(variable); env && !env->empty())
    return *env;
  return configured;
}

bool hasFile(const std::string &dir, const char *relative) {
  llvm::SmallString<256> p(dir);
  llvm::sys::path::append(p, relative);
  return llvm::sys::fs::exists(p);
}

} // namespace

bool findHostToolchain(HostToolchain &toolchain, std::string &error) {
  // A path must name an executable; a bare name is looked up on PATH.
  std::string compiler = fromEnvironment("FUSERC_CC", FUSERC_HOST_CC);
  if (compiler.empty())
    compiler = "cc";
  if (compiler.find('/') == std::string::npos) {
    if (auto onPath = llvm::sys::findProgramByName(compiler))
      toolchain.compiler = *onPath;
  } else if (llvm::sys::fs::can_execute(compiler)) {
    toolchain.compiler = compiler;
  }
  if (toolchain.compiler.empty()) {
    error = "--emit so: no C compiler '" + compiler + "'; set FUSERC_CC to one";
    return false;
  }
  std::string dlpack = fromEnvironment("FUSERC_DLPACK_INCLUDE", FUSERC_DLPACK_INCLUDE_DIR);
  if (!hasFile(dlpack, "dlpack/dlpack.h")) {
    error = "--emit so: no dlpack/dlpack.h in '" + dlpack +
            "'; set FUSERC_DLPACK_INCLUDE to the directory that holds it";
    return false;
  }
  std::string cuda = fromEnvironment("FUSERC_CUDA_INCLUDE", FUSERC_CUDA_INCLUDE_DIR);
  if (!hasFile(cuda, "cuda.h")) {
    error = "--emit so: no cuda.h in '" + cuda +
            "'; set FUSERC_CUDA_INCLUDE to the CUDA toolkit's include directory";
    return false;
  }
  toolchain.driverLibraryDir = fromEnvironment("FUSERC_CUDA_STUBS", FUSERC_CUDA_STUB_DIR);
  if (!hasFile(toolchain.driverLibraryDir, "libcuda.so")) {
    error = "--emit so: no libcuda.so in '" + toolchain.driverLibraryDir +
            "'; set FUSERC_CUDA_STUBS to the directory of the toolkit's stub (lib64/stubs)";
    return false;
  }
  toolchain.includeDirs = {dlpack, cuda};
  return true;
}

SharedLibraryResult buildSharedLibrary(const HostToolchain &toolchain, const std::string &name,
                                       const std::string &header, const std::string &source) {
  SharedLibraryResult result;
  TemporaryDirectory dir("fuserc-so");
  if (!dir.ok()) {
    result.error = "cannot create a temporary directory for the host compiler";
    return result;
  }
  std::string sourcePath = dir.file(name + ".c");
  std::string library = dir.file("lib" + name + ".so");
  if (!writeFileBytes(dir.file(name + ".h"), header) || !writeFileBytes(sourcePath, source)) {
    result.error = "cannot write into '" + dir.path() + "'";
    return result;
  }
  // -Bsymbolic: the library's calls between its own functions stay inside
  // it, whatever else the process has loaded.
  std::vector<std::string> args = {
      toolchain.compiler, "-shared", "-fPIC", "-O2", "-std=c99", "-x", "c", "-", "-I", dir.path()};
  for (const std::string &include : toolchain.includeDirs)
    args.insert(args.end(), {"-isystem", include});
  args.insert(args.end(), {"-o", library, "-L", toolchain.driverLibraryDir, "-lcuda", "-lpthread",
                           "-Wl,-Bsymbolic"});
  std::vector<llvm::StringRef> argv(args.begin(), args.end());
  std::string messages = dir.file("messages.txt");
  llvm::Optional<llvm::StringRef> redirects[] = {
      llvm::StringRef(sourcePath), llvm::StringRef(messages), llvm::StringRef(messages)};
  std::string message;
  int rc =
      llvm::sys::ExecuteAndWait(toolchain.compiler, argv, llvm::None, redirects, 0, 0, &message);
  if (rc != 0) {
    std::string command;
    for (const std::string &a : args)
      command += (command.empty() ? "" : " ") + a;
    auto text = llvm::MemoryBuffer::getFile(messages);
    result.error = "--emit so: the host compiler failed" + (message.empty() ? "" : ": " + message) +
                   "\n" + command + (text ? "\n" + (*text)->getBuffer().str() : "");
    return result;
  }
  std::optional<std::string> bytes = readFileBytes(library, std::numeric_limits<uint64_t>::max());
  if (!bytes) {
    result.error = "--emit so: the host compiler wrote no '" + library + "'";
    return result;
  }
  result.bytes = std::move(*bytes);
  result.ok = true;
  return result;
}

} // namespace fuserc
