// Fusions and hand-written kernel code for the header and manifest tests:
// small fusions run through the pass pipeline, each with a FusionCode a code
// generator could have produced — real CUDA kernels, their argument structs
// and host launch blocks following schedulers/KernelPlan.h.
//
//   scale  x: f32[N, C] layout(1, 0), s: f32 -> y = x * s (a new buffer in
//          x's layout); two variants, vec4 when everything is 16-byte aligned
//   views  x: f16[N, C, H, W] NHWC, z: f32[M, K] strided, u: f32[M, K] ->
//          a = permute(x) (a view), b = slice(z) (a view), c = u + 1 in place;
//          a made-up workspace of 4*M*K bytes so launch checks it
//   mask   x: bf16[B, 8], keep: bool[B, 8] -> y = where(keep, x, 0)
//   take   x: f32[N], i: i64[K] -> y = index_select(x, i): its indices are
//          checked (codegen/core/IndexChecks.h), through a 256-byte workspace
#pragma once

#include "TestSupport.h"
#include "packaging/Fatbinary.h"
#include "packaging/NvrtcCompiler.h"
#include "passes/AliasAnalysis.h"
#include "passes/Canonicalize.h"
#include "passes/LayoutInference.h"
#include "passes/Segmentation.h"
#include "schedulers/KernelPlan.h"
#include "schedulers/SchedulerRegistry.h"
#include "schedulers/SegmentedFusion.h"

#include <map>
#include <memory>

namespace fuserc::test {

inline const char *const kScaleAndViews = R"(
fusion scale {
  input x: f32[N, C] layout(1, 0)
  input s: f32
  y = mul(x, s)
  output y
}
fusion views {
  input x: f16[N, C, H, W] layout(0, 2, 3, 1)
  input z: f32[M, K] strided
  input u: f32[M, K]
  a = permute(x, dims=[0, 2, 3, 1])
  b = slice(z, dim=1, start=1, end=K)
  c = add(u, 1)
  output a
  output b
  output c aliases u
}
)";

inline const char *const kMask = R"(
fusion mask {
  input x: bf16[B, 8]
  input keep: bool[B, 8]
  y = where(keep, x, 0)
  output y
}
)";

inline const char *const kMaskAndTake = R"(
fusion mask {
  input x: bf16[B, 8]
  input keep: bool[B, 8]
  y = where(keep, x, 0)
  output y
}

fusion take {
  input x: f32[N]
  input i: i64[K]
  y = index_select(x, i, dim=0)
  output y
}
)";

// A module after the passes packaging sees the result of (canonicalize,
// layout inference, alias analysis), with each fusion's segmentation by the
// built-in schedulers.
struct Compiled {
  bool ok = false;
  std::string diagnostics;
  Module module;
  std::vector<SegmentedFusion> segmentations; // by fusion
};

inline std::unique_ptr<Compiled> compile(const char *text) {
  static const SchedulerRegistry builtins = [] {
    SchedulerRegistry registry;
    registerBuiltinSchedulers(registry);
    return registry;
  }();
  auto out = std::make_unique<Compiled>();
  Loaded loaded = load(text);
  out->diagnostics = loaded.diagnostics;
  if (!loaded.ok)
    return out;
  out->module = std::move(loaded.module);
  llvm::raw_string_ostream os(out->diagnostics);
  DiagnosticEngine diag(os);
  std::vector<const Scheduler *> schedulers = builtins.all();
  for (auto &fusion : out->module.fusions) {
    fusion = canonicalize(*fusion);
    inferLayouts(*fusion);
    if (!analyzeAliases(*fusion, diag))
      return out;
    std::optional<SegmentedFusion> segmented = segmentFusion(*fusion, {schedulers, {}}, diag);
    if (!segmented)
      return out;
    out->segmentations.push_back(std::move(*segmented));
  }
  out->ok = true;
  return out;
}

inline FusionCode scaleCode() {
  FusionCode code;
  code.fusion = "scale";
  code.cudaSource = R"(// segment 0 (pointwise): y = mul(x, s)
struct scale_k0_args {
  const float *x;
  float *y;
  float s;
  long long n;
};
extern "C" __global__ void scale_k0(scale_k0_args a) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < a.n)
    a.y[i] = a.x[i] * a.s;
}
extern "C" __global__ void scale_k0_vec4(scale_k0_args a) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (4 * i < a.n) {
    float4 v = reinterpret_cast<const float4 *>(a.x)[i];
    reinterpret_cast<float4 *>(a.y)[i] = make_float4(v.x * a.s, v.y * a.s, v.z * a.s, v.w * a.s);
  }
}
)";
  KernelPlan k;
  k.name = "scale_k0";
  k.scheduler = "pointwise";
  k.family = "pointwise";
  k.segment = 0;
  k.ops = {"y = mul(x, s)"};
  k.parameters = {{"block", int64_t{256}}, {"vector", "4 or 1"}};
  k.variants = {{"scale_k0_vec4", "N*C % 4 == 0 and x, y 16-byte aligned"},
                {"scale_k0", "otherwise"}};
  k.selection = "the first variant whose condition holds";
  k.launchGeometry = "grid ceildiv(N*C / vector, 256), block 256";
  k.bytesMoved = Extent(8) * Extent::symbol("N") * Extent::symbol("C");
  k.argsStruct = "typedef struct {\n  const float *x;\n  float *y;\n  float s;\n  int64_t n;\n"
                 "} FUSERC_NAME_scale_k0_args;\n";
  k.hostLaunch = R"(FUSERC_NAME_scale_k0_args args;
int vec4;
args.x = (const float *)((const char *)in_x->data + in_x->byte_offset);
args.y = (float *)((char *)out_y->data + out_y->byte_offset);
args.s = in_s;
args.n = sym_N * sym_C;
vec4 = args.n % 4 == 0 && (uintptr_t)args.x % 16 == 0 && (uintptr_t)args.y % 16 == 0;
st = FUSERC_NAME_launch_kernel(vec4 ? "scale_k0_vec4" : "scale_k0",
                               (unsigned)fuserc_ceildiv(vec4 ? args.n / 4 : args.n, 256), 1, 1,
                               256, 0, &args, stream);
if (st != FUSERC_NAME_OK)
  return st;
)";
  code.kernels.push_back(k);
  code.workspaceBytes = 0;
  return code;
}

inline FusionCode viewsCode() {
  FusionCode code;
  code.fusion = "views";
  code.cudaSource = R"(// segment 0 (transpose): c = add(u, 1), in place; a and b are views
struct views_k0_args {
  float *u;
  long long n;
};
extern "C" __global__ void views_k0(views_k0_args a) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < a.n)
    a.u[i] += 1.0f;
}
)";
  KernelPlan k;
  k.name = "views_k0";
  k.scheduler = "transpose";
  k.segment = 0;
  k.ops = {"c = add(u, 1)"};
  k.parameters = {{"block", int64_t{128}}};
  k.variants = {{"views_k0", "always"}};
  k.selection = "one variant";
  k.launchGeometry = "grid ceildiv(M*K, 128), block 128";
  k.bytesMoved = Extent(8) * Extent::symbol("M") * Extent::symbol("K");
  k.argsStruct = "typedef struct {\n  float *u;\n  int64_t n;\n} FUSERC_NAME_views_k0_args;\n";
  k.hostLaunch = R"(FUSERC_NAME_views_k0_args args;
args.u = (float *)((char *)out_c->data + out_c->byte_offset);
args.n = sym_M * sym_K;
st = FUSERC_NAME_launch_kernel("views_k0", (unsigned)fuserc_ceildiv(args.n, 128), 1, 1, 128, 0,
                               &args, stream);
if (st != FUSERC_NAME_OK)
  return st;
)";
  code.kernels.push_back(k);
  code.workspaceBytes = Extent(4) * Extent::symbol("M") * Extent::symbol("K");
  return code;
}

inline FusionCode maskCode() {
  FusionCode code;
  code.fusion = "mask";
  code.cudaSource = R"(// segment 0 (pointwise): y = where(keep, x, 0), on the bf16 bits
struct mask_k0_args {
  const unsigned short *x;
  const unsigned char *keep;
  unsigned short *y;
  long long n;
};
extern "C" __global__ void mask_k0(mask_k0_args a) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < a.n)
    a.y[i] = a.keep[i] ? a.x[i] : 0;
}
)";
  KernelPlan k;
  k.name = "mask_k0";
  k.scheduler = "pointwise";
  k.family = "pointwise";
  k.segment = 0;
  k.ops = {"y = where(keep, x, 0)"};
  k.variants = {{"mask_k0", "always"}};
  k.selection = "one variant";
  k.launchGeometry = "grid ceildiv(B*8, 256), block 256";
  k.bytesMoved = Extent(40) * Extent::symbol("B");
  k.argsStruct = "typedef struct {\n  const uint16_t *x;\n  const uint8_t *keep;\n  uint16_t *y;\n"
                 "  int64_t n;\n} FUSERC_NAME_mask_k0_args;\n";
  k.hostLaunch = R"(FUSERC_NAME_mask_k0_args args;
args.x = (const uint16_t *)((const char *)in_x->data + in_x->byte_offset);
args.keep = (const uint8_t *)((const char *)in_keep->data + in_keep->byte_offset);
args.y = (uint16_t *)((char *)out_y->data + out_y->byte_offset);
args.n = sym_B * 8;
st = FUSERC_NAME_launch_kernel("mask_k0", (unsigned)fuserc_ceildiv(args.n, 256), 1, 1, 256, 0,
                               &args, stream);
if (st != FUSERC_NAME_OK)
  return st;
)";
  code.kernels.push_back(k);
  return code;
}

inline FusionCode takeCode() {
  FusionCode code;
  code.fusion = "take";
  code.cudaSource = R"(// segment 0 (pointwise): y = index_select(x, i, dim=0), indices checked
struct take_k0_args {
  const float *x;
  const long long *i;
  float *y;
  long long n, k;
  int *index_error;
};
extern "C" __global__ void take_k0(take_k0_args a) {
  long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t < a.k) {
    long long j = a.i[t];
    if (j < 0 || j >= a.n) {
      *a.index_error = 3;
      j = j < 0 ? 0 : a.n - 1;
    }
    a.y[t] = a.x[j];
  }
}
)";
  KernelPlan k;
  k.name = "take_k0";
  k.scheduler = "pointwise";
  k.family = "pointwise";
  k.segment = 0;
  k.ops = {"y = index_select(x, i, dim=0)"};
  k.variants = {{"take_k0", "always"}};
  k.selection = "one variant";
  k.launchGeometry = "grid ceildiv(K, 256), block 256";
  k.bytesMoved = Extent(16) * Extent::symbol("K");
  k.argsStruct = "typedef struct {\n  const float *x;\n  const int64_t *i;\n  float *y;\n"
                 "  int64_t n, k;\n  int *index_error;\n} FUSERC_NAME_take_k0_args;\n";
  k.hostLaunch = R"(FUSERC_NAME_take_k0_args args;
args.x = (const float *)((const char *)in_x->data + in_x->byte_offset);
args.i = (const int64_t *)((const char *)in_i->data + in_i->byte_offset);
args.y = (float *)((char *)out_y->data + out_y->byte_offset);
args.n = sym_N;
args.k = sym_K;
args.index_error = (int *)ws;
st = FUSERC_NAME_launch_kernel("take_k0", (unsigned)fuserc_ceildiv(args.k, 256), 1, 1, 256, 0,
                               &args, stream);
if (st != FUSERC_NAME_OK)
  return st;
)";
  code.kernels.push_back(k);
  code.workspaceBytes = 256;
  code.indexChecks = {{3, "'y' (index_select): an index in 'i' is outside [0, x.shape[0])"}};
  return code;
}

// The fusions' kernels compiled as the driver would: NVRTC per arch, the
// resources ptxas reports, one fatbin (cubins plus PTX of the newest).
struct BuiltKernels {
  std::string error;
  std::string fatbin;
  std::map<std::string, std::vector<KernelResources>> resources; // by arch
};

inline BuiltKernels buildKernels(const std::vector<FusionCode> &code,
                                 const std::vector<std::string> &archs = {"sm_80", "sm_90"}) {
  BuiltKernels built;
  std::string source;
  for (const FusionCode &c : code)
    source += c.cudaSource;
  std::vector<FatbinImage> images;
  for (const std::string &arch : archs) {
    bool newest = arch == archs.back();
    NvrtcOutput out = compileWithNvrtc(source, "kernels.cu", arch, newest, {});
    if (!out.ok) {
      built.error = out.log;
      return built;
    }
    built.resources[arch] = out.resources;
    images.push_back({smNumber(arch), false, out.cubin});
    if (newest)
      images.push_back({smNumber(arch), true, out.ptx});
  }
  FatbinResult fatbin = makeFatbinary(findFatbinary(), images);
  if (!fatbin.ok)
    built.error = fatbin.error;
  built.fatbin = fatbin.bytes;
  return built;
}

} // namespace fuserc::test
