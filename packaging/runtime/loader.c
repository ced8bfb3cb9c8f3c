/* The loader of the embedded images and NAME_launch_kernel. It follows the
   images the header writer emits (packaging/HeaderRuntime.cpp): NAME_fatbin
   holds NAME_NUM_IMAGES fatbinaries (one per kernel) at NAME_image_offsets;
   NAME_kernel_names lists the NAME_NUM_KERNELS kernel symbols and
   NAME_kernel_images the image of each. It is emitted without this
   comment, FUSERC_NAME spelled as the header's name.

   Loading is a small state machine under one pthread mutex: each image's
   library is NULL (unloaded) or loaded; the first launch of one of its
   kernels loads it, a failed load leaves it unloaded (the next launch
   retries), NAME_unload returns every image to unloaded.
   pthread_once cannot be reset, hence the mutex. A launch holds the kernel
   handle only while cuLaunchKernel enqueues it: `launches_in_flight` counts
   those, and NAME_unload waits on a condition variable until it is zero. */

/* ---- the libraries: each loaded by the first launch of its kernels ---- */

static pthread_mutex_t FUSERC_NAME_state_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t FUSERC_NAME_state_idle = PTHREAD_COND_INITIALIZER;
/* By image; NULL: not loaded. */
static CUlibrary FUSERC_NAME_libraries[FUSERC_NAME_NUM_IMAGES];
/* Launches between acquire_kernel and release_kernel: unload waits for 0. */
static unsigned FUSERC_NAME_launches_in_flight;
/* By FUSERC_NAME_kernel_names; NULL until looked up. */
static CUkernel FUSERC_NAME_kernels[FUSERC_NAME_NUM_KERNELS + 1];
/* By kernel and device ordinal (the first FUSERC_NAME_OPTIN_DEVICES devices; on
   others every launch opts in): the dynamic shared memory the kernel was
   opted into, 0 until it took more than 48 KiB. */
#define FUSERC_NAME_OPTIN_DEVICES 16
static unsigned FUSERC_NAME_shared_opted[FUSERC_NAME_NUM_KERNELS + 1][FUSERC_NAME_OPTIN_DEVICES];

/* The kernel's handle, loading its image's library when needed; the caller must
   call FUSERC_NAME_release_kernel after using it. A kernel taking more than 48 KiB
   of dynamic shared memory is opted into `shared_bytes` on `device` once
   (per size it grows to). */
static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_acquire_kernel(
    const char *kernel, unsigned shared_bytes, CUdevice device, CUkernel *handle) {
  CUresult result = CUDA_SUCCESS;
  const char *call = "";
  int slot;
  unsigned image;
  for (slot = 0; FUSERC_NAME_kernel_names[slot]; ++slot)
    if (strcmp(FUSERC_NAME_kernel_names[slot], kernel) == 0)
      break;
  if (!FUSERC_NAME_kernel_names[slot])
    return FUSERC_NAME_fail(FUSERC_NAME_ERROR_UNSUPPORTED, "no kernel %s in the embedded images", kernel);
  image = FUSERC_NAME_kernel_images[slot];
  pthread_mutex_lock(&FUSERC_NAME_state_mutex);
  if (!FUSERC_NAME_libraries[image]) {
    call = "cuInit";
    result = cuInit(0);
    if (result == CUDA_SUCCESS) {
      call = "cuLibraryLoadData";
      result = cuLibraryLoadData(&FUSERC_NAME_libraries[image],
          FUSERC_NAME_fatbin.bytes + FUSERC_NAME_image_offsets[image], NULL, NULL, 0, NULL, NULL, 0);
      if (result != CUDA_SUCCESS)
        FUSERC_NAME_libraries[image] = NULL;
    }
  }
  if (result == CUDA_SUCCESS && !FUSERC_NAME_kernels[slot]) {
    call = "cuLibraryGetKernel";
    result = cuLibraryGetKernel(&FUSERC_NAME_kernels[slot], FUSERC_NAME_libraries[image], kernel);
    if (result != CUDA_SUCCESS)
      FUSERC_NAME_kernels[slot] = NULL;
  }
  if (result == CUDA_SUCCESS && shared_bytes > 48u * 1024u &&
      (device < 0 || device >= FUSERC_NAME_OPTIN_DEVICES ||
          FUSERC_NAME_shared_opted[slot][device] < shared_bytes)) {
    call = "cuKernelSetAttribute";
    result = cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
        (int)shared_bytes, FUSERC_NAME_kernels[slot], device);
    if (result == CUDA_SUCCESS && device >= 0 && device < FUSERC_NAME_OPTIN_DEVICES)
      FUSERC_NAME_shared_opted[slot][device] = shared_bytes;
  }
  if (result == CUDA_SUCCESS) {
    *handle = FUSERC_NAME_kernels[slot];
    ++FUSERC_NAME_launches_in_flight;
  }
  pthread_mutex_unlock(&FUSERC_NAME_state_mutex);
  return result == CUDA_SUCCESS ? FUSERC_NAME_OK : FUSERC_NAME_cuda_failure(result, call, kernel);
}

static FUSERC_NAME_UNUSED void FUSERC_NAME_release_kernel(void) {
  pthread_mutex_lock(&FUSERC_NAME_state_mutex);
  if (--FUSERC_NAME_launches_in_flight == 0)
    pthread_cond_broadcast(&FUSERC_NAME_state_idle);
  pthread_mutex_unlock(&FUSERC_NAME_state_mutex);
}

void FUSERC_NAME_unload(void) {
  int slot, image;
  pthread_mutex_lock(&FUSERC_NAME_state_mutex);
  while (FUSERC_NAME_launches_in_flight > 0)
    pthread_cond_wait(&FUSERC_NAME_state_idle, &FUSERC_NAME_state_mutex);
  for (image = 0; image < FUSERC_NAME_NUM_IMAGES; ++image) {
    if (FUSERC_NAME_libraries[image])
      cuLibraryUnload(FUSERC_NAME_libraries[image]);
    FUSERC_NAME_libraries[image] = NULL;
  }
  for (slot = 0; slot < FUSERC_NAME_NUM_KERNELS; ++slot) {
    FUSERC_NAME_kernels[slot] = NULL;
    memset(FUSERC_NAME_shared_opted[slot], 0, sizeof FUSERC_NAME_shared_opted[slot]);
  }
  pthread_mutex_unlock(&FUSERC_NAME_state_mutex);
}

/* The shared memory of the current context's device: what one block may
   opt into, and what a multiprocessor holds (its blocks' together). */
static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_shared_memory_limits(int *per_block, int *per_multiprocessor) {
  CUdevice device;
  const char *call = "cuCtxGetDevice";
  CUresult result = cuCtxGetDevice(&device);
  if (result == CUDA_SUCCESS) {
    call = "cuDeviceGetAttribute";
    result = cuDeviceGetAttribute(
        per_block, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, device);
  }
  if (result == CUDA_SUCCESS)
    result = cuDeviceGetAttribute(
        per_multiprocessor, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, device);
  return result == CUDA_SUCCESS ? FUSERC_NAME_OK : FUSERC_NAME_cuda_failure(result, call, NULL);
}

/* Launches `kernel` with `args` (a struct) as its one by-value parameter
   (codegen/KernelPlan.h). An empty grid launches nothing: the tensors are
   empty. Dynamic shared memory over 48 KiB is opted into on the current
   context's device (once per kernel, device and size). */
static FUSERC_NAME_UNUSED FUSERC_NAME_status FUSERC_NAME_launch_kernel(
    const char *kernel, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,
    unsigned shared_bytes, void *args, CUstream stream) {
  CUkernel handle = NULL;
  CUdevice device = 0;
  CUresult result;
  void *params[1];
  if (grid_x == 0 || grid_y == 0 || grid_z == 0)
    return FUSERC_NAME_OK;
  if (shared_bytes > 48u * 1024u) {
    result = cuCtxGetDevice(&device);
    if (result != CUDA_SUCCESS)
      return FUSERC_NAME_cuda_failure(result, "cuCtxGetDevice", kernel);
  }
  FUSERC_NAME_TRY(FUSERC_NAME_acquire_kernel(kernel, shared_bytes, device, &handle));
  params[0] = args;
  result = cuLaunchKernel((CUfunction)handle, grid_x, grid_y, grid_z, block_x, 1, 1, shared_bytes,
      stream, params, NULL);
  FUSERC_NAME_release_kernel();
  return result == CUDA_SUCCESS ? FUSERC_NAME_OK : FUSERC_NAME_cuda_failure(result, "cuLaunchKernel", kernel);
}
