#!/usr/bin/env python3
"""GPU tests of fuserc's generated kernels, run on the GPU machine.

For every fusion file (examples/*.fus|yaml, examples/cookbook/*.fus, bench/cases/*,
gpu/cases/*):
`fuserc FILE -o DIR --emit header,source,fatbin,manifest,so`, the library
loaded by the fuserc package (python/, through gpu/harness.py), whose
manifest gives every fusion's inputs and outputs; then for each symbol
binding of gpu/shapes.py: random inputs (PyTorch, on the GPU), the CPU
reference (fuserc-interp, .npy files), outputs allocated as
NAME_F_describe_outputs says and poisoned (Fusion.prepare), the launch,
and every element compared with the reference. Per fusion, the
header's argument validation is tested too (gpu/validation.py). Fusions of
more than 2^31 elements (gpu/cases/big_add_relu.fus) are compared with
PyTorch instead. Last, gpu/example_host.cpp and gpu/example_ctypes.py are
built and run.

A file fuserc refuses with a message saying what it cannot do *yet* is
SKIPPED; any other refusal or a crash is a FAILURE. Exit status: 1 on any
failure.

  python3 gpu/run_tests.py --fuserc .carry/bin/fuserc --interp .carry/bin/fuserc-interp \\
      --dlpack-include .carry/include --out $OUT
  python3 gpu/run_tests.py ... --dry-run   # no GPU: fuserc, each library loaded (driver stub)

--out gets results.json and summary.txt only; generated files and .npy
inputs go under --work (default /tmp/fuserc-gpu-tests).
"""
import argparse
import faulthandler
import glob
import json
import os
import subprocess
import sys
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import harness  # noqa: E402
import shapes  # noqa: E402
import fuserc  # noqa: E402 (the package: harness put python/ on the path)

EXAMPLE = ("gpu", "example")  # the build example_host.cpp and example_ctypes.py use


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--fuserc", required=True)
    p.add_argument("--interp", required=True, help="fuserc-interp (the reference)")
    p.add_argument("--out", required=True, help="directory for results.json and summary.txt")
    p.add_argument("--work", default="/tmp/fuserc-gpu-tests", help="scratch directory")
    p.add_argument("--dlpack-include", default="/usr/include",
                   help="directory holding dlpack/dlpack.h")
    p.add_argument("--cuda-home", default=os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    p.add_argument("--arch", default="sm_90", help="fuserc --arch")
    p.add_argument("--cases", default="", help="only files whose path contains this")
    p.add_argument("--no-large", action="store_true", help="skip the >2^31-element cases")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--dry-run", action="store_true",
                   help="no GPU or PyTorch: run fuserc, load each library over the driver "
                        "stub")
    return p.parse_args()


def discover_sources(filter_text):
    """[(group, path)] of every fusion file the tests cover."""
    patterns = [("examples", "examples/*.fus"), ("examples", "examples/*.yaml"),
                ("examples", "examples/cookbook/*.fus"),
                ("bench", "bench/cases/*.fus"), ("bench", "bench/cases/*.yaml"),
                ("gpu", "gpu/cases/*.fus"), ("gpu", "gpu/cases/*.yaml")]
    found = []
    for group, pattern in patterns:
        for path in sorted(glob.glob(os.path.join(ROOT, pattern))):
            if filter_text in os.path.relpath(path, ROOT):
                found.append((group, path))
    return found


class Report:
    """Rows of (case, fusion, binding, result, detail), streamed to
    OUT/results.jsonl as they come, so a crash leaves what ran."""

    def __init__(self, out_dir):
        os.makedirs(out_dir, exist_ok=True)
        self.out_dir = out_dir
        self.rows = []
        self.stream = open(os.path.join(out_dir, "results.jsonl"), "w")

    def add(self, case, fusion, binding, result, detail=""):
        row = dict(case=case, fusion=fusion, binding=binding, result=result, detail=detail)
        self.rows.append(row)
        self.stream.write(json.dumps(row) + "\n")
        self.stream.flush()
        if result not in ("PASS", "BUILT"):
            print("%s %s %s %s: %s" % (result, case, fusion, binding, detail), flush=True)

    def failed(self):
        return any(r["result"] == "FAIL" for r in self.rows)

    def finish(self):
        self.stream.close()
        with open(os.path.join(self.out_dir, "results.json"), "w") as f:
            json.dump(self.rows, f, indent=1)
        lines = self._table()
        with open(os.path.join(self.out_dir, "summary.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")
        print("\n".join(lines))

    def _table(self):
        header = ("case", "fusion", "binding", "result", "detail")
        cells = [header] + [(r["case"], r["fusion"], r["binding"], r["result"],
                             harness.short_reason(r["detail"]))
                            for r in self.rows]
        widths = [max(len(str(c[i])) for c in cells) for i in range(4)]
        lines = ["  ".join(str(c[i]).ljust(widths[i]) for i in range(4)) + "  " + c[4]
                 for c in cells]
        counts = {}
        for r in self.rows:
            counts[r["result"]] = counts.get(r["result"], 0) + 1
        lines.append(", ".join("%d %s" % (n, k) for k, n in sorted(counts.items())))
        return lines


def binding_text(binding):
    return ",".join("%s=%d" % kv for kv in sorted(binding.items())) or "-"


def case_seed(base, *parts):
    return (base * 1000003 + zlib.crc32("/".join(map(str, parts)).encode())) % 2**31


# ---------------------------------------------------------------------------
# One fusion at one binding.

def run_reference(args, source, spec, binding, in_dir, out_dir):
    """fuserc-interp on the .npy inputs; raises RuntimeError on failure."""
    cmd = [args.interp, source, "--fusion", spec.name, "--inputs", in_dir,
           "--outputs", out_dir]
    for symbol, value in sorted(binding.items()):
        cmd += ["--shape", "%s=%d" % (symbol, value)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError("fuserc-interp exited with %d: %s" % (proc.returncode,
                                                                proc.stderr.strip()))


def check_against_interpreter(args, ctx, fusion, binding, index):
    """Compares one launch with the reference; returns the PreparedLaunch
    (for the validation checks) and a list of problems."""
    import numpy as np
    import torch
    import tensors

    spec = fusion.spec
    case_dir = os.path.join(ctx["work"], spec.name, str(index))
    values = tensors.make_inputs(spec, ctx["stem"], binding,
                                 case_seed(args.seed, ctx["case"], spec.name, index))
    tensors.write_npy_inputs(spec, values, os.path.join(case_dir, "in"))
    run_reference(args, ctx["source"], spec, binding, os.path.join(case_dir, "in"),
                  os.path.join(case_dir, "out"))
    prepared = harness.prepare(fusion, values)
    prepared.launch()
    torch.cuda.synchronize()
    problems = []
    for out, got in zip(spec.outputs, prepared.outputs):
        reference = np.load(os.path.join(case_dir, "out", out.name + ".npy"))
        problem = tensors.compare(out.name, out.dtype, got, reference)
        if problem:
            problems.append(problem)
    return prepared, problems


def check_against_torch(args, ctx, fusion, binding, large):
    """A case too large for the interpreter: compared with PyTorch on the GPU."""
    import torch
    import tensors

    spec = fusion.spec
    values = tensors.make_inputs(spec, ctx["stem"], binding,
                                 case_seed(args.seed, ctx["case"], spec.name, "large"))
    prepared = harness.prepare(fusion, values)
    prepared.launch()
    torch.cuda.synchronize()
    tensor_inputs = [values[i.name] for i in spec.tensor_inputs]
    reference = large["torch"](torch, *tensor_inputs)
    out = spec.outputs[0]
    problem = tensors.compare_on_gpu(out.name, out.dtype, prepared.outputs[0], reference)
    del prepared, values, tensor_inputs, reference
    torch.cuda.empty_cache()
    return [problem] if problem else []


def test_fusion(args, ctx, fusion, report):
    import validation

    spec = fusion.spec
    large = shapes.large_case(ctx["stem"], spec.name)
    if large:
        for binding in large["bindings"]:
            if args.no_large:
                report.add(ctx["case"], spec.name, binding_text(binding), "SKIP", "--no-large")
                continue
            run_guarded(report, ctx, spec, binding_text(binding),
                        lambda: (None, check_against_torch(args, ctx, fusion, binding, large)))
        return
    bindings = shapes.bindings_for(ctx["stem"], spec.name, symbols_of(spec))
    validate_at = min(1, len(bindings) - 1)
    for index, binding in enumerate(bindings):
        prepared = run_guarded(report, ctx, spec, binding_text(binding),
                               lambda: check_against_interpreter(args, ctx, fusion, binding,
                                                                 index))
        if prepared is not None and index == validate_at:
            for check, passed, detail in validation.run_validation_checks(prepared):
                report.add(ctx["case"], spec.name, "validation: " + check,
                           "PASS" if passed else "FAIL", detail)


def symbols_of(spec):
    """The symbols a binding gives values to: those of the input extents, as
    the manifest's `symbols` binds them."""
    return sorted({s.name for s in spec.symbols})


def run_guarded(report, ctx, spec, binding, body):
    """Runs body() -> (prepared, problems) and records the outcome; returns
    `prepared` on success. A CUDA error poisons the context: later GPU work
    is then reported as not run."""
    if ctx["lost"]:
        report.add(ctx["case"], spec.name, binding, "FAIL", "not run: " + ctx["lost"])
        return None
    start = time.time()
    try:
        prepared, problems = body()
    except Exception as e:  # a launch error, an interpreter failure, a CUDA error
        detail = "%s: %s" % (type(e).__name__, e)
        if "CUDA error" in str(e) or "illegal" in str(e):
            ctx["lost"] = "the CUDA context was lost in %s %s %s" % (ctx["case"], spec.name,
                                                                     binding)
        report.add(ctx["case"], spec.name, binding, "FAIL", detail)
        return None
    took = " (%.1fs)" % (time.time() - start)
    if problems:
        report.add(ctx["case"], spec.name, binding, "FAIL", "; ".join(problems) + took)
        return None
    report.add(ctx["case"], spec.name, binding, "PASS", took.strip())
    return prepared


# ---------------------------------------------------------------------------
# Files, examples, main.

def case_name(args, group, stem, arch):
    return "%s/%s" % (group, stem) + ("" if arch == args.arch else "@" + arch)


def build_source(args, group, source, arch, report):
    """The Build of one file for `arch`, or None (recorded as SKIP or FAIL)."""
    stem = os.path.splitext(os.path.basename(source))[0]
    case = case_name(args, group, stem, arch)
    work = os.path.join(args.work, group if arch == args.arch else group + "@" + arch)
    try:
        fuserc_dir = os.path.dirname(os.path.abspath(args.fuserc))
        options = [o.format(fuserc_dir=fuserc_dir) for o in shapes.FUSERC_OPTIONS.get(stem, ())]
        built = harness.build(args.fuserc, source, work, arch, options)
        library = built.load() if args.dry_run else None  # checks every function is there
    except (harness.HarnessError, fuserc.FusercError) as e:
        report.add(case, "-", "-", "SKIP" if getattr(e, "skipped", False) else "FAIL", str(e))
        return None
    if library is not None:
        library.close()
    return built


def example_commands(args, built, work):
    """(build command, run command) of gpu/example_host.cpp."""
    exe = os.path.join(work, "example_host")
    cuda = args.cuda_home
    compile_cmd = ["g++", "-std=c++17", "-O2", "-Wall", "-Wextra",
                   os.path.join(HERE, "example_host.cpp"),
                   os.path.join(built.out_dir, EXAMPLE[1] + ".c"), "-I", built.out_dir,
                   "-I", args.dlpack_include, "-I", os.path.join(cuda, "include"),
                   "-L", os.path.join(cuda, "lib64", "stubs"), "-lcuda", "-o", exe]
    return compile_cmd, [exe, "1000003"]


def run_examples(args, built, report):
    if built is None:
        report.add("examples", "-", "-", "SKIP", "gpu/cases/example.fus did not build")
        return
    compile_cmd, run_cmd = example_commands(args, built, args.work)
    commands = [("example_host.cpp build", compile_cmd)]
    if not args.dry_run:
        commands += [("example_host", run_cmd),
                     ("example_ctypes.py", [sys.executable, os.path.join(HERE, "example_ctypes.py"),
                                            "--lib", built.lib_path])]
    for what, cmd in commands:
        proc = subprocess.run(cmd, capture_output=True, text=True)
        output = (proc.stdout + proc.stderr).strip()
        result = "PASS" if proc.returncode == 0 else "FAIL"
        report.add("examples", what, "-", result, output.splitlines()[-1] if output else "")
        if result == "FAIL":
            print(output)
            break


def main():
    args = parse_args()
    faulthandler.enable()
    report = Report(args.out)
    harness.use_toolchain(args.dlpack_include, args.cuda_home)
    if args.dry_run:
        harness.load_driver(args.cuda_home)  # the libraries load over the stub
    else:
        import torch
        torch.cuda.init()
        torch.empty(1, device="cuda")  # make PyTorch's primary context current
    example_build = None
    lost = None
    sources = discover_sources(args.cases)
    builds = []
    for group, source in sources:
        stem = os.path.splitext(os.path.basename(source))[0]
        for arch in [args.arch] + [a for a in shapes.EXTRA_ARCHS.get(stem, ()) if a != args.arch]:
            builds.append((group, source, stem, arch))
    for group, source, stem, arch in builds:
        built = build_source(args, group, source, arch, report)
        if built is None:
            continue
        if (group, stem) == EXAMPLE and arch == args.arch:
            example_build = built
        case = case_name(args, group, stem, arch)
        fusions = ",".join(f.name for f in built.manifest.fusions)
        if args.dry_run:
            report.add(case, fusions, "-", "BUILT", "lib%s.so loaded" % built.name)
            continue
        try:
            library = built.load()
        except fuserc.FusercError as e:
            report.add(case, fusions, "-", "FAIL", "loading the library: %s" % e)
            continue
        ctx = dict(case=case, stem=stem, source=source, lost=lost,
                   work=os.path.join(built.out_dir, "runs"))
        for fusion in library.fusions.values():
            test_fusion(args, ctx, fusion, report)
        lost = ctx["lost"]
    if any(os.path.relpath(path, ROOT) == "gpu/cases/example.fus" for _, path in sources):
        run_examples(args, example_build, report)
    report.finish()
    return 1 if report.failed() else 0


if __name__ == "__main__":
    sys.exit(main())
