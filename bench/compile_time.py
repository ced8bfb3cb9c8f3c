#!/usr/bin/env python3
"""Compile time of fuserc: the suite's build cost, and scaling with fusion size.

Runs on the CPU (no GPU needed). With --suite it measures what a build
waits for, per bench case, example and a five-fusion module (the cookbook's
residual RMSNorm, causal softmax, RoPE, GroupNorm and SwiGLU, compiled in one
run): fuserc cold (--no-cache) and warm (a filled cache), both for --archs
(default sm_80,sm_90), its peak memory, the sizes of NAME.h, NAME.c and
NAME.fatbin, and `gcc -O2 -c NAME.c`'s time. Otherwise, for each shape of fusion and each size it
writes a generated .fus file and times fuserc in up to four modes:

  check    fuserc X.fus                         frontend + passes + scheduling
  segments fuserc X.fus --dump=segments         the same, printing the segments
  cuda     fuserc X.fus --dump=cuda              + CUDA code generation (no NVRTC)
  full     fuserc X.fus -o D --no-cache         + NVRTC, fatbin, header, manifest

and prints a markdown table. Shapes:

  chain    t1 = exp(t0); t2 = neg(t1); ...     one long dependency chain
  wide     many inputs and outputs, each output a short pointwise expression
  mixed    blocks of softmax / layer_norm / sum over rows, chained through
           pointwise ops, so segmentation makes many segments

Compile time should grow about linearly with the op count: the last column
gives time per op relative to the smallest size of the same shape and mode.

  python3 bench/compile_time.py --fuserc build/cli/fuserc --suite
  python3 bench/compile_time.py --fuserc build/cli/fuserc
  python3 bench/compile_time.py --fuserc build/cli/fuserc --sizes 100,1000 --modes check,full
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile
import time


def chain(n):
    lines = ["fusion chain {", "  input t0: f32[N, C]"]
    for i in range(1, n + 1):
        lines.append(f"  t{i} = {'exp' if i % 2 else 'neg'}(t{i - 1})")
    lines += [f"  output t{n}", "}"]
    return lines


def wide(n):
    # n/4 inputs, each giving an output through three pointwise ops and one
    # add with a shared input: about n ops, n/4 inputs and n/4 outputs.
    k = max(1, n // 4)
    lines = ["fusion wide {", "  input s: f32[N, C]"]
    lines += [f"  input x{i}: f32[N, C]" for i in range(k)]
    for i in range(k):
        lines.append(f"  a{i} = mul(x{i}, s)")
        lines.append(f"  b{i} = exp(a{i})")
        lines.append(f"  c{i} = add(b{i}, x{(i + 1) % k})")
        lines.append(f"  d{i} = neg(c{i})")
    lines += [f"  output d{i}" for i in range(k)]
    lines.append("}")
    return lines


def mixed(n):
    # Blocks of about 10 ops (before decomposition): a normalization or a
    # reduction, then pointwise ops feeding the next block.
    blocks = max(1, n // 10)
    lines = ["fusion mixed {", "  input v0: f32[N, C]", "  input w: f32[C]", "  input b: f32[C]"]
    for i in range(blocks):
        v, kind = f"v{i}", i % 3
        if kind == 0:
            lines.append(f"  n{i} = softmax({v}, dim=-1)")
        elif kind == 1:
            lines.append(f"  n{i} = layer_norm({v}, w, b, axes=[-1], eps=1e-5)")
        else:
            lines.append(f"  r{i} = sum({v}, axes=[-1], keepdim=true)")
            lines.append(f"  n{i} = sub({v}, r{i})")
        lines.append(f"  p{i} = mul(n{i}, 2.0)")
        lines.append(f"  q{i} = add(p{i}, {v})")
        lines.append(f"  e{i} = tanh(q{i})")
        lines.append(f"  v{i + 1} = add(e{i}, 1.0)")
    lines += [f"  output v{blocks}", "}"]
    return lines


SHAPES = {"chain": chain, "wide": wide, "mixed": mixed}


def run(cmd, timeout):
    """Wall time, the child's peak RSS in MiB, its exit code and stderr."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        deadline = start + timeout
        while True:
            # wait4 gives this child's own resource usage (peak RSS).
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                p.kill()
                os.wait4(p.pid, 0)
                return timeout, None, "timeout", ""
            time.sleep(0.005)
        wall = time.perf_counter() - start
        p.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read().decode(errors="replace")
    return wall, usage.ru_maxrss / 1024, p.returncode, text


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIVE_FUSIONS = ["residual_rms_norm", "causal_softmax", "rope", "group_norm", "swiglu"]


def suite_entries():
    """(label, [input files]) of every bench case, example and the
    five-fusion module."""
    entries = []
    for pattern in ("bench/cases/*.fus", "bench/cases/*.yaml", "examples/*.fus",
                    "examples/*.yaml"):
        for path in sorted(glob.glob(os.path.join(ROOT, pattern))):
            entries.append((os.path.relpath(path, ROOT), [path]))
    five = [os.path.join(ROOT, "examples", "cookbook", n + ".fus") for n in FIVE_FUSIONS]
    entries.append(("five fusions (cookbook)", five))
    return entries


def kb(path):
    return os.path.getsize(path) / 1024 if os.path.exists(path) else 0


def measure_suite(args):
    include = ["-I", args.dlpack_include, "-I", os.path.join(args.cuda_home, "include")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (label, inputs) in enumerate(suite_entries()):
            out, cache = os.path.join(tmp, f"out{i}"), os.path.join(tmp, f"cache{i}")
            base = [args.fuserc] + inputs + ["-o", out, "--name", "k", "--arch", args.archs]
            cold, rss, code, err = run(base + ["--no-cache"], args.timeout)
            if code != 0:
                rows.append((label, None, None, None, 0, 0, 0, None, f"exit {code}: {err[:200]}"))
                continue
            run(base + ["--cache-dir", cache], args.timeout)  # fills the cache
            warm, _, _, _ = run(base + ["--cache-dir", cache], args.timeout)
            gcc, _, gcc_code, gcc_err = run(
                ["gcc", "-O2", "-std=c99", "-c", os.path.join(out, "k.c"), "-o",
                 os.path.join(out, "k.o"), "-I", out] + include, args.timeout)
            note = "" if gcc_code == 0 else f"gcc exit {gcc_code}: {gcc_err[:200]}"
            rows.append((label, cold, warm, rss, kb(os.path.join(out, "k.h")),
                         kb(os.path.join(out, "k.c")), kb(os.path.join(out, "k.fatbin")),
                         gcc if gcc_code == 0 else None, note))
            print(f"{label:40} cold {cold:6.2f}s warm {warm:6.3f}s", file=sys.stderr)
    print(f"| input | cold {args.archs} (s) | warm (s) | peak RSS (MiB) | NAME.h (KB) | "
          "NAME.c (KB) | fatbin (KB) | (h + c) / fatbin | gcc -O2 NAME.c (s) | note |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for label, cold, warm, rss, h, c, fat, gcc, note in rows:
        if cold is None:
            print(f"| {label} | - | - | - | - | - | - | - | - | {note} |")
            continue
        ratio = (h + c) / fat if fat else 0
        gcc_text = f"{gcc:.2f}" if gcc is not None else "-"
        print(f"| {label} | {cold:.2f} | {warm:.3f} | {rss:.0f} | {h:.1f} | {c:.0f} | {fat:.0f} | "
              f"{ratio:.2f} | {gcc_text} | {note} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--suite", action="store_true",
                    help="the bench cases', examples' and a five-fusion module's build cost")
    ap.add_argument("--archs", default="sm_80,sm_90", help="--suite: fuserc --arch")
    ap.add_argument("--dlpack-include", default="/usr/include",
                    help="--suite: the directory holding dlpack/dlpack.h, for gcc")
    ap.add_argument("--cuda-home", default="/usr/local/cuda", help="--suite: for gcc's cuda.h")
    ap.add_argument("--fuserc", required=True)
    ap.add_argument("--sizes", default="100,1000,10000,100000")
    ap.add_argument("--shapes", default="chain,wide,mixed")
    ap.add_argument("--modes", default="check,segments,cuda,full")
    ap.add_argument("--full-max", type=int, default=1000,
                    help="largest op count compiled with NVRTC (mode full)")
    ap.add_argument("--timeout", type=float, default=300)
    args = ap.parse_args()
    if args.suite:
        measure_suite(args)
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    modes = args.modes.split(",")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for shape in args.shapes.split(","):
            base = {}
            for n in sizes:
                src = os.path.join(tmp, f"{shape}_{n}.fus")
                with open(src, "w") as f:
                    f.write("\n".join(SHAPES[shape](n)) + "\n")
                for mode in modes:
                    if mode == "full" and n > args.full_max:
                        continue
                    out = os.path.join(tmp, f"out_{shape}_{n}_{mode}")
                    cmd = [args.fuserc, src]
                    if mode == "segments":
                        cmd.append("--dump=segments")
                    elif mode == "cuda":
                        cmd.append("--dump=cuda")
                    elif mode == "full":
                        cmd += ["-o", out, "--no-cache"]
                    wall, rss, code, err = run(cmd, args.timeout)
                    note = "" if code == 0 else f"exit {code}: {err.strip().splitlines()[0] if err.strip() else ''}"
                    per_op = wall / n
                    key = (shape, mode)
                    base.setdefault(key, per_op)
                    rows.append((shape, n, mode, wall, rss, per_op / base[key], note))
                    print(f"{shape:6} {n:7} {mode:8} {wall:8.2f}s", file=sys.stderr)
    print("| shape | ops | mode | wall (s) | peak RSS (MiB) | time/op vs smallest | note |")
    print("|---|---:|---|---:|---:|---:|---|")
    for shape, n, mode, wall, rss, rel, note in rows:
        rss_text = f"{rss:.0f}" if rss else "-"
        print(f"| {shape} | {n} | {mode} | {wall:.2f} | {rss_text} | {rel:.2f}x | {note} |")


if __name__ == "__main__":
    main()
