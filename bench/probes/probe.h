// What the probes in bench/probes share: a CUDA runtime call checked (the
// probe exits with the error), and the median of timed replays.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                                   \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                                \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

static float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
