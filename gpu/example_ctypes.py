#!/usr/bin/env python3
"""Calling fuserc's generated kernels from Python: ctypes for the C functions,
PyTorch tensors passed as DLPack. The fusion is gpu/cases/example.fus,
z = x * alpha + y. Build its shared library, then run this:

  fuserc gpu/cases/example.fus -o kernels
  gcc -shared -fPIC -O2 -std=c99 kernels/example.c -I kernels -I DLPACK_INCLUDE \\
      -I /usr/local/cuda/include -L /usr/local/cuda/lib64/stubs -lcuda -o kernels/libexample.so
  python3 gpu/example_ctypes.py --lib kernels/libexample.so

(gpu/run_tests.py runs it on the library it built.)
"""
import argparse
import ctypes

import torch
from torch.utils.dlpack import to_dlpack


# DLPack's C structures (dlpack.h), as ctypes sees them.
class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


Tensor = ctypes.POINTER(DLTensor)

_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def dltensor(capsule):
    """The DLTensor inside a capsule from to_dlpack (a DLManagedTensor, whose
    first member is the DLTensor). Keep the capsule alive while it is used."""
    return ctypes.cast(_capsule_pointer(capsule, b"dltensor"), Tensor)


def load(path):
    """The library, with the prototypes of example.h declared."""
    lib = ctypes.CDLL(path)
    lib.example_last_error.restype = ctypes.c_char_p
    lib.example__scale_add_describe_outputs.argtypes = [Tensor, Tensor, Tensor]
    lib.example__scale_add_workspace_size.argtypes = [Tensor, Tensor,
                                                     ctypes.POINTER(ctypes.c_size_t)]
    lib.example__scale_add_launch.argtypes = [Tensor, Tensor, ctypes.c_float, Tensor,
                                             ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
    return lib


def check(lib, status):
    if status != 0:
        raise RuntimeError("status %d: %s" % (status, lib.example_last_error().decode()))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lib", required=True, help="the compiled example.h")
    parser.add_argument("-n", type=int, default=1000003)
    args = parser.parse_args()

    x = torch.randn(args.n, device="cuda")  # also makes PyTorch's CUDA context current
    y = torch.randn(args.n, device="cuda")
    alpha = 0.75
    lib = load(args.lib)
    x_capsule, y_capsule = to_dlpack(x), to_dlpack(y)

    # The output: the header says its shape and strides; PyTorch allocates it.
    shape, strides = (ctypes.c_int64 * 1)(), (ctypes.c_int64 * 1)()
    z_described = DLTensor(shape=shape, strides=strides)
    check(lib, lib.example__scale_add_describe_outputs(dltensor(x_capsule), dltensor(y_capsule),
                                                      ctypes.byref(z_described)))
    ndim = z_described.ndim
    z = torch.empty_strided(shape[:ndim], strides[:ndim], device="cuda")
    z_capsule = to_dlpack(z)

    workspace_bytes = ctypes.c_size_t()
    check(lib, lib.example__scale_add_workspace_size(dltensor(x_capsule), dltensor(y_capsule),
                                                    ctypes.byref(workspace_bytes)))
    workspace = torch.empty(workspace_bytes.value, dtype=torch.uint8, device="cuda")

    stream = torch.cuda.current_stream().cuda_stream
    check(lib, lib.example__scale_add_launch(dltensor(x_capsule), dltensor(y_capsule), alpha,
                                            dltensor(z_capsule), workspace.data_ptr() or None,
                                            workspace_bytes.value, stream))
    torch.cuda.synchronize()
    torch.testing.assert_close(z, x * alpha + y)
    print("example_ctypes: N=%d: OK" % args.n)


if __name__ == "__main__":
    main()
