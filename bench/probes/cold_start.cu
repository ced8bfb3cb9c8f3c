// Cold-start probe: what a short kernel pays when L2 was flushed just
// before it (as bench/ and do_bench flush between replays), split by cause:
// argument bytes read from the constant bank, instructions executed, code
// present but not executed. Each kernel is one CUDA graph node, replayed
// with and without a 256 MB memset before it; the probe prints the median
// of each and their difference (bench/README.md, "Where a short kernel's
// cold start goes").
//
// Build and run on the GPU: nvcc -O3 -arch=sm_90 -o cold_start cold_start.cu &&
// ./cold_start [BLOCKS [THREADS]]
#include "probe.h"

struct Small {
  float *y;
};
// About fuserc's argument struct: pointers, sizes and 8 x 8 strides.
struct Big {
  float *y;
  long long st[56];
};

__global__ void smallArgs(Small a) {
  if (threadIdx.x == 0)
    a.y[blockIdx.x] = 1.f;
}
// Reads one field of the struct (one constant-bank line).
__global__ void bigArgsOneLine(Big a) {
  if (threadIdx.x == 0)
    a.y[blockIdx.x] = (float)a.st[0];
}
// Reads fields spread over the struct's 456 bytes.
__global__ void bigArgsSpread(Big a) {
  if (threadIdx.x == 0)
    a.y[blockIdx.x] = (float)(a.st[0] + a.st[15] + a.st[31] + a.st[47] + a.st[55]);
}

// N executed instructions in 8 independent chains of multiply-adds by
// values known only at run time (nothing for ptxas to fold), so the warm
// kernel issues about one a cycle: what the cold one adds is fetch.
template <int N> __device__ __forceinline__ unsigned chains(unsigned seed, unsigned m) {
  unsigned x[8];
#pragma unroll
  for (int c = 0; c < 8; ++c)
    x[c] = seed + c;
#pragma unroll
  for (int i = 0; i < N / 8; ++i)
#pragma unroll
    for (int c = 0; c < 8; ++c)
      asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x[c]) : "r"(m), "r"(seed));
  unsigned r = 0;
#pragma unroll
  for (int c = 0; c < 8; ++c)
    r ^= x[c];
  return r;
}

template <int N> __global__ void executed(Small a) {
  const unsigned r = chains<N>(threadIdx.x, blockIdx.x + 3);
  if (threadIdx.x == 0)
    a.y[blockIdx.x] = (float)(r & 1);
}

// The same code behind a branch the launch never takes.
template <int N> __global__ void unexecuted(Small a, int take) {
  unsigned r = 0;
  if (take)
    r = chains<N>(threadIdx.x, blockIdx.x + 3);
  if (threadIdx.x == 0)
    a.y[blockIdx.x] = (float)(r & 1);
}

// Keeps the stream busy for as long as the flush takes, so that warm and
// cold replays alike are queued behind work and time the kernel alone.
__global__ void spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

struct Probe {
  const char *name;
  void *fn;
  void **args;
};

int main(int argc, char **argv) {
  const int blocks = argc > 1 ? std::atoi(argv[1]) : 64,
            threads = argc > 2 ? std::atoi(argv[2]) : 256, reps = 300;
  float *y;
  char *flush;
  const size_t flushBytes = size_t(256) << 20;
  CHECK(cudaMalloc(&y, blocks * sizeof(float)));
  CHECK(cudaMalloc(&flush, flushBytes));
  Small small{y};
  Big big{y, {}};
  for (int i = 0; i < 56; ++i)
    big.st[i] = i;
  int take = 0;
  void *smallArgv[] = {&small}, *bigArgv[] = {&big}, *deadArgv[] = {&small, &take};
  const Probe probes[] = {
      {"8-byte arguments", (void *)smallArgs, smallArgv},
      {"456-byte arguments, one line read", (void *)bigArgsOneLine, bigArgv},
      {"456-byte arguments, 5 lines read", (void *)bigArgsSpread, bigArgv},
      {"256 instructions executed", (void *)executed<256>, smallArgv},
      {"512 instructions executed", (void *)executed<512>, smallArgv},
      {"1024 instructions executed", (void *)executed<1024>, smallArgv},
      {"2048 instructions executed", (void *)executed<2048>, smallArgv},
      {"4096 instructions executed", (void *)executed<4096>, smallArgv},
      {"4096 instructions not executed", (void *)unexecuted<4096>, deadArgv},
  };
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int khz = 0;
  CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
  std::printf("%s; %d blocks of %d threads, median of %d replays\n", prop.name, blocks, threads,
              reps);
  std::printf("%-38s %10s %10s %10s\n", "kernel", "cold us", "warm us", "cold-warm");
  for (const Probe &p : probes) {
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    CHECK(cudaLaunchKernel(p.fn, dim3(blocks), dim3(threads), p.args, 0, stream));
    CHECK(cudaStreamEndCapture(stream, &graph));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    float t[2];
    for (int cold = 1; cold >= 0; --cold) {
      std::vector<float> ms;
      for (int r = 0; r < reps + 10; ++r) {
        if (cold)
          CHECK(cudaMemsetAsync(flush, r & 0xff, flushBytes, stream));
        else
          spin<<<1, 32, 0, stream>>>(khz / 10); // 100 us (khz cycles a millisecond)
        CHECK(cudaEventRecord(start, stream));
        CHECK(cudaGraphLaunch(exec, stream));
        CHECK(cudaEventRecord(stop, stream));
        CHECK(cudaEventSynchronize(stop));
        float m;
        CHECK(cudaEventElapsedTime(&m, start, stop));
        if (r >= 10)
          ms.push_back(m);
      }
      t[cold] = median(ms) * 1e3f;
    }
    std::printf("%-38s %10.2f %10.2f %10.2f\n", p.name, t[1], t[0], t[1] - t[0]);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
  }
  return 0;
}
