"""Concurrent fuserc runs into one output directory commit one after the
other: while another process holds the directory's lock (flock), a run
waits and changes nothing; and rounds of concurrent runs of two fusions
with one --name always leave one run's whole set, never a mix.

usage: concurrent_commits.py FUSERC A.fus B.fus WORKDIR ROUNDS RUNS
"""
import fcntl
import os
import shutil
import subprocess
import sys
import time

NAME = "k"


def command(fuserc, source, out, cache):
    return [fuserc, source, "--name", NAME, "-o", out, "--cache-dir", cache, "--arch", "sm_90"]


def outputs(directory):
    return {n: open(os.path.join(directory, n), "rb").read()
            for n in sorted(os.listdir(directory)) if not n.startswith(".")}


def main():
    fuserc, a_source, b_source, work, rounds, runs = sys.argv[1:]
    rounds, runs = int(rounds), int(runs)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    cache = os.path.join(work, "cache")
    refs = []
    for tag, source in (("a", a_source), ("b", b_source)):
        ref = os.path.join(work, "ref-" + tag)
        subprocess.run(command(fuserc, source, ref, cache), check=True)  # warms the cache
        refs.append(outputs(ref))
    assert refs[0] != refs[1]

    # A run waits for the lock, and commits once it is released.
    out = os.path.join(work, "locked")
    shutil.copytree(os.path.join(work, "ref-a"), out)
    lock = os.open(out, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(lock, fcntl.LOCK_EX)
    run = subprocess.Popen(command(fuserc, b_source, out, cache))
    time.sleep(3)
    waited = run.poll() is None and outputs(out) == refs[0]
    fcntl.flock(lock, fcntl.LOCK_UN)
    os.close(lock)
    code = run.wait()
    print("waited for the lock: %s; then committed: %s" %
          ("yes" if waited else "NO", "yes" if code == 0 and outputs(out) == refs[1] else "NO"))

    # Concurrent runs of both fusions.
    out = os.path.join(work, "out")
    mixed = failed = 0
    for r in range(rounds):
        shutil.rmtree(out, ignore_errors=True)
        procs = [subprocess.Popen(command(fuserc, (a_source, b_source)[(r + i) % 2], out, cache))
                 for i in range(runs)]
        failed += sum(p.wait() != 0 for p in procs)
        state = outputs(out)
        if state not in refs:
            mixed += 1
            print("round %d: a mixed set: %s" % (r, ", ".join(
                "%s=%s" % (n, "a" if b == refs[0].get(n) else "b" if b == refs[1].get(n) else "?")
                for n, b in state.items())))
    print("rounds: %d, runs failed: %d, mixed sets: %d" % (rounds, failed, mixed))


if __name__ == "__main__":
    main()
