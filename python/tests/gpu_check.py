"""The fuserc Python package on the GPU machine (docs/python.md, "Testing";
run whenever python/ changes): every bench case through the package against
PyTorch, eagerly, through its custom op inside torch.compile(fullgraph=True)
(no graph break, by torch._dynamo.explain) and inside a captured CUDA graph;
in-place and view outputs; a prepared launch (poisoned buffers, replayed
in a CUDA graph); two threads launching on two streams; the
package's unit tests with PyTorch and a GPU; and the call overhead of
lib.f(x) against the generated C function called directly (µs).

    python3 python/tests/gpu_check.py --fuserc .carry/bin/fuserc \\
        --dlpack-include .carry/include [--cuda-home /usr/local/cuda] [--arch sm_90]

Needs PyTorch, numpy, gcc and the CUDA toolkit; installs nothing (python/
is put on sys.path). Prints one line per check and exits 1 if any failed.
"""
import argparse
import ctypes
import os
import subprocess
import sys
import threading
import time
import traceback
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [os.path.dirname(HERE), os.path.join(ROOT, "gpu"), os.path.join(ROOT, "bench"),
                HERE]

import torch  # noqa: E402

import fuserc  # noqa: E402
import fuserc.torch  # noqa: E402
from output_compare import close  # noqa: E402

FAILURES = []


def report(name, ok, detail=""):
    print("%-44s %s %s" % (name, "PASS" if ok else "FAIL", detail), flush=True)
    if not ok:
        FAILURES.append(name)


def check(name, fn):
    try:
        detail = fn()
        report(name, True, detail or "")
    except Exception as e:  # noqa: BLE001 - every failure is reported, then the next check runs
        report(name, False, "%s: %s" % (type(e).__name__, e))
        traceback.print_exc(limit=4)


def as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


# ---------------------------------------------------------------------------

def bench_cases(args):
    import tensors
    import torch_cases
    for stem, (binding, scalars, reference) in torch_cases.CASES.items():
        source = [os.path.join(ROOT, "bench", "cases", stem + ext) for ext in (".fus", ".yaml")]
        source = next(p for p in source if os.path.exists(p))

        def one(stem=stem, binding=binding, scalars=scalars, reference=reference,
                source=source):
            lib = fuserc.compile(source, archs=args.arch, out_dir=os.path.join(args.work, stem),
                                 fuserc=args.fuserc)
            fusion = next(iter(lib.fusions.values()))
            ops = fuserc.torch.register(lib, namespace="bench_" + stem)
            fusion_op = getattr(ops, fusion.name)

            def op(*a):  # a plain function for dynamo to trace
                return fusion_op(*a)
            values = tensors.make_inputs(fusion.spec, stem, binding, seed=1)
            values.update(scalars)
            ordered = [values[i.name] for i in fusion.spec.inputs]
            want = as_tuple(reference(*ordered))
            names = [o.name for o in fusion.spec.outputs]
            for got, w, n in zip(as_tuple(fusion(*ordered)), want, names):
                close(got, w, "eager " + n)
            torch._dynamo.reset()
            explanation = torch._dynamo.explain(op)(*ordered)
            if explanation.graph_break_count != 0:
                raise AssertionError("graph breaks: %s" % explanation.break_reasons)
            compiled = torch.compile(op, fullgraph=True)
            for got, w, n in zip(as_tuple(compiled(*ordered)), want, names):
                close(got, w, "compiled " + n)
            stream = torch.cuda.Stream()
            stream.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(stream):
                op(*ordered)  # warm-up outside the capture
            torch.cuda.current_stream().wait_stream(stream)
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                captured = as_tuple(op(*ordered))
            graph.replay()
            torch.cuda.synchronize()
            for got, w, n in zip(captured, want, names):
                close(got, w, "graph " + n)
            torch._dynamo.reset()
            return "eager, compiled (%d graph, 0 breaks), CUDA graph" % explanation.graph_count

        check("bench %s" % stem, one)
        torch.cuda.empty_cache()


def cases_library(args):
    return fuserc.compile(os.path.join(HERE, "cases", "package_cases.fus"), archs=args.arch,
                          out_dir=os.path.join(args.work, "package_cases"), fuserc=args.fuserc)


def views_and_in_place(lib, ops):
    def views(call):
        base = torch.randn(64, 112, device="cuda")
        x = base[:, :100]  # strided: rows padded
        t, s, y = call(x)
        for v, want in ((t, x.t()), (s, x[:, 2:])):
            assert v.untyped_storage().data_ptr() == base.untyped_storage().data_ptr(), "a copy"
            assert (v.shape, v.stride(), v.storage_offset()) == \
                (want.shape, want.stride(), want.storage_offset()), (v.stride(), want.stride())
            close(v, want, "view")
        close(y, 2 * x.t(), "y")
        assert y.stride() == (1, 100), y.stride()

    def in_place(call):
        w, m = torch.randn(32, 48, device="cuda"), torch.randn(32, 48, device="cuda")
        g = torch.randn(32, 48, device="cuda").bfloat16()
        m_want = m * 0.9 + g.float()
        w_want = w - 3.0 * m_want
        m2, w2 = call(w, m, g, True, 3)
        assert m2 is m and w2 is w, "in-place outputs are not the caller's tensors"
        close(m, m_want, "m")
        close(w, w_want, "w")

    check("views (lib.views)", lambda: views(lib.views))
    check("views (ops.views, compiled)", lambda: views(torch.compile(lambda x: ops.views(x), fullgraph=True)))
    check("in place (lib.update)", lambda: in_place(lib.update))
    check("in place (ops.update)", lambda: in_place(ops.update))

    def compiled_in_place():
        w, m = torch.randn(32, 48, device="cuda"), torch.randn(32, 48, device="cuda")
        g = torch.randn(32, 48, device="cuda").bfloat16()
        m_want = m * 0.9 + g.float()
        w_want = w - 3.0 * m_want

        @torch.compile(fullgraph=True)
        def step(w, m, g):
            ops.update(w, m, g, True, 3)
            return w.sum()

        total = step(w, m, g)
        close(m, m_want, "m")
        close(w, w_want, "w")
        close(total, w_want.sum(), "sum")

    check("in place (compiled, caller's tensors)", compiled_in_place)


def prepared_launch(lib):
    """Fusion.prepare: buffers made (and poisoned) once, each launch on them,
    captured in a CUDA graph and replayed after the input changes in place;
    in-place outputs are the caller's tensors."""
    x, y = torch.randn(1 << 20, device="cuda"), torch.randn(1 << 20, device="cuda")
    prepared = lib.scale_add.prepare(x, y, 0.5, poison=True)
    (z,) = prepared.outputs
    assert torch.isnan(z).all().item(), "new buffers are poisoned"
    assert prepared.output("z") is z and prepared.workspace_bytes == 0
    prepared.launch()
    close(z, x * 0.5 + y, "launch")
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, stream=stream):
        prepared.launch()
    x.mul_(2)
    graph.replay()
    torch.cuda.synchronize()
    close(z, x * 0.5 + y, "graph replay")
    w, m = torch.randn(32, 48, device="cuda"), torch.randn(32, 48, device="cuda")
    g = torch.randn(32, 48, device="cuda").bfloat16()
    m_want = m * 0.9 + g.float()
    update = lib.update.prepare(w, m, g, True, 3, poison=True)
    assert update.outputs[0] is m and update.outputs[1] is w, "in place: the caller's tensors"
    update.launch(torch.cuda.current_stream())
    close(m, m_want, "in place m")
    column = lib.column_sum.prepare(torch.randn(256, 384, device="cuda"), poison=True)
    assert column.workspace is None or column.workspace.numel() == column.workspace_bytes
    column.launch()
    close(column.outputs[0], column.inputs[0].sum(0), "column sum with workspace")
    return "poisoned, launched, replayed in a CUDA graph; in place; workspace %d bytes" % (
        column.workspace_bytes)


def two_ops_model(ops):
    def model(x, y):
        z = ops.scale_add(x, y, 0.5)
        return ops.column_sum(z.view(256, -1))

    x, y = torch.randn(256 * 384, device="cuda"), torch.randn(256 * 384, device="cuda")
    torch._dynamo.reset()
    explanation = torch._dynamo.explain(model)(x, y)
    assert explanation.graph_break_count == 0, explanation.break_reasons
    got = torch.compile(model, fullgraph=True)(x, y)
    close(got, (x * 0.5 + y).view(256, -1).sum(0), "model")
    return "torch.compile model with scale_add and column_sum: %d graph, %d graph breaks" % (
        explanation.graph_count, explanation.graph_break_count)


def two_threads(lib):
    xs = [torch.randn(1 << 20, device="cuda") for _ in range(2)]
    results, errors = [None, None], []

    def work(k):
        try:
            stream = torch.cuda.Stream()
            with torch.cuda.stream(stream):
                out = None
                for _ in range(200):
                    out = lib.scale_add(xs[k], xs[k], float(k + 1))
                stream.synchronize()
                results[k] = out
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    for k in range(2):
        close(results[k], xs[k] * (k + 1) + xs[k], "thread %d" % k)


DIRECT_C = r"""
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c99 */
#include <dlpack/dlpack.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
typedef int (*launch_fn)(const DLTensor *, DLTensor *, void *, size_t, void *);
/* Microseconds per call of a softmax launch (x -> y, bf16 [M, N]) made
   `iterations` times from C; -1 when a call fails. */
double time_launch(void *fn, void *x, void *y, int64_t m, int64_t n, void *stream,
                   int iterations) {
  int64_t shape[2] = {m, n};
  DLTensor in = {x, {kDLCUDA, 0}, 2, {kDLBfloat, 16, 1}, shape, NULL, 0};
  DLTensor out = in;
  out.data = y;
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (int i = 0; i < iterations; ++i)
    if (((launch_fn)fn)(&in, &out, NULL, 0, stream) != 0)
      return -1;
  clock_gettime(CLOCK_MONOTONIC, &b);
  return ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 1e3 / iterations;
}
"""


def overhead(args):
    lib = fuserc.compile(os.path.join(ROOT, "bench", "cases", "softmax.fus"), archs=args.arch,
                         out_dir=os.path.join(args.work, "overhead"), fuserc=args.fuserc)
    ops = fuserc.torch.register(lib, namespace="fuserc_overhead")
    source = os.path.join(args.work, "direct.c")
    with open(source, "w") as f:
        f.write(DIRECT_C)
    helper = os.path.join(args.work, "libdirect.so")
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-std=c99", source, "-I",
                    args.dlpack_include, "-o", helper], check=True)
    direct = ctypes.CDLL(helper).time_launch
    direct.restype = ctypes.c_double
    direct.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int64] * 2 + [ctypes.c_void_p,
                                                                       ctypes.c_int]
    fn = ctypes.cast(lib.cdll.softmax__softmax_launch, ctypes.c_void_p).value
    x = torch.randn(4, 1024, device="cuda").bfloat16()
    y = torch.empty_like(x)
    stream = torch.cuda.current_stream().cuda_stream
    n = 200

    def per_call(call):
        for _ in range(20):
            call()
        torch.cuda.synchronize()
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(n):
                call()
            best = min(best, (time.perf_counter() - start) / n * 1e6)
            torch.cuda.synchronize()
        return best

    c_us = min(direct(fn, x.data_ptr(), y.data_ptr(), 4, 1024, stream, n) for _ in range(5))
    assert c_us > 0, "the direct launch failed"
    xa, ya = fuserc.TensorArg(x.data_ptr(), x.shape, None, "bf16"), \
        fuserc.TensorArg(y.data_ptr(), y.shape, None, "bf16")
    raw_us = per_call(lambda: lib.softmax.launch([xa], [ya], 0, 0, stream))
    lib_us = per_call(lambda: lib.softmax(x))
    op_us = per_call(lambda: ops.softmax(x))
    eager_us = per_call(lambda: torch.softmax(x, dim=-1))
    close(lib.softmax(x), torch.softmax(x.float(), -1), "softmax")
    return ("host µs per call, softmax bf16 [4, 1024]: C launch %.2f | ctypes launch %.2f | "
            "lib.softmax(x) %.2f | ops.softmax(x) %.2f | torch.softmax %.2f"
            % (c_us, raw_us, lib_us, op_us, eager_us))


def unit_tests(args):
    os.environ["FUSERC"] = args.fuserc
    suite = unittest.defaultTestLoader.discover(HERE, pattern="test_*.py")
    result = unittest.TextTestRunner(verbosity=1).run(suite)
    assert result.wasSuccessful(), "%d failures, %d errors" % (len(result.failures),
                                                              len(result.errors))
    return "%d tests, %d skipped" % (result.testsRun, len(result.skipped))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fuserc", required=True)
    parser.add_argument("--dlpack-include", required=True, help="holds dlpack/dlpack.h")
    parser.add_argument("--cuda-home", default="/usr/local/cuda")
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--work", default="/tmp/fuserc-gpu-check")
    args = parser.parse_args()
    args.fuserc = os.path.abspath(args.fuserc)
    args.dlpack_include = os.path.abspath(args.dlpack_include)
    os.makedirs(args.work, exist_ok=True)
    # fuserc --emit so compiles with this machine's toolchain.
    os.environ["FUSERC_DLPACK_INCLUDE"] = args.dlpack_include
    os.environ["FUSERC_CUDA_INCLUDE"] = os.path.join(args.cuda_home, "include")
    os.environ["FUSERC_CUDA_STUBS"] = os.path.join(args.cuda_home, "lib64", "stubs")
    print("torch %s on %s" % (torch.__version__, torch.cuda.get_device_name()), flush=True)

    lib = cases_library(args)
    ops = fuserc.torch.register(lib, namespace="fuserc_gpu_check")
    check("unit tests with PyTorch and a GPU", lambda: unit_tests(args))
    views_and_in_place(lib, ops)
    check("prepared launch", lambda: prepared_launch(lib))
    check("two fuserc ops, no graph break", lambda: two_ops_model(ops))
    check("two threads, two streams", lambda: two_threads(lib))
    check("call overhead", lambda: overhead(args))
    bench_cases(args)
    print("%d failed: %s" % (len(FAILURES), ", ".join(FAILURES) or "none"))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
