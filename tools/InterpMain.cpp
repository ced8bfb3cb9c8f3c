// fuserc-interp: the reference interpreter (ir/interp) on the command line.
// It reads a fusion's inputs from .npy files, evaluates the fusion on the
// CPU and writes every output as .npy: the oracle of the GPU tests
// (gpu/run_tests.py). `--signature` prints the fusions' inputs and outputs
// as JSON instead, so a harness can generate inputs without parsing fusions.
//
// Exit codes: 0 success; 1 bad input (fusion file, .npy files, values the
// interpreter rejects); 2 usage error; 3 outputs could not be written, or an
// internal error.
#include "frontend/Frontend.h"
#include "ir/interp/Interpreter.h"
#include "support/Json.h"
#include "tools/Npy.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

#include <charconv>
#include <cstdio>
#include <exception>

namespace fuserc {
namespace {

enum ExitCode : int { kSuccess = 0, kBadInput = 1, kUsageError = 2, kOutputError = 3 };

struct Options {
  std::string file;
  std::string fusion;
  std::string inputDir;
  std::string outputDir;
  std::vector<std::string> shapes;
  bool signature = false;
  InterpreterOptions evaluation;
};

int fail(int code, const std::string &message) {
  std::fprintf(stderr, "fuserc-interp: error: %s\n", message.c_str());
  return code;
}

// SYM=N pairs; nullopt (after printing why) when one is malformed.
std::optional<SymbolBindings> parseShapes(const std::vector<std::string> &shapes) {
  SymbolBindings bindings;
  for (const std::string &s : shapes) {
    const size_t eq = s.find('=');
    int64_t value = 0;
    const char *end = s.data() + s.size();
    auto [stop, ec] = eq == std::string::npos
                          ? std::from_chars_result{nullptr, std::errc::invalid_argument}
                          : std::from_chars(s.data() + eq + 1, end, value);
    if (eq == 0 || ec != std::errc() || stop != end || value < 0) {
      fail(kUsageError,
           "--shape: expected SYMBOL=N with N a non-negative integer, got '" + s + "'");
      return std::nullopt;
    }
    if (!bindings.emplace(s.substr(0, eq), value).second) {
      fail(kUsageError, "--shape: symbol '" + s.substr(0, eq) + "' is given twice");
      return std::nullopt;
    }
  }
  return bindings;
}

std::string fusionNames(const Module &module) {
  std::string names;
  for (const auto &f : module.fusions)
    names += (names.empty() ? "" : ", ") + f->name();
  return names;
}

// The fusion --fusion names, or the only one; null (after printing why).
const Fusion *selectFusion(const Module &module, const Options &options) {
  if (options.fusion.empty()) {
    if (module.fusions.size() == 1)
      return module.fusions.front().get();
    fail(kUsageError, "'" + options.file + "' holds " + std::to_string(module.fusions.size()) +
                          " fusions (" + fusionNames(module) + "); choose one with --fusion");
    return nullptr;
  }
  for (const auto &f : module.fusions)
    if (f->name() == options.fusion)
      return f.get();
  fail(kUsageError, "--fusion: '" + options.file + "' has no fusion '" + options.fusion +
                        "' (it has: " + fusionNames(module) + ")");
  return nullptr;
}

Json shapeJson(const std::vector<Extent> &shape) {
  Json out = Json::array();
  for (const Extent &e : shape) {
    if (std::optional<int64_t> c = e.constant())
      out.push(*c);
    else
      out.push(e.str());
  }
  return out;
}

Json layoutJson(const Layout &layout) {
  Json out = Json::array();
  for (int64_t d : layout)
    out.push(d);
  return out;
}

// Every fusion's inputs and outputs (names, dtypes, declared shapes and
// layouts), in declaration order; members sorted by key.
void printSignature(const Module &module) {
  Json fusions = Json::array();
  for (const auto &f : module.fusions) {
    Json inputs = Json::array();
    for (const Value *in : f->inputs())
      inputs.push(Json::object()
                      .set("dtype", dtypeName(in->dtype()))
                      .set("layout", layoutJson(in->layout()))
                      .set("name", in->name())
                      .set("scalar", in->isScalarInput())
                      .set("shape", shapeJson(in->shape()))
                      .set("strided", in->isStrided()));
    Json outputs = Json::array();
    for (const FusionOutput &out : f->outputs())
      outputs.push(Json::object()
                       .set("aliases", out.aliases ? Json(out.aliases->name()) : Json())
                       .set("dtype", dtypeName(out.value->dtype()))
                       .set("layout", out.pinnedLayout ? layoutJson(*out.pinnedLayout) : Json())
                       .set("name", out.name)
                       .set("shape", shapeJson(out.value->shape())));
    fusions.push(Json::object()
                     .set("inputs", inputs)
                     .set("name", f->name())
                     .set("outputs", outputs)
                     .set("symbols", Json::strings(f->symbols())));
  }
  llvm::outs() << Json::object().set("fusions", fusions).print(JsonLayout::OnePerLine);
}

// DIR/<input>.npy for every input; false (after printing why) on any error.
bool readInputs(const Fusion &fusion, const std::string &dir,
                std::map<std::string, Tensor> &inputs) {
  for (const Value *in : fusion.inputs()) {
    const std::string path = dir + "/" + in->name() + ".npy";
    std::string error;
    std::optional<NpyArray> array = readNpyFile(path, error);
    if (!array) {
      fail(kBadInput, "input '" + in->name() + "': " + error);
      return false;
    }
    if (array->shape.size() != in->rank()) {
      fail(kBadInput, "input '" + in->name() + "': '" + path + "' has rank " +
                          std::to_string(array->shape.size()) + ", but '" + in->name() +
                          "' is declared " +
                          (in->isScalarInput() ? std::string("a scalar (a 0-d array)")
                                               : "with rank " + std::to_string(in->rank())));
      return false;
    }
    std::optional<Tensor> tensor = npyToTensor(*array, in->dtype(), error);
    if (!tensor) {
      fail(kBadInput, "input '" + in->name() + "': '" + path + "': " + error);
      return false;
    }
    inputs.emplace(in->name(), std::move(*tensor));
  }
  return true;
}

int writeOutputs(const Fusion &fusion, const InterpreterResult &result, const std::string &dir) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return fail(kOutputError, "cannot create '" + dir + "': " + ec.message());
  for (size_t i = 0; i < result.outputs.size(); ++i) {
    std::string error;
    const std::string path = dir + "/" + fusion.outputs()[i].name + ".npy";
    if (!writeNpyFile(path, tensorToNpy(result.outputs[i]), error))
      return fail(kOutputError, error);
  }
  return kSuccess;
}

int run(const Options &options) {
  std::optional<SymbolBindings> symbols = parseShapes(options.shapes);
  if (!symbols)
    return kUsageError;
  if (!options.signature && (options.inputDir.empty() || options.outputDir.empty()))
    return fail(kUsageError, "--inputs and --outputs are required (or --signature)");

  DiagnosticEngine diag(llvm::errs());
  Module module;
  if (!loadFusionFiles(std::span(&options.file, 1), diag, module))
    return kBadInput;
  if (options.signature) {
    printSignature(module);
    return kSuccess;
  }
  const Fusion *fusion = selectFusion(module, options);
  if (!fusion)
    return kUsageError;

  std::map<std::string, Tensor> inputs;
  if (!readInputs(*fusion, options.inputDir, inputs))
    return kBadInput;
  InterpreterResult result = interpret(*fusion, inputs, *symbols, options.evaluation);
  if (!result.ok)
    return fail(kBadInput, fusion->name() + ": " + result.error);
  return writeOutputs(*fusion, result, options.outputDir);
}

} // namespace
} // namespace fuserc

int main(int argc, char **argv) {
  fuserc::Options options;
  CLI::App app{"fuserc-interp: runs a fusion on the CPU reference interpreter, .npy in and out",
               "fuserc-interp"};
  app.add_option("FILE", options.file, "fusion file (.fus text or .yaml)")->required();
  app.add_option("--fusion", options.fusion, "the fusion to run (needed when FILE has several)");
  app.add_option("--inputs", options.inputDir, "directory with <input>.npy for every input");
  app.add_option("--outputs", options.outputDir, "directory for <output>.npy (created)");
  app.add_option("--shape", options.shapes,
                 "bind a symbol: SYM=N (repeatable; for symbols that appear only in "
                 "attributes, or to check the inputs' extents)");
  app.add_option("--perturb", options.evaluation.perturbation,
                 "move every computed floating-point result by this relative amount (f32; "
                 "the same number of ulps for f64), with a random sign per element: a "
                 "reference that tells ill-conditioned elements; negative: every move the "
                 "other way")
      ->check(CLI::Range(-0.01, 0.01));
  app.add_option("--perturb-seed", options.evaluation.seed, "seed of the perturbation's signs");
  app.add_flag("--perturb-cancel", options.evaluation.cancelToZero,
               "with --perturb: a sum or difference of computed values within its move of zero "
               "is exactly 0 (a kernel rounding both operands alike)");
  app.add_flag("--signature", options.signature,
               "print every fusion's inputs and outputs as JSON, and nothing else");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    const int code = app.exit(e);
    return code == 0 ? fuserc::kSuccess : fuserc::kUsageError;
  }
  try {
    return fuserc::run(options);
  } catch (const std::exception &e) {
    return fuserc::fail(fuserc::kOutputError, std::string("internal error: ") + e.what());
  }
}
