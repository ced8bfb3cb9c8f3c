#!/usr/bin/env python3
"""Checks bench/run.py's figures against the performance targets of the
issues (6: reductions and normalizations, 7: transposes, resizes, indexing)
and of the suite (../shared/bench/README.md).

  python3 bench/targets.py SUITE.json [SWEEP.json]

SUITE.json is a run of the suite and SWEEP.json a run with --row-sweep, both
with --baselines compiled (or all), both from one card. One line per target
and case: the figures, the threshold, MET or MISSED (NO DATA where a figure
is missing, such as torch.compile's in a --baselines none run); then a count
of each, and the card the figures came from. The targets are written for
the H200: figures from another card say so. It reports and exits 0; a file
it cannot read or that is not bench/run.py's output exits 1 with a message.
"""
import json
import math
import sys

SWEEP_LENGTHS = (256, 1024, 4096, 8192, 16384, 32768, 65536, 131072, 262144)


class Target:
    """A threshold on every listed case: fuserc / torch.compile of at least
    `vs_compile`, fuserc / copy of at least `vs_copy` (None: not asked)."""

    def __init__(self, owner, what, cases, vs_compile=None, vs_copy=None):
        self.owner, self.what, self.cases = owner, what, cases
        self.vs_compile, self.vs_copy = vs_compile, vs_copy


def suite_targets(cases):
    """The targets over a suite run whose cases are `cases` (name -> row)."""
    big = [c for c, row in cases.items() if row.get("bytes", 0) >= 256e6]
    return [
        Target("issue 6", "at least as fast as torch.compile, >= 90% of copy",
               ["softmax", "layernorm", "rmsnorm", "sum_inner", "sum_outer",
                "gelu_bwd_bias_grad"], vs_compile=1.0, vs_copy=0.90),
        Target("issue 6", ">= 2x torch.compile", ["softmax"], vs_compile=2.0),
        Target("issue 7", ">= 90% of copy, at least as fast as torch.compile",
               ["transpose_add", "rope"], vs_compile=1.0, vs_copy=0.90),
        Target("issue 7", ">= 2x torch.compile", ["xent_bwd"], vs_compile=2.0),
        Target("issue 7", "3D batched transpose >= 85% of copy", ["transpose_3d"],
               vs_copy=0.85),
        Target("suite", "at least as fast as torch.compile", sorted(cases), vs_compile=1.0),
        Target("suite", "256 MB or more: >= 90% of copy", sorted(big), vs_copy=0.90),
    ]


def sweep_targets():
    return [Target("issue 6", "row sweep: no length below 75% of copy",
                   ["%s N=%d" % (stem, n) for stem in ("softmax", "rmsnorm")
                    for n in SWEEP_LENGTHS], vs_copy=0.75)]


def load(path):
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise SystemExit("targets.py: cannot read %s: %s" % (path, e))
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        raise SystemExit("targets.py: %s is not bench/run.py's output (no case list)" % path)
    return data


def down(value, decimals):
    """`value` truncated to `decimals` places, so that a figure just under a
    threshold never prints as the threshold."""
    scale = 10 ** decimals
    return math.floor(value * scale) / scale


def ratios(row, copy_gbps):
    """(fuserc / torch.compile, fuserc / copy), None where a figure is missing."""
    f, c = row.get("fuserc_GBs"), row.get("compile_GBs")
    return (f / c if f and c else None, f / copy_gbps if f and copy_gbps else None)


def check(target, cases, copy_gbps, counts):
    lines = []
    for name in target.cases:
        row = cases.get(name)
        vs_compile, vs_copy = ratios(row, copy_gbps) if row else (None, None)
        wanted, verdict = [], "MET"
        for asked, got, unit in ((target.vs_compile, vs_compile, "x torch.compile"),
                                 (target.vs_copy, vs_copy, " of copy")):
            if asked is None:
                continue
            wanted.append(("%.2fx" % asked if unit[0] == "x" else "%.0f%%" % (100 * asked)) +
                          unit.lstrip("x"))
            if got is None:
                verdict = "NO DATA"
            elif got < asked and verdict == "MET":
                verdict = "MISSED"
        counts[verdict] = counts.get(verdict, 0) + 1
        figures = "%s GB/s, %s of copy, %s torch.compile" % (
            "%.0f" % row["fuserc_GBs"] if row and row.get("fuserc_GBs") else "-",
            "%d%%" % down(100 * vs_copy, 0) if vs_copy else "-",
            "%.3fx" % down(vs_compile, 3) if vs_compile else "-")
        lines.append("%-8s %-20s %-46s %-8s (wanted >= %s)" % (
            target.owner, name, figures, verdict, ", >= ".join(wanted)))
    return lines


def geomean_line(cases, counts):
    values = [r for r in (ratios(row, None)[0] for row in cases.values()) if r]
    if not values:
        counts["NO DATA"] = counts.get("NO DATA", 0) + 1
        return "suite    geometric mean fuserc / torch.compile: NO DATA (wanted >= 1.25x)"
    geomean = math.exp(sum(map(math.log, values)) / len(values))
    verdict = "MET" if geomean >= 1.25 else "MISSED"
    counts[verdict] = counts.get(verdict, 0) + 1
    return "suite    geometric mean fuserc / torch.compile over %d cases: %.3fx %s " \
           "(wanted >= 1.25x)" % (len(values), down(geomean, 3), verdict)


def main(argv):
    if len(argv) not in (2, 3):
        raise SystemExit("usage: " + __doc__.split("\n\n")[1].strip())
    runs = [load(p) for p in argv[1:]]
    counts, lines = {}, []
    suite = {row["case"]: row for row in runs[0]["cases"]}
    for target in suite_targets(suite):
        lines += check(target, suite, runs[0].get("copy_GBs"), counts)
    lines.append(geomean_line(suite, counts))
    if len(runs) == 2:
        sweep = {row["case"]: row for row in runs[1]["cases"]}
        for target in sweep_targets():
            lines += check(target, sweep, runs[1].get("copy_GBs"), counts)
    lines.append("%d met, %d missed, %d without data" % (
        counts.get("MET", 0), counts.get("MISSED", 0), counts.get("NO DATA", 0)))
    devices = sorted({run.get("device") or "a card not recorded" for run in runs})
    lines.append("figures from: %s" % ", ".join(devices))
    if any("H200" not in d for d in devices):
        lines.append("note: the targets are set for the H200; these figures are not all from an H200")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
