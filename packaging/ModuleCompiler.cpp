// Per-unit, multi-arch compilation and fatbinary packaging (see ModuleCompiler.h).
#include "packaging/ModuleCompiler.h"

#include "packaging/CompileCache.h"
#include "packaging/Fatbinary.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <mutex>
#include <set>
#include <thread>

namespace fuserc {
namespace {

// Numeric order of sm numbers ("90" > "80", "90a" after "90").
bool olderArch(const std::string &a, const std::string &b) {
  std::string x = smNumber(a), y = smNumber(b);
  int nx = std::atoi(x.c_str()), ny = std::atoi(y.c_str());
  return nx != ny ? nx < ny : x < y;
}

// The kernels a PTX module defines: its entry points (`.entry NAME(`), as
// the driver looks them up. The ptxas report NVRTC logs may leave kernels
// out, so the images' kernels come from here.
std::set<std::string> ptxEntries(const std::string &ptx) {
  std::set<std::string> names;
  const std::string entry = ".entry ";
  for (size_t at = ptx.find(entry); at != std::string::npos; at = ptx.find(entry, at + 1)) {
    size_t begin = at + entry.size(), end = begin;
    while (end < ptx.size() && (std::isalnum(static_cast<unsigned char>(ptx[end])) ||
                                ptx[end] == '_' || ptx[end] == '$'))
      ++end;
    if (end > begin)
      names.insert(ptx.substr(begin, end - begin));
  }
  return names;
}

struct Job {
  const CompileUnit *unit;
  std::string arch;
  bool ptx;
  std::string key;
  NvrtcOutput output;
  bool cached = false;
  std::string warning;
  double seconds = 0;
};

// Runs the jobs on up to `jobs` threads; each writes only its own slot, so the result does not
// depend on the order they finish in.
void runJobs(std::vector<Job> &jobs, const ModuleCompileOptions &options,
             const std::vector<std::string> &nvrtcOptions) {
  std::vector<size_t> order(jobs.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  // Longest sources first, and of one unit the newest arch first (it also
  // gives PTX, and sm_90 code such as clusters compiles there only).
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const size_t x = jobs[a].unit->source.size(), y = jobs[b].unit->source.size();
    return x != y ? x > y : a > b;
  });
  CompileCache cache(options.cacheDir);
  std::atomic<size_t> next{0};
  std::mutex reportMutex;
  size_t finished = 0;
  auto run = [&](Job &job) {
    if (!options.cacheDir.empty())
      if (std::optional<NvrtcOutput> hit = cache.load(job.key, job.warning)) {
        job.output = std::move(*hit);
        job.cached = true;
        return;
      }
    job.output =
        compileWithNvrtc(job.unit->source, job.unit->name + ".cu", job.arch, job.ptx, nvrtcOptions);
    if (job.output.ok && !options.cacheDir.empty())
      cache.store(job.key, job.output, job.warning);
  };
  auto worker = [&] {
    for (size_t i; (i = next++) < order.size();) {
      Job &job = jobs[order[i]];
      Stopwatch watch;
      run(job);
      job.seconds = watch.seconds();
      if (!options.onJobDone)
        continue;
      std::lock_guard<std::mutex> lock(reportMutex);
      options.onJobDone({job.unit->name, job.arch, job.cached, job.output.ok, job.seconds,
                         ++finished, jobs.size()});
    }
  };
  const unsigned wanted = options.jobs ? options.jobs : std::thread::hardware_concurrency();
  const unsigned threads = std::max(1u, std::min<unsigned>(wanted, unsigned(jobs.size())));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t)
    pool.emplace_back(worker);
  worker();
  for (std::thread &t : pool)
    t.join();
}

} // namespace

std::optional<size_t> imageHolding(std::span<const UnitImage> images, const std::string &symbol) {
  for (size_t i = 0; i < images.size(); ++i)
    if (std::binary_search(images[i].symbols.begin(), images[i].symbols.end(), symbol))
      return i;
  return std::nullopt;
}

ModuleCompileResult compileModule(const std::vector<CompileUnit> &units,
                                  const ModuleCompileOptions &options) {
  ModuleCompileResult result;
  std::vector<std::string> archs = options.archs;
  std::sort(archs.begin(), archs.end(), olderArch);
  archs.erase(std::unique(archs.begin(), archs.end()), archs.end());
  if (archs.empty()) {
    result.error = "no architecture to compile for";
    return result;
  }
  if (units.empty()) {
    result.error = "no compile unit";
    return result;
  }
  result.ptxArch = archs.back();
  const std::vector<std::string> nvrtcOptions = defaultNvrtcOptions();

  std::vector<Job> jobs;
  for (const CompileUnit &unit : units)
    for (const std::string &arch : archs) {
      const bool ptx = arch == result.ptxArch;
      jobs.push_back({&unit,
                      arch,
                      ptx,
                      CompileCache::key(unit.source, arch, ptx, nvrtcOptions),
                      {},
                      false,
                      "",
                      0});
    }
  runJobs(jobs, options, nvrtcOptions);

  for (Job &job : jobs) {
    result.log.push_back(
        job.unit->name + " " + job.arch + ": " + (job.cached ? "cache hit" : "NVRTC compile") +
        " (key " + job.key.substr(0, 16) + ")" + (job.warning.empty() ? "" : "; " + job.warning));
    if (!job.output.ok) {
      result.error =
          "NVRTC failed for " + job.arch + " (" + job.unit->name + "):\n" + job.output.log;
      result.failedSource = job.unit->source;
      return result;
    }
    result.nvrtcCompiles += !job.cached;
    result.cacheHits += job.cached;
    result.times.push_back(
        {(job.cached ? "cache " : "nvrtc ") + job.unit->name + " " + job.arch, job.seconds});
    std::vector<KernelResources> &resources = result.resources[job.arch];
    resources.insert(resources.end(), job.output.resources.begin(), job.output.resources.end());
  }
  for (auto &[arch, resources] : result.resources)
    std::stable_sort(
        resources.begin(), resources.end(),
        [](const KernelResources &a, const KernelResources &b) { return a.kernel < b.kernel; });

  std::string tool = findFatbinary();
  if (tool.empty()) {
    result.error = "the CUDA toolkit's 'fatbinary' was not found (set FUSERC_FATBINARY)";
    return result;
  }
  Stopwatch fatbinWatch;
  for (size_t u = 0; u < units.size(); ++u) {
    std::vector<FatbinImage> images;
    for (size_t a = 0; a < archs.size(); ++a) {
      const Job &job = jobs[u * archs.size() + a];
      images.push_back({smNumber(job.arch), false, job.output.cubin});
      if (job.ptx)
        images.push_back({smNumber(job.arch), true, job.output.ptx});
    }
    FatbinResult fatbin = makeFatbinary(tool, images);
    if (!fatbin.ok) {
      result.error = fatbin.error;
      return result;
    }
    result.fatbin.resize((result.fatbin.size() + kUnitImageAlignment - 1) / kUnitImageAlignment *
                             kUnitImageAlignment,
                         '\0');
    // The unit's kernels: its PTX's entry points (the newest arch's job).
    const std::set<std::string> symbols =
        ptxEntries(jobs[u * archs.size() + archs.size() - 1].output.ptx);
    result.images.push_back({units[u].name, result.fatbin.size(), fatbin.bytes.size(),
                             std::vector<std::string>(symbols.begin(), symbols.end())});
    result.fatbin += fatbin.bytes;
  }
  result.times.push_back({"fatbinary", fatbinWatch.seconds()});
  result.ok = true;
  return result;
}

} // namespace fuserc
