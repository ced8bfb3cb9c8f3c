/* A host program against a generated header (bias_relu_nhwc): it links
   with the CUDA driver stub, and exercises only validation, which must
   fail before any driver call. Exit 0 when every check holds. */
#include "bias_relu_nhwc.h"

#include <stdio.h>
#include <string.h>

static int failures = 0;

static void expect(int condition, const char *what) {
  if (!condition) {
    printf("FAILED: %s (last error: %s)\n", what, bias_relu_nhwc_last_error());
    ++failures;
  }
}

int main(void) {
  int64_t xs[4] = {2, 8, 3, 3}, cs[4] = {1, 8, 1, 1};
  int64_t xst[4] = {72, 1, 24, 8}, cst[4] = {8, 1, 8, 8};
  int64_t ys[4], yst[4], zs[4], zst[4];
  DLTensor x, s, b, y, z;
  memset(&x, 0, sizeof x);
  x.device.device_type = kDLCUDA;
  x.ndim = 4;
  x.dtype.code = kDLFloat;
  x.dtype.bits = 16;
  x.dtype.lanes = 1;
  x.shape = xs;
  x.strides = xst;
  x.data = (void *)0x1000;
  s = x;
  s.shape = cs;
  s.strides = cst;
  b = s;
  memset(&y, 0, sizeof y);
  memset(&z, 0, sizeof z);
  y.shape = ys;
  y.strides = yst;
  z.shape = zs;
  z.strides = zst;

  expect(bias_relu_nhwc__bias_relu_nhwc_describe_outputs(&x, &s, &b, &y, &z) ==
             bias_relu_nhwc_OK,
         "describe_outputs accepts NHWC inputs");
  expect(y.ndim == 4 && ys[1] == 8 && yst[1] == 1 && yst[3] == 8, "y is channels-last");
  expect(z.dtype.code == 6 && z.dtype.bits == 8, "z is bool (DLPack code 6, kDLBool)");

  expect(bias_relu_nhwc__bias_relu_nhwc_launch(NULL, &s, &b, &y, &z, NULL, 0, NULL) ==
             bias_relu_nhwc_ERROR_INVALID_ARGUMENT,
         "a null input is refused");
  expect(strstr(bias_relu_nhwc_last_error(), "x") != NULL, "the message names x");

  x.dtype.bits = 32;
  expect(bias_relu_nhwc__bias_relu_nhwc_launch(&x, &s, &b, &y, &z, NULL, 0, NULL) ==
             bias_relu_nhwc_ERROR_INVALID_ARGUMENT,
         "a wrong dtype is refused");
  x.dtype.bits = 16;

  cs[1] = 7;
  expect(bias_relu_nhwc__bias_relu_nhwc_launch(&x, &s, &b, &y, &z, NULL, 0, NULL) ==
             bias_relu_nhwc_ERROR_INVALID_ARGUMENT,
         "an inconsistent symbol is refused");
  cs[1] = 8;

  xst[1] = 9;
  expect(bias_relu_nhwc__bias_relu_nhwc_launch(&x, &s, &b, &y, &z, NULL, 0, NULL) ==
             bias_relu_nhwc_ERROR_INVALID_ARGUMENT,
         "strides that are not NHWC are refused");
  xst[1] = 1;

  x.device.device_type = kDLCPU;
  expect(bias_relu_nhwc__bias_relu_nhwc_launch(&x, &s, &b, &y, &z, NULL, 0, NULL) ==
             bias_relu_nhwc_ERROR_INVALID_ARGUMENT,
         "a CPU tensor is refused");
  printf("%d failures\n", failures);
  return failures != 0;
}
