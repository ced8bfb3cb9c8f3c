#!/usr/bin/env python3
"""Scripted campaigns of damaged files against fuserc (issue 29): seeded,
so a failure names the case that reproduces it.

  campaign.py plugins FUSERC FUSION PLUGIN COUNT SEED
      COUNT copies of a working plugin, each damaged (bytes flipped, a range
      zeroed, a block moved, the ELF header's fields rewritten): each either
      loads (exit 0) or is refused with a --plugin error (exit 2); never a
      signal or another exit.
  campaign.py inputs FUSERC FUSION COUNT SEED
      COUNT damaged copies of an input file (flips, cuts, NUL bytes, binary
      garbage, one huge line): exit 0 or a located error (exit 1).
  campaign.py cache FUSERC FUSION COUNT SEED
      COUNT damaged copies of a filled compile cache (an entry flipped, cut,
      emptied, made a directory, a FIFO, a link to /dev/zero or to another
      entry): the build succeeds and its fatbin equals a cold build's.

Prints one line per case that fails and a summary; exits 1 if any failed.
"""
import os
import random
import shutil
import signal
import stat
import subprocess
import sys
import tempfile

TIMEOUT = 60


def run(argv, env=None):
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, errors="replace",
                              timeout=TIMEOUT, env=env)
    except subprocess.TimeoutExpired:
        return None, "timed out after %d s" % TIMEOUT
    return proc.returncode, proc.stderr


def describe(code):
    if code is None:
        return "a hang"
    if code < 0:
        return "signal %s" % signal.Signals(-code).name
    return "exit %d" % code


def damage(data, rng):
    """`data` damaged one way, and how."""
    data = bytearray(data)
    kind = rng.randrange(5)
    if kind == 0:
        flips = rng.randint(1, 16)
        for _ in range(flips):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        return bytes(data), "%d bits flipped" % flips
    if kind == 1:
        start = rng.randrange(len(data))
        length = rng.randint(1, 4096)
        data[start:start + length] = bytes(len(data[start:start + length]))
        return bytes(data), "%d bytes zeroed at %d" % (length, start)
    if kind == 2:
        start, to = rng.randrange(len(data)), rng.randrange(len(data))
        block = data[start:start + rng.randint(1, 512)]
        data[to:to + len(block)] = block
        return bytes(data), "%d bytes copied from %d to %d" % (len(block), start, to)
    if kind == 3:
        # ELF header fields past the identification: offsets, counts, sizes.
        offset = rng.randrange(16, min(64, len(data)))
        data[offset] = rng.randrange(256)
        return bytes(data), "header byte %d set" % offset
    cut = rng.randrange(len(data))
    return bytes(data[:cut]), "cut at %d" % cut


def plugins(fuserc, fusion, plugin, count, rng, work):
    # No leak check in the sanitized build: a damaged library that loads can
    # have its relocations overwrite another library's pointers (libnvrtc's
    # static allocations then look leaked, depending on where ASLR put them);
    # that is the damaged file's doing, not fuserc's. Memory errors still count.
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
    original = open(plugin, "rb").read()
    failures, loaded, refused = [], 0, 0
    for case in range(count):
        data, how = damage(original, rng)
        path = os.path.join(work, "damaged%d.so" % case)
        with open(path, "wb") as f:
            f.write(data)
        code, err = run([fuserc, fusion, "--plugin", path, "--dump=segments"], env)
        if code == 0:
            loaded += 1
        elif code == 2 and "error: --plugin:" in err:
            refused += 1
        else:
            failures.append("plugin %d (%s): %s: %s" % (case, how, describe(code), err[-300:]))
    print("%d damaged plugins: %d loaded, %d refused, %d failed" %
          (count, loaded, refused, len(failures)))
    return failures


def inputs(fuserc, fusion, count, rng, work):
    original = open(fusion, "rb").read()
    extension = os.path.splitext(fusion)[1]
    failures, accepted, rejected = [], 0, 0
    for case in range(count):
        if case % 10 == 8:
            data, how = bytes(rng.randrange(256) for _ in range(4096)), "random bytes"
        elif case % 10 == 9:
            data, how = original + b"x" * (1 << 20) + b"\n", "a 1 MiB line"
        else:
            data, how = damage(original, rng)
        path = os.path.join(work, "damaged%d%s" % (case, extension))
        with open(path, "wb") as f:
            f.write(data)
        code, err = run([fuserc, path, "--dump=segments"])
        if code == 0:
            accepted += 1
        elif code == 1 and "error:" in err:
            rejected += 1
        else:
            failures.append("input %d (%s): %s: %s" % (case, how, describe(code), err[-300:]))
    print("%d damaged inputs: %d accepted, %d rejected, %d failed" %
          (count, accepted, rejected, len(failures)))
    return failures


def cache(fuserc, fusion, count, rng, work):
    def build(cache_dir, out):
        return run([fuserc, fusion, "-o", out, "--arch", "sm_90", "--name", "k",
                    "--cache-dir", cache_dir])

    filled = os.path.join(work, "filled")
    code, err = build(filled, os.path.join(work, "cold"))
    if code != 0:
        return ["the cold build failed: %s: %s" % (describe(code), err[-300:])]
    cold = open(os.path.join(work, "cold", "k.fatbin"), "rb").read()
    entries = sorted(os.path.relpath(os.path.join(d, f), filled)
                     for d, _, files in os.walk(filled) for f in files)
    failures = []
    for case in range(count):
        trial = os.path.join(work, "cache%d" % case)
        shutil.copytree(filled, trial)
        entry = os.path.join(trial, rng.choice(entries))
        other = os.path.join(trial, rng.choice(entries))
        kind = case % 6
        data = open(entry, "rb").read()
        os.remove(entry)
        if kind == 0:
            with open(entry, "wb") as f:
                f.write(damage(data, rng)[0])
            how = "damaged"
        elif kind == 1:
            open(entry, "wb").close()
            how = "emptied"
        elif kind == 2:
            os.mkdir(entry)
            how = "a directory"
        elif kind == 3:
            os.mkfifo(entry)
            how = "a FIFO"
        elif kind == 4:
            os.symlink("/dev/zero", entry)
            how = "a link to /dev/zero"
        else:
            if other == entry:
                other = entry + ".other"
                with open(other, "wb") as f:
                    f.write(data[::-1])
            os.symlink(other, entry)
            how = "a link to another entry"
        out = os.path.join(work, "out%d" % case)
        code, err = build(trial, out)
        if code != 0:
            failures.append("cache %d (entry %s): %s: %s" % (case, how, describe(code),
                                                             err[-300:]))
        elif open(os.path.join(out, "k.fatbin"), "rb").read() != cold:
            failures.append("cache %d (entry %s): the fatbin differs from a cold build's" %
                            (case, how))
        # A FIFO left in place would block the next copytree.
        if os.path.lexists(entry) and stat.S_ISFIFO(os.lstat(entry).st_mode):
            os.remove(entry)
    print("%d damaged caches: %d built as cold, %d failed" %
          (count, count - len(failures), len(failures)))
    return failures


def main():
    mode, fuserc = sys.argv[1], sys.argv[2]
    count, seed = int(sys.argv[-2]), int(sys.argv[-1])
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as work:
        if mode == "plugins":
            failures = plugins(fuserc, sys.argv[3], sys.argv[4], count, rng, work)
        elif mode == "inputs":
            failures = inputs(fuserc, sys.argv[3], count, rng, work)
        else:
            failures = cache(fuserc, sys.argv[3], count, rng, work)
    for line in failures:
        print("FAILED " + line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
