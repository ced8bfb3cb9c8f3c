/* Calls the wrappers of wrapper_overflow.fus with extents and strides whose
   sizes overflow int64 (built with -fsanitize=undefined, so any wrapped
   arithmetic on the way aborts): each call must return
   wrapper_overflow_ERROR_INVALID_ARGUMENT with its message, before any
   driver call (it runs against the CUDA driver stub). Prints each message;
   exits 1 if a call returned anything else. */
#include "wrapper_overflow.h"

#include <stdio.h>
#include <string.h>

static int failures;

static void expect_invalid(wrapper_overflow_status status, const char *what) {
  printf("%s: %s\n", what, wrapper_overflow_last_error());
  if (status != wrapper_overflow_ERROR_INVALID_ARGUMENT) {
    printf("FAILED: %s returned %d\n", what, (int)status);
    ++failures;
  }
}

static DLTensor tensor(void *data, uint8_t code, uint8_t bits, int ndim, int64_t *shape,
                       int64_t *strides) {
  DLTensor t;
  memset(&t, 0, sizeof t);
  t.data = data;
  t.device.device_type = kDLCUDA;
  t.ndim = ndim;
  t.dtype.code = code;
  t.dtype.bits = bits;
  t.dtype.lanes = 1;
  t.shape = shape;
  t.strides = strides;
  return t;
}

int main(void) {
  void *p = (void *)0x10000;
  size_t bytes = 0;
  int64_t out_shape[2], out_strides[2];
  DLTensor x, a, b, y;
  memset(&y, 0, sizeof y);
  y.shape = out_shape;
  y.strides = out_strides;

  /* Element counts that overflow: with data NULL, [2^62, 4] must not pass
     as an empty tensor. */
  {
    int64_t s1[2] = {(int64_t)1 << 62, 4}, s2[2] = {(int64_t)1 << 32, (int64_t)1 << 32},
            s3[2] = {INT64_MAX, 3}, s4[2] = {(int64_t)1 << 61, 1};
    x = tensor(NULL, kDLFloat, 32, 2, s1, NULL);
    expect_invalid(wrapper_overflow__sum_outer_workspace_size(&x, &bytes), "[2^62, 4], data NULL");
    x = tensor(p, kDLFloat, 32, 2, s2, NULL);
    expect_invalid(wrapper_overflow__sum_outer_describe_outputs(&x, &y), "[2^32, 2^32]");
    x = tensor(p, kDLFloat, 32, 2, s3, NULL);
    expect_invalid(wrapper_overflow__sum_outer_launch(&x, &y, NULL, 0, NULL), "[2^63 - 1, 3]");
    /* 2^61 elements fit int64, their 2^63 bytes do not. */
    x = tensor(p, kDLFloat, 32, 2, s4, NULL);
    expect_invalid(wrapper_overflow__sum_outer_describe_outputs(&x, &y), "[2^61, 1] of f32");
  }
  /* The workspace holds split partials only where a launch splits (127
     rows or more): over one row of 2^61 - 1 columns, whose partials would
     have overflowed it, it is 0 bytes (when it held 64 partials per column
     whatever the rows, 256 * ceildiv(4 * N + 4 * min(64 * N, 67584), 256)
     wrapped to 256 bytes, and a 4 KiB workspace passed). */
  {
    int64_t s[2] = {1, 2305843009213693951LL}; /* 2^61 - 1 */
    x = tensor(p, kDLFloat, 32, 2, s, NULL);
    bytes = 1;
    if (wrapper_overflow__sum_outer_workspace_size(&x, &bytes) != wrapper_overflow_OK ||
        bytes != 0) {
      printf("FAILED: one row's workspace is %lld bytes\n", (long long)bytes);
      ++failures;
    }
    printf("one row of 2^61 - 1 columns: workspace %lld bytes\n", (long long)bytes);
  }
  /* A value computed on the way: t = a + b is [N, M] although a and b are
     [N, 1] and [1, M]. */
  {
    int64_t sa[2] = {(int64_t)1 << 40, 1}, sb[2] = {1, (int64_t)1 << 40};
    a = tensor(p, kDLFloat, 32, 2, sa, NULL);
    b = tensor(p, kDLFloat, 32, 2, sb, NULL);
    expect_invalid(wrapper_overflow__outer_total_describe_outputs(&a, &b, &y), "outer_total");
  }
  /* An output's extent, N + M. */
  {
    int64_t sa[1] = {(int64_t)1 << 62}, sb[1] = {(int64_t)1 << 62};
    a = tensor(p, 6, 8, 1, sa, NULL);
    b = tensor(p, 6, 8, 1, sb, NULL);
    expect_invalid(wrapper_overflow__joined_describe_outputs(&a, &b, &y), "joined");
  }
  /* Strides of a strided input whose byte offsets overflow. */
  {
    int64_t s[2] = {4, 7}, st[2] = {1, (int64_t)1 << 61};
    x = tensor(p, kDLFloat, 32, 2, s, st);
    expect_invalid(wrapper_overflow__window_describe_outputs(&x, &y), "window strides");
    st[1] = INT64_MIN;
    expect_invalid(wrapper_overflow__window_describe_outputs(&x, &y), "window stride INT64_MIN");
  }
  printf("%d failures\n", failures);
  return failures != 0;
}
