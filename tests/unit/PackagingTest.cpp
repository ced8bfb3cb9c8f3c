// Unit tests for the packaging layer with the real CUDA toolkit: NVRTC per
// architecture with the ptxas resource report, fatbinary, and the compile
// cache. (No GPU is needed: nothing here runs a kernel.)
#include "packaging/CompileCache.h"
#include "packaging/Fatbinary.h"
#include "packaging/ModuleCompiler.h"
#include "packaging/NvrtcCompiler.h"
#include "packaging/Ptxas.h"
#include "packaging/SharedPtx.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

namespace fuserc {
namespace {

const char *kSource = R"(
extern "C" __global__ void scale(float *x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}
extern "C" __global__ void tile(float *x) {
  __shared__ float t[256];
  t[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = t[255 - threadIdx.x];
}
)";

TEST(Nvrtc, CompilesForEachArchAndReportsResourcesPerKernel) {
  for (const char *arch : {"sm_80", "sm_90"}) {
    NvrtcOutput out = compileWithNvrtc(kSource, "k.cu", arch, /*wantPtx=*/true, {});
    ASSERT_TRUE(out.ok) << out.log;
    EXPECT_FALSE(out.cubin.empty());
    EXPECT_NE(out.ptx.find(".entry scale"), std::string::npos);
    ASSERT_EQ(out.resources.size(), 2u) << out.log;
    EXPECT_EQ(out.resources[0].kernel, "scale");
    EXPECT_GT(out.resources[0].registers, 0);
    EXPECT_EQ(out.resources[1].kernel, "tile");
    EXPECT_EQ(out.resources[1].sharedBytes, 1024);
    EXPECT_EQ(out.log.find("Compile time"), std::string::npos) << "timings make output vary";
  }
}

TEST(Nvrtc, ErrorsComeBackInTheLog) {
  NvrtcOutput out =
      compileWithNvrtc("__global__ void k() { undeclared(); }", "bad.cu", "sm_90", false, {});
  EXPECT_FALSE(out.ok);
  EXPECT_NE(out.log.find("bad.cu"), std::string::npos) << out.log;
  EXPECT_NE(out.log.find("undeclared"), std::string::npos) << out.log;
}

TEST(Nvrtc, DefaultOptionsRoundEachOpsResult) {
  // One op's product and another's sum stay two roundings; an explicit fmaf
  // still fuses.
  const char *source = R"(
extern "C" __global__ void f(float *x, float a, float b, float c) {
  float p = a * b;
  x[0] = p - c;
  x[1] = fmaf(a, b, c);
}
)";
  NvrtcOutput out =
      compileWithNvrtc(source, "f.cu", "sm_90", /*wantPtx=*/true, defaultNvrtcOptions());
  ASSERT_TRUE(out.ok) << out.log;
  EXPECT_NE(out.ptx.find("mul.rn.f32"), std::string::npos) << out.ptx;
  EXPECT_NE(out.ptx.find("sub.rn.f32"), std::string::npos) << out.ptx;
  size_t first = out.ptx.find("fma.rn.f32");
  ASSERT_NE(first, std::string::npos) << out.ptx;
  EXPECT_EQ(out.ptx.find("fma.rn.f32", first + 1), std::string::npos) << out.ptx;
}

TEST(Nvrtc, ArchNamesMapToSmNumbers) {
  EXPECT_EQ(smNumber("sm_90"), "90");
  EXPECT_EQ(smNumber("sm_90a"), "90a");
  EXPECT_EQ(smNumber("compute_90"), "");
  EXPECT_EQ(smNumber("sm_"), "");
}

TEST(PtxasReport, ParsesEveryField) {
  std::vector<KernelResources> r = parsePtxasReport(
      "ptxas info    : Function properties for k\n"
      "ptxas         .     24 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n"
      "ptxas info    : Used 40 registers, used 1 barriers, 2048 bytes smem\n");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].registers, 40);
  EXPECT_EQ(r[0].sharedBytes, 2048);
  EXPECT_EQ(r[0].stackBytes, 24);
  EXPECT_EQ(r[0].spillStoreBytes, 8);
  EXPECT_EQ(r[0].spillLoadBytes, 4);
}

TEST(Fatbinary, PackagesCubinsAndPtxDeterministically) {
  std::string tool = findFatbinary();
  ASSERT_FALSE(tool.empty()) << "the CUDA toolkit's fatbinary was not found";
  std::vector<FatbinImage> images;
  for (const char *arch : {"sm_80", "sm_90"}) {
    NvrtcOutput out = compileWithNvrtc(kSource, "k.cu", arch, true, {});
    ASSERT_TRUE(out.ok) << out.log;
    images.push_back({smNumber(arch), false, out.cubin});
    if (std::string(arch) == "sm_90")
      images.push_back({"90", true, out.ptx});
  }
  FatbinResult a = makeFatbinary(tool, images);
  FatbinResult b = makeFatbinary(tool, images);
  ASSERT_TRUE(a.ok) << a.error;
  ASSERT_TRUE(b.ok) << b.error;
  EXPECT_GT(a.bytes.size(), images[0].bytes.size());
  EXPECT_EQ(a.bytes, b.bytes);
}

TEST(CompileCache, StoredEntriesLoadBackAndKeysSeparateInputs) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("fuserc-cache-test", dir));
  CompileCache cache{std::string(dir)};
  std::string key = CompileCache::key(kSource, "sm_90", true, {});
  EXPECT_NE(key, CompileCache::key(kSource, "sm_80", true, {}));
  EXPECT_NE(key, CompileCache::key(kSource, "sm_90", false, {}));
  EXPECT_NE(key, CompileCache::key(kSource, "sm_90", true, {"-lineinfo"}));
  EXPECT_NE(key, CompileCache::key(std::string(kSource) + " ", "sm_90", true, {}));
  std::string problem;
  EXPECT_FALSE(cache.load(key, problem));
  EXPECT_EQ(problem, "");
  NvrtcOutput out = compileWithNvrtc(kSource, "k.cu", "sm_90", true, {});
  ASSERT_TRUE(out.ok);
  std::string warning;
  cache.store(key, out, warning);
  EXPECT_EQ(warning, "");
  std::optional<NvrtcOutput> loaded = cache.load(key, problem);
  EXPECT_EQ(problem, "");
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->cubin, out.cubin);
  EXPECT_EQ(loaded->ptx, out.ptx);
  ASSERT_EQ(loaded->resources.size(), out.resources.size());
  EXPECT_EQ(loaded->resources[0].registers, out.resources[0].registers);
  llvm::sys::fs::remove_directories(dir);
}

} // namespace
} // namespace fuserc

namespace fuserc {
namespace {

TEST(ModuleCompiler, ArchsSharingPtxCompileOnceAndAssembleEach) {
  ModuleCompileOptions options;
  options.archs = {"sm_90", "sm_80", "sm_90"};
  ModuleCompileResult r = compileModule({{"k", kSource}}, options);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.ptxArch, "sm_80");
  EXPECT_EQ(r.compileJobs, 3u); // PTX for sm_80, ptxas for sm_80 and sm_90
  ASSERT_EQ(r.log.size(), 4u);  // the three jobs, then the unit's fatbinary
  EXPECT_EQ(r.log[0].substr(0, r.log[0].find(" (")), "k compute_80: NVRTC compile to PTX");
  EXPECT_EQ(r.log[2].substr(0, r.log[2].find(" (")), "k sm_90: ptxas");
  EXPECT_EQ(r.log[3].substr(0, r.log[3].find(" (")), "k fatbinary: fatbinary");
  EXPECT_EQ(r.resources.size(), 2u);
  ASSERT_EQ(r.images.size(), 1u);
  EXPECT_EQ(r.images[0].ptxArch, "sm_80");
  EXPECT_EQ(r.images[0].offset, 0u);
  EXPECT_EQ(r.images[0].size, r.fatbin.size());
}

TEST(ModuleCompiler, ArchsTheSourceTellsApartCompileEachAndEmbedPtxOfTheNewest) {
  const std::string source =
      std::string("#if __CUDA_ARCH__ >= 900\n#define FAST 1\n#endif\n") + kSource;
  ModuleCompileOptions options;
  options.archs = {"sm_80", "sm_90"};
  ModuleCompileResult r = compileModule({{"k", source}}, options);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.compileJobs, 2u);
  EXPECT_EQ(r.images[0].ptxArch, "sm_90");
  EXPECT_EQ(r.ptxArch, "sm_90");
}

TEST(ModuleCompiler, PtxasGivesTheResourcesNvrtcReports) {
  NvrtcOutput direct = compileWithNvrtc(kSource, "k.cu", "sm_90", false, defaultNvrtcOptions());
  NvrtcOutput ptx = compileWithNvrtc(kSource, "k.cu", "compute_90", true, defaultNvrtcOptions());
  ASSERT_TRUE(direct.ok && ptx.ok) << direct.log << ptx.log;
  EXPECT_TRUE(ptx.cubin.empty());
  const std::string ptxas = findPtxas();
  ASSERT_FALSE(ptxas.empty());
  NvrtcOutput assembled = assembleWithPtxas(ptxas, ptx.ptx, "k", "sm_90");
  ASSERT_TRUE(assembled.ok) << assembled.log;
  EXPECT_FALSE(assembled.cubin.empty());
  ASSERT_EQ(assembled.resources.size(), direct.resources.size());
  for (size_t i = 0; i < direct.resources.size(); ++i) {
    EXPECT_EQ(assembled.resources[i].kernel, direct.resources[i].kernel);
    EXPECT_EQ(assembled.resources[i].registers, direct.resources[i].registers);
    EXPECT_EQ(assembled.resources[i].sharedBytes, direct.resources[i].sharedBytes);
  }
  EXPECT_EQ(assembled.log.find("Compile time"), std::string::npos);
  NvrtcOutput broken = assembleWithPtxas(ptxas, "not ptx", "broken", "sm_90");
  EXPECT_FALSE(broken.ok);
  EXPECT_NE(broken.log.find("failed"), std::string::npos) << broken.log;
}

TEST(SharedPtx, ArchsOnTheSameSideOfEveryArchTestShareOnePtx) {
  using Groups = std::vector<std::vector<std::string>>;
  const std::vector<std::string> archs = {"sm_75", "sm_80", "sm_86", "sm_90"};
  EXPECT_EQ(ptxSharingGroups("plain", archs), (Groups{archs}));
  EXPECT_EQ(ptxSharingGroups("#if __CUDA_ARCH__ >= 800\n#endif", archs),
            (Groups{{"sm_75"}, {"sm_80", "sm_86", "sm_90"}}));
  EXPECT_EQ(ptxSharingGroups("#if __CUDA_ARCH__>=800\n#elif __CUDA_ARCH__ >= 900", archs),
            (Groups{{"sm_75"}, {"sm_80", "sm_86"}, {"sm_90"}}));
}

TEST(SharedPtx, OtherArchTestsAndFeatureArchsCompileAlone) {
  using Groups = std::vector<std::vector<std::string>>;
  EXPECT_EQ(ptxSharingGroups("#if __CUDA_ARCH__ == 800", {"sm_80", "sm_90"}),
            (Groups{{"sm_80"}, {"sm_90"}}));
  EXPECT_EQ(ptxSharingGroups("#ifdef __CUDA_ARCH__", {"sm_80", "sm_90"}),
            (Groups{{"sm_80"}, {"sm_90"}}));
  EXPECT_EQ(ptxSharingGroups("NV_IF_TARGET(NV_PROVIDES_SM_90, (x();))", {"sm_80", "sm_90"}),
            (Groups{{"sm_80"}, {"sm_90"}}));
  EXPECT_EQ(ptxSharingGroups("", {"sm_80", "sm_90", "sm_90a"}),
            (Groups{{"sm_80", "sm_90"}, {"sm_90a"}}));
  EXPECT_EQ(virtualArch("sm_86"), "compute_86");
}

TEST(ModuleCompiler, NvrtcErrorsNameTheArchTheUnitAndCarryTheLog) {
  ModuleCompileOptions options;
  options.archs = {"sm_80"};
  ModuleCompileResult r =
      compileModule({{"fine", kSource}, {"broken", "__global__ void k() { nope(); }"}}, options);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("NVRTC failed for sm_80 (broken)"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("broken.cu"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("nope"), std::string::npos) << r.error;
  EXPECT_EQ(r.failedSource, "__global__ void k() { nope(); }");
}

// Two units: the kernels' source, and it again with `scale` renamed.
std::vector<CompileUnit> twoUnits(const std::string &secondName) {
  std::string second = kSource;
  second.replace(second.find("scale"), 5, secondName);
  return {{"first", kSource}, {"second", second}};
}

TEST(ModuleCompiler, EachUnitIsItsOwnAlignedFatbinaryWithItsKernelsResources) {
  ModuleCompileOptions options;
  options.archs = {"sm_80", "sm_90"};
  ModuleCompileResult r = compileModule(twoUnits("other"), options);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.compileJobs, 6u); // per unit: PTX, then ptxas for each arch
  ASSERT_EQ(r.images.size(), 2u);
  EXPECT_EQ(r.images[0].unit, "first");
  EXPECT_EQ(r.images[1].unit, "second");
  EXPECT_EQ(r.images[1].offset % kUnitImageAlignment, 0u);
  EXPECT_GE(r.images[1].offset, r.images[0].size);
  EXPECT_EQ(r.images[1].offset + r.images[1].size, r.fatbin.size());
  EXPECT_EQ(r.images[0].symbols, (std::vector<std::string>{"scale", "tile"}));
  EXPECT_EQ(r.images[1].symbols, (std::vector<std::string>{"other", "tile"}));
  for (const UnitImage &i : r.images) {
    uint32_t magic = 0;
    std::memcpy(&magic, r.fatbin.data() + i.offset, sizeof magic);
    EXPECT_EQ(magic, 0xBA55ED50u) << i.unit; // a fatbinary starts here
  }
  for (const auto &[arch, resources] : r.resources) {
    ASSERT_EQ(resources.size(), 4u) << arch; // other, scale and each unit's tile
    EXPECT_EQ(resources[0].kernel, "other");
    EXPECT_EQ(resources[1].kernel, "scale");
    EXPECT_EQ(resources[2].kernel, "tile");
  }
}

TEST(ModuleCompiler, ChangingOneUnitRecompilesOnlyThatUnit) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("fuserc-units-test", dir));
  ModuleCompileOptions options;
  options.archs = {"sm_80", "sm_90"};
  options.cacheDir = std::string(dir);
  ModuleCompileResult cold = compileModule(twoUnits("other"), options);
  ASSERT_TRUE(cold.ok) << cold.error;
  EXPECT_EQ(cold.compileJobs, 6u);
  EXPECT_EQ(cold.cacheHits, 0u);
  ModuleCompileResult warm = compileModule(twoUnits("other"), options);
  EXPECT_EQ(warm.compileJobs, 0u);
  EXPECT_EQ(warm.cacheHits, 6u);
  EXPECT_EQ(warm.fatbin, cold.fatbin);
  // Each unit's fatbinary comes from the cache too.
  for (const char *unit : {"first", "second"}) {
    const std::string hit = std::string(unit) + " fatbinary: cache hit";
    EXPECT_EQ(std::count_if(warm.log.begin(), warm.log.end(),
                            [&](const std::string &line) { return line.rfind(hit, 0) == 0; }),
              1)
        << unit;
  }
  ModuleCompileResult edited = compileModule(twoUnits("edited"), options);
  ASSERT_TRUE(edited.ok) << edited.error;
  EXPECT_EQ(edited.compileJobs, 3u); // the second unit: its PTX, for both archs
  EXPECT_EQ(edited.cacheHits, 3u);
  llvm::sys::fs::remove_directories(dir);
}

} // namespace
} // namespace fuserc
