#!/usr/bin/env python3
"""Every variant of a sweep point's kernels, timed: where a launch rule
(issue 24: variants and launch shapes picked from the extents) misses. For
each point of bench/sweep.py's classes that --classes, --fusions and
--where pick, the fusion is built with the testing hook (docs/header.md,
"Testing hook"), each alternative its launch blocks offer is forced in turn,
and each distinct set of kernels that launches is replayed from a CUDA graph
(L2 flushed, median), beside torch.compile's call replayed the same way.
Per point it prints the alternatives fastest first, the launch's own choice
marked; at the end, the points whose own choice is more than --slack slower
than their fastest alternative, worst first.

  python3 bench/variants.py --fuserc .carry/bin/fuserc --dlpack-include .carry/include \\
      --classes odd_rows --fusions softmax_bf16 --where "N == 300" --out $OUT/variants.json
  python3 bench/variants.py ... --dry-run   # no GPU: the hooked builds and the points
                                            # (ctest bench_variants_builds)

Forcing alternative k applies it to every launch block of the fusion that
offers more than k, where its conditions hold for the point (else the
block keeps its own choice); the sets of kernels are told apart by name.
"""
import argparse
import json
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import sweep  # noqa: E402 (the classes, their points and PyTorch implementations)
import run as bench  # noqa: E402 (timing, bytes moved)
import harness  # noqa: E402 (bench/run.py put gpu/ on the path)
import fuserc  # noqa: E402
import fuserc.testing  # noqa: E402

try:
    import torch
except ImportError:  # --dry-run on machines without PyTorch
    torch = None


def parse_args():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--fuserc", required=True)
    p.add_argument("--interp", help="accepted for bench/run.py's command line; unused")
    p.add_argument("--out", required=True, help="JSON file of every point's alternatives")
    p.add_argument("--work", help="build directory (default: a new one under /tmp per run)")
    p.add_argument("--dlpack-include", default="/usr/include")
    p.add_argument("--cuda-home", default=os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--classes", default="rows", help="bench/sweep.py's classes")
    p.add_argument("--fusions", default="",
                   help="comma-separated: only fusions whose name contains one of these")
    p.add_argument("--where", default="", help="as bench/sweep.py's --where (symbols and MB)")
    p.add_argument("--max-mb", type=float, default=1100.0, help="skip points moving more")
    p.add_argument("--slack", type=float, default=0.05,
                   help="report own choices slower than the fastest by more than this")
    p.add_argument("--no-compile", action="store_true", help="leave torch.compile out")
    p.add_argument("--kernels", action="store_true",
                   help="also each alternative's kernels' device time (bench/run.py's "
                        "profile_kernels: busy_us), finer than a short replay")
    p.add_argument("--deadline", type=float, default=0, help="stop timing after this many s")
    p.add_argument("--warmup-ms", type=int, default=25)
    p.add_argument("--rep-ms", type=int, default=100)
    p.add_argument("--dry-run", action="store_true")
    args = p.parse_args()
    unknown = [c for c in args.classes.split(",") if c not in sweep.CLASSES]
    if unknown:
        p.error("unknown class %s (bench/sweep.py has %s)" % (", ".join(unknown),
                                                               ", ".join(sweep.CLASSES)))
    if args.work is None:
        args.work = tempfile.mkdtemp(prefix="fuserc-variants-")
    return args


def launched(hook, prepared, pick):
    """The kernels one launch runs with alternative `pick` forced."""
    hook.force(pick)
    prepared.launch()
    torch.cuda.synchronize()
    return tuple(hook.launched())


def time_alternatives(args, point, library, hook):
    """{"own": kernels, "alternatives": [{"kernels", "ms"}], "compile_ms"}."""
    import tensors
    fusion, spec = point.fusion, point.spec
    values = tensors.make_inputs(spec, fusion, point.binding, seed=1)
    prepared = harness.prepare(library.fusions[fusion], values, poison=False)
    own = launched(hook, prepared, -1)
    timed = {}
    for pick in range(-1, hook.most()):
        kernels = launched(hook, prepared, pick)
        if kernels not in timed:
            timed[kernels] = dict(kernels=list(kernels),
                                  ms=bench.time_graph(prepared.launch, args))
            if args.kernels:
                profile = bench.profile_kernels(prepared.launch)
                timed[kernels]["busy_us"] = profile["busy_us"] if profile else None
    hook.force(-1)
    result = dict(own=list(own), alternatives=sorted(timed.values(),
                                                     key=lambda a: a["ms"] or float("inf")))
    if not args.no_compile:
        ordered = [values[i.name] for i in spec.inputs]
        compiled = torch.compile(sweep.TORCH[fusion], dynamic=False)
        compiled(*ordered)
        result["compile_ms"] = bench.time_graph(lambda: compiled(*ordered), args)
        if args.kernels:
            profile = bench.profile_kernels(lambda: compiled(*ordered))
            result["compile_busy_us"] = profile["busy_us"] if profile else None
        torch._dynamo.reset()
    return result


def busy(us):
    return ", kernels %.2f us" % us if us is not None else ""


def print_point(row):
    print("%s (%.2f MB)%s" % (row["case"], row["bytes"] / 1e6,
                              ", torch.compile %.2f us%s" % (1000 * row["compile_ms"],
                                                             busy(row.get("compile_busy_us")))
                              if row.get("compile_ms") else ""))
    for alternative in row["alternatives"]:
        ms = alternative["ms"]
        ratio = " %5.2fx" % (row["compile_ms"] / ms) if ms and row.get("compile_ms") else ""
        print("  %9s us%s%s  %s%s" % ("%.2f" % (1000 * ms) if ms else "-", ratio,
                                     busy(alternative.get("busy_us")),
                                     ",".join(alternative["kernels"]),
                                     "  (own)" if alternative["kernels"] == row["own"] else ""))
    sys.stdout.flush()


def misses(rows, slack):
    """(loss, case, own us, fastest us, fastest kernels) where the own choice
    is more than `slack` slower than the fastest alternative, worst first."""
    found = []
    for row in rows:
        times = {tuple(a["kernels"]): a["ms"] for a in row.get("alternatives", []) if a["ms"]}
        own = times.get(tuple(row.get("own", ())))
        if not times or own is None:
            continue
        fastest = min(times, key=times.get)
        loss = own / times[fastest] - 1
        if loss > slack:
            found.append((loss, row["case"], 1000 * own, 1000 * times[fastest], fastest))
    return sorted(found, reverse=True)


def main():
    args = parse_args()
    harness.use_toolchain(args.dlpack_include, args.cuda_home)
    if args.dry_run:
        harness.load_driver(args.cuda_home)  # the libraries load over the stub
    else:
        torch.empty(1, device="cuda")
        print("device: %s" % torch.cuda.get_device_name(), flush=True)
    hooks = {}  # fusion file: (its library, the library's hook)

    def build(source):
        built = harness.build(args.fuserc, source, args.work, args.arch, hook=True)
        library = built.load()
        hook = fuserc.testing.variant_hook(library)
        if hook is None:
            raise harness.HarnessError("%s: built without the testing hook" % source)
        if args.dry_run:
            library.close()
        hooks[source] = (library, hook)
        return built

    rows, start = [], time.time()
    for point in sweep.selected_points(args, build):
        row = point.untimed_row(args, start)
        if row is None:
            row = point.row()
            try:
                row.update(time_alternatives(args, point, *hooks[point.built.source]),
                           fuserc="ok")
                print_point(row)
            except Exception as e:  # one broken point must not hide the others
                row["fuserc"] = "error: %s: %s" % (type(e).__name__, e)
                print("%s: %s" % (point.label, row["fuserc"]), flush=True)
            torch.cuda.empty_cache()
        rows.append(row)
    with open(args.out, "w") as f:
        json.dump(dict(device=None if args.dry_run else torch.cuda.get_device_name(),
                       points=rows), f, indent=1)
    if args.dry_run:
        sweep.check_dry_run(rows, lambda points, fusions, refused:
                            "%d points, built with the testing hook; refused: %s"
                            % (points, ", ".join(refused) or "none"))
        return
    found = misses(rows, args.slack)
    print("\nown choice more than %d%% slower than the fastest alternative: %d of %d points"
          % (round(100 * args.slack), len(found), len(rows)))
    for loss, case, own, fastest, kernels in found:
        print("  %+6.1f%%  %s: own %.2f us, fastest %.2f us (%s)"
              % (100 * loss, case, own, fastest, ",".join(kernels)))


if __name__ == "__main__":
    main()
