#!/usr/bin/env python3
"""fuserc accepts every fusion fuserc-fuzzgen generates (ctest fuzzgen_accepted).

For each seed: `fuserc-fuzzgen --seed N` into a file, `fuserc FILE
--dump=segments` (no -o: no NVRTC), and its exit code; every --nvrtc-every'th
seed (default 40, about 10 s each) is compiled with `-o` instead, through NVRTC. Exit 1 (an
input error) means the generator wrote a fusion the language refuses: a
generator bug. Exit 3 ("cannot compile") is a finding about fuserc, not
about the generator; with --allow-refusals it is listed but does not fail
the check. A refusal whose message matches a --known-gap pattern (a
documented gap of fuserc, named with its issue where the test is declared)
is listed and does not fail the check either. NVRTC rejecting the CUDA
fuserc generated always fails it, as does anything else (a crash, exit 2).

  python3 fuzz/check_acceptance.py --fuzzgen build/fuzz/fuserc-fuzzgen \\
      --fuserc build/cli/fuserc --seeds 0:500 [--allow-refusals] [--jobs 2]
"""
import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--fuzzgen", required=True)
    p.add_argument("--fuserc", required=True)
    p.add_argument("--seeds", default="0:200", help="START:STOP (STOP excluded)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--allow-refusals", action="store_true",
                   help="exit 3 ('cannot compile') does not fail the check")
    p.add_argument("--known-gap", action="append", default=[], metavar="REGEX",
                   help="a refusal (exit 1 or 3) whose message matches REGEX is a known gap: "
                        "listed, not failed (repeatable)")
    p.add_argument("--dump", default="segments", help="fuserc --dump stages")
    p.add_argument("--nvrtc-every", type=int, default=40,
                   help="compile every Nth seed through NVRTC (-o); 0: none")
    return p.parse_args()


def reason(message):
    """The first error line, with names and numbers blurred, to group by."""
    for line in message.splitlines():
        if "error:" in line:
            text = line.split("error:", 1)[1].strip()
            text = re.sub(r"'[^']*'", "'_'", text)
            return re.sub(r"\d+", "N", text)[:140]
    return message.strip().splitlines()[0][:140] if message.strip() else "(no message)"


def check(args, seed, work):
    path = os.path.join(work, "f%d.fus" % seed)
    gen = subprocess.run([args.fuzzgen, "--seed", str(seed)], capture_output=True, text=True)
    if gen.returncode != 0:
        return seed, "fuzzgen exit %d" % gen.returncode, gen.stderr
    with open(path, "w") as f:
        f.write(gen.stdout)
    command = [args.fuserc, path, "--dump=" + args.dump]
    if args.nvrtc_every and seed % args.nvrtc_every == 0:
        command += ["-o", os.path.join(work, "out%d" % seed), "--arch", "sm_90", "--no-cache"]
    proc = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if proc.returncode == 3 and "NVRTC failed" in proc.stderr:
        return seed, "nvrtc", proc.stderr
    return seed, proc.returncode, proc.stderr


def main():
    args = parse_args()
    start, stop = (int(s) for s in args.seeds.split(":"))
    outcomes = collections.Counter()
    reasons = collections.defaultdict(list)
    failed = False
    with tempfile.TemporaryDirectory() as work, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for seed, code, message in pool.map(lambda s: check(args, s, work), range(start, stop)):
            if code in (1, 3) and any(re.search(g, message) for g in args.known_gap):
                code = "known gap"
            outcomes[code] += 1
            if code == 0:
                continue
            reasons[(code, reason(message))].append(seed)
            if code == "known gap" or (code == 3 and args.allow_refusals):
                continue
            failed = True
            print("seed %d: fuserc exit %s:\n%s" % (seed, code, message.strip()[:2000]))
    total = stop - start
    print("%d seeds: %d accepted; %s" % (total, outcomes[0], ", ".join(
        "%s: %d" % (code if code == "known gap" else "exit %s" % code, n)
        for code, n in sorted(outcomes.items(), key=str) if code != 0)
        or "none rejected"))
    for (code, text), seeds in sorted(reasons.items(), key=lambda kv: -len(kv[1])):
        print("  %s x%d (seeds %s): %s" % (code if code == "known gap" else "exit %s" % code,
                                          len(seeds),
                                               " ".join(map(str, seeds[:8])), text))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
