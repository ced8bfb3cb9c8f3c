#!/usr/bin/env python3
"""Benchmarks fuserc's kernels against PyTorch eager and torch.compile on the
bench cases (bench/cases/, sizes of bench/README.md), on the GPU machine.

Per case, on the same inputs in the same process: the fuserc kernels (built
with `fuserc --emit so` and loaded by the fuserc package, python/, through
gpu/harness.py), the PyTorch implementation of
bench/torch_cases.py eagerly and under torch.compile; plus a 1 GiB
device-to-device copy. Effective bandwidth = (bytes of every tensor input
read once + every output written once) / median time, L2 flushed between
repetitions (triton.testing.do_bench). The fuserc launch is captured in a
CUDA graph (a PreparedLaunch: buffers made once) and the graph's replay is
timed, so ctypes' call overhead (a few microseconds) stays out; where capture fails, a Python closure calling the
launch is timed instead, and the table says so. Eager and torch.compile are
timed as Python closures, as bench/torch_reference.py does. A loose check
against eager guards the numbers (gpu/run_tests.py is the real test).

  python3 bench/run.py --fuserc .carry/bin/fuserc --interp .carry/bin/fuserc-interp \\
      --dlpack-include .carry/include --out $OUT/bench.json
  python3 bench/run.py ... --dry-run   # no GPU: fuserc, each library loaded, bytes per case
  python3 bench/run.py ... --row-sweep 256,1024,8192,262144   # GB/s by row length
  python3 bench/targets.py SUITE.json SWEEP.json   # the issues' targets, met or missed
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "gpu"))
sys.path.insert(0, os.path.join(ROOT, "python", "tests"))  # output_compare: the comparison rule

import harness  # noqa: E402
import fuserc  # noqa: E402 (the package: harness put python/ on the path)

DTYPE_BYTES = {"bool": 1, "i32": 4, "i64": 8, "f16": 2, "bf16": 2, "f32": 4, "f64": 8}
COPY_BYTES = 2**30


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--fuserc", required=True)
    p.add_argument("--interp", required=True,
                   help="fuserc-interp (the signature of a case fuserc cannot compile, for its "
                        "PyTorch baselines)")
    p.add_argument("--out", required=True, help="JSON file (or a directory for bench.json)")
    # Each run builds into its own directory: runs sharing one would empty
    # each other's builds.
    p.add_argument("--work", default=None,
                   help="build directory (default: a new one under /tmp per run)")
    p.add_argument("--dlpack-include", default="/usr/include")
    p.add_argument("--cuda-home", default=os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--cases", default="", help="only cases whose name contains this")
    p.add_argument("--baselines", choices=["all", "compiled", "none"], default="all",
                   help="time eager/torch.compile for all cases, only those fuserc compiles, "
                        "or none")
    p.add_argument("--warmup-ms", type=int, default=50)
    p.add_argument("--rep-ms", type=int, default=300)
    p.add_argument("--timing", choices=["graph", "launch"], default="graph",
                   help="time fuserc's launch captured in a CUDA graph and replayed (default), "
                        "or the ctypes launch itself, as torch.compile's call is timed")
    p.add_argument("--dry-run", action="store_true")
    p.add_argument("--kernels", action="store_true",
                   help="also profile each timed launch (PyTorch profiler): the kernels it runs, "
                        "their device time and the span from the first kernel's start to the "
                        "last one's end")
    p.add_argument("--row-sweep", default="",
                   help="comma-separated row lengths N: instead of the suite, run the row cases "
                        "(softmax, rmsnorm, cumsum_rows, argmax_rows, logsumexp_rows; "
                        "--cases filters) at 2^28 / N rows of N")
    p.add_argument("--reduce-sweep", default="",
                   help="comma-separated row counts M: instead of the suite, run sum_inner at M "
                        "rows of 2^28 / M f32 (1 GiB read; M = 1 sums the whole tensor)")
    args = p.parse_args()
    if args.work is None:
        args.work = tempfile.mkdtemp(prefix="fuserc-bench-")
    return args


def bytes_moved(spec, binding):
    """Every tensor input read once plus every output written once."""
    total = 0
    for t in list(spec.tensor_inputs) + list(spec.outputs):
        total += math.prod(e.evaluate(binding) for e in t.shape) * DTYPE_BYTES[t.dtype]
    return total


class InterpSpec:
    """A fusion's signature as `fuserc-interp --signature` prints it, with the
    attribute names of the manifest's FusionSpec that bytes_moved and
    gpu/tensors.py read: for a case fuserc cannot compile (no manifest),
    whose PyTorch baselines are still timed."""

    class Value:
        def __init__(self, entry):
            self.name, self.dtype = entry["name"], entry["dtype"]
            self.is_tensor = not entry.get("scalar", False)
            self.shape = tuple(fuserc.Extent(str(e)) for e in entry["shape"])
            self.layout = tuple(entry.get("layout") or ())
            self.strided = entry.get("strided", False)

    def __init__(self, entry):
        self.name = entry["name"]
        self.inputs = tuple(self.Value(i) for i in entry["inputs"])
        self.outputs = tuple(self.Value(o) for o in entry["outputs"])
        self.tensor_inputs = tuple(i for i in self.inputs if i.is_tensor)


def interp_spec(interp, source):
    """The first fusion of `source` as an InterpSpec."""
    proc = subprocess.run([interp, source, "--signature"], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError("fuserc-interp --signature %s failed:\n%s" % (source, proc.stderr))
    return InterpSpec(json.loads(proc.stdout)["fusions"][0])


def gbps(nbytes, ms):
    return nbytes / (ms * 1e-3) / 1e9 if ms else None


# ---------------------------------------------------------------------------
# Timing (GPU only).

def time_ms(fn, args):
    from triton.testing import do_bench
    return do_bench(fn, warmup=args.warmup_ms, rep=args.rep_ms, return_mode="median")


def profile_kernels(fn, iterations=20):
    """{kernels: [[name, per launch, mean us]], span_us, busy_us}: what one call
    of fn runs on the device. Calls are spaced out by a synchronize and a pause,
    so the kernels of one call are those between two gaps of over 100 us."""
    import torch
    from torch.profiler import ProfilerActivity, profile
    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(iterations):
            fn()
            torch.cuda.synchronize()
            time.sleep(1e-3)
    kernels = sorted((e for e in prof.events() if e.device_type.name == "CUDA"),
                     key=lambda e: e.time_range.start)
    calls, last_end = [], None
    for e in kernels:
        if last_end is None or e.time_range.start - last_end > 100:
            calls.append([])
        calls[-1].append(e)
        last_end = max(last_end or 0, e.time_range.end)
    calls = calls[1:] if len(calls) > 1 else calls  # the first may hold the profiler's own work
    if not calls:
        return None
    by_name = {}
    for call in calls:
        for e in call:
            entry = by_name.setdefault(e.name, [0, 0.0])
            entry[0] += 1
            entry[1] += e.time_range.end - e.time_range.start
    spans = sorted(c[-1].time_range.end - c[0].time_range.start for c in calls)
    busy = sorted(sum(e.time_range.end - e.time_range.start for e in c) for c in calls)
    return dict(kernels=[[n, round(c / len(calls), 2), round(t / c, 2)]
                         for n, (c, t) in sorted(by_name.items())],
                span_us=spans[len(spans) // 2], busy_us=busy[len(busy) // 2])


def time_fuserc(prepared, args):
    """(median ms, method, kernel profile or None): the launch captured in a
    CUDA graph, replayed, or (--timing launch) the launch itself."""
    import torch
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        prepared.launch()  # loads the kernels outside the capture
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()
    if args.timing == "launch":
        profile = profile_kernels(prepared.launch) if args.kernels else None
        return time_ms(prepared.launch, args), "launch", profile
    try:
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph, capture_error_mode="thread_local"):
            prepared.launch()
        torch.cuda.synchronize()
        profile = profile_kernels(graph.replay) if args.kernels else None
        return time_ms(graph.replay, args), "graph", profile
    except Exception as e:  # capture refused: time the ctypes call itself
        print("  note: CUDA graph capture failed (%s); timing the ctypes launch" % e)
        torch.cuda.synchronize()
        profile = profile_kernels(prepared.launch) if args.kernels else None
        return time_ms(prepared.launch, args), "closure", profile


def time_graph(fn, args):
    """Median ms of fn captured in a CUDA graph and replayed (no Python or
    launch overhead: how short calls run in a captured model), or None when
    the capture fails."""
    import torch
    try:
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            fn()
        torch.cuda.current_stream().wait_stream(side)
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph, capture_error_mode="thread_local"):
            fn()
        torch.cuda.synchronize()
        return time_ms(graph.replay, args)
    except Exception as e:  # e.g. an op that syncs with the host
        print("  note: torch.compile's call could not be captured (%s)" % e)
        torch.cuda.synchronize()
        return None


def loose_check(spec, fuserc_outputs, eager_outputs):
    """'ok' or what differs, between fuserc's and eager's outputs (in
    declaration order), by python/tests/output_compare.py's rule."""
    import torch
    import output_compare
    problems = []
    for out, got, eager in zip(spec.outputs, fuserc_outputs, eager_outputs):
        try:
            output_compare.close(got, eager, out.name)
        except AssertionError as e:
            problems.append(str(e))
        del got
    torch.cuda.synchronize()
    return "; ".join(problems) or "ok"


def as_tuple(result):
    return tuple(result) if isinstance(result, (tuple, list)) else (result,)


def bench_case(args, stem, case, spec, built, reason):
    """One row of the table: times (ms), bandwidths (GB/s), notes."""
    import torch
    import tensors

    binding, scalars, implementation = case
    row = dict(case=stem, bytes=bytes_moved(spec, binding), fuserc=reason or "ok")
    values = tensors.make_inputs(spec, stem, binding, seed=1)
    values.update(scalars)
    ordered = [values[i.name] for i in spec.inputs]
    if built:
        library = built.load()
        prepared = harness.prepare(library.fusions[spec.name], values, poison=False)
        row["fuserc_ms"], row["fuserc_timing"], profile = time_fuserc(prepared, args)
        if profile:
            row["fuserc_kernels"] = profile
    if args.baselines == "all" or (args.baselines == "compiled" and built):
        eager_outputs = as_tuple(implementation(*ordered))
        row["eager_ms"] = time_ms(lambda: implementation(*ordered), args)
        if built:
            row["check"] = loose_check(spec, prepared.outputs, eager_outputs)
        del eager_outputs
        start = time.time()
        compiled = torch.compile(implementation, dynamic=False)
        compiled(*ordered)
        torch.cuda.synchronize()
        row["compile_s"] = time.time() - start
        row["compile_ms"], row["compile_timing"] = time_ms(lambda: compiled(*ordered), args), "closure"
        if getattr(args, "compile_graph", False):
            graph_ms = time_graph(lambda: compiled(*ordered), args)
            if graph_ms is not None and graph_ms < row["compile_ms"]:
                row["compile_ms"], row["compile_timing"] = graph_ms, "graph"
        if args.kernels:
            row["compile_kernels"] = profile_kernels(lambda: compiled(*ordered))
        torch._dynamo.reset()
    for kind in ("fuserc", "eager", "compile"):
        if row.get(kind + "_ms"):
            row[kind + "_GBs"] = gbps(row["bytes"], row[kind + "_ms"])
    return row


def measure_copy(args):
    import torch
    a = torch.empty(COPY_BYTES, dtype=torch.uint8, device="cuda").fill_(1)
    b = torch.empty_like(a)
    return gbps(2 * COPY_BYTES, time_ms(lambda: b.copy_(a), args))


# ---------------------------------------------------------------------------
# Cases, table, main.

def case_file(stem):
    for ext in (".fus", ".yaml"):
        if os.path.exists(os.path.join(ROOT, "bench", "cases", stem + ext)):
            return stem + ext
    raise FileNotFoundError("bench/cases/%s.{fus,yaml}" % stem)


def build_case(args, stem):
    """(Build or None, reason fuserc could not be used or None). In a dry
    run the library is loaded (over the driver stub) and closed again."""
    source = os.path.join(ROOT, "bench", "cases", case_file(stem))
    try:
        built = harness.build(args.fuserc, source, args.work, args.arch)
        if args.dry_run:
            built.load().close()
        return built, None
    except (harness.HarnessError, fuserc.FusercError) as e:
        return None, harness.short_reason(str(e)) or "fuserc failed"


def fmt(value, pattern):
    return pattern % value if value is not None else "-"


def print_table(rows, copy_gbps):
    header = "%-20s %8s %10s %10s %10s %8s %9s  %s" % (
        "case", "MB", "fuserc", "eager", "compile", "f/copy", "f/compile", "notes")
    lines = [header, "%-20s %8s %10s %10s %10s" % ("", "", "GB/s", "GB/s", "GB/s")]
    ratios = []
    for r in rows:
        f, e, c = r.get("fuserc_GBs"), r.get("eager_GBs"), r.get("compile_GBs")
        vs_copy = f / copy_gbps if f and copy_gbps else None
        vs_compile = f / c if f and c else None
        if vs_compile:
            ratios.append(vs_compile)
        notes = r["fuserc"] if r["fuserc"] != "ok" else "check %s, %s" % (
            r.get("check", "-"), r.get("fuserc_timing", "-"))
        lines.append("%-20s %8.1f %10s %10s %10s %8s %9s  %s" % (
            r["case"], r["bytes"] / 1e6, fmt(f, "%.0f"), fmt(e, "%.0f"), fmt(c, "%.0f"),
            fmt(vs_copy and 100 * vs_copy, "%.0f%%"), fmt(vs_compile, "%.2fx"), notes))
    lines.append("device-to-device copy, 1 GiB: %s GB/s" % fmt(copy_gbps, "%.0f"))
    if ratios:
        geomean = math.exp(sum(map(math.log, ratios)) / len(ratios))
        lines.append("geometric mean fuserc/compile over %d case(s): %.2fx (target 1.25x)"
                     % (len(ratios), geomean))
    print("\n".join(lines))


def sweep_cases(args, torch_cases):
    """(label, stem, case) per row case and row length of --row-sweep: rows
    of N, 2^28 / N of them (1 GiB of bf16 read and written; f32 cumsum twice
    that)."""
    out = []
    for stem in ("softmax", "rmsnorm", "cumsum_rows", "argmax_rows", "logsumexp_rows"):
        if args.cases not in stem:
            continue
        binding, scalars, implementation = torch_cases.CASES[stem]
        for n in (int(x) for x in args.row_sweep.split(",")):
            out.append(("%s N=%d" % (stem, n), stem, ({"M": 2**28 // n, "N": n}, scalars,
                                                       implementation)))
    return out


def reduce_sweep_cases(args, torch_cases):
    """(label, stem, case) per row count of --reduce-sweep: sum_inner over
    M rows of 2^28 / M f32 elements."""
    binding, scalars, implementation = torch_cases.CASES["sum_inner"]
    return [("sum_inner M=%d" % m, "sum_inner", ({"M": m, "N": 2**28 // m}, scalars,
                                                 implementation))
            for m in (int(x) for x in args.reduce_sweep.split(","))]


def main():
    args = parse_args()
    import torch_cases
    if args.row_sweep:
        runs = sweep_cases(args, torch_cases)
    elif args.reduce_sweep:
        runs = reduce_sweep_cases(args, torch_cases)
    else:
        runs = [(s, s, torch_cases.CASES[s]) for s in torch_cases.CASES if args.cases in s]
    rows, copy_gbps, torch, device = [], None, None, None
    harness.use_toolchain(args.dlpack_include, args.cuda_home)
    if args.dry_run:
        harness.load_driver(args.cuda_home)  # the libraries load over the stub
    else:
        import torch
        torch.empty(1, device="cuda")
        device = torch.cuda.get_device_name()
        print("device: %s" % device, flush=True)
        copy_gbps = measure_copy(args)
        print("copy 1 GiB: %.0f GB/s" % copy_gbps, flush=True)
    builds = {}
    for label, stem, case in runs:
        if stem not in builds:
            builds[stem] = build_case(args, stem)
        built, reason = builds[stem]
        source = os.path.join(ROOT, "bench", "cases", case_file(stem))
        spec = built.manifest.fusions[0] if built else interp_spec(args.interp, source)
        if args.dry_run:
            rows.append(dict(case=label, bytes=bytes_moved(spec, case[0]),
                             fuserc=reason or "ok (built %s)" % os.path.basename(built.lib_path)))
            continue
        try:
            row = bench_case(args, stem, case, spec, built, reason)
        except Exception as e:  # one broken case must not hide the others' numbers
            row = dict(case=stem, bytes=0, fuserc="error: %s: %s" % (type(e).__name__, e))
        row["case"] = label
        print("%s: %s" % (label, json.dumps(row)), flush=True)
        rows.append(row)
        torch.cuda.empty_cache()
    out = args.out if not os.path.isdir(args.out) else os.path.join(args.out, "bench.json")
    with open(out, "w") as f:
        json.dump(dict(device=device, copy_GBs=copy_gbps, cases=rows), f, indent=1)
    print_table(rows, copy_gbps)
    unbuilt = sorted({r["case"] for r in rows if not r["fuserc"].startswith("ok")})
    if args.dry_run and unbuilt:  # a dry run checks that every case builds
        sys.exit("fuserc did not build: %s" % ", ".join(unbuilt))


if __name__ == "__main__":
    main()
