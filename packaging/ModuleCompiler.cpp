// Per-unit, multi-arch compilation and fatbinary packaging (see ModuleCompiler.h).
#include "packaging/ModuleCompiler.h"

#include "packaging/CompileCache.h"
#include "packaging/Fatbinary.h"
#include "packaging/Ptxas.h"
#include "packaging/SharedPtx.h"
#include "packaging/ToolkitProgram.h"

#include <algorithm>
#include <cctype>
#include <condition_variable>
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

// One step of a module's compile. A unit's architectures compile either
// each from source (Compile), or, where they share one PTX (SharedPtx.h),
// through one Ptx job whose PTX Assemble jobs turn into each one's cubin.
enum class JobKind { Compile, Ptx, Assemble };

struct Job {
  Job(JobKind k, const CompileUnit *u, std::string a, bool p, std::string cacheKey, size_t f = 0)
      : kind(k), unit(u), arch(std::move(a)), ptx(p), key(std::move(cacheKey)), from(f) {}

  JobKind kind;
  const CompileUnit *unit;
  std::string arch; // "sm_90"; a Ptx job's: "compute_80"
  bool ptx;         // a Compile job also returns PTX
  std::string key;
  size_t from = 0;                // an Assemble job's Ptx job
  std::vector<size_t> dependents; // a Ptx job's Assemble jobs
  NvrtcOutput output;
  bool cached = false;
  std::string warning;
  double seconds = 0;
};

// What a job runs besides the cache: NVRTC, or ptxas on its Ptx job's PTX.
NvrtcOutput runJob(const Job &job, const std::vector<Job> &jobs, const std::string &ptxas,
                   const std::vector<std::string> &nvrtcOptions) {
  const std::string name = job.unit->name;
  if (job.kind != JobKind::Assemble)
    return compileWithNvrtc(job.unit->source, name + ".cu", job.arch, job.ptx, nvrtcOptions);
  const Job &from = jobs[job.from];
  if (!from.output.ok) {
    NvrtcOutput failed;
    failed.log = "no PTX to assemble: its compile for " + from.arch + " failed";
    return failed;
  }
  return assembleWithPtxas(ptxas, from.output.ptx, name, job.arch);
}

// Runs the jobs on up to `jobs` threads, an Assemble job once its Ptx job
// is done; each writes only its own slot, so the result does not depend on
// the order they finish in.
void runJobs(std::vector<Job> &jobs, const ModuleCompileOptions &options, const std::string &ptxas,
             const std::vector<std::string> &nvrtcOptions) {
  // Longest sources first, and of one unit the newest arch first (it also
  // gives PTX, and sm_90 code such as clusters compiles there only).
  auto before = [&](size_t a, size_t b) {
    const size_t x = jobs[a].unit->source.size(), y = jobs[b].unit->source.size();
    return x != y ? x > y : a > b;
  };
  std::vector<size_t> ready;
  for (size_t i = 0; i < jobs.size(); ++i)
    if (jobs[i].kind != JobKind::Assemble)
      ready.push_back(i);
  CompileCache cache(options.cacheDir);
  std::mutex mutex;
  std::condition_variable readyChanged;
  size_t finished = 0;
  auto run = [&](Job &job) {
    if (!options.cacheDir.empty())
      if (std::optional<NvrtcOutput> hit = cache.load(job.key, job.warning)) {
        job.output = std::move(*hit);
        job.cached = true;
        return;
      }
    job.output = runJob(job, jobs, ptxas, nvrtcOptions);
    if (job.output.ok && !options.cacheDir.empty())
      cache.store(job.key, job.output, job.warning);
  };
  auto worker = [&] {
    std::unique_lock<std::mutex> lock(mutex);
    while (finished < jobs.size()) {
      if (ready.empty()) {
        readyChanged.wait(lock);
        continue;
      }
      auto best = std::min_element(ready.begin(), ready.end(), before);
      Job &job = jobs[*best];
      ready.erase(best);
      lock.unlock();
      Stopwatch watch;
      run(job);
      job.seconds = watch.seconds();
      lock.lock();
      ready.insert(ready.end(), job.dependents.begin(), job.dependents.end());
      ++finished;
      readyChanged.notify_all();
      if (options.onJobDone)
        options.onJobDone({job.unit->name, job.arch, job.cached, job.output.ok, job.seconds,
                           finished, jobs.size()});
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

// What a job's log line says it did.
std::string jobAction(const Job &job) {
  if (job.cached)
    return "cache hit";
  switch (job.kind) {
  case JobKind::Compile:
    return "NVRTC compile";
  case JobKind::Ptx:
    return "NVRTC compile to PTX";
  case JobKind::Assemble:
    return "ptxas";
  }
  return "";
}

// Per unit, where each arch's cubin comes from and which job gives the PTX
// embedded (its newest group's).
struct UnitJobs {
  std::vector<size_t> cubin; // per arch
  size_t ptx = 0;
};

// The jobs of every unit: per group of archs sharing one PTX (none without
// ptxas) a Ptx job and an Assemble job per arch, per arch alone a Compile.
std::vector<Job> planJobs(const std::vector<CompileUnit> &units,
                          const std::vector<std::string> &archs, const std::string &ptxas,
                          const std::vector<std::string> &nvrtcOptions,
                          std::vector<UnitJobs> &byUnit) {
  std::vector<std::string> assembleOptions = nvrtcOptions;
  if (!ptxas.empty())
    assembleOptions.push_back("assembled by " + programIdentity(ptxas));
  std::vector<Job> jobs;
  for (const CompileUnit &unit : units) {
    std::vector<std::vector<std::string>> groups;
    if (ptxas.empty())
      for (const std::string &arch : archs)
        groups.push_back({arch});
    else
      groups = ptxSharingGroups(unit.source, archs);
    UnitJobs u;
    for (size_t g = 0; g < groups.size(); ++g) {
      const std::vector<std::string> &group = groups[g];
      const bool newest = g + 1 == groups.size();
      if (group.size() == 1) {
        u.ptx = jobs.size();
        u.cubin.push_back(jobs.size());
        jobs.emplace_back(JobKind::Compile, &unit, group[0], newest,
                          CompileCache::key(unit.source, group[0], newest, nvrtcOptions));
        continue;
      }
      const std::string compute = virtualArch(group[0]);
      const size_t from = jobs.size();
      u.ptx = from;
      jobs.emplace_back(JobKind::Ptx, &unit, compute, true,
                        CompileCache::key(unit.source, compute, true, nvrtcOptions));
      for (const std::string &arch : group) {
        jobs[from].dependents.push_back(jobs.size());
        u.cubin.push_back(jobs.size());
        jobs.emplace_back(JobKind::Assemble, &unit, arch, false,
                          CompileCache::key(unit.source, arch, false, assembleOptions), from);
      }
    }
    byUnit.push_back(std::move(u));
  }
  return jobs;
}

// A unit's fatbinary of `images`: from the cache under `key` (the images'
// jobs' keys decide it), else packaged by `tool` and stored there. `cached`
// says which.
FatbinResult unitFatbinary(const CompileCache &cache, bool useCache, const std::string &key,
                           const std::string &tool, const std::vector<FatbinImage> &images,
                           bool &cached, std::string &warning) {
  cached = false;
  if (useCache)
    if (std::optional<NvrtcOutput> hit = cache.load(key, warning)) {
      cached = true;
      return {true, "", std::move(hit->cubin)};
    }
  FatbinResult fatbin = makeFatbinary(tool, images);
  if (fatbin.ok && useCache) {
    NvrtcOutput entry;
    entry.ok = true;
    entry.cubin = fatbin.bytes;
    cache.store(key, entry, warning);
  }
  return fatbin;
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
  const std::vector<std::string> nvrtcOptions = defaultNvrtcOptions();
  // Without ptxas every arch compiles from source.
  const std::string ptxas = archs.size() > 1 ? findPtxas() : "";
  if (archs.size() > 1 && ptxas.empty())
    result.log.push_back("ptxas not found (set FUSERC_PTXAS): each arch compiles from source");

  std::vector<UnitJobs> byUnit;
  std::vector<Job> jobs = planJobs(units, archs, ptxas, nvrtcOptions, byUnit);
  runJobs(jobs, options, ptxas, nvrtcOptions);

  for (Job &job : jobs) {
    result.log.push_back(job.unit->name + " " + job.arch + ": " + jobAction(job) + " (key " +
                         job.key.substr(0, 16) + ")" +
                         (job.warning.empty() ? "" : "; " + job.warning));
    if (!job.output.ok) {
      const char *tool = job.kind == JobKind::Assemble ? "ptxas" : "NVRTC";
      result.error = std::string(tool) + " failed for " + job.arch + " (" + job.unit->name +
                     "):\n" + job.output.log;
      result.failedSource = job.unit->source;
      return result;
    }
    result.compileJobs += !job.cached;
    result.cacheHits += job.cached;
    const char *step = job.cached ? "cache " : job.kind == JobKind::Assemble ? "ptxas " : "nvrtc ";
    result.times.push_back({step + job.unit->name + " " + job.arch, job.seconds});
    if (job.kind == JobKind::Ptx)
      continue;
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
  CompileCache cache(options.cacheDir);
  const std::string toolIdentity = programIdentity(tool);
  for (size_t u = 0; u < units.size(); ++u) {
    std::vector<FatbinImage> images;
    // The images' jobs' keys decide the fatbinary: its cache key.
    std::string imageKeys;
    for (size_t a = 0; a < archs.size(); ++a) {
      const Job &job = jobs[byUnit[u].cubin[a]];
      images.push_back({smNumber(archs[a]), false, job.output.cubin});
      imageKeys += job.key + " " + archs[a] + "\n";
    }
    // The PTX of the unit's newest group, for the newest arch or the oldest
    // of the archs sharing it.
    const Job &ptxJob = jobs[byUnit[u].ptx];
    const std::string ptxArch =
        ptxJob.kind == JobKind::Ptx ? jobs[ptxJob.dependents.front()].arch : ptxJob.arch;
    images.push_back({smNumber(ptxArch), true, ptxJob.output.ptx});
    imageKeys += ptxJob.key + " ptx " + ptxArch + "\n";
    const std::string key = CompileCache::key(imageKeys, "fatbinary", false, {toolIdentity});
    bool cached = false;
    std::string warning;
    FatbinResult fatbin =
        unitFatbinary(cache, !options.cacheDir.empty(), key, tool, images, cached, warning);
    if (!fatbin.ok) {
      result.error = fatbin.error;
      return result;
    }
    result.log.push_back(units[u].name + " fatbinary: " + (cached ? "cache hit" : "fatbinary") +
                         " (key " + key.substr(0, 16) + ")" +
                         (warning.empty() ? "" : "; " + warning));
    result.fatbin.resize((result.fatbin.size() + kUnitImageAlignment - 1) / kUnitImageAlignment *
                             kUnitImageAlignment,
                         '\0');
    // The unit's kernels: its PTX's entry points.
    const std::set<std::string> symbols = ptxEntries(ptxJob.output.ptx);
    result.images.push_back({units[u].name, result.fatbin.size(), fatbin.bytes.size(),
                             std::vector<std::string>(symbols.begin(), symbols.end()), ptxArch});
    if (result.ptxArch.empty() || olderArch(result.ptxArch, ptxArch))
      result.ptxArch = ptxArch;
    result.fatbin += fatbin.bytes;
  }
  result.times.push_back({"fatbinary", fatbinWatch.seconds()});
  result.ok = true;
  return result;
}

} // namespace fuserc
