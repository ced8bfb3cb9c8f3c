#!/usr/bin/env python3
"""Shape sweeps of reductions and normalizations (issue 24): per class, a
grid of shapes, each point timed against torch.compile in the same process
as bench/run.py times its cases (fuserc replayed from a CUDA graph, L2
flushed, median; torch.compile's call too, or as a closure where that is
faster), then a report with the worst points first and, per class,
the geometric mean of fuserc / torch.compile, the worst point, the points
below 0.95x and the points moving >= 256 MB below 90% of copy, and issue
24's criteria over all points (bench/sweep_report.py, which also reports
saved sweeps without a GPU).

The fusions are ours (bench/sweep/*.fus), one symbolic fusion per kind, so
one fuserc build serves every point of it:

  rows        sum, max, softmax, log_softmax, RMSNorm, layer norm: M rows
              in {1, 16, 256, 4096, 65536} x N in {1, 8, 64, 512, 4096,
              5001, 32768, 50257, 262144}
  odd_rows    the same fusions over lengths off the vector widths: M in
              {16, 256, 4096, 65536} x N in {100, 300, 1000, 1500, 3001,
              5001, 9999, 16383} (odd, or multiples of 4 that bf16's
              vectors of 8 do not divide; 1000 divides)
  columns     column sum and max, a middle-axis mean: K kept columns in
              {1, 4, 64, 256, 4096} x R reduced rows in {1, 64, 4096,
              262144, 2^22, 2^26}
  whole       sum, max of abs, mean and var of a whole tensor, 4 KB to 1 GB
  norm_stats  BatchNorm statistics of NCHW and NHWC, InstanceNorm's,
              GroupNorm's (32 groups), at four activation shapes
  views       fusions reading inputs through views (issue 25): GroupNorm
              (f32, bf16) at seven activation shapes (two of a diffusion
              UNet's: few groups of long rows), a softmax of [B, L, L]
              masked by a slice of a [1, 2048, 2048] mask for L in {128,
              512, 1024, 2048}, RoPE over [8, S, H, 128] with cos and sin
              unsqueezed over the heads
  kernels     fusions of issue 25's classes (fewer, cheaper kernels): an
              RMSNorm backward (dx, dw), a row sum expanded back to full
              size, a bf16 result in two layouts, a pad by (1, 3) and an
              add, bias + exact GELU in f16, RoPE over a permuted q with
              expanded tables, a residual add and RMSNorm (bf16, the sum
              an output too), scatters (rows of an input replaced and a
              sigmoid, an index_copy of rows, a flat scatter, a KV
              cache's rows updated in place; indices
              without duplicates, which torch leaves unspecified); run
              with --kernels for the kernel counts

Points moving more than --max-mb are skipped.

  python3 bench/sweep.py --fuserc .carry/bin/fuserc --interp .carry/bin/fuserc-interp \\
      --dlpack-include .carry/include --out $OUT/sweep.json [--classes rows,whole]
  python3 bench/sweep.py ... --dry-run   # no GPU: the builds and the points (ctest
                                         # bench_sweep_builds)
"""
import argparse
import json
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import run as bench  # noqa: E402 (bench/run.py: timing, checks, builds)
import sweep_report  # noqa: E402
import harness  # noqa: E402 (bench/run.py put gpu/ on the path)
import fuserc  # noqa: E402
import shapes  # noqa: E402 (gpu/shapes.py: integer input ranges)

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # --dry-run on machines without PyTorch
    torch = F = None


def _rmsnorm(x, w):
    xf = x.float()
    return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6) * w.float()).bfloat16()


def _stats(dims):
    return lambda x: (x.mean(dims), x.var(dims, correction=0))


def _group_stats(x):
    g = x.reshape(x.shape[0], 32, -1)
    return g.mean(2), g.var(2, correction=0)


def _rmsnorm_bwd(x, w, dy, rstd):
    xhat = x.float() * rstd
    g = dy.float() * w.float()
    c = (g * xhat).mean(1, keepdim=True)
    return (rstd * (g - xhat * c)).bfloat16(), (dy.float() * xhat).sum(0).bfloat16()


def _layernorm_bwd(x, w, dy, mu, rstd):
    xhat = (x.float() - mu) * rstd
    g = dy.float() * w.float()
    dx = rstd * (g - g.mean(1, keepdim=True) - xhat * (g * xhat).mean(1, keepdim=True))
    return dx.bfloat16(), (dy.float() * xhat).sum(0).bfloat16(), dy.float().sum(0).bfloat16()


def _two_layouts(x):
    a = (x.float() * 2.0).bfloat16()
    return a, a.t().contiguous()


def _residual_rmsnorm(x, r, w):
    h = x.float() + r.float()
    y = h * torch.rsqrt(h.pow(2).mean(1, keepdim=True) + 1e-6) * w.float()
    return y.bfloat16(), h.bfloat16()


def _rope_permuted(q, cos, sin):
    qp = q.permute(0, 2, 1, 3)
    rot = torch.cat((-qp[..., 64:], qp[..., :64]), -1)
    return qp * cos[None, :, None, :] + rot * sin[None, :, None, :]


def _rope_bshd(q, cos, sin):
    rot = torch.cat((-q[..., 64:], q[..., :64]), -1)
    return q * cos[:, None, :] + rot * sin[:, None, :]


# fusion -> PyTorch, on its inputs in declaration order.
TORCH = {
    "row_sum_bf16": lambda x: x.sum(1),
    "row_max_f32": lambda x: x.amax(1),
    "softmax_bf16": lambda x: torch.softmax(x.float(), 1).bfloat16(),
    "log_softmax_f32": lambda x: torch.log_softmax(x, 1),
    "rmsnorm_bf16": _rmsnorm,
    "layernorm_f32": lambda x, w, b: F.layer_norm(x, (x.shape[1],), w, b, 1e-5),
    "col_sum_f32": lambda x: x.sum(0),
    "col_max_bf16": lambda x: x.amax(0),
    "middle_mean_f32": lambda x: x.mean(1),
    "total_sum_f32": lambda x: x.sum(),
    "amax_abs_bf16": lambda x: x.abs().amax(),
    "mean_var_f32": lambda x: (x.mean(), x.var()),
    "batchnorm_nchw": _stats((0, 2, 3)),
    "batchnorm_nhwc": _stats((0, 2, 3)),
    "instancenorm_nchw": _stats((2, 3)),
    "groupnorm_stats": _group_stats,
    "group_norm_f32": lambda x, w, b: F.group_norm(x, 32, w, b, 1e-5),
    "group_norm_bf16": lambda x, w, b: F.group_norm(x.float(), 32, w.float(), b.float(),
                                                    1e-5).bfloat16(),
    "masked_softmax_f32": lambda s, m: torch.softmax(s + m[:, :s.shape[1], :s.shape[1]], -1),
    "rope_bshd_bf16": _rope_bshd,
    "rmsnorm_bwd_bf16": _rmsnorm_bwd,
    "layernorm_bwd_bf16": _layernorm_bwd,
    "sum_expanded_f32": lambda x: x.sum(1, keepdim=True).expand(x.shape).contiguous(),
    "two_layouts_bf16": _two_layouts,
    "pad_add_f32": lambda x, z: F.pad(x, (1, 3)) + z,
    "bias_gelu_f16": lambda x, b: F.gelu(x + b),
    "logits_bias_bf16": lambda x, b: x + b,
    "rgb_normalize_f32": lambda x, mean, inv_std: (x - mean) * inv_std,
    "rope_permuted_bf16": _rope_permuted,
    "residual_rmsnorm_bf16": _residual_rmsnorm,
    "scatter_rows_sigmoid_f32": lambda x, idx, src: torch.scatter(x, 0, idx, src).sigmoid(),
    "index_copy_rows_bf16": lambda x, rows, src: x.index_copy(0, rows, src),
    "scatter_flat_f32": lambda x, idx, src: torch.scatter(x, 0, idx, src),
    "kv_cache_update_bf16": lambda cache, pos, kv: cache.index_copy_(0, pos, kv),
}

# Scatter indices without duplicates along the scattered dim, so that
# torch's result (which leaves the winner of duplicates unspecified) is the
# one to check against.
shapes.INT_RANGES.update({
    "scatter_rows_sigmoid_f32": {"idx": ("0", "M", "distinct")},
    "index_copy_rows_bf16": {"rows": ("0", "M", "distinct")},
    "scatter_flat_f32": {"idx": ("0", "M", "distinct")},
    "kv_cache_update_bf16": {"pos": ("0", "S", "distinct")},
})


def _rows():
    # Odd lengths too (5001, a vocabulary's 50257): rows that do not start
    # on a vector boundary.
    for m in (1, 16, 256, 4096, 65536):
        for n in (1, 8, 64, 512, 4096, 5001, 32768, 50257, 262144):
            yield {"M": m, "N": n}


def _odd_rows():
    # Row lengths off the vector widths (vocabularies, class counts): odd,
    # or multiples of 4 but not of 8; rows then start off a vector boundary.
    for m in (16, 256, 4096, 65536):
        for n in (100, 300, 1000, 1500, 3001, 5001, 9999, 16383):
            yield {"M": m, "N": n}


def _columns(fusion):
    for k in (1, 4, 64, 256, 4096):
        for r in (1, 64, 4096, 262144, 2**22, 2**26):
            yield {"A": 8, "R": r, "K": k} if fusion == "middle_mean_f32" else {"R": r, "K": k}


def _whole(fusion):
    element = 2 if fusion.endswith("bf16") else 4
    for size in (2**12, 2**16, 2**20, 2**24, 2**28, 2**30):
        n = size // element
        yield {"M": max(1, n // 1024), "N": min(n, 1024)}


def _norm_stats(fusion):
    for n, c, h, w in ((32, 64, 56, 56), (64, 256, 28, 28), (8, 512, 7, 7), (2, 32, 64, 64)):
        yield {"N": n, "G": c // 32, "H": h, "W": w} if fusion == "groupnorm_stats" else \
            {"N": n, "C": c, "H": h, "W": w}


def _views(fusion):
    if fusion.startswith("group_norm"):
        for n, c, h, w in ((32, 64, 56, 56), (64, 256, 28, 28), (8, 512, 7, 7), (2, 32, 64, 64),
                           (32, 256, 32, 32), (2, 320, 64, 64), (1, 512, 128, 128)):
            yield {"N": n, "G": c // 32, "H": h, "W": w}
    elif fusion == "masked_softmax_f32":
        for length in (128, 512, 1024, 2048):
            yield {"B": 64, "L": length, "T": 2048}
    else:
        for s, h in ((512, 8), (512, 32), (4096, 8), (4096, 32)):
            yield {"B": 8, "S": s, "H": h}


def _kernels(fusion):
    if fusion == "rope_permuted_bf16":
        for b, h, seq in ((1, 32, 512), (8, 32, 1024), (4, 8, 4096)):
            yield {"B": b, "H": h, "S": seq}
        return
    if fusion == "scatter_flat_f32":
        # M elements of which K are replaced.
        for m, k in ((4096, 64), (2**20, 2**16), (2**26, 2**22), (2**26, 2**25)):
            yield {"M": m, "K": k}
        return
    if fusion == "kv_cache_update_bf16":
        # Decode steps (one token, a batch's 16) and prefill chunks.
        for s, n, k in ((4096, 1024, 1), (32768, 1024, 16), (32768, 4096, 512),
                        (131072, 1024, 4096)):
            yield {"S": s, "N": n, "K": k}
        return
    if fusion.startswith("scatter") or fusion.startswith("index_copy"):
        # K of M rows replaced: a few, a quarter, all but a few.
        for m, n, k in ((64, 4096, 16), (4096, 4096, 64), (16384, 4096, 4096),
                        (65536, 1024, 60000)):
            yield {"M": m, "N": n, "K": k}
        return
    if fusion == "rgb_normalize_f32":
        # Images of 3 channels, channels last: 1, 16 and 64 of 512 x 512.
        for m in (2**18, 2**22, 2**24):
            yield {"M": m}
        return
    shapes = {"pad_add_f32": ((65536, 1000), (4096, 4093), (64, 1000)),
              "logits_bias_bf16": ((8192, 50257), (16, 50257), (1, 50257), (4096, 4093),
                                   (8192, 4096)),
              "bias_gelu_f16": ((8192, 4096), (4096, 11008), (64, 4096))}
    # Backward passes: hidden sizes from 1024 to 16384, decode to training batches.
    for bwd in ("rmsnorm_bwd_bf16", "layernorm_bwd_bf16"):
        shapes[bwd] = ((16, 4096), (4096, 4096), (16384, 4096), (2048, 8192), (32768, 1024),
                       (1024, 16384))
    for m, n in shapes.get(fusion, ((16, 4096), (4096, 4096), (16384, 4096), (2048, 8192))):
        yield {"M": m, "N": n}


# class -> ({fusion: its file in bench/sweep/}, points of a fusion). A fusion
# fuserc refuses has a file of its own, so the others of its class still run.
CLASSES = {
    "rows": ({f: "rows.fus" for f in ("row_sum_bf16", "row_max_f32", "softmax_bf16",
                                      "log_softmax_f32", "rmsnorm_bf16", "layernorm_f32")},
             lambda f: _rows()),
    "odd_rows": ({f: "rows.fus" for f in ("row_sum_bf16", "row_max_f32", "softmax_bf16",
                                          "log_softmax_f32", "rmsnorm_bf16", "layernorm_f32")},
                 lambda f: _odd_rows()),
    "columns": ({f: "columns.fus" for f in ("col_sum_f32", "col_max_bf16", "middle_mean_f32")},
                _columns),
    "whole": ({f: "whole.fus" for f in ("total_sum_f32", "amax_abs_bf16", "mean_var_f32")},
              _whole),
    "norm_stats": ({"batchnorm_nchw": "batchnorm_nchw.fus", "batchnorm_nhwc": "norm_stats.fus",
                    "instancenorm_nchw": "norm_stats.fus", "groupnorm_stats": "norm_stats.fus"},
                   _norm_stats),
    "views": ({f: "views.fus" for f in ("group_norm_f32", "group_norm_bf16", "masked_softmax_f32",
                                        "rope_bshd_bf16")},
              _views),
    "kernels": ({f: "kernels.fus" for f in ("rmsnorm_bwd_bf16", "layernorm_bwd_bf16",
                                            "sum_expanded_f32",
                                            "two_layouts_bf16", "pad_add_f32", "bias_gelu_f16",
                                            "logits_bias_bf16", "rgb_normalize_f32",
                                            "rope_permuted_bf16", "residual_rmsnorm_bf16",
                                            "scatter_rows_sigmoid_f32", "index_copy_rows_bf16",
                                            "scatter_flat_f32", "kv_cache_update_bf16")},
                _kernels),
}


# The report lists classes in this order too.
assert tuple(CLASSES) == sweep_report.CLASS_ORDER, "bench/sweep_report.py's CLASS_ORDER"


# Fusions of the sweep fuserc refuses today, and why; a dry run fails on any
# other refusal, and on an entry here that builds (stale).
KNOWN_REFUSALS = {}


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--fuserc", required=True)
    p.add_argument("--interp", help="accepted for bench/run.py's command line; unused")
    p.add_argument("--out", required=True, help="JSON file of every point")
    # Each run builds into its own directory: runs sharing one would empty
    # each other's builds.
    p.add_argument("--work", default=None,
                   help="build directory (default: a new one under /tmp per run)")
    p.add_argument("--dlpack-include", default="/usr/include")
    p.add_argument("--cuda-home", default=os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--classes", default=",".join(CLASSES))
    p.add_argument("--fusions", default="",
                   help="comma-separated: only fusions whose name contains one of these")
    p.add_argument("--max-mb", type=float, default=1100.0, help="skip points moving more")
    p.add_argument("--where", default="",
                   help="only points where this Python expression over the symbols and MB "
                        "(megabytes moved) holds, e.g. \"N <= 2048\" or \"MB < 2 or M <= 64\"; "
                        "a point without a symbol it names is left out")
    p.add_argument("--deadline", type=float, default=0, help="stop timing after this many s")
    p.add_argument("--warmup-ms", type=int, default=25)
    p.add_argument("--rep-ms", type=int, default=100)
    p.add_argument("--dry-run", action="store_true")
    p.add_argument("--kernels", action="store_true",
                   help="also profile each point's kernels, fuserc's and torch.compile's "
                        "(their device durations beside the replayed times)")
    args = p.parse_args()
    if args.work is None:
        args.work = tempfile.mkdtemp(prefix="fuserc-sweep-")
    # What bench/run.py's bench_case reads.
    args.baselines, args.timing = "compiled", "graph"
    # torch.compile's call timed from a CUDA graph too, where that is faster:
    # short points would otherwise time its Python and launch overhead.
    args.compile_graph = True
    return args


def points(args):
    """(class, fusion, binding) of every point of the selected classes, taking
    each fusion's points in turn (its first, every other fusion's first, its
    second, ...): a sweep cut short by --deadline still samples every fusion
    at every size it reached."""
    lanes = []
    for name in args.classes.split(","):
        fusions, grid = CLASSES[name]
        for fusion in fusions:
            if any(part in fusion for part in args.fusions.split(",")):
                lanes.append([(name, fusion, binding) for binding in grid(fusion)])
    for step in range(max((len(lane) for lane in lanes), default=0)):
        for lane in lanes:
            if step < len(lane):
                yield lane[step]


def where_holds(expression, binding, nbytes=None):
    """Whether --where's expression holds at a point: True, False (also when
    it names a symbol the point lacks), or None while it names MB and the
    point's bytes are not known yet."""
    names = dict(binding)
    if nbytes is not None:
        names["MB"] = nbytes / 1e6
    try:
        return bool(eval(expression, {}, names))
    except NameError as e:
        return None if nbytes is None and "'MB'" in str(e) else False


class Point:
    """A point selected_points yields: its class, fusion, binding and label;
    `built` (what the build function returned for its fusion file, None
    where fuserc refused it: `reason` says why), its manifest entry `spec`
    and the bytes it moves."""

    def __init__(self, cls, fusion, binding, built, reason, spec=None, nbytes=0):
        self.cls, self.fusion, self.binding = cls, fusion, binding
        self.label = "%s %s" % (fusion, " ".join("%s=%d" % kv for kv in binding.items()))
        self.built, self.reason, self.spec, self.bytes = built, reason, spec, nbytes

    def row(self, **fields):
        """Its row of a harness's --out file."""
        return dict(case=self.label, **{"class": self.cls}, bytes=self.bytes, **fields)

    def untimed_row(self, args, start):
        """Its row where it is not timed (refused, a dry run, past the
        deadline counted from `start`), else None."""
        if self.built is None:
            return self.row(fuserc=self.reason)
        if args.dry_run:
            return self.row(fuserc="dry run")
        if args.deadline and time.time() - start > args.deadline:
            return self.row(fuserc="past the deadline")
        return None


def check_dry_run(rows, summary):
    """Prints a dry run's summary(points, fusions, refused fusions) and exits
    with the refusals KNOWN_REFUSALS does not list, or lists stale."""
    refused = {r["case"].split()[0] for r in rows if r["fuserc"] != "dry run"}
    swept = {r["case"].split()[0] for r in rows}
    print(summary(len(rows), len(swept), sorted(refused)))
    unexpected = sorted(refused - set(KNOWN_REFUSALS))
    stale = sorted(f for f in KNOWN_REFUSALS if f in swept and f not in refused)
    if unexpected or stale:
        sys.exit("refused: %s; listed as refused but built: %s"
                 % (", ".join(unexpected) or "-", ", ".join(stale) or "-"))


def selected_points(args, build):
    """The Points that --classes, --fusions, --where and --max-mb pick, in
    points()'s order; build(source) compiles each fusion file once into a
    harness.Build (its HarnessError or FusercError makes every point of the
    file a refusal)."""
    builds = {}
    for name, fusion, binding in points(args):
        early = where_holds(args.where, binding) if args.where else True
        if early is False:
            continue
        source = os.path.join(HERE, "sweep", CLASSES[name][0][fusion])
        if source not in builds:
            try:
                builds[source] = (build(source), None)
            except (harness.HarnessError, fuserc.FusercError) as e:
                builds[source] = (None, harness.short_reason(str(e)) or "fuserc failed")
        built, reason = builds[source]
        if built is None:
            yield Point(name, fusion, binding, None, reason)
            continue
        spec = next(s for s in built.manifest.fusions if s.name == fusion)
        nbytes = bench.bytes_moved(spec, binding)
        if nbytes > args.max_mb * 1e6 or (early is None and
                                          not where_holds(args.where, binding, nbytes)):
            continue
        yield Point(name, fusion, binding, built, None, spec, nbytes)


def main():
    args = parse_args()
    harness.use_toolchain(args.dlpack_include, args.cuda_home)
    if args.dry_run:
        harness.load_driver(args.cuda_home)  # the libraries load over the stub
    device, copy_gbps = None, None
    if not args.dry_run:
        torch.empty(1, device="cuda")
        device = torch.cuda.get_device_name()
        copy_gbps = bench.measure_copy(args)
        print("device: %s, copy %.0f GB/s" % (device, copy_gbps), flush=True)

    def build(source):
        built = harness.build(args.fuserc, source, args.work, args.arch)
        if args.dry_run:
            built.load().close()
        return built

    rows, start = [], time.time()
    for point in selected_points(args, build):
        row = point.untimed_row(args, start)
        if row is None:
            try:
                row = bench.bench_case(args, point.fusion,
                                       (point.binding, {}, TORCH[point.fusion]), point.spec,
                                       point.built, None)
            except Exception as e:  # one broken point must not hide the others
                row = dict(bytes=point.bytes, fuserc="error: %s: %s" % (type(e).__name__, e))
            row.update(case=point.label, **{"class": point.cls})
            print("%s: %s" % (point.label, json.dumps(row)), flush=True)
            torch.cuda.empty_cache()
        rows.append(row)
    with open(args.out, "w") as f:
        json.dump(dict(device=device, copy_GBs=copy_gbps, points=rows), f, indent=1)
    if args.dry_run:
        check_dry_run(rows, lambda points, fusions, refused: "%d points of %d fusions, %d refused"
                      % (points, fusions, len(refused)))
        return
    print(sweep_report.report(rows, copy_gbps))


if __name__ == "__main__":
    main()
