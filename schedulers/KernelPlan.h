// What code generation hands to packaging for one fusion: the CUDA source of
// all its kernels, and per kernel what the header needs to launch it and the
// manifest needs to describe it.
//
// Host code contract. `hostLaunch` is a block of C99 statements placed in
// the body of `NAME_F_launch` after validation. In scope there:
//   - `const DLTensor *in_<input>` for each tensor input, `<ctype> in_<input>`
//     for each scalar input, `DLTensor *out_<output>` for each output (names
//     as in the fusion);
//   - `int64_t sym_<S>` for each symbolic extent, bound and checked;
//   - `int64_t stride_<input>_<d>`: every tensor input's element strides
//     (from the DLTensor, or dense when it has none), and likewise
//     `ostride_<output>_<d>` for outputs (an output may have an input's
//     name: a copy of it in another layout);
//   - `char *ws`: the workspace base (NULL when the size is 0);
//   - `CUstream stream`;
//   - `NAME_status st;` and the function
//       static NAME_status NAME_launch_kernel(const char *kernel, unsigned grid_x,
//           unsigned grid_y, unsigned grid_z, unsigned block_x, unsigned shared_bytes,
//           void *args, CUstream stream);
//     which looks the kernel up (loading the library lazily) and launches it
//     with `args` as the single by-value kernel parameter (a struct), and
//       static NAME_status NAME_zero_words(void *p, size_t words, CUstream stream);
//     which zeroes 32-bit words of device memory in stream order.
// The block evaluates `st = NAME_launch_kernel(...)` and `return st;` when it
// is not NAME_OK. `NAME` in the block (and in `argsStruct`) is written
// `FUSERC_NAME` (`FUSERC_NAME_launch_kernel`, ...), the one placeholder of
// everything the header writer substitutes into generated C
// (packaging/HeaderParts.h, substitutePrefix).
//
// Workspace. `ws` holds, in order, each 256-aligned: the index flag when the
// fusion checks indices (IndexChecks.h: 256 bytes; a kernel whose segment
// indexes by tensor values has `int *index_error` in its argument struct,
// set to `(int *)ws`, and its code writes through `a.index_error`), the tensors passed
// between segments (KernelTensors.h), then one scratch area the kernels of
// the fusion share (they run one after another on `stream`), as large as
// the largest `scratchBytes` of its kernels. A generator that needs scratch
// is told the area's offset (a symbolic extent) before it writes its host
// block, which addresses it as `ws + <offset>`; it must use at most
// `scratchBytes` there, for every binding of the symbols.
#pragma once

#include "ir/Extent.h"
#include "schedulers/Schedule.h"

#include <map>

#include <string>
#include <vector>

namespace fuserc {

struct KernelVariant {
  std::string symbol;    // the __global__ function's name in the fatbin
  std::string condition; // when the host picks it, in words (for the manifest)
};

struct KernelPlan {
  std::string name;      // "<fusion>_k<segment>"
  std::string scheduler; // "pointwise", ...
  std::string family;    // its schedule's family (Schedule::family): "rows", ...
  int segment = 0;
  std::vector<std::string> ops; // the segment's ops, as printed names
  // The schedule's fields, then what the generator derived from them
  // (vector widths, tiles, ...), typed.
  std::vector<ScheduleField> parameters;
  std::vector<KernelVariant> variants;
  std::string selection;      // the variant selection rule, in words
  std::string launchGeometry; // grid/block formula, in words
  // What the variant budget (--variants) left out of this kernel and what
  // runs in its place, in words; empty when nothing.
  std::string leftOut;
  Extent bytesMoved;       // global-memory bytes read + written, symbolic
  std::string argsStruct;  // C definition of the kernel's by-value argument struct
  std::string hostLaunch;  // C statements (see the contract above)
  Extent scratchBytes = 0; // workspace scratch the host block uses, symbolic; 0 when none
  // The host block may launch in thread-block clusters or cooperatively
  // (NAME_launch_cluster_kernel, NAME_launch_cooperative_kernel, which the
  // header then defines).
  bool extendedLaunch = false;
};

// An indexing op whose out-of-range indices the launch reports (IndexChecks.h).
struct IndexCheck {
  int code;         // what the flag holds when this op met an index out of range
  std::string what; // the op and its index, in words, for the error message
};

// One segment's kernel, as a generator returns it.
struct EmittedKernel {
  KernelPlan plan;
  std::string source; // CUDA: argument struct and __global__ functions
  // `source` split into groups of variants that compile on their own (each
  // with the argument struct and the helpers it uses), compiled in
  // parallel; empty: one group, `source`.
  std::vector<std::string> parts;
  // C definitions its host block calls, by name: each name is defined once
  // per fusion (FusionCode::hostHelpers), in name order.
  std::map<std::string, std::string> hostHelpers;
};

struct FusionCode {
  std::string fusion;
  std::string cudaSource; // every kernel of the fusion, one translation unit
  std::vector<KernelPlan> kernels;
  // Per kernel (as `kernels`): the sources of its compile units (EmittedKernel::parts).
  std::vector<std::vector<std::string>> kernelUnits;
  Extent workspaceBytes;   // symbolic, crossing tensors and scratch; 0 when none
  std::string hostHelpers; // C definitions the host launch blocks share (may be empty)
  // The indexing ops whose out-of-range indices the launch reports, by code;
  // empty when none (then the workspace has no index flag).
  std::vector<IndexCheck> indexChecks;
  // Non-empty when no code could be generated: why (a segment whose
  // scheduler has no code generator yet). Only dumps without -o see this.
  std::string unsupported;
};

// What NVRTC compiles as one program: a kernel's source after the prelude.
// Each unit is compiled and cached on its own, and packaged as its own
// fatbinary (packaging/ModuleCompiler.h).
struct CompileUnit {
  std::string name;   // the kernel's name ("<fusion>_k<segment>"), or the module's
  std::string source; // the whole translation unit
};

} // namespace fuserc
