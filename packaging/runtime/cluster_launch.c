/* The part of the runtime that launches kernels in thread-block clusters:
   whether the current device runs them, and NAME_launch_cluster_kernel
   (cuLaunchKernelEx with a cluster dimension). The row reductions' cluster
   variant launches through it. The header writer (packaging/HeaderRuntime.cpp)
   emits it after loader.c, without this comment, only in headers with such a
   kernel: the others need no cuLaunchKernelEx (CUDA 12.0 and newer drivers). */

/* Whether `kernel` runs in thread-block clusters on the current context's
   device: compute capability 9.0 and newer, and the kernel's code built for
   a virtual architecture with clusters (PTX version 9.0 and newer). A fatbin
   built for older architectures only holds the kernel's build without
   clusters (an empty body), which the driver would compile for this device
   from its PTX. 0 when the driver cannot say: the launch then takes a
   variant without clusters (which reports any failure of the driver). */
static FUSERC_NAME_UNUSED int FUSERC_NAME_clusters_supported(const char *kernel) {
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
  if (FUSERC_NAME_acquire_kernel(kernel, 0, device, &handle) != FUSERC_NAME_OK)
    return 0;
  result = cuKernelGetAttribute(&ptx, CU_FUNC_ATTRIBUTE_PTX_VERSION, handle, device);
  FUSERC_NAME_release_kernel();
  return result == CUDA_SUCCESS && ptx >= 90;
}

/* As FUSERC_NAME_launch_kernel, a one-dimensional grid of `grid_x` blocks (a
   multiple of `cluster_x`) in clusters of `cluster_x` consecutive blocks,
   at most 8 (the portable cluster size). */
static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_launch_cluster_kernel(const char *kernel, unsigned grid_x,
    unsigned cluster_x, unsigned block_x, unsigned shared_bytes, void *args, CUstream stream) {
  CUkernel handle = NULL;
  CUdevice device = 0;
  CUresult result;
  CUlaunchConfig config;
  CUlaunchAttribute attribute;
  void *params[1];
  if (grid_x == 0)
    return FUSERC_NAME_OK;
  if (cluster_x == 0 || cluster_x > 8 || grid_x % cluster_x != 0)
    return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT,
        "internal: a grid of %u blocks cannot form clusters of %u", grid_x, cluster_x);
  if (shared_bytes > 48u * 1024u) {
    result = cuCtxGetDevice(&device);
    if (result != CUDA_SUCCESS)
      return FUSERC_NAME_cuda_failure(result, "cuCtxGetDevice", kernel);
  }
  FUSERC_NAME_TRY(FUSERC_NAME_acquire_kernel(kernel, shared_bytes, device, &handle));
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
  FUSERC_NAME_release_kernel();
  return result == CUDA_SUCCESS ? FUSERC_NAME_OK : FUSERC_NAME_cuda_failure(result, "cuLaunchKernelEx", kernel);
}
