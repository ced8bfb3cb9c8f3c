// The pieces the header writer (HeaderWriter.h) assembles, shared by its
// implementation files: the runtime support every header carries
// (HeaderRuntime.cpp, from the C files of runtime/), and per fusion the
// interface model (HeaderFusionModel.cpp), the validation functions
// (HeaderValidation.cpp) and the public entry points (HeaderEntryPoints.cpp).
//
// Everything fuserc substitutes into generated C names the header's prefix
// NAME the one way, kNamePlaceholder: the runtime files and the host code
// from codegen (codegen/KernelPlan.h) write `FUSERC_NAME_status`,
// `FUSERC_NAME_launch_kernel`, ..., which are C identifiers, so the files
// compile on their own (tests/runtime/); substitutePrefix spells them
// `NAME_status`, ...
#pragma once

#include "ir/Fusion.h"
#include "schedulers/KernelPlan.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fuserc::header {

inline constexpr std::string_view kNamePlaceholder = "FUSERC_NAME";
// `text` with every kNamePlaceholder replaced by `prefix`.
std::string substitutePrefix(std::string_view text, std::string_view prefix);
// Whether `identifier` occurs in `code` as a whole token.
bool mentions(std::string_view code, std::string_view identifier);

// The status enum, NAME_last_error and NAME_unload.
std::string runtimeDeclarations(const std::string &prefix);
// Everything the fusions' implementations share: includes, the extent
// helpers, error reporting, argument checks, the embedded fatbin, its loader
// and NAME_launch_kernel, and with `extendedLaunch` (a kernel launches in
// thread-block clusters or cooperatively) NAME_clusters_supported,
// NAME_launch_cluster_kernel, NAME_cooperative_fits and
// NAME_launch_cooperative_kernel, which headers without such kernels leave
// out: they need no cuLaunchKernelEx (CUDA 12.0 and newer drivers). `fatbin`
// holds one fatbinary per image, starting at `imageOffsets` (at least one);
// `kernels` lists every kernel symbol with the image holding it.
struct EmbeddedKernel {
  std::string symbol;
  size_t image = 0;
};
std::string runtimeImplementation(const std::string &prefix,
                                  const std::vector<EmbeddedKernel> &kernels,
                                  const std::string &fatbin,
                                  const std::vector<size_t> &imageOffsets, bool extendedLaunch);
// The file-scope identifiers runtimeDeclarations and runtimeImplementation
// define, without the prefix ("status", "launch_kernel", ...).
const std::vector<std::string> &runtimeIdentifiers();

// Where a symbolic extent gets its value: the first dim of a tensor input
// (in argument order) that is exactly the symbol; else the first whose
// extent is `coefficient*symbol + rest`, with every symbol of `rest` bound
// before it (an input declared `[N, 32*G]` binds G as extent / 32).
struct SymbolSource {
  std::string input;
  size_t dim = 0;
  int64_t coefficient = 1;
  std::optional<Extent> rest; // set when the symbol is solved for
};

// Every symbol of the fusion's tensor inputs with its source, in the order
// the wrappers bind them: those a dim is exactly, then those solved for.
std::vector<std::pair<std::string, SymbolSource>> symbolBindings(const Fusion &fusion);

// What the header needs to know about one fusion, checked once.
struct FusionModel {
  std::string prefix;       // NAME
  std::string fusionPrefix; // NAME__F (fusionSymbolPrefix)
  const Fusion *fusion = nullptr;
  const FusionCode *code = nullptr; // null when the fusion has no kernels
  std::vector<const Value *> tensorInputs;
  std::map<std::string, SymbolSource> symbols; // every symbol the header evaluates
  std::vector<std::string> solvedSymbols;      // those solved for, in binding order
  // Outputs whose name is also an input's (views of it): they get no
  // `stride_<name>_<d>` variables, which would clash with the input's.
};

// The model of `fusion`, or an error message.
struct FusionModelResult {
  FusionModel model;
  std::string error;
};
FusionModelResult buildFusionModel(const std::string &prefix, const Fusion &fusion,
                                   const FusionCode *code);

// The file-scope identifiers a fusion adds, without NAME_ ("F_launch", ...).
std::vector<std::string> fusionIdentifiers(const FusionModel &model);

// `extent` as C code, reading symbols and `x.strideK` through `bound`
// ("b->" or "bound.").
std::string boundExtent(const Extent &extent, std::string_view bound);
// The same, every step checked: FUSERC_OVERFLOW when one overflows int64
// (the header's size computations from user-supplied extents and strides).
std::string checkedBoundExtent(const Extent &extent, std::string_view bound);
// The DLPack type code of a dtype, as C ("kDLFloat"; bool: NAME_DL_BOOL).
std::string dlpackCode(DType dtype, const std::string &prefix);
std::string cScalarType(DType dtype);
// "(0, 2, 3, 1)"
std::string layoutText(const Layout &layout);
// The memory order of an output or tensor input; row-major when none is set.
Layout outputLayout(const FusionOutput &output);
Layout inputLayout(const Value &input);
// `head(arg, arg, ...)` wrapped at 100 columns, continuation lines aligned
// after the parenthesis; `tail` follows the closing parenthesis.
std::string wrapCall(const std::string &head, const std::vector<std::string> &args,
                     const std::string &tail, size_t indent = 0);

// Code from codegen, substituted (substitutePrefix), every non-empty line
// indented by `indent`.
std::string pasted(const std::string &text, const std::string &prefix, size_t indent);

// The validation section of one fusion: the bound/expected structs,
// NAME_F_bind_inputs, NAME_F_expect_outputs, NAME_F_workspace_bytes.
std::string validationFunctions(const FusionModel &model);
// The prototypes and macros of one fusion (the declaration section).
std::string entryPointDeclarations(const FusionModel &model);
// describe_outputs, workspace_size and launch with the pasted host code.
std::string entryPointDefinitions(const FusionModel &model);

} // namespace fuserc::header
