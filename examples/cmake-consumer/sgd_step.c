/* A C99 program calling the kernels fuserc generated from sgd_update.fus
   (the header comes with the consumer_kernels library): one SGD step with
   momentum on a 37 x 129 matrix, updating the weights and the momentum in
   place, checked against the same step computed on the CPU.

   Exit status: 0 when the results match, or when there is no GPU (it prints
   "no CUDA device: skipped"); 1 on a mismatch or any failure. */
#include "device.h"
#include "sgd_update.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { ROWS = 37, COLS = 129, COUNT = ROWS * COLS };

static const float kLearningRate = 0.01f;

/* A matrix on the device and the DLTensor that describes it. */
typedef struct {
  CUdeviceptr data;
  int64_t shape[2];
  DLTensor tensor;
} DeviceMatrix;

static int upload(DeviceMatrix *m, const float *host) {
  m->data = 0;
  m->shape[0] = ROWS;
  m->shape[1] = COLS;
  m->tensor.data = NULL;
  m->tensor.device.device_type = kDLCUDA;
  m->tensor.device.device_id = 0;
  m->tensor.ndim = 2;
  m->tensor.dtype.code = kDLFloat;
  m->tensor.dtype.bits = 32;
  m->tensor.dtype.lanes = 1;
  m->tensor.shape = m->shape;
  m->tensor.strides = NULL; /* row-major */
  m->tensor.byte_offset = 0;
  if (!consumer_driver_ok(cuMemAlloc(&m->data, COUNT * sizeof(float)), "cuMemAlloc") ||
      !consumer_driver_ok(cuMemcpyHtoD(m->data, host, COUNT * sizeof(float)), "cuMemcpyHtoD"))
    return 0;
  m->tensor.data = (void *)(uintptr_t)m->data;
  return 1;
}

/* Uniform in [-1, 1), from a fixed linear congruential sequence. */
static float next_value(uint32_t *state) {
  *state = *state * 1664525u + 1013904223u;
  return (float)(*state >> 8) / (float)(1u << 23) - 1.0f;
}

static int run_step(void) {
  static float w[COUNT], m[COUNT], g[COUNT], w_result[COUNT], m_result[COUNT];
  DeviceMatrix dw, dm, dg;
  DLTensor out_m2, out_w2;
  int64_t m2_shape[sgd_update__sgd_update_OUTPUT_0_RANK];
  int64_t m2_strides[sgd_update__sgd_update_OUTPUT_0_RANK];
  int64_t w2_shape[sgd_update__sgd_update_OUTPUT_1_RANK];
  int64_t w2_strides[sgd_update__sgd_update_OUTPUT_1_RANK];
  size_t workspace_bytes = 0;
  CUdeviceptr workspace = 0;
  uint32_t state = 12345u;
  int i, mismatches = 0;

  for (i = 0; i < COUNT; ++i) {
    w[i] = next_value(&state);
    m[i] = next_value(&state);
    g[i] = next_value(&state);
  }
  if (!upload(&dw, w) || !upload(&dm, m) || !upload(&dg, g))
    return 1;

  /* Both outputs are in-place updates: describe_outputs points them at the
     buffers of m and w. */
  memset(&out_m2, 0, sizeof out_m2);
  memset(&out_w2, 0, sizeof out_w2);
  out_m2.shape = m2_shape;
  out_m2.strides = m2_strides;
  out_w2.shape = w2_shape;
  out_w2.strides = w2_strides;
  if (sgd_update__sgd_update_describe_outputs(&dw.tensor, &dm.tensor, &dg.tensor, &out_m2,
                                             &out_w2) != sgd_update_OK ||
      sgd_update__sgd_update_workspace_size(&dw.tensor, &dm.tensor, &dg.tensor, &workspace_bytes) !=
          sgd_update_OK) {
    fprintf(stderr, "sgd_update: %s\n", sgd_update_last_error());
    return 1;
  }
  if (workspace_bytes > 0 &&
      !consumer_driver_ok(cuMemAlloc(&workspace, workspace_bytes), "cuMemAlloc"))
    return 1;
  if (sgd_update__sgd_update_launch(&dw.tensor, &dm.tensor, &dg.tensor, kLearningRate, &out_m2,
                                   &out_w2, (void *)(uintptr_t)workspace, workspace_bytes,
                                   NULL) != sgd_update_OK) {
    fprintf(stderr, "sgd_update: %s\n", sgd_update_last_error());
    return 1;
  }
  if (!consumer_driver_ok(cuCtxSynchronize(), "cuCtxSynchronize") ||
      !consumer_driver_ok(cuMemcpyDtoH(w_result, dw.data, sizeof w_result), "cuMemcpyDtoH") ||
      !consumer_driver_ok(cuMemcpyDtoH(m_result, dm.data, sizeof m_result), "cuMemcpyDtoH"))
    return 1;

  for (i = 0; i < COUNT; ++i) {
    float m2 = m[i] * 0.9f + g[i];
    float w2 = w[i] - kLearningRate * m2;
    /* The kernel may contract into fused multiply-adds: allow rounding. */
    if (fabsf(m_result[i] - m2) > 1e-5f || fabsf(w_result[i] - w2) > 1e-5f) {
      if (++mismatches <= 5)
        fprintf(stderr, "element %d: m %g (expected %g), w %g (expected %g)\n", i,
                (double)m_result[i], (double)m2, (double)w_result[i], (double)w2);
    }
  }
  cuMemFree(dw.data);
  cuMemFree(dm.data);
  cuMemFree(dg.data);
  if (workspace)
    cuMemFree(workspace);
  if (mismatches) {
    fprintf(stderr, "sgd_step: %d of %d elements differ from the CPU\n", mismatches, COUNT);
    return 1;
  }
  printf("sgd_step: %d x %d matrix updated in place on the GPU, matches the CPU\n", ROWS, COLS);
  return 0;
}

int main(void) {
  CUdevice device;
  CUcontext context;
  int status;
  switch (consumer_open_device(&device, &context)) {
  case CONSUMER_NO_DEVICE:
    return 0;
  case CONSUMER_DEVICE_FAILED:
    return 1;
  case CONSUMER_DEVICE_READY:
    break;
  }
  status = run_step();
  cuDevicePrimaryCtxRelease(device);
  return status;
}
