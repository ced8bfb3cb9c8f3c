#!/usr/bin/env python3
"""Fails when doubling an input's size multiplies fuserc's time by more than
a factor: a check that the work grows about linearly, independent of the
machine's speed (docs/limits.md).

Usage: scaling.py FUSERC KIND N [--factor F] [--ext .fus|.yaml] [-- ARGS...]

Writes gen.py KIND N and KIND 2N to temporary files, runs FUSERC on each
(with ARGS; any exit code) several times, alternating the two so that load
from other processes falls on both, and compares the fastest runs:
t(2N) <= F * t(N) + 0.05 s (default F = 3; quadratic work gives 4, and the
slack absorbs process start-up on a busy machine). A failed comparison is
measured again, up to --attempts times: quadratic work fails every attempt,
a burst of load on a shared CI machine does not. Peak memory (the largest
resident set of a run) is held to the same factor: m(2N) <= F * m(N), which
memory that grows faster than linearly fails once it outgrows start-up's.
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


def measure(cmd):
    """(seconds, peak resident set in MiB) of one run of `cmd`."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0  # reaped by wait4
    return time.perf_counter() - start, usage.ru_maxrss / 1024


def fastest_pair(small_cmd, large_cmd, runs):
    """Fastest of `runs` interleaved runs of each command, and each one's
    peak memory."""
    small = large = float("inf")
    small_mib = large_mib = 0.0
    for _ in range(runs):
        t, small_mib = measure(small_cmd)
        small = min(small, t)
        t, large_mib = measure(large_cmd)
        large = min(large, t)
    return small, large, small_mib, large_mib


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("fuserc")
    parser.add_argument("kind", choices=sorted(gen.KINDS))
    parser.add_argument("n", type=int)
    parser.add_argument("--factor", type=float, default=3.0)
    parser.add_argument("--ext", default=".fus")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--attempts", type=int, default=3)
    parser.add_argument("args", nargs="*")
    a = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cmds = []
        for n in (a.n, 2 * a.n):
            path = os.path.join(tmp, f"{a.kind}-{n}{a.ext}")
            with open(path, "w") as f:
                f.write(gen.KINDS[a.kind](n))
            cmds.append([a.fuserc, path] + a.args)
        for attempt in range(1, a.attempts + 1):
            small, large, small_mib, large_mib = fastest_pair(cmds[0], cmds[1], a.runs)
            ok = large <= a.factor * small + 0.05 and large_mib <= a.factor * small_mib
            print(f"{a.kind}: {a.n}: {small:.3f} s {small_mib:.0f} MiB, "
                  f"{2 * a.n}: {large:.3f} s {large_mib:.0f} MiB "
                  f"(x{large / max(small, 1e-9):.2f} and x{large_mib / max(small_mib, 1e-9):.2f}, "
                  f"limit x{a.factor:g}, attempt {attempt}): {'ok' if ok else 'FAIL'}")
            if ok:
                return 0
    return 1


if __name__ == "__main__":
    sys.exit(main())
