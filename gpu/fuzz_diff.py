#!/usr/bin/env python3
"""Differential fuzzing: generated fusions run on the GPU, compared with the
reference interpreter.

For each seed: fuserc-fuzzgen writes fusion f<seed> and the bindings to run
it at; fuserc -o compiles it and NAME.c is built into a library with the
variant hook (fuserc.testing; the fuserc package loads and calls it); at
each binding, random inputs (special values at one of them: +-0, +-inf,
NaN) go through fuserc-interp (the reference, once more on slightly
perturbed f32/f64 inputs to tell ill-conditioned elements) and through the
kernels, and every output element is compared (gpu/README.md,
"Differential fuzzing"). Compiling and the interpreter run in --jobs worker
processes; launches run in one GPU process, started again after a CUDA
error, a crash or a hang. A mismatch is printed and minimized by delta
debugging (statements and outputs dropped while it persists on the GPU)
into OUT/min_<seed>.fus.

  python3 gpu/fuzz_diff.py --fuserc .carry/bin/fuserc --interp .carry/bin/fuserc-interp \\
      --fuzzgen .carry/bin/fuserc-fuzzgen --dlpack-include .carry/include \\
      --seeds 0:2000 --out $OUT --jobs 16 [--deadline 540]
  python3 gpu/fuzz_diff.py ... --dry-run   # no GPU or PyTorch: generate, compile, build, interpret

OUT gets results.jsonl (a line per seed, written as it goes), summary.txt,
min_<seed>.fus per mismatch and case_<seed>.fus per other finding. Exit
status 1 when anything but passes and compile refusals was found.
"""
import argparse
import collections
import concurrent.futures
import faulthandler
import json
import multiprocessing
import os
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness  # noqa: E402
import fuzz_case  # noqa: E402
import fuzz_minimize  # noqa: E402

# Seed outcomes, worst first: a seed's status is its worst binding's.
SEVERITY = ["crash", "cuda_error", "timeout", "mismatch", "launch_error", "header_error",
            "reject", "interp_error", "not_run", "refused", "no_binding", "binding_refused", "pass",
            "built", "ok"]
FINDINGS = {"crash", "cuda_error", "timeout", "mismatch", "launch_error", "header_error",
            "reject", "interp_error"}
GPU_TIMEOUT = 300  # seconds for one seed's launches


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--fuserc", required=True)
    p.add_argument("--interp", required=True, help="fuserc-interp")
    p.add_argument("--fuzzgen", required=True, help="fuserc-fuzzgen")
    p.add_argument("--dlpack-include", default="/usr/include",
                   help="directory holding dlpack/dlpack.h")
    p.add_argument("--cuda-home", default=os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    p.add_argument("--arch", default="sm_90", help="fuserc --arch")
    p.add_argument("--seeds", default="0:100",
                   help="START:STOP (STOP excluded), or a comma list of seeds and ranges")
    p.add_argument("--out", required=True, help="directory for results and minimized cases")
    p.add_argument("--work", default="/tmp/fuserc-fuzz", help="scratch directory")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--max-elements", type=int, default=1 << 24,
                   help="cap on all of a fusion's values at one binding (fuserc-fuzzgen)")
    p.add_argument("--deadline", type=float, default=0,
                   help="seconds after which no new seed starts (0: none)")
    p.add_argument("--no-minimize", action="store_true")
    p.add_argument("--min-checks", type=int, default=200,
                   help="GPU checks one minimization may use")
    p.add_argument("--min-seconds", type=float, default=300,
                   help="time one minimization may use")
    p.add_argument("--keep", action="store_true", help="keep every seed's scratch files")
    p.add_argument("--dry-run", action="store_true",
                   help="no CUDA: generate, compile, build the libraries, run the interpreter")
    return p.parse_args()


def parse_seeds(text):
    seeds = []
    for part in text.split(","):
        if ":" in part:
            start, stop = part.split(":")
            seeds.extend(range(int(start), int(stop)))
        elif part:
            seeds.append(int(part))
    return seeds


def worst(statuses):
    return min(statuses, key=SEVERITY.index) if statuses else "ok"


# ---------------------------------------------------------------------------
# The GPU process.

class GpuProcess:
    """gpu/fuzz_gpu.py's loop in a spawned process, started (again) on demand."""

    def __init__(self):
        self.proc = None
        self.conn = None
        self.starts = 0

    def _start(self):
        import fuzz_gpu
        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=fuzz_gpu.serve, args=(child,), daemon=True)
        self.proc.start()
        child.close()
        self.starts += 1

    def _stop(self, kill=False):
        if self.proc is None:
            return
        if kill:
            self.proc.kill()
        self.proc.join(30)
        self.proc = None

    def check(self, case):
        """{"bindings": [...], "context_lost": ...} for a case."""
        if self.proc is None:
            self._start()
        n = len(case["bindings"])
        self.conn.send(case)
        if not self.conn.poll(GPU_TIMEOUT):
            self._stop(kill=True)
            return dict(bindings=[dict(result="timeout", detail="no answer in %d s"
                                       % GPU_TIMEOUT, excused=0)] * n, context_lost="timeout")
        try:
            result = self.conn.recv()
        except (EOFError, ConnectionError):
            code = self.proc.exitcode if self.proc else None
            self._stop(kill=True)
            return dict(bindings=[dict(result="crash", detail="the GPU process died (exit %s)"
                                       % code, excused=0)] * n, context_lost="crash")
        if result["context_lost"]:
            self._stop()
        return result

    def close(self):
        if self.proc is not None:
            try:
                self.conn.send(None)
            except (BrokenPipeError, OSError):
                pass
            self._stop()


def gpu_case(record, bindings=None):
    return dict(build=record["build"], bindings=bindings or record["bindings"])


# ---------------------------------------------------------------------------
# Minimizing.

class Minimizer:
    def __init__(self, args, config, gpu):
        self.args = args
        self.config = config
        self.gpu = gpu
        self.pool = None

    def run(self, record, binding, deadline):
        """The smallest fusion found that still mismatches at `binding`: (text, log)."""
        if self.pool is None:
            # spawn: forking now, with the seeds' pool and its threads
            # running, could copy a lock held by one of them.
            self.pool = concurrent.futures.ProcessPoolExecutor(
                self.args.jobs, mp_context=multiprocessing.get_context("spawn"))
        current, log = record["text"], []
        checks, start = 0, time.time()
        work = os.path.join(record["case_dir"], "min")

        def out_of_budget():
            return (checks >= self.args.min_checks or time.time() - start > self.args.min_seconds
                    or (deadline and time.time() > deadline))

        rounds = 0
        while not out_of_budget():
            adopted = None
            rounds += 1
            candidates = fuzz_minimize.candidates(current)
            for first in range(0, len(candidates), self.args.jobs):
                batch = candidates[first:first + self.args.jobs]
                futures = [self.pool.submit(fuzz_case.prepare_candidate, self.config, text,
                                            record["seed"], binding,
                                            # A new path per candidate: the GPU process
                                            # would reuse a library loaded from a path.
                                            os.path.join(work, "%d_%d" % (rounds, first + k)))
                           for k, (_, text) in enumerate(batch)]
                for (what, text), future in zip(batch, futures):
                    prepared = future.result()
                    if adopted or prepared["status"] != "ok" or out_of_budget():
                        continue
                    checks += 1
                    result = self.gpu.check(dict(build=prepared["build"],
                                                 bindings=[prepared["binding"]]))
                    if result["bindings"][0]["result"] == "mismatch":
                        adopted = (what, text, result["bindings"][0]["detail"])
                if adopted or out_of_budget():
                    break
            if not adopted:
                break
            current = adopted[1]
            log.append("%s (%s)" % (adopted[0], adopted[2][:160]))
        shutil.rmtree(work, ignore_errors=True)
        return current, log, checks

    def close(self):
        if self.pool is not None:
            self.pool.shutdown()


# ---------------------------------------------------------------------------
# The report.

class Report:
    def __init__(self, args):
        os.makedirs(args.out, exist_ok=True)
        self.args = args
        self.records = []
        self.stream = open(os.path.join(args.out, "results.jsonl"), "w")
        self.started = time.time()

    def add(self, record):
        row = {k: record.get(k) for k in ("seed", "fusion", "status", "detail", "ops", "dtypes",
                                          "compile_s", "min_file", "min_log")}
        row["detail"] = (row["detail"] or "")[:4000]
        row["variants"] = (record.get("build") or {}).get("variants", [])
        row["bindings"] = [{k: b.get(k) for k in ("label", "shape", "special", "elements",
                                                   "int_ranges", "result", "detail", "excused",
                                                   "interp_s", "launched")}
                           for b in record.get("bindings", [])]
        self.records.append(row)
        self.stream.write(json.dumps(row) + "\n")
        self.stream.flush()

    def failed(self):
        return any(r["status"] in FINDINGS for r in self.records)

    def finish(self, seeds_asked, device):
        self.stream.close()
        lines = self._summary(seeds_asked, device)
        with open(os.path.join(self.args.out, "summary.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")
        print("\n".join(lines))

    def _summary(self, seeds_asked, device):
        rows = self.records
        by_status = collections.Counter(r["status"] for r in rows)
        bindings = [b for r in rows for b in r["bindings"] if b.get("result")]
        by_binding = collections.Counter(b["result"] for b in bindings)
        lines = ["fuzz_diff: %d of %d seeds run in %.0f s (%s)%s"
                 % (len(rows), seeds_asked, time.time() - self.started, device,
                    ", dry run" if self.args.dry_run else ""),
                 "fusions: " + ", ".join("%d %s" % (n, s) for s, n in
                                         sorted(by_status.items(), key=lambda kv: -kv[1])),
                 "bindings: %d run: " % len(bindings) + ", ".join(
                     "%d %s" % (n, s) for s, n in sorted(by_binding.items(),
                                                          key=lambda kv: -kv[1]))]
        excused = [b for b in bindings if b["result"] == "pass" and b.get("excused")]
        if excused:
            lines.append("  passes with ill-conditioned elements excused: %d bindings, %d "
                         "elements" % (len(excused), sum(b["excused"] for b in excused)))
        both = sum(1 for b in bindings
                   if b["result"] == "pass" and b["detail"].startswith(fuzz_case.REFUSED_BOTH))
        if both:
            lines.append("  passes where the fusion does not fit the binding and the wrappers "
                         "refuse it as the interpreter does: %d" % both)
        special = sum(1 for b in bindings if b["result"] == "mismatch" and b["special"])
        if special:
            lines.append("  mismatches at special values (+-0, +-inf, NaN): %d" % special)
        for title, status in (("compile refusals (exit 3) by reason", "refused"),
                              ("generator bugs (fuserc exit 1) by reason", "reject"),
                              ("crashes by reason", "crash"),
                              ("header errors by reason", "header_error")):
            reasons = collections.defaultdict(list)
            for r in rows:
                if r["status"] == status:
                    reasons[fuzz_case.blur(harness.short_reason(r["detail"], 150))].append(
                        r["seed"])
            if reasons:
                lines.append("%s:" % title)
                for reason, seeds in sorted(reasons.items(), key=lambda kv: -len(kv[1])):
                    lines.append("  %4d  %s  (seeds %s)" % (len(seeds), reason,
                                                           " ".join(map(str, seeds[:6]))))
        findings = [r for r in rows if r["status"] in FINDINGS - {"reject", "header_error",
                                                                  "crash"}]
        if findings:
            lines.append("findings:")
            for r in findings:
                bad = [b for b in r["bindings"] if b.get("result") == r["status"]] or [{}]
                lines.append("  seed %d %s at %s: %s%s" % (
                    r["seed"], r["status"], bad[0].get("label", "-"),
                    (bad[0].get("detail") or r["detail"] or "")[:200],
                    "  -> " + r["min_file"] if r.get("min_file") else ""))
        generated = sum(len(r["variants"]) for r in rows)
        launched = sum(len(set(r["variants"]) & {k for b in r["bindings"]
                                                 for k in b.get("launched") or []})
                       for r in rows)
        if generated:
            lines.append("coverage, kernel variants launched (own choice or forced): %d of %d "
                         "generated (%.0f%%)" % (launched, generated, 100.0 * launched / generated))
        ops, op_fusions, dtypes = collections.Counter(), collections.Counter(), \
            collections.Counter()
        for r in rows:
            ops.update(r["ops"] or {})
            op_fusions.update((r["ops"] or {}).keys())
            dtypes.update(r["dtypes"] or {})
        lines.append("coverage, ops (occurrences / fusions): " + ", ".join(
            "%s %d/%d" % (op, n, op_fusions[op]) for op, n in ops.most_common()))
        lines.append("coverage, dtypes of inputs and outputs (compiled fusions): " + ", ".join(
            "%s %d" % kv for kv in sorted(dtypes.items())))
        return lines


# ---------------------------------------------------------------------------
# Main.

def print_mismatch(record, binding):
    print("=" * 78)
    print("MISMATCH seed %d at %s" % (record["seed"], fuzz_case.binding_text(binding)))
    print(record["text"].rstrip())
    print("int ranges: %s" % (binding.get("int_ranges") or "-"))
    print(binding["detail"])
    print("=" * 78, flush=True)


def save_finding(args, record, name):
    path = os.path.join(args.out, name)
    with open(path, "w") as f:
        f.write("// fuserc-fuzzgen --seed %d: %s\n" % (record["seed"], record["status"]))
        for line in (record["detail"] or "").splitlines()[:20]:
            f.write("// %s\n" % line)
        f.write(record.get("text", ""))
    return path


def handle(args, config, gpu, minimizer, record, deadline):
    """Runs a prepared seed on the GPU (or not, in a dry run) and settles its status."""
    if record["status"] == "ok":
        if args.dry_run:
            for b in record["bindings"]:
                b["result"] = "built" if b["status"] == "ok" else b["status"]
        else:
            result = gpu.check(gpu_case(record))
            for b, r in zip(record["bindings"], result["bindings"]):
                b.update(r)
            record["device"] = result.get("device")
        record["status"] = worst([b["result"] for b in record["bindings"]])
        failing = [b for b in record["bindings"] if b["result"] == record["status"]]
        if failing:
            record["detail"] = failing[0]["detail"]
    if record["status"] == "mismatch":
        binding = next(b for b in record["bindings"] if b["result"] == "mismatch")
        print_mismatch(record, binding)
        if not args.no_minimize:
            text, log, checks = minimizer.run(record, binding, deadline)
            path = os.path.join(args.out, "min_%d.fus" % record["seed"])
            with open(path, "w") as f:
                f.write("// minimized from fuserc-fuzzgen --seed %d in %d GPU checks\n"
                        % (record["seed"], checks))
                f.write("// binding: %s\n" % fuzz_case.binding_text(binding))
                f.write("// int ranges: %s\n" % json.dumps(binding.get("int_ranges") or {}))
                f.write("// inputs: %s\n" % os.path.join(args.out, "min_%d_inputs"
                                                          % record["seed"]))
                f.write("// original mismatch: %s\n" % binding["detail"][:300])
                f.write(text)
            shutil.copytree(binding["dirs"]["in"],
                            os.path.join(args.out, "min_%d_inputs" % record["seed"]),
                            dirs_exist_ok=True)
            record["min_file"], record["min_log"] = path, log
            print("minimized seed %d (%d steps) into %s:\n%s" % (record["seed"], len(log), path,
                                                                 text), flush=True)
    elif record["status"] in FINDINGS:
        print("%s seed %d: %s" % (record["status"].upper(), record["seed"],
                                  (record["detail"] or "")[:600]), flush=True)
        save_finding(args, record, "case_%d.fus" % record["seed"])
    if not args.keep:
        shutil.rmtree(record["case_dir"], ignore_errors=True)


def main():
    args = parse_args()
    faulthandler.enable()
    harness.use_toolchain(args.dlpack_include, args.cuda_home)  # inherited by the workers
    config = fuzz_case.Config(args)
    os.makedirs(config.work, exist_ok=True)
    seeds = parse_seeds(args.seeds)
    deadline = time.time() + args.deadline if args.deadline else 0
    report = Report(args)
    gpu = None if args.dry_run else GpuProcess()
    minimizer = Minimizer(args, config, gpu)
    pending = collections.deque(seeds)
    running = {}
    device = "no GPU" if args.dry_run else "GPU"
    with concurrent.futures.ProcessPoolExecutor(
            args.jobs, mp_context=multiprocessing.get_context("fork")) as pool:
        while pending or running:
            while pending and len(running) < 2 * args.jobs and not (
                    deadline and time.time() > deadline):
                seed = pending.popleft()
                running[pool.submit(fuzz_case.prepare_seed, config, seed)] = seed
            if deadline and time.time() > deadline:
                pending.clear()
            if not running:
                break
            done, _ = concurrent.futures.wait(running,
                                              return_when=concurrent.futures.FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: running[f]):
                seed = running.pop(future)
                try:
                    record = future.result()
                except Exception as e:  # the harness itself
                    record = dict(seed=seed, fusion="f%d" % seed, status="crash",
                                  detail="harness: %s: %s" % (type(e).__name__, e), bindings=[],
                                  ops={}, dtypes={}, case_dir=os.path.join(config.work,
                                                                           str(seed)))
                handle(args, config, gpu, minimizer, record, deadline)
                device = record.get("device") or device
                report.add(record)
    minimizer.close()
    if gpu is not None:
        gpu.close()
    report.finish(len(seeds), device)
    return 1 if report.failed() else 0


if __name__ == "__main__":
    sys.exit(main())
