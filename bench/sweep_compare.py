#!/usr/bin/env python3
"""Two saved sweeps of the same points compared point by point, without a
GPU (say main's build and a branch's, timed in one call):

  python3 bench/sweep_compare.py OLD.json NEW.json

Each file is a bench/sweep.py --out file, best run with --kernels. For
every point both timed it prints the kernels each build launched (names
without the fusion's prefix) with the profiler's time, the replays, and
fuserc / torch.compile in each run. Replays of points under ~10 us move by
about a microsecond between runs on their own; the points whose kernels
have the same names in both (marked "same names": the same variants,
though a build's change may have changed their code) show how far, and a
change is real where the kernel time moves, not just the replay. Points are listed by
their kernel-time change, largest slowdown first (by replay where a file
has no kernel times). Then the geometric mean of new / old time, by
kernel time and by replay, over the points whose kernel names changed and
over the others. Exits 1 on a missing file or one that is not a sweep; files
from different cards are compared with a note saying so, and the points
timed in one file only are named.
"""
import re
import sys

from sweep_report import geomean, load


def kernels(row):
    """(short names, microseconds) of the point's fuserc kernels, or None."""
    found = (row.get("fuserc_kernels") or {}).get("kernels")
    if not found:
        return None
    names = []
    for name, _count, _us in found:
        short = re.sub(r"^.*?_(k\d+_)", r"\1", name)
        names.append("memset" if name.startswith("Memset") else short)
    return names, (row["fuserc_kernels"].get("busy_us") or sum(k[2] for k in found))


def compare(old_rows, new_rows):
    old = {r["case"]: r for r in old_rows if r.get("fuserc_ms")}
    points = []
    for new in new_rows:
        before = old.get(new["case"])
        if not new.get("fuserc_ms") or before is None:
            continue
        ko, kn = kernels(before), kernels(new)
        kernel_ratio = kn[1] / ko[1] if ko and kn and ko[1] > 0 else None
        points.append({
            "case": new["case"], "old": before, "new": new, "ko": ko, "kn": kn,
            "same": ko is not None and kn is not None and ko[0] == kn[0],
            "kernel": kernel_ratio, "replay": new["fuserc_ms"] / before["fuserc_ms"]})
    points.sort(key=lambda p: -(p["kernel"] if p["kernel"] is not None else p["replay"]))
    return points


def ratio_vs_compile(row):
    return "%.2fx" % (row["fuserc_GBs"] / row["compile_GBs"]) \
        if row.get("fuserc_GBs") and row.get("compile_GBs") else "-"


def report(points):
    lines = ["%-34s %-28s %-28s %8s %8s  %s" % (
        "point (largest slowdown first)", "old kernels us (replay)", "new kernels us (replay)",
        "kernel", "replay", "vs torch.compile")]

    def side(row, k):
        names = "+".join(k[0]) if k else "-"
        return "%s %s (%.2f)" % (names, "%.2f" % k[1] if k else "-", row["fuserc_ms"] * 1e3)

    for p in points:
        lines.append("%-34s %-28s %-28s %8s %7.2fx  %s -> %s%s" % (
            p["case"], side(p["old"], p["ko"]), side(p["new"], p["kn"]),
            "%.2fx" % p["kernel"] if p["kernel"] is not None else "-", p["replay"],
            ratio_vs_compile(p["old"]), ratio_vs_compile(p["new"]),
            "  same names" if p["same"] else ""))
    lines.append("")
    lines.append("new time / old time, geomean (below 1: faster)")
    for what, mine in (("kernel names changed", [p for p in points if not p["same"]]),
                       ("the same names", [p for p in points if p["same"]])):
        timed = [p["kernel"] for p in mine if p["kernel"] is not None]
        lines.append("%-20s %3d points: kernel %s, replay %s" % (
            what, len(mine), "%.3f" % geomean(timed) if timed else "-",
            "%.3f" % geomean([p["replay"] for p in mine]) if mine else "-"))
    return "\n".join(lines)


def unmatched(old_rows, new_rows):
    """Lines naming the points timed in one file only."""
    timed = [{r["case"] for r in rows if r.get("fuserc_ms")} for rows in (old_rows, new_rows)]
    lines = []
    for what, mine, other in (("old", timed[0], timed[1]), ("new", timed[1], timed[0])):
        alone = sorted(mine - other)
        if alone:
            lines.append("timed in the %s file only: %s" % (what, ", ".join(alone)))
    return lines


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: python3 bench/sweep_compare.py OLD.json NEW.json")
    old, new = (load(path, "sweep_compare.py") for path in argv)
    print(report(compare(old["points"], new["points"])))
    for line in unmatched(old["points"], new["points"]):
        print(line)
    devices = [run.get("device") or "-" for run in (old, new)]
    print("figures from: %s" % (devices[0] if devices[0] == devices[1] else
                                "%s (old), %s (new)" % tuple(devices)))
    if devices[0] != devices[1]:
        print("note: the files come from different cards; compare within one card only")


if __name__ == "__main__":
    main(sys.argv[1:])
