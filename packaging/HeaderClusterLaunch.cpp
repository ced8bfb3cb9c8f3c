// The part of every generated header's runtime (HeaderParts.h) that
// launches kernels in thread-block clusters: whether the current device
// runs them, and NAME_launch_cluster_kernel (cuLaunchKernelEx with a
// cluster dimension). The row reductions' cluster variant launches through
// it.
#include "packaging/HeaderParts.h"

namespace fuserc::header {
namespace {

const char *const kClusterLaunch = R"c(
/* Whether `kernel` runs in thread-block clusters on the current context's
   device: compute capability 9.0 and newer, and the kernel's code built for
   a virtual architecture with clusters (PTX version 9.0 and newer). A fatbin
   built for older architectures only holds the kernel's build without
   clusters (an empty body), which the driver would compile for this device
   from its PTX. 0 when the driver cannot say: the launch then takes a
   variant without clusters (which reports any failure of the driver). */
static @P@_UNUSED int @P@_clusters_supported(const char *kernel) {
  CUdevice device;
  CUkernel handle = NULL;
  CUresult result;
  int major = 0, ptx = 0;
  if (cuCtxGetDevice(&device) != CUDA_SUCCESS)
    return 0;
  if (cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device) !=
          CUDA_SUCCESS ||
      major < 9)
    return 0;
  if (@P@_acquire_kernel(kernel, 0, device, &handle) != @P@_OK)
    return 0;
  result = cuKernelGetAttribute(&ptx, CU_FUNC_ATTRIBUTE_PTX_VERSION, handle, device);
  @P@_release_kernel();
  return result == CUDA_SUCCESS && ptx >= 90;
}

/* As @P@_launch_kernel, a one-dimensional grid of `grid_x` blocks (a
   multiple of `cluster_x`) in clusters of `cluster_x` consecutive blocks,
   at most 8 (the portable cluster size). */
static @P@_UNUSED @P@_status @P@_launch_cluster_kernel(const char *kernel, unsigned grid_x,
    unsigned cluster_x, unsigned block_x, unsigned shared_bytes, void *args, CUstream stream) {
  CUkernel handle = NULL;
  CUdevice device = 0;
  CUresult result;
  CUlaunchConfig config;
  CUlaunchAttribute attribute;
  void *params[1];
  if (grid_x == 0)
    return @P@_OK;
  if (cluster_x == 0 || cluster_x > 8 || grid_x % cluster_x != 0)
    return @P@_fail(@P@_ERROR_INVALID_ARGUMENT,
        "internal: a grid of %u blocks cannot form clusters of %u", grid_x, cluster_x);
  if (shared_bytes > 48u * 1024u) {
    result = cuCtxGetDevice(&device);
    if (result != CUDA_SUCCESS)
      return @P@_cuda_failure(result, "cuCtxGetDevice", kernel);
  }
  @P@_TRY(@P@_acquire_kernel(kernel, shared_bytes, device, &handle));
  memset(&config, 0, sizeof config);
  memset(&attribute, 0, sizeof attribute);
  attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attribute.value.clusterDim.x = cluster_x;
  attribute.value.clusterDim.y = 1;
  attribute.value.clusterDim.z = 1;
  config.gridDimX = grid_x;
  config.gridDimY = 1;
  config.gridDimZ = 1;
  config.blockDimX = block_x;
  config.blockDimY = 1;
  config.blockDimZ = 1;
  config.sharedMemBytes = shared_bytes;
  config.hStream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  params[0] = args;
  result = cuLaunchKernelEx(&config, (CUfunction)handle, params, NULL);
  @P@_release_kernel();
  return result == CUDA_SUCCESS ? @P@_OK : @P@_cuda_failure(result, "cuLaunchKernelEx", kernel);
}
)c";

} // namespace

std::string clusterLaunchSupport(const std::string &prefix) {
  return substitutePrefix(kClusterLaunch, prefix);
}

} // namespace fuserc::header
