#!/usr/bin/env python3
"""Every dump that is in the fusion language reads back to the same IR.

For each input fuserc accepts (the examples, bench cases and sweeps, GPU cases and lit
inputs) and each IR dump stage, the dump is fed back to fuserc, which must
accept it and print the same dump byte for byte: a fixpoint. Lit inputs
that fuserc rejects are diagnostic tests (they expect an `error:`) and are
skipped; any other rejected input is a failure.

Usage: check_dumps_read_back.py FUSERC ROOT [FILE...]
Without FILEs, checks every input under ROOT (the source tree).
"""
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

# Dumps that print the fusion language (docs/command-line.md, Dump stages),
# and those that print something else; a stage in neither list is an error,
# so a new stage must be classified here.
LANGUAGE_STAGES = ["parsed", "canonicalize", "layout", "alias", "segments"]
OTHER_STAGES = ["schedule", "cuda"]

# Inputs, relative to ROOT, whose dumps are known not to read back: path ->
# reason. None today; an entry that starts reading back is reported as stale.
KNOWN_EXCEPTIONS = {}

INPUT_GLOBS = ["examples/**/*.fus", "examples/**/*.yaml", "bench/cases/*.fus", "bench/cases/*.yaml",
               "bench/sweep/*.fus",
               "gpu/cases/*.fus", "gpu/cases/*.yaml", "tests/lit/**/*.fus",
               "tests/lit/**/*.yaml", "tests/lit/**/*.yml"]


def dump_stages(fuserc):
    """The stages `fuserc --help` lists for --dump, checked against ours."""
    text = subprocess.run([fuserc, "--help"], capture_output=True, text=True, check=True).stdout
    match = re.search(r"--dump TEXT .*?stages: ([a-z,]+)", text)
    if not match:
        sys.exit("cannot find the --dump stages in `fuserc --help`")
    listed = [s for s in match.group(1).split(",") if s != "all"]
    unknown = [s for s in listed if s not in LANGUAGE_STAGES + OTHER_STAGES]
    if unknown:
        sys.exit(f"dump stage(s) {', '.join(unknown)} unknown to {__file__}: "
                 "add each to LANGUAGE_STAGES or OTHER_STAGES")
    return [s for s in LANGUAGE_STAGES if s in listed], listed


def dump(fuserc, source, stages, all_stages, out_dir):
    """Runs fuserc on `source` with dumps of `stages` under out_dir; returns
    (exit code, stderr, {stage: text})."""
    run = subprocess.run([fuserc, str(source), "--dump=" + ",".join(stages), "--dump-dir",
                          str(out_dir)], capture_output=True, text=True)
    texts = {}
    if run.returncode == 0:
        for stage in stages:
            number = all_stages.index(stage) + 1
            texts[stage] = (out_dir / f"{number:02d}-{stage}.txt").read_text()
    return run.returncode, run.stderr, texts


def check(fuserc, root, source, stages, all_stages):
    """Returns (status, problems): status is 'ok', 'skipped' or 'failed'."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        code, stderr, first = dump(fuserc, source, stages, all_stages, tmp / "first")
        if code != 0:
            in_lit = Path(root, "tests/lit") in source.parents
            if code == 1 and in_lit and "error:" in source.read_text():
                return "skipped", []
            return "failed", [f"fuserc rejects it (exit {code}):\n{stderr}"]
        problems = []
        for stage in stages:
            written = tmp / f"{stage}.fus"
            written.write_text(first[stage])
            code, stderr, again = dump(fuserc, written, [stage], all_stages, tmp / stage)
            if code != 0:
                problems.append(f"the {stage} dump does not read back (exit {code}):\n{stderr}")
            elif again[stage] != first[stage]:
                problems.append(f"the {stage} dump read back prints a different {stage} dump")
        return ("failed" if problems else "ok"), problems


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    fuserc, root = sys.argv[1], Path(sys.argv[2]).resolve()
    stages, all_stages = dump_stages(fuserc)
    if sys.argv[3:]:
        sources = [Path(f).resolve() for f in sys.argv[3:]]
    else:
        sources = sorted({p.resolve() for g in INPUT_GLOBS for p in root.glob(g)})
    jobs = max(1, min(len(os.sched_getaffinity(0)), 4))
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        results = list(pool.map(lambda s: check(fuserc, root, s, stages, all_stages), sources))

    failures = 0
    counts = {"ok": 0, "skipped": 0, "failed": 0}
    for source, (status, problems) in zip(sources, results):
        rel = os.path.relpath(source, root)
        known = KNOWN_EXCEPTIONS.get(rel)
        counts[status] += 1
        if status == "failed" and not known:
            failures += 1
            for p in problems:
                print(f"{rel}: {p}")
        elif status == "ok" and known:
            failures += 1
            print(f"{rel}: reads back now; remove it from KNOWN_EXCEPTIONS ({known})")
    print(f"{counts['ok']} inputs read back at stages {', '.join(stages)}; "
          f"{counts['skipped']} diagnostic tests skipped; {counts['failed']} failed"
          f" ({len(KNOWN_EXCEPTIONS)} known exceptions)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
