#!/usr/bin/env python3
"""The report of bench/sweep.py's points, and issue 24's done criteria over
them; runs on saved sweeps without a GPU:

  python3 bench/sweep_report.py SWEEP.json [SWEEP.json ...]

Each file is a bench/sweep.py --out file; the points of several (say one
per class, from one call) are reported together. First the points, worst
fuserc / torch.compile first, then per class its geometric mean, worst
point, points below 0.95x and points moving >= 256 MB below 90% of copy,
then issue 24's criteria over all points: none below 0.95x; >= 256 MB at
>= 90% of copy (whole tensors at >= 85%); decode sizes (rows classes of
<= 64 rows, or any point moving under 1 MB) at >= 1.0x. Exits 1 with a
message on a file that is missing or not a sweep; figures from different
cards are reported with a note saying so.
"""
import json
import math
import re
import sys

# Classes in bench/sweep.py's order, which checks that its CLASSES match (a
# class not listed reports after them).
CLASS_ORDER = ("rows", "odd_rows", "columns", "whole", "norm_stats", "views", "kernels")
ROW_CLASSES = ("rows", "odd_rows")
BIG = 256e6   # bytes: the "moving >= 256 MB" points
SMALL = 1e6   # bytes: decode sizes move less


def timed_points(rows):
    """The points with both figures, each given its fuserc / torch.compile."""
    done = [r for r in rows if r.get("fuserc_GBs") and r.get("compile_GBs")]
    for r in done:
        r["ratio"] = r["fuserc_GBs"] / r["compile_GBs"]
    return done


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def is_decode_size(r):
    """<= 64 rows of a row class, or under 1 MB moved."""
    if r["bytes"] < SMALL:
        return True
    m = re.search(r"\bM=(\d+)\b", r["case"])
    return r.get("class") in ROW_CLASSES and m is not None and int(m.group(1)) <= 64


def criteria(done, copy_gbps):
    """Issue 24's done criteria over the points, one line each."""
    lines = []
    slow = [r for r in done if r["ratio"] < 0.95]
    lines.append("no point below 0.95x torch.compile: %s (%d of %d below)" % (
        "MET" if not slow else "MISSED", len(slow), len(done)))
    big = [r for r in done if r["bytes"] >= BIG]
    for what, mine, floor in (
            ("points moving >= 256 MB at >= 90% of copy",
             [r for r in big if r.get("class") != "whole"], 0.90),
            ("whole tensors of >= 256 MB at >= 85% of copy",
             [r for r in big if r.get("class") == "whole"], 0.85)):
        below = [r for r in mine if r["fuserc_GBs"] < floor * copy_gbps]
        lines.append("%s: %s (%d of %d below)" % (
            what, "NO DATA" if not mine else "MET" if not below else "MISSED", len(below),
            len(mine)))
    decode = [r for r in done if is_decode_size(r)]
    under = [r for r in decode if r["ratio"] < 1.0]
    lines.append("decode sizes (<= 64 rows, or under 1 MB) at >= 1.0x: %s (%d of %d below; "
                 "geomean %s)" % ("NO DATA" if not decode else "MET" if not under else "MISSED",
                                  len(under), len(decode),
                                  "%.2fx" % geomean([r["ratio"] for r in decode])
                                  if decode else "-"))
    return lines


def report(rows, copy_gbps):
    """The report's text: the worst points first, per class its geometric
    mean, then the criteria."""
    done = timed_points(rows)
    lines = ["%-52s %9s %9s %9s %7s %7s  %s" % ("point (worst first)", "MB", "fuserc", "compile",
                                                "f/copy", "f/comp", "check")]
    for r in sorted(done, key=lambda r: r["ratio"]):
        lines.append("%-52s %9.3f %9.0f %9.0f %6.0f%% %6.2fx  %s" % (
            r["case"], r["bytes"] / 1e6, r["fuserc_GBs"], r["compile_GBs"],
            100 * r["fuserc_GBs"] / copy_gbps, r["ratio"], r.get("check", "-")))
    for r in rows:
        if r not in done:
            lines.append("%-52s not timed: %s" % (r["case"], r.get("fuserc", "-")))
    lines.append("")
    lines.append("%-11s %6s %8s %8s %10s %16s" % ("class", "points", "geomean", "worst",
                                                 "< 0.95x", ">=256MB < 90%"))
    present = sorted({r.get("class", "-") for r in done},
                     key=lambda c: (CLASS_ORDER.index(c) if c in CLASS_ORDER else
                                    len(CLASS_ORDER), c))
    for name in present:
        mine = [r for r in done if r.get("class", "-") == name]
        slow = sum(r["ratio"] < 0.95 for r in mine)
        big = [r for r in mine if r["bytes"] >= BIG]
        below = sum(r["fuserc_GBs"] < 0.9 * copy_gbps for r in big)
        lines.append("%-11s %6d %7.2fx %7.2fx %10d %10d of %d" % (
            name, len(mine), geomean([r["ratio"] for r in mine]),
            min(r["ratio"] for r in mine), slow, below, len(big)))
    lines.append("device-to-device copy, 1 GiB: %.0f GB/s" % copy_gbps)
    if done:
        lines.append("")
        lines.extend(criteria(done, copy_gbps))
    return "\n".join(lines)


def load(path, tool="sweep_report.py"):
    """A bench/sweep.py --out file; exits 1 with a message naming `tool` on
    one that is missing or not a sweep."""
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit("%s: cannot read %s: %s" % (tool, path, e))
    if not isinstance(data, dict) or not isinstance(data.get("points"), list) or \
            not data.get("copy_GBs"):
        sys.exit("%s: %s is not bench/sweep.py's output (no points or copy figure)"
                 % (tool, path))
    return data


def main(argv):
    if not argv:
        sys.exit("usage: python3 bench/sweep_report.py SWEEP.json [SWEEP.json ...]")
    runs = [load(p) for p in argv]
    rows = [r for run in runs for r in run["points"]]
    print(report(rows, runs[0]["copy_GBs"]))
    devices = sorted({run.get("device") or "-" for run in runs})
    print("figures from: %s" % ", ".join(devices))
    if len(devices) > 1:
        print("note: the files come from different cards; compare within one card only")


if __name__ == "__main__":
    main(sys.argv[1:])
