#!/usr/bin/env python3
"""Tests the GPU harness's layer over the fuserc package (gpu/harness.py,
gpu/validation.py) without a GPU, PyTorch or NumPy: a hand-written header in
the documented form (gpu/selftest/example.{h,c,manifest.json}, whose
"launch" computes on the host) built by fuserc.testing and, with --fuserc,
the library fuserc writes for gpu/cases/example.fus (`fuserc --emit so`,
as run_tests.py builds it, over the CUDA toolkit's stub libcuda) and the
same with the variant hook (as fuzz_diff.py builds it), loaded and called
through the package, with DLTensors over ctypes arrays.

  python3 gpu/selftest.py --dlpack-include /usr/include \\
      [--interp build/tools/fuserc-interp --fuserc build/cli/fuserc]

--interp is accepted for the harnesses' usual command line; the manifest
gives the signature.
"""
import argparse
import ctypes
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness  # noqa: E402
import validation  # noqa: E402
import fuserc  # noqa: E402 (the package: harness put python/ on the path)
import fuserc.testing  # noqa: E402


class HostVector:
    """A float32 vector in host memory, described as CUDA memory (the mock
    computes on the host; a real header must refuse nothing else)."""

    def __init__(self, values):
        self.buffer = (ctypes.c_float * len(values))(*values)
        self.arg = fuserc.TensorArg(ctypes.addressof(self.buffer), [len(values)], [1], "f32",
                                    owner=self.buffer)


def expect(condition, what):
    if not condition:
        raise AssertionError(what)
    print("ok:", what)


def status_of(call):
    """(Status, message) of a raw entry point's call: OK and "" when it
    returns, the StatusError's status and message when it raises."""
    try:
        call()
    except fuserc.StatusError as e:
        return e.status, e.message
    return fuserc.Status.OK, ""


def check_entry_points(library, launch_runs):
    """describe_outputs, workspace_size and launch through the package, and
    gpu/validation.py's checks. `launch_runs`: whether a valid launch
    computes (the mock) or must fail cleanly with ERROR_CUDA (a real header
    over the stub libcuda)."""
    fusion = library.scale_add
    expect([i.name for i in fusion.spec.inputs] == ["x", "y", "alpha"] and
           [o.kind for o in fusion.spec.outputs] == ["new_buffer"],
           "the manifest gives the signature: %r" % fusion)
    x, y = HostVector([1.0, 2.0, -3.0]), HostVector([0.5, 0.25, 4.0])
    (z_described,) = fusion.describe_outputs([x.arg, y.arg])
    expect(z_described.described()[:4] == ((3,), (1,), None, 0),
           "describe_outputs fills shape and strides: %s" % (z_described.described(),))
    expect(fusion.workspace_size([x.arg, y.arg]) == 0, "workspace_size is 0")

    z = HostVector([float("nan")] * 3)
    status, message = status_of(lambda: fusion.launch([x.arg, y.arg, 2.0], [z.arg]))
    if launch_runs:
        expect(status == fuserc.Status.OK, "launch succeeds (%s)" % message)
        expect(list(z.buffer) == [2.5, 4.25, -2.0], "the scalar reaches the launch: %s"
               % list(z.buffer))
    else:
        expect(status == fuserc.Status.ERROR_CUDA and "cuCtxGetDevice" in message,
               "without a driver, launch returns ERROR_CUDA: %s" % message)

    results = validation.run_checks(fusion, [x.arg, y.arg, 2.0], [z.arg])
    expect([name for name, _, _ in results] ==
           ["wrong dtype", "wrong rank", "non-CUDA device", "inconsistent symbol N",
            "null tensor"], "validation checks: %s" % [name for name, _, _ in results])
    for name, passed, detail in results:
        expect(passed, "validation '%s' is refused with a message: %s" % (name, detail))
    if launch_runs:
        expect("kDLCUDA" in results[2][2] and "symbol N" in results[3][2],
               "the messages say what is wrong: %s" % [d for _, _, d in results])


def test_mock_library(args, work):
    """The hand-written header, built as fuserc.testing builds (without the
    hook, which the mock has no launch blocks for) and loaded by the package."""
    out_dir = os.path.join(work, "mock")
    os.makedirs(out_dir)
    for part in ("example.h", "example.c", "example.manifest.json"):
        shutil.copy(os.path.join(HERE, "selftest", part), out_dir)
    fuserc.testing.build_library(out_dir, "example", hook=False, dlpack_include=args.dlpack_include,
                                 cuda_home=args.cuda_home)
    library = fuserc.load(out_dir)
    expect(fuserc.testing.variant_hook(library) is None, "a build without the hook has no controls")
    check_entry_points(library, launch_runs=True)
    library.close()
    expect(library.closed and not library.fusions, "close() unloads the library")


def test_generated_library(args, work, stub_driver):
    """The real header fuserc writes for gpu/cases/example.fus. Without a
    driver only the paths that need no GPU can run; with one, the GPU tests
    (run_tests.py) cover it."""
    if not stub_driver:
        print("skipped: the generated header (a CUDA driver is installed; run_tests.py "
              "covers it)")
        return
    source = os.path.join(HERE, "cases", "example.fus")
    built = harness.build(args.fuserc, source, os.path.join(work, "plain"))
    expect(os.path.exists(os.path.join(built.out_dir, "example.c")),
           "the harness's build writes NAME.c for example_host.cpp")
    library = built.load()
    check_entry_points(library, launch_runs=False)
    expect(fuserc.testing.variant_hook(library) is None, "fuserc --emit so has no testing hook")
    # The fuzzer's build: NAME.c with the testing hook compiled in; its
    # controls load, and nothing has been offered or launched yet.
    hooked = harness.build(args.fuserc, source, os.path.join(work, "hook"), hook=True).load()
    hook = fuserc.testing.variant_hook(hooked)
    expect(hook is not None, "the hooked build exports the hook's controls")
    hook.force(0)
    expect(hook.most() == 0 and hook.launched() == [],
           "nothing offered or launched yet: %s, %s" % (hook.most(), hook.launched()))
    check_entry_points(hooked, launch_runs=False)
    try:
        harness.build(args.fuserc, os.path.join(HERE, "selftest", "example.c"),
                      os.path.join(work, "bad"))
        raise AssertionError("fuserc accepted a C file")
    except harness.HarnessError as e:
        expect(e.exit_code == 1 and not e.skipped, "a refused file is a failure, not a skip: %s"
               % harness.short_reason(str(e)))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--dlpack-include", default="/usr/include")
    p.add_argument("--cuda-home", default=os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    p.add_argument("--interp", help="fuserc-interp (accepted; the manifest gives the signature)")
    p.add_argument("--fuserc", help="also test the library fuserc writes")
    args = p.parse_args()
    harness.use_toolchain(args.dlpack_include, args.cuda_home)
    stub_driver = harness.load_driver(args.cuda_home)  # the libraries need a libcuda.so.1
    work = tempfile.mkdtemp(prefix="fuserc-selftest-")
    try:
        test_mock_library(args, work)
        if args.fuserc:
            test_generated_library(args, work, stub_driver)
    finally:
        shutil.rmtree(work)
    print("selftest: all passed")


if __name__ == "__main__":
    main()
