// Grid-barrier probe: what a kernel whose blocks wait for one another
// (the row reductions' grid variant, g512) pays for the wait and for its
// cooperative launch. Each configuration is a CUDA graph (a memset of the
// count, then the kernel) replayed many times; the probe prints the median
// replay, event to event, for blocks of 512 threads that pass R barriers
// (each: thread 0 stores a partial, fences, counts itself, waits until
// every block has; then the block reads every partial), launched plainly
// or cooperatively (bench/README.md, "Few long rows over a grid").
//
// Build and run on the GPU: nvcc -O3 -arch=sm_90 -o grid_barrier grid_barrier.cu && ./grid_barrier
#include "probe.h"

enum Wait { kAcquireSpin = 0, kVolatileSpin = 1, kSleepSpin = 2 };

__global__ void __launch_bounds__(512, 2)
    barriers(int *count, float *slots, float *out, int rounds, int wait) {
  __shared__ float red[16];
  float acc = (float)blockIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.x == 0) {
      __stcg(slots + r * gridDim.x + blockIdx.x, acc);
      __threadfence();
      atomicAdd(count, 1);
      const int target = (r + 1) * (int)gridDim.x;
      int seen;
      do {
        if (wait == kVolatileSpin)
          seen = *(volatile int *)count;
        else
          asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(seen) : "l"(count) : "memory");
        if (wait == kSleepSpin && seen < target)
          __nanosleep(100);
      } while (seen < target);
      __threadfence();
    }
    __syncthreads();
    float x = threadIdx.x < gridDim.x ? __ldcg(slots + r * gridDim.x + threadIdx.x) : 0.f;
    for (int o = 16; o > 0; o >>= 1)
      x += __shfl_xor_sync(0xffffffffu, x, o);
    if ((threadIdx.x & 31) == 0)
      red[threadIdx.x >> 5] = x;
    __syncthreads();
    x = 0.f;
    for (int w = 0; w < 16; ++w)
      x += red[w];
    acc = x;
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = acc;
}

float replay(int blocks, int rounds, bool cooperative, bool memset, int wait, int *count,
             float *slots, float *out, cudaStream_t s) {
  cudaGraph_t g;
  cudaGraphExec_t e;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  if (memset)
    CHECK(cudaMemsetAsync(count, 0, sizeof(int), s));
  cudaLaunchConfig_t config = {};
  cudaLaunchAttribute attribute = {};
  attribute.id = cudaLaunchAttributeCooperative;
  attribute.val.cooperative = 1;
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(512);
  config.stream = s;
  config.attrs = &attribute;
  config.numAttrs = cooperative ? 1 : 0;
  CHECK(cudaLaunchKernelEx(&config, barriers, count, slots, out, rounds, wait));
  CHECK(cudaStreamEndCapture(s, &g));
  CHECK(cudaGraphInstantiate(&e, g, 0));
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::vector<float> times;
  for (int i = 0; i < 220; ++i) {
    CHECK(cudaEventRecord(a, s));
    CHECK(cudaGraphLaunch(e, s));
    CHECK(cudaEventRecord(b, s));
    CHECK(cudaEventSynchronize(b));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    if (i >= 20)
      times.push_back(ms * 1000.f);
  }
  CHECK(cudaGraphExecDestroy(e));
  CHECK(cudaGraphDestroy(g));
  return median(times);
}

int main() {
  int *count;
  float *slots, *out;
  CHECK(cudaMalloc(&count, sizeof(int)));
  CHECK(cudaMalloc(&slots, 4 * 264 * sizeof(float)));
  CHECK(cudaMalloc(&out, 264 * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  std::printf("blocks rounds wait   plain+memset coop+memset plain coop (us, median replay)\n");
  for (int blocks : {8, 64, 264})
    for (int rounds : {0, 1, 3})
      for (int wait : {kAcquireSpin, kVolatileSpin, kSleepSpin}) {
        if (rounds == 0 && wait != kAcquireSpin)
          continue;
        const float pm = replay(blocks, rounds, false, true, wait, count, slots, out, s);
        const float cm = replay(blocks, rounds, true, true, wait, count, slots, out, s);
        // Without the memset only a kernel with no barrier gives the right
        // answer; the others would not wait (the count stays reached).
        const float p = rounds == 0 ? replay(blocks, 0, false, false, wait, count, slots, out, s) : 0;
        const float c = rounds == 0 ? replay(blocks, 0, true, false, wait, count, slots, out, s) : 0;
        std::printf("%6d %6d %4d %12.2f %11.2f %6.2f %6.2f\n", blocks, rounds, wait, pm, cm, p, c);
      }
  return 0;
}
