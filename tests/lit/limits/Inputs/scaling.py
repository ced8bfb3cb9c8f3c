#!/usr/bin/env python3
"""Fails when doubling an input's size multiplies fuserc's time by more than
a factor: a check that the work grows about linearly, independent of the
machine's speed (docs/limits.md).

Usage: scaling.py FUSERC KIND N [--factor F] [--ext .fus|.yaml] [-- ARGS...]

Writes gen.py KIND N and KIND 2N to temporary files, runs FUSERC on each
(with ARGS; any exit code) several times, and compares the fastest runs:
t(2N) <= F * t(N) + 0.05 s (default F = 3; quadratic work gives 4, and the
slack absorbs process start-up on a busy machine).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import gen  # noqa: E402


def fastest(cmd, runs):
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - start)
    return best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("fuserc")
    parser.add_argument("kind", choices=sorted(gen.KINDS))
    parser.add_argument("n", type=int)
    parser.add_argument("--factor", type=float, default=3.0)
    parser.add_argument("--ext", default=".fus")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("args", nargs="*")
    a = parser.parse_args()
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in (a.n, 2 * a.n):
            path = os.path.join(tmp, f"{a.kind}-{n}{a.ext}")
            with open(path, "w") as f:
                f.write(gen.KINDS[a.kind](n))
            times.append(fastest([a.fuserc, path] + a.args, a.runs))
    small, large = times
    verdict = "ok" if large <= a.factor * small + 0.05 else "FAIL"
    print(f"{a.kind}: {a.n}: {small:.3f} s, {2 * a.n}: {large:.3f} s "
          f"(x{large / max(small, 1e-9):.2f}, limit x{a.factor:g}): {verdict}")
    return 0 if verdict == "ok" else 1


if __name__ == "__main__":
    sys.exit(main())
