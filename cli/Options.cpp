// Command-line parsing and validation (see Options.h).
#include "cli/Options.h"

#include "driver/ExitCodes.h"
#include "driver/Pipeline.h"
#include "driver/Targets.h"
#include "ir/Limits.h"
#include "support/CNames.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <regex>

namespace fuserc {
namespace {

struct UsageError {
  std::string message;
};

std::string joined(std::span<const std::string_view> items) {
  std::string s;
  for (std::string_view i : items)
    s += (s.empty() ? "" : ",") + std::string(i);
  return s;
}

std::vector<std::string> resolveDumpStages(const std::vector<std::string> &requested) {
  std::vector<std::string> stages;
  for (const std::string &r : requested) {
    if (r == "all") {
      stages.insert(stages.end(), pipelineStages().begin(), pipelineStages().end());
      continue;
    }
    if (stageNumber(r) == 0)
      throw UsageError{"--dump: unknown stage '" + r + "'; stages are " + joined(pipelineStages()) +
                       ",all"};
    stages.push_back(r);
  }
  std::sort(stages.begin(), stages.end(), [](const std::string &a, const std::string &b) {
    return stageNumber(a) < stageNumber(b);
  });
  stages.erase(std::unique(stages.begin(), stages.end()), stages.end());
  return stages;
}

void validate(CompileOptions &o, const std::vector<std::string> &shapes, bool nameGiven) {
  static const std::regex arch("sm_[0-9]{2,3}a?");
  for (const std::string &a : o.archs) {
    if (!std::regex_match(a, arch))
      throw UsageError{"--arch: '" + a + "' is not an architecture like sm_80 or sm_90"};
    if (std::optional<std::string> reason = unsupportedArchitecture(a))
      throw UsageError{"--arch: " + *reason};
  }
  static const std::vector<std::string> emitKinds{
      "header", "source", "single-header", "fatbin", "manifest", "cuda", "so"};
  auto emits = [&](const char *kind) {
    return std::find(o.emit.begin(), o.emit.end(), kind) != o.emit.end();
  };
  for (const std::string &e : o.emit)
    if (std::find(emitKinds.begin(), emitKinds.end(), e) == emitKinds.end())
      throw UsageError{"--emit: unknown kind '" + e +
                       "'; kinds are header,source,single-header,fatbin,manifest,cuda,so"};
  if (emits("single-header") && (emits("header") || emits("source")))
    throw UsageError{"--emit: single-header is NAME.h with the implementation inside; it does "
                     "not go with header or source (NAME.h and NAME.c)"};
  for (const std::string &s : shapes) {
    size_t eq = s.find('=');
    std::string sym = s.substr(0, eq);
    int64_t value = 0;
    const char *begin = eq == std::string::npos ? nullptr : s.data() + eq + 1;
    auto [end, ec] = begin ? std::from_chars(begin, s.data() + s.size(), value)
                           : std::from_chars_result{nullptr, std::errc::invalid_argument};
    if (eq == std::string::npos || !isCIdentifier(sym) || ec != std::errc() ||
        end != s.data() + s.size() || value < 1)
      throw UsageError{"--shape: expected SYMBOL=N with N a positive integer, got '" + s + "'"};
    if (value > limits::kMaxElements)
      throw UsageError{"--shape: " + sym + "=" + std::to_string(value) +
                       " is larger than the largest extent, 2^60"};
    if (!o.shapes.emplace(sym, value).second)
      throw UsageError{"--shape: symbol '" + sym + "' is given twice"};
  }
  if (nameGiven && o.name.empty())
    throw UsageError{"--name: the base name of the outputs is empty; give a C identifier"};
  if (!o.name.empty())
    if (std::string problem = cNameProblem("the output name", o.name); !problem.empty())
      throw UsageError{"--name: " + problem};
  if (o.depfile && !o.outputDir)
    throw UsageError{"--depfile needs -o (the depfile's targets are the output files)"};
  if (o.dumpFormat == "dot") {
    std::string others;
    for (const std::string &stage : o.dumpStages)
      if (stage != "segments")
        others += (others.empty() ? "" : ",") + stage;
    if (std::find(o.dumpStages.begin(), o.dumpStages.end(), "segments") == o.dumpStages.end())
      throw UsageError{"--dump-format=dot: only the segments dump has a dot form; add "
                       "--dump=segments"};
    if (!others.empty())
      throw UsageError{"--dump-format=dot: only the segments dump has a dot form, but --dump "
                       "also asks for " +
                       others + "; dump those in a run without --dump-format=dot"};
  }
}

// The compiler-style -W options (-Werror, -Wno-unused-input, ...), which
// CLI11 cannot declare, are applied in order and taken out of the command
// line; the other arguments go to `rest`, in CLI11's reversed order. An
// option's separate value (`--name -Wx`) is not one. Returns an error
// message, or "".
std::string takeWarningOptions(const CLI::App &app, int argc, char **argv, WarningOptions &warnings,
                               std::vector<std::string> &rest) {
  bool valueNext = false, positionalOnly = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    const bool isValue = valueNext;
    valueNext = false;
    if (!isValue && !positionalOnly && arg.size() > 2 && arg.starts_with("-W")) {
      if (std::string error = warnings.apply(std::string_view(arg).substr(2)); !error.empty())
        return arg + ": " + error;
      continue;
    }
    positionalOnly |= !isValue && arg == "--";
    if (!isValue && !positionalOnly && arg.starts_with("-") && arg.find('=') == std::string::npos)
      if (const CLI::Option *opt = app.get_option_no_throw(arg))
        valueNext = opt->get_type_size() != 0;
    rest.push_back(arg);
  }
  std::reverse(rest.begin(), rest.end());
  return "";
}

} // namespace

ParsedCommandLine parseCommandLine(int argc, char **argv) {
  CompileOptions o;
  std::vector<std::string> dump, shapes;
  std::string outputDir, dumpDir, cacheDir, depfile;

  CLI::App app{"fuserc: an ahead-of-time fusion compiler for NVIDIA GPUs", "fuserc"};
  app.set_version_flag("--version", "fuserc " FUSERC_VERSION);
  app.add_option("INPUT", o.inputs, "fusion files (.fus text or .yaml)")->required();
  app.add_option("-o,--output", outputDir,
                 "output directory; without -o, fuserc checks the input, prints the requested "
                 "dumps and writes nothing");
  app.add_option("--name", o.name, "base name of the outputs (default: first input's stem)");
  app.add_option("--arch", o.archs, "architectures, e.g. sm_80,sm_90")->delimiter(',');
  app.add_option("--emit", o.emit,
                 "any of header,source,single-header,fatbin,manifest,cuda,so (default: "
                 "header,source,fatbin,manifest)")
      ->delimiter(',');
  app.add_option("--dump", dump,
                 "print IR after stages: parsed,canonicalize,layout,alias,segments,schedule,"
                 "cuda,all")
      ->delimiter(',');
  app.add_option("--dump-dir", dumpDir, "write each dump to DIR/NN-stage.txt instead of stderr");
  app.add_option("--dump-format", o.dumpFormat,
                 "text (default), or dot: a Graphviz picture of the segments dump (only with "
                 "--dump=segments; written as NN-segments.dot under --dump-dir)")
      ->check(CLI::IsMember({"text", "dot"}));
  app.add_option("--shape", shapes, "specialise a symbolic extent: SYM=N (repeatable)");
  app.add_option("--schedulers", o.schedulers,
                 "schedulers to use, in priority order (default: alias,normalization,reduction,"
                 "transpose,pointwise, then plugins' schedulers)")
      ->delimiter(',');
  app.add_option("--plugin", o.plugins,
                 "load extra schedulers from a shared library (repeatable; see "
                 "schedulers/Plugin.h)");
  app.add_option("-j,--jobs", o.jobs, "parallel NVRTC jobs (output identical for any N)")
      ->check(CLI::PositiveNumber);
  app.add_option("--cache-dir", cacheDir, "compile cache directory");
  app.add_flag("--no-cache", o.noCache, "do not use the compile cache");
  app.add_option("--depfile", depfile, "write a Make-style depfile of the inputs");
  app.add_flag("-v,--verbose", o.verbose, "say what fuserc is doing");
  std::string progress = "auto";
  app.add_option("--progress", progress,
                 "a line per finished compile and a summary on stderr: auto (when stderr is a "
                 "terminal), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->multi_option_policy(
          CLI::MultiOptionPolicy::TakeLast); // a build system's own, then the user's
  app.add_flag("--time-report", o.timeReport, "print each step's wall-clock time on stderr");
  std::string variants = "default";
  app.add_option("--variants", variants,
                 "variants compiled per kernel: minimal (fewest, fastest build), default, all "
                 "(each launch size compiled in)")
      ->check(CLI::IsMember({"minimal", "default", "all"}));
  app.footer("Warnings: -Werror (warnings are errors), -Wno-NAME / -WNAME (turn NAME off / on), "
             "-Werror=NAME, -Wno-error=NAME. NAME: unused-input.");

  std::vector<std::string> args;
  if (std::string error = takeWarningOptions(app, argc, argv, o.warnings, args); !error.empty()) {
    std::fprintf(stderr, "fuserc: error: %s\n", error.c_str());
    return {std::nullopt, kExitUsageError};
  }
  try {
    app.parse(args);
  } catch (const CLI::ParseError &e) {
    int code = app.exit(e);
    return {std::nullopt, code == 0 ? kExitSuccess : kExitUsageError};
  }
  if (app.count("--output"))
    o.outputDir = outputDir;
  if (app.count("--dump-dir"))
    o.dumpDir = dumpDir;
  if (app.count("--cache-dir"))
    o.cacheDir = cacheDir;
  if (app.count("--depfile"))
    o.depfile = depfile;
  o.variants = variants == "minimal" ? VariantBudget::Minimal
               : variants == "all"   ? VariantBudget::All
                                     : VariantBudget::Default;
  o.progress = progress == "always"  ? CompileOptions::Progress::Always
               : progress == "never" ? CompileOptions::Progress::Never
                                     : CompileOptions::Progress::Auto;
  try {
    o.dumpStages = resolveDumpStages(dump);
    validate(o, shapes, app.count("--name") != 0);
  } catch (const UsageError &e) {
    std::fprintf(stderr, "fuserc: error: %s\n", e.message.c_str());
    return {std::nullopt, kExitUsageError};
  }
  return {std::move(o), kExitSuccess};
}

} // namespace fuserc
