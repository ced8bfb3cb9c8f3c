// Packaging a compiled module (see Packager.h).
#include "packaging/Packager.h"

#include "packaging/CompileCache.h"
#include "packaging/HeaderWriter.h"
#include "packaging/ManifestWriter.h"
#include "packaging/ModuleCompiler.h"
#include "packaging/SegmentSummary.h"
#include "packaging/SharedLibrary.h"

#include <algorithm>

namespace fuserc {

PackageResult packageModule(const std::string &name, const Module &module,
                            std::span<const SegmentedFusion> segmentations,
                            const std::vector<FusionCode> &code,
                            const std::vector<CompileUnit> &units, const std::string &cudaSource,
                            const PackageOptions &options) {
  PackageResult result;
  auto emits = [&](const char *kind) {
    return std::find(options.emit.begin(), options.emit.end(), kind) != options.emit.end();
  };
  HostToolchain host;
  if (emits("so") && !findHostToolchain(host, result.error))
    return result;
  ModuleCompileOptions compile;
  compile.archs = options.archs;
  compile.jobs = options.jobs;
  compile.cacheDir = options.cacheDir.value_or("");
  compile.onJobDone = options.onJobDone;
  ModuleCompileResult compiled = compileModule(units, compile);
  result.log = compiled.log;
  result.times = compiled.times;
  result.compileJobs = compiled.compileJobs;
  result.cacheHits = compiled.cacheHits;
  if (!compiled.ok) {
    result.error = compiled.error;
    result.failedSource = compiled.failedSource;
    return result;
  }
  Stopwatch watch;
  const HeaderForm form = emits("single-header") ? HeaderForm::Single : HeaderForm::Split;
  HeaderResult header = writeHeader(name, module, code, compiled.fatbin, form, compiled.images);
  result.times.push_back({"header", watch.lap()});
  if (!header.ok) {
    result.error = header.error;
    return result;
  }
  std::vector<SegmentSummary> summaries;
  for (const SegmentedFusion &s : segmentations)
    summaries.push_back(summarizeSegments(s));
  ManifestContents contents;
  contents.name = name;
  contents.module = &module;
  contents.code = code;
  contents.segments = summaries;
  contents.resources = &compiled.resources;
  contents.images = compiled.images;
  contents.variants = options.variants;
  contents.toolchain = currentToolchain(options.archs);
  contents.toolchain.ptxArch = compiled.ptxArch;
  if (emits("header") || emits("single-header"))
    result.files[name + ".h"] = header.text;
  if (emits("source"))
    result.files[name + ".c"] = header.source;
  if (emits("fatbin"))
    result.files[name + ".fatbin"] = compiled.fatbin;
  if (emits("manifest")) {
    result.files[name + ".manifest.json"] = writeManifest(contents);
    result.times.push_back({"manifest", watch.lap()});
  }
  if (emits("cuda"))
    result.files[name + ".cu"] = cudaSource;
  if (emits("so")) {
    // The library is always built from the split form.
    HeaderResult split =
        form == HeaderForm::Split
            ? header
            : writeHeader(name, module, code, compiled.fatbin, HeaderForm::Split, compiled.images);
    SharedLibraryResult library = buildSharedLibrary(host, name, split.text, split.source);
    if (!library.ok) {
      result.error = library.error;
      return result;
    }
    result.files["lib" + name + ".so"] = std::move(library.bytes);
    result.times.push_back({"shared library", watch.lap()});
  }
  result.ok = true;
  return result;
}

} // namespace fuserc
