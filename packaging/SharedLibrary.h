// `--emit so`: the generated implementation (NAME.c) compiled with the host C
// compiler into libNAME.so, linked against the CUDA driver library, so that a
// program (the Python package, a dlopen) loads the kernels with no compiler
// at run time. The toolchain is found once per run, before NVRTC, so a
// missing compiler or header fails fast.
#pragma once

#include <string>
#include <vector>

namespace fuserc {

struct HostToolchain {
  std::string compiler;                 // a C compiler taking gcc's flags
  std::vector<std::string> includeDirs; // dlpack's and the CUDA toolkit's headers
  std::string driverLibraryDir;         // holds libcuda.so (the toolkit's stub)
};

// The toolchain from the environment ($FUSERC_CC, $FUSERC_DLPACK_INCLUDE,
// $FUSERC_CUDA_INCLUDE, $FUSERC_CUDA_STUBS), else what fuserc was built with,
// else `cc` on PATH. False, with `error` naming what is missing and the
// variable that sets it, when a part cannot be found.
bool findHostToolchain(HostToolchain &toolchain, std::string &error);

struct SharedLibraryResult {
  bool ok = false;
  std::string error; // the command and the compiler's messages
  std::string bytes; // libNAME.so
};

// Compiles `source` (NAME.c, which includes `header`, NAME.h) into a shared
// library in a private temporary directory. The source comes from stdin, so
// no temporary path reaches the library: the bytes depend only on the two
// files and the toolchain.
SharedLibraryResult buildSharedLibrary(const HostToolchain &toolchain, const std::string &name,
                                       const std::string &header, const std::string &source);

} // namespace fuserc
