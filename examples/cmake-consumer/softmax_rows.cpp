// A C++ program calling the kernels fuserc generated from row_softmax.fus
// (the header comes with the consumer_kernels library): softmax(x * s) along
// the rows of f32 matrices whose row lengths pick each of the kernel's
// variants, checked against the CPU.
//
// Exit status: 0 when every result matches, or when there is no GPU (it
// prints "no CUDA device: skipped"); 1 on a mismatch or any failure.
#include "device.h"
#include "row_softmax.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// Thrown for any failure; main prints it and exits with 1.
struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void checkDriver(CUresult result, const char *call) {
  if (!consumer_driver_ok(result, call))
    throw Failure(std::string(call) + " failed");
}

void checkKernels(row_softmax_status status) {
  if (status != row_softmax_OK)
    throw Failure(row_softmax_last_error());
}

// Device memory, freed when it goes out of scope.
class DeviceBuffer {
public:
  explicit DeviceBuffer(size_t bytes) {
    if (bytes > 0)
      checkDriver(cuMemAlloc(&ptr_, bytes), "cuMemAlloc");
  }
  ~DeviceBuffer() {
    if (ptr_)
      cuMemFree(ptr_);
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  void *data() const { return reinterpret_cast<void *>(static_cast<uintptr_t>(ptr_)); }
  CUdeviceptr ptr() const { return ptr_; }

private:
  CUdeviceptr ptr_ = 0;
};

// A row-major f32 matrix of the given extents at `data` on device 0.
DLTensor matrixTensor(void *data, int64_t *shape) {
  DLTensor t{};
  t.data = data;
  t.device = {kDLCUDA, 0};
  t.ndim = 2;
  t.dtype = {kDLFloat, 32, 1};
  t.shape = shape;
  t.strides = nullptr;
  return t;
}

std::vector<float> softmaxOnCpu(const std::vector<float> &x, int64_t rows, int64_t cols,
                                float scale) {
  std::vector<float> y(x.size());
  for (int64_t r = 0; r < rows; ++r) {
    const float *in = &x[r * cols];
    double top = -INFINITY, sum = 0;
    for (int64_t c = 0; c < cols; ++c)
      top = std::max(top, double(in[c] * scale));
    for (int64_t c = 0; c < cols; ++c)
      sum += std::exp(double(in[c] * scale) - top);
    for (int64_t c = 0; c < cols; ++c)
      y[r * cols + c] = float(std::exp(double(in[c] * scale) - top) / sum);
  }
  return y;
}

// Runs softmax on a rows x cols matrix; returns the number of elements that
// differ from the CPU.
int checkSoftmax(int64_t rows, int64_t cols, float scale, std::mt19937 &random) {
  std::vector<float> x(size_t(rows * cols));
  std::uniform_real_distribution<float> values(-8.0f, 8.0f);
  for (float &v : x)
    v = values(random);

  int64_t xShape[2] = {rows, cols};
  DeviceBuffer xBuffer(x.size() * sizeof(float));
  checkDriver(cuMemcpyHtoD(xBuffer.ptr(), x.data(), x.size() * sizeof(float)), "cuMemcpyHtoD");
  DLTensor in = matrixTensor(xBuffer.data(), xShape);

  // The output's shape and strides come from describe_outputs.
  int64_t yShape[row_softmax__row_softmax_OUTPUT_0_RANK];
  int64_t yStrides[row_softmax__row_softmax_OUTPUT_0_RANK];
  DLTensor out{};
  out.shape = yShape;
  out.strides = yStrides;
  checkKernels(row_softmax__row_softmax_describe_outputs(&in, &out));
  DeviceBuffer yBuffer(x.size() * sizeof(float));
  out.data = yBuffer.data();
  out.device = in.device;

  size_t workspaceBytes = 0;
  checkKernels(row_softmax__row_softmax_workspace_size(&in, &workspaceBytes));
  DeviceBuffer workspace(workspaceBytes);
  checkKernels(
      row_softmax__row_softmax_launch(&in, scale, &out, workspace.data(), workspaceBytes, nullptr));
  checkDriver(cuCtxSynchronize(), "cuCtxSynchronize");

  std::vector<float> y(x.size());
  checkDriver(cuMemcpyDtoH(y.data(), yBuffer.ptr(), y.size() * sizeof(float)), "cuMemcpyDtoH");
  std::vector<float> expected = softmaxOnCpu(x, rows, cols, scale);
  int mismatches = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    if (std::fabs(y[i] - expected[i]) > 1e-5f + 1e-4f * expected[i]) {
      if (++mismatches <= 5)
        std::fprintf(stderr, "%lld x %lld, element %zu: %g (expected %g)\n", (long long)rows,
                     (long long)cols, i, double(y[i]), double(expected[i]));
    }
  }
  std::printf("softmax_rows: %lld x %lld: %s\n", (long long)rows, (long long)cols,
              mismatches ? "MISMATCH" : "matches the CPU");
  return mismatches;
}

} // namespace

int main() {
  CUdevice device;
  CUcontext context;
  switch (consumer_open_device(&device, &context)) {
  case CONSUMER_NO_DEVICE:
    return 0;
  case CONSUMER_DEVICE_FAILED:
    return 1;
  case CONSUMER_DEVICE_READY:
    break;
  }
  int failures = 0;
  try {
    std::mt19937 random(2024);
    // Row lengths for a warp per row, a block per row, and a looping block.
    for (int64_t cols : {1, 77, 1000, 5003})
      failures += checkSoftmax(67, cols, 0.5f, random) != 0;
  } catch (const Failure &f) {
    std::fprintf(stderr, "softmax_rows: %s\n", f.what());
    failures = 1;
  }
  row_softmax_unload();
  cuDevicePrimaryCtxRelease(device);
  return failures ? 1 : 0;
}
