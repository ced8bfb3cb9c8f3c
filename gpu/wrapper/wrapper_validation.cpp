// The generated launch functions called with every kind of bad argument on a
// real GPU (gpu/wrapper/validation.fus). Each bad call must return the right
// status and message, launch nothing (the output keeps its poison) and leave
// no CUDA error behind (the context still synchronizes cleanly). Misaligned
// but element-aligned pointers must fall back to scalar code and compute the
// right result. Indices out of range return NAME_ERROR_INDEX_OUT_OF_RANGE
// naming the op, with the context still healthy. Then: 16 threads racing to the first launch load
// the fatbin exactly once (cuLibraryLoadData is interposed and counted), and launches work in two
// contexts (two devices when there are two).
//
//   fuserc gpu/wrapper/validation.fus -o kernels
//   g++ -std=c++17 -O1 wrapper_validation.cpp -I kernels -I DLPACK_INCLUDE
//       -I /usr/local/cuda/include -L /usr/local/cuda/lib64/stubs -lcuda -lpthread -ldl
//   ./a.out            # prints one line per check; exits 1 if any failed
//
// Without a device it prints "no CUDA device: skipped" and exits 0.
#include "validation.h"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

int failures = 0;

void report(bool ok, const std::string &what, const std::string &detail = "") {
  std::printf("%s: %s%s%s\n", ok ? "ok" : "FAIL", what.c_str(), detail.empty() ? "" : " -- ",
              detail.c_str());
  failures += !ok;
}

std::atomic<int> libraryLoads{0};

} // namespace

// Counts the loads the header makes, then does the real one.
extern "C" CUresult cuLibraryLoadData(CUlibrary *library, const void *code,
                                      CUjit_option *jitOptions, void **jitValues,
                                      unsigned int numJitOptions, CUlibraryOption *options,
                                      void **values, unsigned int numOptions) {
  using Load = CUresult (*)(CUlibrary *, const void *, CUjit_option *, void **, unsigned int,
                            CUlibraryOption *, void **, unsigned int);
  static Load real = reinterpret_cast<Load>(dlsym(RTLD_NEXT, "cuLibraryLoadData"));
  ++libraryLoads;
  if (!real)
    return CUDA_ERROR_NOT_FOUND;
  return real(library, code, jitOptions, jitValues, numJitOptions, options, values, numOptions);
}

namespace {

constexpr float kPoison = -12345.0f;

bool cudaOk(CUresult r, const char *what) {
  if (r == CUDA_SUCCESS)
    return true;
  const char *name = nullptr;
  cuGetErrorName(r, &name);
  report(false, what, name ? name : "?");
  return false;
}

void *ptr(CUdeviceptr p) { return reinterpret_cast<void *>(static_cast<uintptr_t>(p)); }

// A device buffer of floats with a host mirror.
struct Buffer {
  CUdeviceptr device = 0;
  size_t count = 0;
  explicit Buffer(size_t n) : count(n) { cuMemAlloc(&device, (n ? n : 1) * sizeof(float)); }
  ~Buffer() { cuMemFree(device); }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  void upload(const std::vector<float> &v) { cuMemcpyHtoD(device, v.data(), v.size() * 4); }
  std::vector<float> download(size_t offset = 0, size_t n = SIZE_MAX) const {
    n = std::min(n, count - offset);
    std::vector<float> v(n);
    cuMemcpyDtoH(v.data(), device + offset * sizeof(float), n * sizeof(float));
    return v;
  }
  void poison() {
    std::vector<float> v(count, kPoison);
    upload(v);
  }
};

struct Tensor {
  int64_t shape[2] = {0, 0};
  int64_t strides[2] = {1, 1};
  DLTensor t{};
  Tensor(void *data, std::initializer_list<int64_t> extents) {
    t.data = data;
    t.device = DLDevice{kDLCUDA, 0};
    t.ndim = static_cast<int32_t>(extents.size());
    t.dtype = DLDataType{kDLFloat, 32, 1};
    int d = 0;
    for (int64_t e : extents)
      shape[d++] = e;
    t.shape = shape;
    t.strides = nullptr;
  }
};

std::vector<float> ramp(size_t n, float scale) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = scale * static_cast<float>((i * 7919) % 1001) / 1000.0f - 0.5f;
  return v;
}

bool allPoison(const std::vector<float> &v) {
  for (float f : v)
    if (f != kPoison)
      return false;
  return true;
}

// The context is healthy: nothing failed asynchronously.
bool contextClean() { return cuCtxSynchronize() == CUDA_SUCCESS; }

// ---- scale_add: z = x * alpha + y ----

constexpr float kAlpha = 0.75f;

bool scaleAddMatches(const std::vector<float> &x, const std::vector<float> &y,
                     const std::vector<float> &z) {
  for (size_t i = 0; i < z.size(); ++i)
    if (!(std::fabs(z[i] - (x[i] * kAlpha + y[i])) <= 1e-5f * (1 + std::fabs(z[i]))))
      return false;
  return true;
}

// Calls launch with one thing broken and expects `status` and a message
// containing `message`, no write to z and a clean context.
void expectRefused(const char *what, validation_status status, const char *message,
                   const std::function<validation_status(Buffer &)> &call, Buffer &z) {
  z.poison();
  validation_status got = call(z);
  std::string error = validation_last_error();
  cuCtxSynchronize();
  bool ok = got == status && error.find(message) != std::string::npos && allPoison(z.download()) &&
            contextClean();
  report(ok, std::string("refused: ") + what,
         "status " + std::to_string(got) + ", \"" + error + "\"");
}

// One function on purpose: the checks of one wrapper, in the order of its arguments.
void scaleAddChecks() {
  const int64_t n = 4099 * 4; // a multiple of the vector width
  std::vector<float> hx = ramp(n + 8, 1.0f), hy = ramp(n + 8, 3.0f);
  Buffer x(n + 8), y(n + 8), z(n + 8);
  x.upload(hx);
  y.upload(hy);
  auto launch = [&](DLTensor *tx, DLTensor *ty, DLTensor *tz) {
    return validation__scale_add_launch(tx, ty, kAlpha, tz, nullptr, 0, nullptr);
  };

  { // The valid launch works (and is what every refusal below breaks).
    Tensor tx(ptr(x.device), {n}), ty(ptr(y.device), {n}), tz(ptr(z.device), {n});
    z.poison();
    validation_status st = launch(&tx.t, &ty.t, &tz.t);
    bool ok = st == validation_OK && contextClean() && scaleAddMatches(hx, hy, z.download(0, n));
    report(ok, "a valid launch computes z", validation_last_error());
  }
  using Call = std::function<validation_status(Buffer &)>;
  auto broken = [&](std::function<void(Tensor &, Tensor &, Tensor &)> breakIt) -> Call {
    return [&, breakIt](Buffer &out) {
      Tensor tx(ptr(x.device), {n}), ty(ptr(y.device), {n}), tz(ptr(out.device), {n});
      breakIt(tx, ty, tz);
      return launch(&tx.t, &ty.t, &tz.t);
    };
  };
  const auto invalid = validation_ERROR_INVALID_ARGUMENT;
  expectRefused(
      "null tensor", invalid, "x is NULL",
      [&](Buffer &out) {
        Tensor ty(ptr(y.device), {n}), tz(ptr(out.device), {n});
        return launch(nullptr, &ty.t, &tz.t);
      },
      z);
  expectRefused("null data pointer", invalid, "x: data is NULL",
                broken([](Tensor &a, Tensor &, Tensor &) { a.t.data = nullptr; }), z);
  expectRefused("wrong dtype", invalid, "x: dtype is float64, expected float32",
                broken([](Tensor &a, Tensor &, Tensor &) { a.t.dtype.bits = 64; }), z);
  expectRefused("wrong rank", invalid, "y: rank is 2, expected 1",
                broken([](Tensor &, Tensor &b, Tensor &) {
                  b.t.ndim = 2;
                  b.shape[1] = 1;
                }),
                z);
  expectRefused("inconsistent symbolic extents", invalid, "y: extent 0 is",
                broken([](Tensor &, Tensor &b, Tensor &) { b.shape[0] -= 1; }), z);
  expectRefused("strides not matching the layout", invalid, "x: stride 0 is 2, expected 1",
                broken([](Tensor &a, Tensor &, Tensor &) {
                  a.t.strides = a.strides;
                  a.strides[0] = 2;
                }),
                z);
  expectRefused("output strides not matching", invalid, "z: stride 0 is 2, expected 1",
                broken([](Tensor &, Tensor &, Tensor &c) {
                  c.t.strides = c.strides;
                  c.strides[0] = 2;
                }),
                z);
  expectRefused("a CPU device type", invalid, "x: device type is 1, expected kDLCUDA",
                broken([](Tensor &a, Tensor &, Tensor &) { a.t.device.device_type = kDLCPU; }), z);
  expectRefused("tensors on two devices", invalid, "is on device 1 but x is on device 0",
                broken([](Tensor &, Tensor &b, Tensor &) { b.t.device.device_id = 1; }), z);
  expectRefused("a pointer not aligned to its elements", invalid,
                "is not aligned to its 4-byte elements",
                broken([](Tensor &a, Tensor &, Tensor &) { a.t.byte_offset = 2; }), z);
  std::vector<float> pageable(n + 8, 1.0f);
  expectRefused("pageable host memory labelled CUDA", invalid,
                "is not memory CUDA allocated or registered",
                broken([&](Tensor &a, Tensor &, Tensor &) { a.t.data = pageable.data(); }), z);
  expectRefused("pageable host memory as the output", invalid, "z: 0x",
                broken([&](Tensor &, Tensor &, Tensor &c) { c.t.data = pageable.data(); }), z);
  { // The current context on another device.
    int devices = 0;
    cuDeviceGetCount(&devices);
    if (devices > 1) {
      expectRefused("tensors labelled device 1, the context on device 0", invalid,
                    "x is on device 1 but the current context is on device 0",
                    broken([](Tensor &a, Tensor &b, Tensor &c) {
                      a.t.device.device_id = b.t.device.device_id = c.t.device.device_id = 1;
                    }),
                    z);
    } else {
      report(true, "tensors labelled device 1 (one device: refused as a missing device)");
      expectRefused("a device that does not exist", invalid, "device 1 does not exist",
                    broken([](Tensor &a, Tensor &b, Tensor &c) {
                      a.t.device.device_id = b.t.device.device_id = c.t.device.device_id = 1;
                    }),
                    z);
    }
  }

  // Pinned host memory is memory the device can use.
  {
    void *pinned = nullptr;
    if (cudaOk(cuMemAllocHost(&pinned, (n + 8) * sizeof(float)), "cuMemAllocHost")) {
      std::memcpy(pinned, hx.data(), n * sizeof(float));
      Tensor tx(pinned, {n}), ty(ptr(y.device), {n}), tz(ptr(z.device), {n});
      z.poison();
      validation_status st = launch(&tx.t, &ty.t, &tz.t);
      report(st == validation_OK && contextClean() && scaleAddMatches(hx, hy, z.download(0, n)),
             "pinned host memory as an input computes z", validation_last_error());
      cuMemFreeHost(pinned);
    }
  }

  // Misaligned for the vectors but aligned to the elements: scalar code.
  for (int shift : {1, 2, 3}) {
    for (int which = 0; which < 3; ++which) {
      Tensor tx(ptr(x.device), {n}), ty(ptr(y.device), {n}), tz(ptr(z.device), {n});
      Tensor *t[3] = {&tx, &ty, &tz};
      t[which]->t.byte_offset = static_cast<uint64_t>(shift) * sizeof(float);
      z.poison();
      validation_status st = launch(&tx.t, &ty.t, &tz.t);
      std::vector<float> sx(hx.begin() + (which == 0 ? shift : 0), hx.end());
      std::vector<float> sy(hy.begin() + (which == 1 ? shift : 0), hy.end());
      std::vector<float> out = z.download(which == 2 ? shift : 0, n);
      bool ok = st == validation_OK && contextClean() && scaleAddMatches(sx, sy, out);
      report(ok,
             "misaligned by " + std::to_string(shift) + " float(s): " + "xyz"[which] +
                 " (scalar fallback)",
             validation_last_error());
    }
  }
}

// ---- col_sum: the workspace ----

void colSumChecks() {
  const int64_t m = 1 << 17, c = 8; // few columns, many rows: split across blocks
  std::vector<float> hx = ramp(static_cast<size_t>(m * c), 1.0f);
  Buffer x(m * c), s(c);
  x.upload(hx);
  Tensor tx(ptr(x.device), {m, c});
  Tensor ts(ptr(s.device), {c});
  size_t bytes = 0;
  validation_status st = validation__col_sum_workspace_size(&tx.t, &bytes);
  report(st == validation_OK && bytes > 0, "col_sum needs workspace for a split",
         std::to_string(bytes) + " bytes");
  if (bytes == 0)
    return;
  Buffer ws((bytes + 3) / 4);
  auto launch = [&](void *workspace, size_t size) {
    return [&, workspace, size](Buffer &out) {
      Tensor a(ptr(x.device), {m, c}), b(ptr(out.device), {c});
      return validation__col_sum_launch(&a.t, &b.t, workspace, size, nullptr);
    };
  };
  const auto invalid = validation_ERROR_INVALID_ARGUMENT;
  expectRefused("workspace too small", invalid, "see workspace_size",
                launch(ptr(ws.device), bytes - 1), s);
  expectRefused("workspace NULL", invalid, "workspace is NULL", launch(nullptr, bytes), s);
  std::vector<char> pageable(bytes);
  expectRefused("workspace in pageable host memory", invalid, "workspace: 0x",
                launch(pageable.data(), bytes), s);
  s.poison();
  st = launch(ptr(ws.device), bytes)(s);
  std::vector<float> got = s.download();
  bool ok = st == validation_OK && contextClean();
  for (int64_t j = 0; ok && j < c; ++j) {
    double want = 0;
    for (int64_t i = 0; i < m; ++i)
      want += hx[static_cast<size_t>(i * c + j)];
    ok = std::fabs(got[static_cast<size_t>(j)] - want) <= 1e-3 * (1 + std::fabs(want));
  }
  report(ok, "col_sum with its workspace computes the sums", validation_last_error());
}

// ---- take and put: indices out of range ----

// A device buffer of int64 indices.
struct Indices {
  CUdeviceptr device = 0;
  int64_t shape[1];
  DLTensor t{};
  explicit Indices(const std::vector<int64_t> &v) {
    cuMemAlloc(&device, v.size() * sizeof(int64_t));
    cuMemcpyHtoD(device, v.data(), v.size() * sizeof(int64_t));
    shape[0] = static_cast<int64_t>(v.size());
    t.data = ptr(device);
    t.device = DLDevice{kDLCUDA, 0};
    t.ndim = 1;
    t.dtype = DLDataType{kDLInt, 64, 1};
    t.shape = shape;
  }
  ~Indices() { cuMemFree(device); }
  Indices(const Indices &) = delete;
  Indices &operator=(const Indices &) = delete;
};

void indexChecks() {
  const int64_t n = 1000, k = 4096;
  std::vector<float> hx = ramp(n, 1.0f), hs = ramp(k, 9.0f);
  Buffer x(n), s(k), y(k), put(n);
  x.upload(hx);
  s.upload(hs);
  Tensor tx(ptr(x.device), {n}), ts(ptr(s.device), {k});
  std::vector<int64_t> good(k), big(k), negative(k), wraps(k);
  for (int64_t j = 0; j < k; ++j)
    good[j] = big[j] = negative[j] = wraps[j] = (j * 37) % n;
  big[k - 1] = n;                    // one past the end
  negative[k / 2] = -1;              // before the start
  wraps[3] = (int64_t(1) << 32) + 5; // 5 if truncated to 32 bits
  size_t bytes = 0;
  Indices gi(good);
  validation_status st = validation__take_workspace_size(&tx.t, &gi.t, &bytes);
  report(st == validation_OK && bytes >= 4, "take needs the index flag's workspace",
         std::to_string(bytes) + " bytes");
  // The scatter also keeps its claims there (4 bytes an element of x).
  size_t putBytes = 0;
  st = validation__put_workspace_size(&tx.t, &gi.t, &ts.t, &putBytes);
  report(st == validation_OK && putBytes >= 256 + 4 * n, "put needs its claims' workspace",
         std::to_string(putBytes) + " bytes");
  bytes = std::max(bytes, putBytes);
  Buffer ws((bytes + 3) / 4);
  auto take = [&](const std::vector<int64_t> &idx, const char *what, validation_status want,
                  const char *message) {
    Indices ti(idx);
    Tensor ty(ptr(y.device), {k});
    y.poison();
    validation_status got =
        validation__take_launch(&tx.t, &ti.t, &ty.t, ptr(ws.device), bytes, nullptr);
    std::string error = validation_last_error();
    bool ok = got == want && error.find(message) != std::string::npos && contextClean();
    if (ok && want == validation_OK) {
      std::vector<float> out = y.download();
      for (int64_t j = 0; ok && j < k; ++j)
        ok = out[j] == hx[idx[j]];
    }
    report(ok, std::string("take: ") + what,
           "status " + std::to_string(got) + ", \"" + error + "\"");
  };
  take(good, "indices in range", validation_OK, "");
  const auto range = validation_ERROR_INDEX_OUT_OF_RANGE;
  const char *takeMessage = "'y' (index_select): an index in 'i' is outside [0, x.shape[0])";
  take(big, "an index one past the end", range, takeMessage);
  take(negative, "a negative index", range, takeMessage);
  take(wraps, "2^32 + 5 (in range if truncated)", range, takeMessage);
  take(good, "in range again after errors", validation_OK, "");

  auto scatter = [&](const std::vector<int64_t> &idx, const char *what, validation_status want) {
    Indices ti(idx);
    Tensor tp(ptr(put.device), {n}), tsrc(ptr(s.device), {k});
    put.poison();
    validation_status got =
        validation__put_launch(&tx.t, &ti.t, &tsrc.t, &tp.t, ptr(ws.device), bytes, nullptr);
    std::string error = validation_last_error();
    bool ok = got == want && contextClean() &&
              (want == validation_OK ||
               error.find("'y' (scatter): an index in 'i' is outside [0, x.shape[0])") !=
                   std::string::npos);
    report(ok, std::string("put: ") + what,
           "status " + std::to_string(got) + ", \"" + error + "\"");
  };
  scatter(good, "indices in range", validation_OK);
  scatter(big, "an index one past the end", range);
  scatter(wraps, "2^32 + 5 (in range if truncated)", range);
}

// ---- loading: once under a race, per context ----

void concurrentFirstLaunches() {
  validation_unload();
  const int before = libraryLoads.load();
  const int64_t n = 1 << 20;
  std::vector<float> hx = ramp(n, 1.0f), hy = ramp(n, 2.0f);
  Buffer x(n), y(n);
  x.upload(hx);
  y.upload(hy);
  CUcontext context = nullptr;
  cuCtxGetCurrent(&context);
  std::vector<std::unique_ptr<Buffer>> outs;
  for (int t = 0; t < 16; ++t) {
    outs.push_back(std::make_unique<Buffer>(n));
    outs.back()->poison();
  }
  std::atomic<int> ready{0}, okCount{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 16; ++t)
    threads.emplace_back([&, t] {
      cuCtxSetCurrent(context);
      CUstream stream = nullptr;
      cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING);
      ++ready;
      while (ready.load() < 16) {
      }
      Tensor tx(ptr(x.device), {n}), ty(ptr(y.device), {n}), tz(ptr(outs[t]->device), {n});
      bool ok = true;
      for (int i = 0; i < 20; ++i)
        ok &= validation__scale_add_launch(&tx.t, &ty.t, kAlpha, &tz.t, nullptr, 0, stream) ==
              validation_OK;
      ok &= cuStreamSynchronize(stream) == CUDA_SUCCESS;
      cuStreamDestroy(stream);
      okCount += ok;
    });
  for (std::thread &t : threads)
    t.join();
  bool results = true;
  for (auto &out : outs)
    results &= scaleAddMatches(hx, hy, out->download());
  report(libraryLoads.load() - before == 1 && okCount.load() == 16 && results,
         "16 threads racing to the first launch: one load, every result right",
         std::to_string(libraryLoads.load() - before) + " load(s), " +
             std::to_string(okCount.load()) + " threads OK");
}

// Launches scale_add in `context`, with memory allocated there.
bool launchIn(CUcontext context, const char *what) {
  if (!cudaOk(cuCtxSetCurrent(context), "cuCtxSetCurrent"))
    return false;
  CUdevice device;
  cuCtxGetDevice(&device);
  const int64_t n = 1000003;
  std::vector<float> hx = ramp(n, 1.0f), hy = ramp(n, 5.0f);
  bool ok;
  {
    Buffer x(n), y(n), z(n);
    x.upload(hx);
    y.upload(hy);
    z.poison();
    Tensor tx(ptr(x.device), {n}), ty(ptr(y.device), {n}), tz(ptr(z.device), {n});
    tx.t.device.device_id = ty.t.device.device_id = tz.t.device.device_id = device;
    validation_status st =
        validation__scale_add_launch(&tx.t, &ty.t, kAlpha, &tz.t, nullptr, 0, nullptr);
    ok = st == validation_OK && contextClean() && scaleAddMatches(hx, hy, z.download());
    report(ok, what, validation_last_error());
  }
  return ok;
}

void twoContexts(CUcontext primary) {
  int devices = 0;
  cuDeviceGetCount(&devices);
  CUdevice second;
  cuDeviceGet(&second, devices > 1 ? 1 : 0);
  CUcontext other = nullptr;
  if (!cudaOk(cuCtxCreate(&other, nullptr, 0, second), "cuCtxCreate"))
    return;
  launchIn(primary, "launch in the primary context of device 0");
  launchIn(other, devices > 1 ? "launch in a context of device 1"
                              : "launch in a second context of device 0");
  launchIn(primary, "launch in the first context again");
  cuCtxSetCurrent(primary);
  cuCtxDestroy(other);
  cuCtxSetCurrent(primary);
}

// Not a check: the host time one launch call takes (validation, the driver
// queries of check_context/check_memory, the launch itself), for the notes.
void launchCallTime() {
  const int64_t n = 1024;
  Buffer x(n), y(n), z(n);
  Tensor tx(ptr(x.device), {n}), ty(ptr(y.device), {n}), tz(ptr(z.device), {n});
  for (int i = 0; i < 100; ++i)
    validation__scale_add_launch(&tx.t, &ty.t, kAlpha, &tz.t, nullptr, 0, nullptr);
  cuCtxSynchronize();
  const int calls = 20000;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i)
    validation__scale_add_launch(&tx.t, &ty.t, kAlpha, &tz.t, nullptr, 0, nullptr);
  auto end = std::chrono::steady_clock::now();
  cuCtxSynchronize();
  std::printf("measured: %.2f us of host time per scale_add launch call (3 tensors)\n",
              std::chrono::duration<double, std::micro>(end - start).count() / calls);
}

} // namespace

int main() {
  CUdevice device;
  CUcontext context;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&device, 0) != CUDA_SUCCESS) {
    std::printf("no CUDA device: skipped\n");
    return 0;
  }
  if (!cudaOk(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain") ||
      !cudaOk(cuCtxSetCurrent(context), "cuCtxSetCurrent"))
    return 1;
  scaleAddChecks();
  colSumChecks();
  indexChecks();
  concurrentFirstLaunches();
  twoContexts(context);
  launchCallTime();
  validation_unload();
  std::printf("%s: %d check(s) failed\n", failures ? "FAIL" : "PASS", failures);
  return failures ? 1 : 0;
}
