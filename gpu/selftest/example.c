/* The implementation of the stand-in example.h (see there). */
#include "example.h"

#include <stdarg.h>
#include <stdio.h>

static __thread char example_error[256];

const char *example_last_error(void) { return example_error; }
void example_unload(void) {}

static example_status example_fail(const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(example_error, sizeof example_error, format, args);
  va_end(args);
  return example_ERROR_INVALID_ARGUMENT;
}

/* A dense f32 vector on a CUDA device; binds or checks the symbol N. */
static example_status example_check_vector(const char *fn, const char *name, const DLTensor *t,
                                           int64_t *n) {
  if (!t)
    return example_fail("%s: %s: null tensor", fn, name);
  if (t->device.device_type != kDLCUDA)
    return example_fail("%s: %s: device type %d is not kDLCUDA", fn, name,
                        (int)t->device.device_type);
  if (t->dtype.code != kDLFloat || t->dtype.bits != 32 || t->dtype.lanes != 1)
    return example_fail("%s: %s: dtype (%d, %d, %d) is not f32", fn, name, t->dtype.code,
                        t->dtype.bits, t->dtype.lanes);
  if (t->ndim != 1)
    return example_fail("%s: %s: rank %d, expected 1", fn, name, t->ndim);
  if (t->strides && t->strides[0] != 1)
    return example_fail("%s: %s: stride %lld is not dense", fn, name, (long long)t->strides[0]);
  if (*n >= 0 && t->shape[0] != *n)
    return example_fail("%s: %s: extent 0 is %lld but symbol N is %lld (from x)", fn, name,
                        (long long)t->shape[0], (long long)*n);
  *n = t->shape[0];
  return example_OK;
}

static example_status example_check_inputs(const char *fn, const DLTensor *x, const DLTensor *y,
                                           int64_t *n) {
  example_status st = example_check_vector(fn, "x", x, n);
  return st != example_OK ? st : example_check_vector(fn, "y", y, n);
}

example_status example__scale_add_describe_outputs(const DLTensor *in_x, const DLTensor *in_y,
                                                  DLTensor *out_z) {
  int64_t n = -1;
  example_status st = example_check_inputs("example__scale_add_describe_outputs", in_x, in_y, &n);
  if (st != example_OK)
    return st;
  out_z->ndim = 1;
  out_z->dtype.code = kDLFloat;
  out_z->dtype.bits = 32;
  out_z->dtype.lanes = 1;
  out_z->shape[0] = n;
  out_z->strides[0] = 1;
  return example_OK;
}

example_status example__scale_add_workspace_size(const DLTensor *in_x, const DLTensor *in_y,
                                                size_t *bytes) {
  int64_t n = -1;
  *bytes = 0;
  return example_check_inputs("example__scale_add_workspace_size", in_x, in_y, &n);
}

example_status example__scale_add_launch(const DLTensor *in_x, const DLTensor *in_y, float in_alpha,
                                        DLTensor *out_z, void *workspace, size_t workspace_bytes,
                                        CUstream stream) {
  const char *fn = "example__scale_add_launch";
  int64_t n = -1;
  example_status st = example_check_inputs(fn, in_x, in_y, &n);
  if (st == example_OK)
    st = example_check_vector(fn, "z", out_z, &n);
  if (st != example_OK)
    return st;
  (void)workspace, (void)workspace_bytes, (void)stream;
  const float *x = (const float *)((const char *)in_x->data + in_x->byte_offset);
  const float *y = (const float *)((const char *)in_y->data + in_y->byte_offset);
  float *z = (float *)((char *)out_z->data + out_z->byte_offset);
  for (int64_t i = 0; i < n; ++i)
    z[i] = x[i] * in_alpha + y[i];
  example_error[0] = '\0';
  return example_OK;
}
