// The toolkit's command-line programs (see ToolkitProgram.h).
#include "packaging/ToolkitProgram.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

namespace fuserc {

std::string findToolkitProgram(const char *name, const char *envVariable) {
  if (auto env = llvm::sys::Process::GetEnv(envVariable); env && !env->empty())
    return *env;
#ifdef FUSERC_CUDA_BIN_DIR
  llvm::SmallString<256> configured(FUSERC_CUDA_BIN_DIR);
  llvm::sys::path::append(configured, name);
  if (llvm::sys::fs::can_execute(configured))
    return std::string(configured);
#endif
  if (auto onPath = llvm::sys::findProgramByName(name))
    return *onPath;
  return "";
}

std::string programIdentity(const std::string &path) {
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status))
    return path + " (missing)";
  return path + " " + std::to_string(status.getSize()) + " bytes, modified " +
         std::to_string(llvm::sys::toTimeT(status.getLastModificationTime()));
}

ToolkitRun runToolkitProgram(const std::string &program, const std::vector<std::string> &args,
                             const std::string &stderrFile) {
  ToolkitRun run;
  std::vector<llvm::StringRef> argv(args.begin(), args.end());
  llvm::Optional<llvm::StringRef> redirects[] = {llvm::None, llvm::None,
                                                 llvm::StringRef(stderrFile)};
  std::string message;
  const int rc = llvm::sys::ExecuteAndWait(program, argv, llvm::None, redirects, 0, 0, &message);
  if (auto text = llvm::MemoryBuffer::getFile(stderrFile))
    run.errText = (*text)->getBuffer().str();
  run.ok = rc == 0;
  if (!run.ok)
    run.error = "'" + program + "' failed" + (message.empty() ? "" : ": " + message) +
                (run.errText.empty() ? "" : "\n" + run.errText);
  return run;
}

} // namespace fuserc
