// Multi-arch compilation and fatbinary packaging (see ModuleCompiler.h).
#include "packaging/ModuleCompiler.h"

#include "packaging/CompileCache.h"
#include "packaging/Fatbinary.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

namespace fuserc {
namespace {

// Numeric order of sm numbers ("90" > "80", "90a" after "90").
bool olderArch(const std::string &a, const std::string &b) {
  std::string x = smNumber(a), y = smNumber(b);
  int nx = std::atoi(x.c_str()), ny = std::atoi(y.c_str());
  return nx != ny ? nx < ny : x < y;
}

} // namespace

ModuleCompileResult compileModule(const std::string &source, const ModuleCompileOptions &options) {
  ModuleCompileResult result;
  std::vector<std::string> archs = options.archs;
  std::sort(archs.begin(), archs.end(), olderArch);
  archs.erase(std::unique(archs.begin(), archs.end()), archs.end());
  if (archs.empty()) {
    result.error = "no architecture to compile for";
    return result;
  }
  result.ptxArch = archs.back();
  const std::vector<std::string> nvrtcOptions = defaultNvrtcOptions();
  CompileCache cache(options.cacheDir);

  struct Job {
    std::string arch;
    bool ptx;
    std::string key;
    NvrtcOutput output;
    bool cached = false;
    std::string warning;
    double seconds = 0;
  };
  std::vector<Job> jobs;
  for (const std::string &arch : archs) {
    bool ptx = arch == result.ptxArch;
    jobs.push_back(
        {arch, ptx, CompileCache::key(source, arch, ptx, nvrtcOptions), {}, false, "", 0});
  }
  // Jobs run on up to `jobs` threads; each writes only its own slot, so the
  // result does not depend on the order they finish in.
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
    job.output = compileWithNvrtc(source, options.sourceName, job.arch, job.ptx, nvrtcOptions);
    if (job.output.ok)
      cache.store(job.key, job.output, job.warning);
  };
  auto worker = [&] {
    for (size_t i; (i = next++) < jobs.size();) {
      Job &job = jobs[i];
      Stopwatch watch;
      run(job);
      job.seconds = watch.seconds();
      if (!options.onJobDone)
        continue;
      std::lock_guard<std::mutex> lock(reportMutex);
      options.onJobDone({options.sourceName, job.arch, job.cached, job.output.ok, job.seconds,
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

  std::vector<FatbinImage> images;
  for (Job &job : jobs) {
    result.log.push_back(job.arch + ": " + (job.cached ? "cache hit" : "NVRTC compile") + " (key " +
                         job.key.substr(0, 16) + ")" +
                         (job.warning.empty() ? "" : "; " + job.warning));
    if (!job.output.ok) {
      result.error = "NVRTC failed for " + job.arch + ":\n" + job.output.log;
      return result;
    }
    result.nvrtcCompiles += !job.cached;
    result.cacheHits += job.cached;
    result.times.push_back({(job.cached ? "cache " : "nvrtc ") + job.arch, job.seconds});
    result.resources[job.arch] = job.output.resources;
    images.push_back({smNumber(job.arch), false, job.output.cubin});
    if (job.ptx)
      images.push_back({smNumber(job.arch), true, job.output.ptx});
  }
  std::string tool = findFatbinary();
  if (tool.empty()) {
    result.error = "the CUDA toolkit's 'fatbinary' was not found (set FUSERC_FATBINARY)";
    return result;
  }
  Stopwatch fatbinWatch;
  FatbinResult fatbin = makeFatbinary(tool, images);
  result.times.push_back({"fatbinary", fatbinWatch.seconds()});
  if (!fatbin.ok) {
    result.error = fatbin.error;
    return result;
  }
  result.fatbin = std::move(fatbin.bytes);
  result.ok = true;
  return result;
}

} // namespace fuserc
