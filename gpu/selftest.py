#!/usr/bin/env python3
"""Tests the GPU harness's loader (gpu/fuserc_loader.py) without a GPU,
PyTorch or NumPy: a hand-written header in the documented form
(gpu/selftest/example.h, whose "launch" computes on the host) and, with
--fuserc, the header fuserc writes for gpu/cases/example.fus (over the CUDA
toolkit's stub libcuda) are compiled with the same C build as run_tests.py
uses, loaded, and called through the same code paths, with DLTensors over
ctypes arrays.

  python3 gpu/selftest.py --dlpack-include /usr/include \
      [--interp build/tools/fuserc-interp --fuserc build/cli/fuserc]
"""
import argparse
import ctypes
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import fuserc_loader as loader  # noqa: E402

# What `fuserc-interp gpu/cases/example.fus --signature` prints (used when no
# --interp is given).
EXAMPLE_SIGNATURE = [{
    "name": "scale_add",
    "inputs": [
        {"name": "x", "dtype": "f32", "scalar": False, "shape": ["N"], "layout": [0],
         "strided": False},
        {"name": "y", "dtype": "f32", "scalar": False, "shape": ["N"], "layout": [0],
         "strided": False},
        {"name": "alpha", "dtype": "f32", "scalar": True, "shape": [], "layout": [],
         "strided": False},
    ],
    "outputs": [{"name": "z", "dtype": "f32", "shape": ["N"], "layout": None, "aliases": None}],
    "symbols": ["N"],
}]


class HostVector:
    """A TensorArg look-alike over a ctypes float array, marked as CUDA memory."""

    def __init__(self, values):
        self.buffer = (ctypes.c_float * len(values))(*values)
        self.shape = (ctypes.c_int64 * 1)(len(values))
        self.strides = (ctypes.c_int64 * 1)(1)
        self.struct = loader.DLTensor(ctypes.cast(self.buffer, ctypes.c_void_p),
                                      loader.DLDevice(loader.KDL_CUDA, 0), 1,
                                      loader.DLDataType(loader.KDL_FLOAT, 32, 1),
                                      self.shape, self.strides, 0)


def expect(condition, what):
    if not condition:
        raise AssertionError(what)
    print("ok:", what)


def test_header_parsing():
    text = """
    /* a comment with example_f_launch(int) in it */
    example_status example_f_launch(const DLTensor* in_a, double in_s, int64_t in_k,
                                    DLTensor  *out_b, void *ws, size_t n, CUstream st);
    #define example_f_OUTPUT_0_RANK 3
    """
    functions, ranks = loader.parse_header(text, "example")
    params = functions["f"]["launch"]
    expect([p.ctype for p in params] == ["const DLTensor *", "double", "int64_t", "DLTensor *",
                                         "void *", "size_t", "CUstream"],
           "parameter types are normalised: %s" % params)
    expect([p.name for p in params][:2] == ["in_a", "in_s"], "parameter names are kept")
    expect(ranks == {"f": {0: 3}}, "output rank macros are read")


def check_entry_points(fusion, launch_runs):
    """describe_outputs, workspace_size and launch's validation through the
    loader. `launch_runs`: whether a valid launch computes (the mock) or
    must fail cleanly with ERROR_CUDA (a real header over the stub libcuda)."""
    x, y = HostVector([1.0, 2.0, -3.0]), HostVector([0.5, 0.25, 4.0])
    inputs = {"x": x, "y": y, "alpha": 2.0}
    status, message, outs = fusion.describe_outputs(inputs)
    expect(status == loader.STATUS_OK, "describe_outputs succeeds (%s)" % message)
    expect(outs[0].described()[:3] == ([3], [1], None),
           "describe_outputs fills shape and strides: %s" % (outs[0].described(),))
    status, _, size = fusion.workspace_size(inputs)
    expect(status == loader.STATUS_OK and size == 0, "workspace_size is 0")

    z = HostVector([float("nan")] * 3)
    status, message = fusion.launch(inputs, [z], None, 0, 0)
    if launch_runs:
        expect(status == loader.STATUS_OK, "launch succeeds (%s)" % message)
        expect(list(z.buffer) == [2.5, 4.25, -2.0], "the scalar reaches the launch: %s"
               % list(z.buffer))
    else:
        expect(status == 2 and "cuCtxGetDevice" in message,
               "without a driver, launch returns ERROR_CUDA: %s" % message)

    x.struct.device = loader.DLDevice(loader.KDL_CPU, 0)
    status, message = fusion.launch(inputs, [z], None, 0, 0)
    expect(status == loader.STATUS_INVALID_ARGUMENT and "kDLCUDA" in message,
           "a CPU tensor is refused with a message: %s" % message)
    x.struct.device = loader.DLDevice(loader.KDL_CUDA, 0)
    x.struct.dtype = loader.DLDataType(loader.KDL_FLOAT, 64, 1)
    status, message = fusion.launch(inputs, [z], None, 0, 0)
    expect(status == loader.STATUS_INVALID_ARGUMENT and "dtype" in message,
           "a wrong dtype is refused: %s" % message)
    x.struct.dtype = loader.DLDataType(loader.KDL_FLOAT, 32, 1)
    status, message = fusion.launch(dict(inputs, y=HostVector([1.0, 2.0])), [z], None, 0, 0)
    expect(status == loader.STATUS_INVALID_ARGUMENT and "symbol N" in message,
           "an inconsistent symbol is refused: %s" % message)
    status, message = fusion.launch(dict(inputs, x=None), [z], None, 0, 0)
    expect(status == loader.STATUS_INVALID_ARGUMENT and "NULL" in message.upper(),
           "a null tensor is refused: %s" % message)


def example_signature(args):
    if not args.interp:
        return EXAMPLE_SIGNATURE
    return loader.interp_signature(args.interp, os.path.join(HERE, "cases", "example.fus"))


def test_mock_header(args, work):
    out_dir = os.path.join(work, "mock")
    os.makedirs(out_dir)
    for part in ("example.h", "example.c"):
        shutil.copy(os.path.join(HERE, "selftest", part), out_dir)
    lib_path = loader.build_shared_library(out_dir, "example", args.dlpack_include,
                                           args.cuda_home)
    library = loader.Library(loader.Build("example.fus", "example", out_dir,
                                          example_signature(args), lib_path))
    check_entry_points(library.fusions["scale_add"], launch_runs=True)


def load_stub_driver(cuda_home):
    """True when libcuda.so.1 had to come from the toolkit's stub (no driver)."""
    try:
        ctypes.CDLL("libcuda.so.1")
        return False
    except OSError:
        stub = os.path.join(cuda_home, "lib64", "stubs", "libcuda.so")
        ctypes.CDLL(stub, mode=ctypes.RTLD_GLOBAL)  # its soname is libcuda.so.1
        return True


def test_generated_header(args, work, stub_driver):
    """The real header fuserc writes for gpu/cases/example.fus. Without a
    driver only the paths that need no GPU can run; with one, the GPU tests
    (run_tests.py) cover it."""
    if not stub_driver:
        print("skipped: the generated header (a CUDA driver is installed; run_tests.py "
              "covers it)")
        return
    built = loader.build(args.fuserc, args.interp, os.path.join(HERE, "cases", "example.fus"),
                         work, args.dlpack_include, "sm_90", args.cuda_home)
    library = loader.Library(built)
    check_entry_points(library.fusions["scale_add"], launch_runs=False)
    assert library.variant_hook() is None, "a plain build has no testing hook"
    # The same header with the testing hook compiled in (the fuzzer's build):
    # its controls load, and nothing has been offered or launched yet.
    # (Another directory: the loader would hand back the library already loaded.)
    hook_dir = built.out_dir + "_hook"
    shutil.copytree(built.out_dir, hook_dir)
    hooked = loader.build_shared_library(hook_dir, built.name, args.dlpack_include,
                                         args.cuda_home, variant_hook=True)
    library = loader.Library(loader.Build(built.source, built.name, hook_dir, built.signature,
                                          hooked))
    hook = library.variant_hook()
    assert hook is not None, "the hooked build exports fuserc_test_set"
    hook.force(0)
    assert hook.most() == 0 and hook.launched() == [], (hook.most(), hook.launched())
    check_entry_points(library.fusions["scale_add"], launch_runs=False)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--dlpack-include", default="/usr/include")
    p.add_argument("--cuda-home", default=os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    p.add_argument("--interp", help="fuserc-interp, for the example's signature")
    p.add_argument("--fuserc", help="also test the header fuserc writes (needs --interp)")
    args = p.parse_args()
    test_header_parsing()
    stub_driver = load_stub_driver(args.cuda_home)  # the libraries need a libcuda.so.1
    work = tempfile.mkdtemp(prefix="fuserc-selftest-")
    try:
        test_mock_header(args, work)
        if args.fuserc:
            test_generated_header(args, work, stub_driver)
    finally:
        shutil.rmtree(work)
    print("selftest: all passed")


if __name__ == "__main__":
    main()
