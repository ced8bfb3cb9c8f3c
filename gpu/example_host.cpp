// Running fuserc's generated kernels from C++ with nothing but the generated
// files and the CUDA driver API: z = x * alpha + y (gpu/cases/example.fus).
//
//   fuserc gpu/cases/example.fus -o kernels
//   g++ -std=c++17 example_host.cpp kernels/example.c -I kernels -I DLPACK_INCLUDE
//       -I /usr/local/cuda/include -L /usr/local/cuda/lib64/stubs -lcuda -o example_host
//   ./example_host [N]
//
// gpu/run_tests.py builds and runs it. It exits 0 when the GPU result
// matches the same arithmetic on the CPU.
#include "example.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

bool check(CUresult result, const char *what) {
  if (result == CUDA_SUCCESS)
    return true;
  const char *message = nullptr;
  cuGetErrorString(result, &message);
  std::fprintf(stderr, "example_host: %s failed: %s\n", what, message ? message : "?");
  return false;
}

bool check(example_status status, const char *what) {
  if (status == example_OK)
    return true;
  std::fprintf(stderr, "example_host: %s returned %d: %s\n", what, static_cast<int>(status),
               example_last_error());
  return false;
}

void *pointer(CUdeviceptr p) { return reinterpret_cast<void *>(static_cast<uintptr_t>(p)); }

// A dense 1-d f32 tensor on CUDA device 0.
DLTensor vector(CUdeviceptr data, int64_t *shape) {
  DLTensor t{};
  t.data = pointer(data);
  t.device = DLDevice{kDLCUDA, 0};
  t.ndim = 1;
  t.dtype = DLDataType{kDLFloat, 32, 1};
  t.shape = shape;
  t.strides = nullptr; // NULL: row-major
  return t;
}

} // namespace

int main(int argc, char **argv) {
  const int64_t n = argc > 1 ? std::atoll(argv[1]) : 1000003;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  CUdevice device;
  CUcontext context;
  if (!check(cuInit(0), "cuInit") || !check(cuDeviceGet(&device, 0), "cuDeviceGet") ||
      !check(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain") ||
      !check(cuCtxSetCurrent(context), "cuCtxSetCurrent"))
    return 1;

  std::mt19937 rng(7);
  std::normal_distribution<float> normal;
  std::vector<float> x(n), y(n), z(n);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = normal(rng);
    y[i] = normal(rng);
  }
  const float alpha = 0.75f;

  CUdeviceptr dx, dy, dz, workspace = 0;
  if (!check(cuMemAlloc(&dx, bytes), "cuMemAlloc") ||
      !check(cuMemAlloc(&dy, bytes), "cuMemAlloc") ||
      !check(cuMemcpyHtoD(dx, x.data(), bytes), "cuMemcpyHtoD") ||
      !check(cuMemcpyHtoD(dy, y.data(), bytes), "cuMemcpyHtoD"))
    return 1;
  int64_t shape[1] = {n};
  DLTensor tx = vector(dx, shape), ty = vector(dy, shape);

  // The output: describe_outputs says its shape and strides; we allocate it.
  int64_t zShape[example__scale_add_OUTPUT_0_RANK], zStrides[example__scale_add_OUTPUT_0_RANK];
  DLTensor tz{};
  tz.shape = zShape;
  tz.strides = zStrides;
  size_t workspaceBytes = 0;
  if (!check(example__scale_add_describe_outputs(&tx, &ty, &tz), "describe_outputs") ||
      !check(example__scale_add_workspace_size(&tx, &ty, &workspaceBytes), "workspace_size") ||
      !check(cuMemAlloc(&dz, bytes), "cuMemAlloc") ||
      (workspaceBytes && !check(cuMemAlloc(&workspace, workspaceBytes), "cuMemAlloc")))
    return 1;
  tz.data = pointer(dz);
  tz.device = DLDevice{kDLCUDA, 0};

  if (!check(example__scale_add_launch(&tx, &ty, alpha, &tz, pointer(workspace), workspaceBytes,
                                      /*stream=*/nullptr),
             "launch") ||
      !check(cuStreamSynchronize(nullptr), "cuStreamSynchronize") ||
      !check(cuMemcpyDtoH(z.data(), dz, bytes), "cuMemcpyDtoH"))
    return 1;

  double maxError = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double want = static_cast<double>(x[i] * alpha) + y[i];
    const double error = std::fabs(z[i] - want) / (1 + std::fabs(want));
    if (std::isnan(error) || error > maxError) // a NaN (an unwritten element) sticks
      maxError = error;
  }
  cuMemFree(dx);
  cuMemFree(dy);
  cuMemFree(dz);
  if (workspace)
    cuMemFree(workspace);
  example_unload();
  const bool ok = maxError <= 1e-6; // false for NaN
  std::printf("example_host: N=%lld, largest relative error %.3g: %s\n", static_cast<long long>(n),
              maxError, ok ? "OK" : "WRONG");
  return ok ? 0 : 1;
}
