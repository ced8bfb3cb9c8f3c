/* Shared by the example programs: finds the first CUDA device through the
   driver API, or says there is none, and reports driver failures. C99 and
   C++. */
#ifndef CONSUMER_DEVICE_H
#define CONSUMER_DEVICE_H

#include <cuda.h>
#include <stdio.h>

/* Prints what `call` failed with and returns 0, or returns 1 on success. */
static int consumer_driver_ok(CUresult result, const char *call) {
  const char *name = NULL;
  if (result == CUDA_SUCCESS)
    return 1;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS)
    name = "unknown error";
  fprintf(stderr, "%s failed: %s (%d)\n", call, name, (int)result);
  return 0;
}

typedef enum {
  CONSUMER_DEVICE_READY, /* device 0's primary context is current */
  CONSUMER_NO_DEVICE,    /* no usable driver or no device: nothing to run */
  CONSUMER_DEVICE_FAILED /* there is a device, but a driver call failed */
} consumer_device_state;

/* Makes device 0's primary context current. Prints "no CUDA device:
   skipped" when cuInit fails (no driver, or the toolkit's stub library) or
   there is no device. */
static consumer_device_state consumer_open_device(CUdevice *device, CUcontext *context) {
  CUresult result = cuInit(0);
  int count = 0;
  if (result == CUDA_SUCCESS)
    result = cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS || count == 0) {
    printf("no CUDA device: skipped (cuInit/cuDeviceGetCount: error %d, %d devices)\n", (int)result,
           count);
    return CONSUMER_NO_DEVICE;
  }
  if (consumer_driver_ok(cuDeviceGet(device, 0), "cuDeviceGet") &&
      consumer_driver_ok(cuDevicePrimaryCtxRetain(context, *device), "cuDevicePrimaryCtxRetain") &&
      consumer_driver_ok(cuCtxSetCurrent(*context), "cuCtxSetCurrent"))
    return CONSUMER_DEVICE_READY;
  return CONSUMER_DEVICE_FAILED;
}

#endif /* CONSUMER_DEVICE_H */
