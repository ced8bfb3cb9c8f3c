// NVRTC compilation and the ptxas resource report (see NvrtcCompiler.h).
#include "packaging/NvrtcCompiler.h"

#include <nvrtc.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <regex>
#include <sstream>

namespace fuserc {
namespace {

struct ProgramDeleter {
  void operator()(nvrtcProgram *p) const {
    nvrtcDestroyProgram(p);
    delete p;
  }
};

std::string programLog(nvrtcProgram program) {
  size_t size = 0;
  if (nvrtcGetProgramLogSize(program, &size) != NVRTC_SUCCESS || size == 0)
    return "";
  std::string log(size, '\0');
  nvrtcGetProgramLog(program, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
    log.pop_back();
  return log;
}

int firstNumberAfter(const std::string &line, const std::regex &re) {
  std::smatch m;
  return std::regex_search(line, m, re) ? std::stoi(m[1].str()) : 0;
}

} // namespace

std::string withoutTimings(const std::string &log) {
  std::istringstream in(log);
  std::string line, out;
  while (std::getline(in, line))
    if (line.find("Compile time") == std::string::npos)
      out += line + "\n";
  return out;
}

std::string smNumber(const std::string &arch) {
  static const std::regex re("^sm_([0-9]{2,3}[a-z]?)$");
  std::smatch m;
  return std::regex_match(arch, m, re) ? m[1].str() : "";
}

std::vector<std::string> defaultNvrtcOptions() {
  std::string include;
  if (const char *env = std::getenv("FUSERC_CUDA_INCLUDE"); env && *env)
    include = env;
#ifdef FUSERC_CUDA_INCLUDE_DIR
  else
    include = FUSERC_CUDA_INCLUDE_DIR;
#endif
  // --fmad=false: each op rounds its result as the IR says. A multiply and
  // an add of different ops fused into one fma would make a value recomputed
  // at two uses differ (x - max(x) nonzero at the max: a softmax of inf or 0).
  // Explicit fmaf calls (libdevice, the prelude) still fuse.
  std::vector<std::string> options = {"-std=c++17", "--fmad=false"};
  if (!include.empty())
    options.push_back("-I" + include);
  return options;
}

std::vector<int> nvrtcSupportedArchs() {
  int count = 0;
  if (::nvrtcGetNumSupportedArchs(&count) != NVRTC_SUCCESS || count <= 0)
    return {};
  std::vector<int> archs(static_cast<size_t>(count));
  if (::nvrtcGetSupportedArchs(archs.data()) != NVRTC_SUCCESS)
    return {};
  std::sort(archs.begin(), archs.end());
  return archs;
}

std::string nvrtcVersionString() {
  int major = 0, minor = 0;
  ::nvrtcVersion(&major, &minor);
  return std::to_string(major) + "." + std::to_string(minor);
}

std::vector<KernelResources> parsePtxasReport(const std::string &log) {
  static const std::regex function("Function properties for ([A-Za-z_0-9]+)");
  static const std::regex stack("([0-9]+) bytes stack frame");
  static const std::regex stores("([0-9]+) bytes spill stores");
  static const std::regex loads("([0-9]+) bytes spill loads");
  static const std::regex registers("Used ([0-9]+) registers");
  static const std::regex smem("([0-9]+) bytes smem");
  std::map<std::string, KernelResources> byName;
  KernelResources *current = nullptr;
  std::istringstream in(log);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, function)) {
      current = &byName[m[1].str()];
      current->kernel = m[1].str();
      continue;
    }
    if (!current)
      continue;
    if (line.find("stack frame") != std::string::npos) {
      current->stackBytes = firstNumberAfter(line, stack);
      current->spillStoreBytes = firstNumberAfter(line, stores);
      current->spillLoadBytes = firstNumberAfter(line, loads);
    }
    if (line.find("Used ") != std::string::npos) {
      current->registers = firstNumberAfter(line, registers);
      current->sharedBytes = firstNumberAfter(line, smem);
    }
  }
  std::vector<KernelResources> result;
  for (auto &[name, r] : byName)
    result.push_back(r);
  return result;
}

NvrtcOutput compileWithNvrtc(const std::string &source, const std::string &sourceName,
                             const std::string &arch, bool wantPtx,
                             const std::vector<std::string> &options) {
  NvrtcOutput out;
  std::unique_ptr<nvrtcProgram, ProgramDeleter> program(new nvrtcProgram{});
  if (nvrtcCreateProgram(program.get(), source.c_str(), sourceName.c_str(), 0, nullptr, nullptr) !=
      NVRTC_SUCCESS) {
    delete program.release();
    out.log = "nvrtcCreateProgram failed";
    return out;
  }
  std::vector<std::string> all = {"--gpu-architecture=" + arch, "-Xptxas=-v"};
  all.insert(all.end(), options.begin(), options.end());
  std::vector<const char *> argv;
  for (const std::string &o : all)
    argv.push_back(o.c_str());
  nvrtcResult result = nvrtcCompileProgram(*program, static_cast<int>(argv.size()), argv.data());
  out.log = withoutTimings(programLog(*program));
  if (result != NVRTC_SUCCESS) {
    if (out.log.empty())
      out.log = nvrtcGetErrorString(result);
    return out;
  }
  size_t size = 0;
  nvrtcGetCUBINSize(*program, &size);
  out.cubin.resize(size);
  nvrtcGetCUBIN(*program, out.cubin.data());
  if (wantPtx) {
    nvrtcGetPTXSize(*program, &size);
    out.ptx.resize(size);
    nvrtcGetPTX(*program, out.ptx.data());
    while (!out.ptx.empty() && out.ptx.back() == '\0')
      out.ptx.pop_back();
  }
  out.resources = parsePtxasReport(out.log);
  out.ok = true;
  return out;
}

} // namespace fuserc
