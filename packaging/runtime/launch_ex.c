/* The part of the runtime that launches kernels through cuLaunchKernelEx: in
   thread-block clusters (whether the current device runs them, and
   NAME_launch_cluster_kernel; the row reductions' cluster variant), and
   cooperatively, every block resident at once (whether the device holds the
   grid, and NAME_launch_cooperative_kernel; their grid variant). The header
   writer (packaging/HeaderRuntime.cpp) emits it after loader.c, without this
   comment, only in headers with such a kernel: the others need no
   cuLaunchKernelEx (CUDA 12.0 and newer drivers). */

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

/* Whether the current context's device runs `blocks` blocks of `block_x`
   threads of `kernel` with `shared_bytes` of dynamic shared memory all at
   once, as a cooperative launch needs: it supports cooperative launches and
   its multiprocessors hold that many (the kernel's occupancy). 0 when the
   driver cannot say: the launch then takes a variant that does not wait for
   other blocks. */
static FUSERC_NAME_UNUSED int FUSERC_NAME_cooperative_fits(const char *kernel, unsigned blocks,
    unsigned block_x, unsigned shared_bytes) {
  CUdevice device;
  CUkernel handle = NULL;
  CUresult result;
  int cooperative = 0, sms = 0, per_sm = 0;
  if (cuCtxGetDevice(&device) != CUDA_SUCCESS)
    return 0;
  if (cuDeviceGetAttribute(&cooperative, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, device) !=
          CUDA_SUCCESS || !cooperative ||
      cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device) != CUDA_SUCCESS)
    return 0;
  if (FUSERC_NAME_acquire_kernel(kernel, shared_bytes, device, &handle) != FUSERC_NAME_OK)
    return 0;
  result = cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, (CUfunction)handle, (int)block_x,
      (size_t)shared_bytes);
  FUSERC_NAME_release_kernel();
  return result == CUDA_SUCCESS && (long long)per_sm * sms >= (long long)blocks;
}

/* cuLaunchKernelEx of `kernel` on a grid of grid_x x grid_y blocks of
   `block_x` threads under one launch attribute. Where `refused` is given,
   a cooperative grid the driver finds too large launches nothing and sets
   *refused instead of failing. */
static FUSERC_NAME_status FUSERC_NAME_launch_with_attribute(const char *kernel, unsigned grid_x,
    unsigned grid_y, unsigned block_x, unsigned shared_bytes, const CUlaunchAttribute *attribute,
    void *args, CUstream stream, int *refused) {
  CUkernel handle = NULL;
  CUdevice device = 0;
  CUresult result;
  CUlaunchConfig config;
  void *params[1];
  if (shared_bytes > 48u * 1024u) {
    result = cuCtxGetDevice(&device);
    if (result != CUDA_SUCCESS)
      return FUSERC_NAME_cuda_failure(result, "cuCtxGetDevice", kernel);
  }
  FUSERC_NAME_TRY(FUSERC_NAME_acquire_kernel(kernel, shared_bytes, device, &handle));
  memset(&config, 0, sizeof config);
  config.gridDimX = grid_x;
  config.gridDimY = grid_y;
  config.gridDimZ = 1;
  config.blockDimX = block_x;
  config.blockDimY = 1;
  config.blockDimZ = 1;
  config.sharedMemBytes = shared_bytes;
  config.hStream = stream;
  config.attrs = (CUlaunchAttribute *)attribute;
  config.numAttrs = 1;
  params[0] = args;
  result = cuLaunchKernelEx(&config, (CUfunction)handle, params, NULL);
  FUSERC_NAME_release_kernel();
  if (refused && result == CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE) {
    *refused = 1;
    return FUSERC_NAME_OK;
  }
  return result == CUDA_SUCCESS ? FUSERC_NAME_OK : FUSERC_NAME_cuda_failure(result, "cuLaunchKernelEx", kernel);
}

/* As FUSERC_NAME_launch_kernel, a one-dimensional grid of `grid_x` blocks (a
   multiple of `cluster_x`) in clusters of `cluster_x` consecutive blocks,
   at most 8 (the portable cluster size). */
static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_launch_cluster_kernel(const char *kernel, unsigned grid_x,
    unsigned cluster_x, unsigned block_x, unsigned shared_bytes, void *args, CUstream stream) {
  CUlaunchAttribute attribute;
  if (grid_x == 0)
    return FUSERC_NAME_OK;
  if (cluster_x == 0 || cluster_x > 8 || grid_x % cluster_x != 0)
    return FUSERC_NAME_fail(FUSERC_NAME_ERROR_INVALID_ARGUMENT,
        "internal: a grid of %u blocks cannot form clusters of %u", grid_x, cluster_x);
  memset(&attribute, 0, sizeof attribute);
  attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attribute.value.clusterDim.x = cluster_x;
  attribute.value.clusterDim.y = 1;
  attribute.value.clusterDim.z = 1;
  return FUSERC_NAME_launch_with_attribute(kernel, grid_x, 1, block_x, shared_bytes, &attribute,
      args, stream, NULL);
}

/* As FUSERC_NAME_launch_kernel, a grid of grid_x x grid_y blocks launched
   cooperatively: all resident at once (the caller checked that they fit,
   FUSERC_NAME_cooperative_fits), so that they may wait for one another.
   The device may still hold fewer (an MPS client limited to part of its
   multiprocessors): the driver then refuses the grid, nothing runs, and
   *refused is set (0 otherwise) for the caller to launch another variant. */
static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_launch_cooperative_kernel(const char *kernel,
    unsigned grid_x, unsigned grid_y, unsigned block_x, unsigned shared_bytes, void *args,
    CUstream stream, int *refused) {
  CUlaunchAttribute attribute;
  *refused = 0;
  if (grid_x == 0 || grid_y == 0)
    return FUSERC_NAME_OK;
  memset(&attribute, 0, sizeof attribute);
  attribute.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
  attribute.value.cooperative = 1;
  return FUSERC_NAME_launch_with_attribute(kernel, grid_x, grid_y, block_x, shared_bytes,
      &attribute, args, stream, refused);
}
