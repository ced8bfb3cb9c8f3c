// ptxas invocation (see Ptxas.h).
#include "packaging/Ptxas.h"

#include "packaging/ToolkitProgram.h"
#include "support/FileBytes.h"
#include "support/TemporaryDirectory.h"

#include "llvm/Support/FileSystem.h"

#include <limits>

namespace fuserc {

std::string findPtxas() {
  std::string path = findToolkitProgram("ptxas", "FUSERC_PTXAS");
  return llvm::sys::fs::can_execute(path) ? path : "";
}

NvrtcOutput assembleWithPtxas(const std::string &ptxas, const std::string &ptx,
                              const std::string &name, const std::string &arch) {
  NvrtcOutput out;
  TemporaryDirectory dir("fuserc-ptxas");
  if (!dir.ok()) {
    out.log = "cannot create a temporary directory for ptxas";
    return out;
  }
  const std::string input = dir.file(name + ".ptx"), output = dir.file(name + ".cubin");
  if (!writeFileBytes(input, ptx)) {
    out.log = "cannot write '" + input + "'";
    return out;
  }
  ToolkitRun run = runToolkitProgram(ptxas, {ptxas, "-v", "-arch=" + arch, "-o", output, input},
                                     dir.file("stderr.txt"));
  out.log = withoutTimings(run.errText);
  if (!run.ok) {
    out.log = run.error;
    return out;
  }
  std::optional<std::string> cubin = readFileBytes(output, std::numeric_limits<uint64_t>::max());
  if (!cubin) {
    out.log = "ptxas wrote no output";
    return out;
  }
  out.cubin = std::move(*cubin);
  out.resources = parsePtxasReport(out.log);
  out.ok = true;
  return out;
}

} // namespace fuserc
