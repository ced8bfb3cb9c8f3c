// The fuserc driver (see Compiler.h).
#include "driver/Compiler.h"

#include "codegen/BuiltinGenerators.h"
#include "codegen/FusionCodegen.h"
#include "driver/ExitCodes.h"
#include "driver/OutputFiles.h"
#include "driver/Pipeline.h"
#include "driver/RunReport.h"
#include "frontend/Frontend.h"
#include "packaging/CompileCache.h"
#include "packaging/HeaderWriter.h"
#include "packaging/Packager.h"
#include "schedulers/PluginLoader.h"
#include "support/TemporaryFiles.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <variant>

namespace fuserc {
namespace {

bool writeDumps(const std::vector<Dump> &dumps, const CompileOptions &options, JournalKey &key) {
  if (!options.dumpDir) {
    for (const Dump &d : dumps)
      llvm::errs() << "// ---- dump: " << d.stage << " ----\n" << d.text;
    return true;
  }
  if (dumps.empty())
    return true;
  if (std::error_code ec = llvm::sys::fs::create_directories(*options.dumpDir)) {
    llvm::errs() << "fuserc: error: cannot create '" << *options.dumpDir << "': " << ec.message()
                 << "\n";
    return false;
  }
  std::map<std::string, std::string> files;
  for (const Dump &d : dumps)
    files[dumpFileName(d.stage, d.extension)] = d.text;
  std::string error;
  std::vector<std::string> warnings;
  bool written = writeFilesAtomically(*options.dumpDir, OutputSet{OutputSet::Kind::Dumps, ""},
                                      files, key, error, &warnings);
  for (const std::string &w : warnings)
    llvm::errs() << "fuserc: warning: " << w << "\n";
  if (!written)
    llvm::errs() << "fuserc: error: " << error << "\n";
  return written;
}

std::string allSymbols(const Module &module) {
  std::string s;
  for (const std::string &sym : module.declaredSymbols)
    s += (s.empty() ? "" : ", ") + sym;
  return s.empty() ? "none" : s;
}

// The built-in schedulers, those of the plugins, and the `--schedulers`
// selection. A plugin that cannot be used stops the run: exit 3 when it was
// built for another plugin ABI (a toolchain mismatch: rebuild it), exit 2
// for everything else the command line asked for (no such file, not a
// shared library, not a fuserc plugin, a scheduler name already taken).
struct Schedulers {
  SchedulerRegistry registry;
  std::vector<const Scheduler *> selected;
};

int loadSchedulers(const CompileOptions &options, Schedulers &s) {
  registerBuiltinSchedulers(s.registry, builtinGenerators());
  for (const std::string &path : options.plugins) {
    if (std::optional<PluginError> e = loadSchedulerPlugin(path, s.registry)) {
      llvm::errs() << "fuserc: error: --plugin: " << e->message << "\n";
      return e->kind == PluginError::Kind::AbiMismatch ? kExitInternalError : kExitUsageError;
    }
  }
  auto selected = s.registry.select(options.schedulers);
  if (auto *message = std::get_if<std::string>(&selected)) {
    llvm::errs() << "fuserc: error: --schedulers: " << *message << "\n";
    return kExitUsageError;
  }
  s.selected = std::get<std::vector<const Scheduler *>>(selected);
  if (options.verbose) {
    llvm::errs() << "fuserc: schedulers, in priority order:";
    for (const Scheduler *scheduler : s.selected)
      llvm::errs() << " " << scheduler->name() << " (" << s.registry.origin(scheduler->name())
                   << ")";
    llvm::errs() << "\n";
  }
  return kExitSuccess;
}

// The base name of the outputs: --name, or the first input's stem.
std::string outputName(const CompileOptions &options) {
  if (!options.name.empty())
    return options.name;
  return std::string(llvm::sys::path::stem(options.inputs.front()));
}

// The Make rule "OUTPUTS: INPUTS". It is written before the outputs, so a
// depfile that cannot be written fails the run with the previous outputs
// untouched; it depends only on the command line, so it is true of the
// outputs whether or not their commit then succeeds.
bool writeDepfile(const std::string &path, const std::map<std::string, std::string> &files,
                  const CompileOptions &options, std::string &error) {
  std::string targets, deps;
  for (const auto &[file, bytes] : files) {
    llvm::SmallString<256> p(*options.outputDir);
    llvm::sys::path::append(p, file);
    targets += (targets.empty() ? "" : " ") + std::string(p);
  }
  for (const std::string &input : options.inputs)
    deps += " " + input;
  llvm::StringRef dir = llvm::sys::path::parent_path(path);
  if (std::error_code ec = llvm::sys::fs::create_directories(dir.empty() ? "." : dir)) {
    error = "cannot create '" + dir.str() + "': " + ec.message();
    return false;
  }
  return writeFileAtomically(path, targets + ":" + deps + "\n", error);
}

bool showsProgress(const CompileOptions &options) {
  switch (options.progress) {
  case CompileOptions::Progress::Always:
    return true;
  case CompileOptions::Progress::Never:
    return false;
  case CompileOptions::Progress::Auto:
    return llvm::sys::Process::StandardErrIsDisplayed();
  }
  return false;
}

RunSummary summarize(const PipelineResult &result, const CompileOptions &options) {
  RunSummary s;
  s.fusions = result.segmentations.size();
  for (const FusionCode &f : result.code) {
    s.kernels += f.kernels.size();
    for (const KernelPlan &k : f.kernels)
      s.variants += k.variants.size();
  }
  s.archs = options.archs.size();
  return s;
}

// Compiles and packages the module, then writes every output file or none.
// Each step's time goes to `times`; with progress shown, a line per compile
// and the summary go to stderr.
int writeOutputs(const PipelineResult &result, const Module &module, const CompileOptions &options,
                 JournalKey &key, StageTimes &times, const Stopwatch &run) {
  const std::string name = outputName(options);
  if (std::string problem = cNameProblem("the output name", name); !problem.empty()) {
    llvm::errs() << "fuserc: error: " << problem
                 << "; it is the first input's stem: choose another with --name\n";
    return kExitUsageError;
  }
  PackageOptions packaging;
  packaging.archs = options.archs;
  packaging.emit = options.emit;
  packaging.jobs = options.jobs;
  packaging.variants = variantBudgetName(options.variants);
  if (!options.noCache)
    packaging.cacheDir = options.cacheDir ? *options.cacheDir : defaultCacheDir();
  const bool progress = showsProgress(options);
  if (progress)
    packaging.onJobDone = [](const CompileJobReport &job) {
      llvm::errs() << progressLine(job) << "\n";
      llvm::errs().flush();
    };
  PackageResult package =
      packageModule(name, module, result.segmentations, result.code,
                    moduleCompileUnits(name, result.code), result.cudaSource, packaging);
  times.insert(times.end(), package.times.begin(), package.times.end());
  if (options.verbose)
    for (const std::string &line : package.log)
      llvm::errs() << "fuserc: " << line << "\n";
  if (!package.ok) {
    llvm::errs() << "fuserc: internal error: " << package.error << "\n";
    if (!package.failedSource.empty()) {
      llvm::SmallString<256> path;
      int fd = -1;
      if (!llvm::sys::fs::createTemporaryFile("fuserc-" + name, "cu", fd, path)) {
        llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
        os << package.failedSource;
        llvm::errs() << "fuserc: note: the CUDA source is kept at " << path << "\n";
      }
    }
    return kExitInternalError;
  }
  std::string error;
  if (options.depfile && !writeDepfile(*options.depfile, package.files, options, error)) {
    llvm::errs() << "fuserc: error: --depfile: " << error << "\n";
    return kExitInternalError;
  }
  std::vector<std::string> warnings;
  Stopwatch writing;
  bool written = writeFilesAtomically(*options.outputDir, OutputSet{OutputSet::Kind::Outputs, name},
                                      package.files, key, error, &warnings);
  times.push_back({"write outputs", writing.seconds()});
  for (const std::string &w : warnings)
    llvm::errs() << "fuserc: warning: " << w << "\n";
  if (!written) {
    llvm::errs() << "fuserc: error: " << error << "\n";
    return kExitInternalError;
  }
  if (progress) {
    RunSummary summary = summarize(result, options);
    summary.compileJobs = package.compileJobs;
    summary.cacheHits = package.cacheHits;
    summary.seconds = run.seconds();
    summary.files = &package.files;
    llvm::errs() << summaryLine(summary) << "\n";
  }
  return kExitSuccess;
}

// "2 errors generated.", with the warnings too; nothing when there were
// neither.
void printDiagnosticCount(const DiagnosticEngine &diag) {
  if (std::string summary = diag.summary(); !summary.empty())
    llvm::errs() << summary << "\n";
}

int compile(const CompileOptions &options, StageTimes &times, const Stopwatch &run) {
  // A run killed while committing its outputs left a journal: finish that
  // commit first, whatever becomes of this run.
  JournalKey key = JournalKey::forUser();
  if (options.outputDir && llvm::sys::fs::is_directory(*options.outputDir)) {
    std::vector<std::string> warnings;
    for (const std::string &file : recoverInterruptedCommits(*options.outputDir, key, warnings))
      if (options.verbose)
        llvm::errs() << "fuserc: finished the interrupted commit of '" << file << "'\n";
    for (const std::string &w : warnings)
      llvm::errs() << "fuserc: warning: " << w << "\n";
  }
  Schedulers schedulers;
  if (int code = loadSchedulers(options, schedulers); code != kExitSuccess)
    return code;
  DiagnosticEngine diag(llvm::errs(), options.warnings);
  Module module;
  module.bound = options.shapes; // --shape binds symbols before inference
  Stopwatch parsing;
  const bool loaded = loadFusionFiles(options.inputs, diag, module);
  times.push_back({"parse", parsing.seconds()});
  if (!loaded) {
    printDiagnosticCount(diag);
    return kExitInputError;
  }
  for (const auto &[sym, value] : options.shapes) {
    if (!module.declaredSymbols.count(sym)) {
      llvm::errs() << "fuserc: error: --shape: '" << sym
                   << "' is not a symbolic extent of any fusion (symbols: " << allSymbols(module)
                   << ")\n";
      return kExitUsageError;
    }
  }
  if (options.verbose)
    llvm::errs() << "fuserc: loaded " << module.fusions.size() << " fusion(s) from "
                 << options.inputs.size() << " file(s)\n";

  PipelineResult result = runPipeline(module, options, schedulers.selected, diag);
  times.insert(times.end(), result.times.begin(), result.times.end());
  // The warnings' count, once, before whatever the run does next.
  if (result.status != PipelineResult::Status::InputError && diag.warningCount())
    printDiagnosticCount(diag);
  if (result.status == PipelineResult::Status::InputError) {
    printDiagnosticCount(diag);
    return kExitInputError;
  }
  if (result.status == PipelineResult::Status::Unsupported) {
    llvm::errs() << "fuserc: error: cannot compile: " << result.message << "\n";
    return kExitInternalError;
  }
  if (result.status == PipelineResult::Status::InternalError) {
    llvm::errs() << "fuserc: internal error: " << result.message << "\n";
    return kExitInternalError;
  }
  if (!writeDumps(result.dumps, options, key))
    return kExitInternalError;
  if (options.outputDir)
    return writeOutputs(result, module, options, key, times, run);
  return kExitSuccess;
}

} // namespace

int runCompiler(const CompileOptions &options) {
  Stopwatch run;
  StageTimes times;
  const int code = compile(options, times, run);
  if (options.timeReport)
    llvm::errs() << timeReport(times, run.seconds());
  return code;
}

} // namespace fuserc
