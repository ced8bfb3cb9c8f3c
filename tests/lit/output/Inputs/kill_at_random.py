"""Kills fuserc with SIGKILL at random moments of a compile and checks that
the output directory always holds the previous outputs or the new ones,
each file complete, never a mix; and that a compile cache written by killed
runs never gives wrong outputs later. Every run has one user's journal key
(XDG_CACHE_HOME=WORKDIR/user), so a run finishes the commits that killed
runs left.

usage: kill_at_random.py FUSERC OLD.fus NEW.fus WORKDIR KILLS SEED
"""
import os
import random
import shutil
import signal
import subprocess
import sys
import time

NAME = "k"


def run(fuserc, source, out, *extra, env=None):
    subprocess.run([fuserc, source, "--name", NAME, "-o", out, *extra], check=True, env=env)


def outputs(directory):
    """{file name: bytes} of the outputs proper (no hidden files)."""
    return {n: open(os.path.join(directory, n), "rb").read()
            for n in sorted(os.listdir(directory)) if not n.startswith(".")}


def describe(state, old, new):
    return ", ".join("%s=%s" % (n, "old" if b == old.get(n) else "new" if b == new.get(n)
                                else "PARTIAL") for n, b in state.items())


def main():
    fuserc, old_source, new_source, work, kills, seed = sys.argv[1:]
    kills, rng = int(kills), random.Random(int(seed))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    os.environ["XDG_CACHE_HOME"] = os.path.join(work, "user")
    ref_old, ref_new = os.path.join(work, "ref-old"), os.path.join(work, "ref-new")
    run(fuserc, old_source, ref_old, "--no-cache")
    start = time.monotonic()
    run(fuserc, new_source, ref_new, "--no-cache")
    duration = time.monotonic() - start
    old, new = outputs(ref_old), outputs(ref_new)
    assert old.keys() == new.keys() and old != new

    out, cache = os.path.join(work, "out"), os.path.join(work, "cache")
    outcomes = {"old": 0, "new": 0, "recovered": 0}
    for i in range(kills):
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(ref_old, out)
        # Every other kill also writes a cache (started empty), so that some
        # kills land while entries are being stored.
        use_cache = i % 2 == 1
        if use_cache:
            shutil.rmtree(cache, ignore_errors=True)
        extra = ["--cache-dir", cache] if use_cache else ["--no-cache"]
        # Half the kills anywhere in the run, half near its end, where the
        # outputs are written.
        at = rng.uniform(0, duration) if i % 4 < 2 else rng.uniform(0.85, 1.1) * duration
        proc = subprocess.Popen([fuserc, new_source, "--name", NAME, "-o", out, *extra])
        time.sleep(at)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        state = outputs(out)
        journal = any(n.startswith(".fuserc-journal-") and "fuserc-tmp" not in n
                      for n in os.listdir(out))
        print("kill %d at %.2fs (%s): %s%s" % (i, at, "cache" if use_cache else "no cache",
                                               describe(state, old, new),
                                               ", journal" if journal else ""))
        if state == old:
            outcomes["old"] += 1
        elif state == new:
            outcomes["new"] += 1
        elif journal and all(state[n] in (old[n], new[n]) for n in state):
            # Killed inside the commit: the next run into the directory
            # finishes it before doing anything else, even when it fails.
            bad = os.path.join(work, "bad.fus")
            open(bad, "w").write("fusion f(\n")
            code = subprocess.run([fuserc, bad, "-o", out], stderr=subprocess.DEVNULL).returncode
            assert code == 1, code
            assert outputs(out) == new, "recovery left " + describe(outputs(out), old, new)
            outcomes["recovered"] += 1
        else:
            sys.exit("FAIL: kill %d left a mix or a partial file: %s"
                     % (i, describe(state, old, new)))
        if use_cache:
            # Whatever the killed run left in the cache, a run using it
            # produces exactly the reference outputs.
            shutil.rmtree(out)
            run(fuserc, new_source, out, "--cache-dir", cache)
            assert outputs(out) == new, "cache gave " + describe(outputs(out), old, new)
        leftovers = [n for n in os.listdir(out) if n.startswith(".")]
        if state in (old, new) and leftovers:
            # Temporaries of the killed run stay until the next run removes them.
            run(fuserc, new_source, out, "--no-cache")
            assert not [n for n in os.listdir(out) if n.startswith(".")], os.listdir(out)
    print("outcomes: %s" % outcomes)


if __name__ == "__main__":
    main()
