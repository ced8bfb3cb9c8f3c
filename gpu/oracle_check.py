#!/usr/bin/env python3
"""Checks the reference interpreter (fuserc-interp, the GPU tests' oracle)
against PyTorch, for every op of ops.td and every dtype it accepts.

For each op and input dtype, the variants of gpu/torch_ops.py (shapes with
size-1 dims, 0-d and empty tensors, odd sizes, special values, literals,
scalar inputs, mixed dtypes, attributes) become one fusion with one output
per variant. fuserc-interp runs it on .npy inputs; PyTorch evaluates the
table's expression on the same values; every output must have PyTorch's
dtype and shape, and values within the GPU tests' tolerances (f32 1e-5, f16
1e-3, bf16 1e-2, f64 1e-12, atol scaled by max(1, max |reference|); integers
and bools exact; NaN only where the reference is NaN). A dtype the op's rule
does not accept is N/A, and fuserc-interp must refuse it.

  python3 gpu/oracle_check.py --interp build/tools/fuserc-interp --out /tmp/oracle
  python3 gpu/oracle_check.py --interp ... --ops add,cast --dtypes f16,bf16
  python3 gpu/oracle_check.py --list     # no PyTorch: every op has an entry

--out receives oracle_table.md (op x dtype: PASS, FAIL with the largest
error, N/A) and oracle.json (every variant); the fusions and .npy files of
each cell stay under --work (default /tmp/fuserc-oracle) as reproducers.
Exit status 1 on any FAIL or on an op of ops.td without a table entry.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import warnings
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import oracle_variants  # noqa: E402
import torch_ops  # noqa: E402


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--interp", help="fuserc-interp (required unless --list)")
    p.add_argument("--out", help="directory for oracle_table.md and oracle.json")
    p.add_argument("--work", default="/tmp/fuserc-oracle", help="fusions and .npy files")
    p.add_argument("--device", default="cpu", choices=("cpu", "cuda"),
                   help="where PyTorch computes the references")
    p.add_argument("--ops", default="", help="comma-separated op names (default: all)")
    p.add_argument("--dtypes", default="", help="comma-separated dtypes (default: all)")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--ops-td", default=os.path.join(ROOT, "ops.td"))
    p.add_argument("--ops-md", default=os.path.join(ROOT, "docs", "ops.md"),
                   help="the generated op reference (each op's dtype rule)")
    p.add_argument("--list", action="store_true",
                   help="only check that every op of --ops-td has a table entry (no PyTorch)")
    return p.parse_args()


# ---------------------------------------------------------------------------
# What ops.td defines.

def ops_td_names(path):
    """The op names of ops.td, in order: every `def X : C<"name"...` whose
    class derives from Op."""
    text = open(path).read()
    parents = {m.group(1): m.group(3)
               for m in re.finditer(r"^class\s+(\w+)\s*(<.*?>)?\s*(?::\s*(\w+))?", text,
                                    re.M | re.S)}

    def is_op(cls):
        seen = set()
        while cls and cls not in seen:
            if cls == "Op":
                return True
            seen.add(cls)
            cls = parents.get(cls)
        return False
    return [m.group(2) for m in re.finditer(r'^def\s+\w+\s*:\s*(\w+)\s*<\s*"(\w+)"', text, re.M)
            if is_op(m.group(1))]


def ops_md_rules(path):
    """{op name: dtype rule} from docs/ops.md's tables."""
    rules = {}
    for m in re.finditer(r"^\| `(\w+)\(.*?\)` \| .*? \| (\w+) \|", open(path).read(), re.M):
        rules[m.group(1)] = m.group(2)
    return rules


def check_table(names):
    """Problems with the table against the ops of ops.td."""
    problems = ["op '%s' of ops.td has no entry in gpu/torch_ops.py TABLE" % n
                for n in names if n not in torch_ops.TABLE]
    problems += ["TABLE entry '%s' is not an op of ops.td" % n
                 for n in torch_ops.TABLE if n not in names]
    return problems


# ---------------------------------------------------------------------------
# One cell: an op and an input dtype.

def fusion_text(op, dtype, variants):
    lines = ["fusion oracle_%s_%s {" % (op, dtype)]
    for i, v in enumerate(variants):
        for inp in v.inputs:
            lines.append("  " + inp.declaration("v%d_" % i))
    for i, v in enumerate(variants):
        lines.append("  r%d = %s  // %s" % (i, v.expression(op, "v%d_" % i), v.name))
    for i in range(len(variants)):
        lines.append("  output r%d" % i)
    return "\n".join(lines) + "\n}\n"


def to_numpy(tensor, dtype):
    """The .npy exchange form of fuserc-interp (tools/Npy.h): bf16 as f32."""
    t = tensor.detach().cpu()
    return (t.float() if dtype == "bf16" else t).numpy()


def write_cell(directory, op, dtype, variants):
    import numpy as np
    if os.path.isdir(directory):
        shutil.rmtree(directory)
    os.makedirs(os.path.join(directory, "in"))
    source = os.path.join(directory, "%s_%s.fus" % (op, dtype))
    with open(source, "w") as f:
        f.write(fusion_text(op, dtype, variants))
    for i, v in enumerate(variants):
        for inp in v.inputs:
            np.save(os.path.join(directory, "in", "v%d_%s.npy" % (i, inp.name)),
                    to_numpy(inp.tensor, inp.dtype))
    return source


def interp(args, *argv):
    proc = subprocess.run([args.interp] + list(argv), capture_output=True, text=True)
    return proc.returncode, proc.stdout, proc.stderr.strip()


def run_interp(args, source, directory):
    """(output dtypes by name, None) or (None, error) for one fusion file."""
    rc, out, err = interp(args, source, "--signature")
    if rc != 0:
        return None, "fuserc-interp --signature exited with %d: %s" % (rc, err)
    outputs = json.loads(out)["fusions"][0]["outputs"]
    rc, _, err = interp(args, source, "--inputs", os.path.join(directory, "in"),
                        "--outputs", os.path.join(directory, "out"))
    if rc != 0:
        return None, "fuserc-interp exited with %d: %s" % (rc, err)
    return {o["name"]: o["dtype"] for o in outputs}, None


def compare(dtype, got, want, tolerance="output"):
    """(ok, max error, message) for fuserc-interp's output `got` (NumPy,
    exchange form) against PyTorch's `want` (a tensor of the same dtype),
    under the GPU tests' tolerances (gpu/tensors.py) scaled as `tolerance`
    says (OpEntry in gpu/oracle_variants.py)."""
    import numpy as np
    import tensors
    if list(got.shape) != list(want.shape):
        return False, None, "shape %s, PyTorch %s" % (list(got.shape), list(want.shape))
    want = want.detach().cpu()
    if dtype in ("bool", "i32", "i64"):
        g, w = got.astype(np.int64), want.long().numpy()
        bad = g != w
        err = float(np.abs(g.astype(np.float64) - w.astype(np.float64)).max()) if g.size else 0
    else:
        g, w = got.astype(np.float64), want.double().numpy()
        rtol, atol = tensors.TOLERANCES[dtype]
        finite = w[np.isfinite(w)]
        scale = max(1.0, float(np.abs(finite).max())) if finite.size else 1.0
        if tolerance == "element":
            scale = np.maximum(1.0, np.where(np.isfinite(w), np.abs(w), 1.0))
        if tolerance == "exact":
            rtol = atol = 0.0
        if dtype == "bf16":  # the exchange form must hold bf16 values exactly
            import torch
            rounded = torch.from_numpy(got.astype(np.float32)).bfloat16().float().numpy()
            inexact = ~((rounded == got) | np.isnan(got))
            if inexact.any():
                return False, None, "%d values are not bf16 values (e.g. %r)" % (
                    int(inexact.sum()), float(got[inexact][0]))
        with np.errstate(invalid="ignore"):
            diff = np.abs(g - w)
            close = (g == w) | (diff <= atol * scale + rtol * np.abs(w))
            bad = ~(close | (np.isnan(g) & np.isnan(w)))
            both = np.isfinite(g) & np.isfinite(w)
        err = float(diff[both].max()) if both.any() else 0.0
        if bad.any() and not (bad & both).any():
            err = float("inf")  # only NaN/inf placement differs
    count = int(bad.sum())
    if count == 0:
        return True, err, None
    where = np.argwhere(bad)[:4]
    samples = ", ".join("%s: fuserc %s, PyTorch %s" % (list(map(int, i)), g[tuple(i)],
                                                       w[tuple(i)]) for i in where)
    return False, err, "%d of %d elements differ (%s)" % (count, bad.size, samples)


def reference(args, variant):
    import torch
    values = [i.tensor.to(args.device) for i in variant.inputs]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = variant.ref(*values)
    if not torch.is_tensor(result):
        result = torch.tensor(result)
    return result


def check_variant(args, entry, variant, ours_dtype, out_path):
    """A result row for one variant whose output fuserc-interp wrote."""
    import numpy as np
    from fuserc import fusion_dtype
    row = {"variant": variant.name}
    try:
        want = reference(args, variant)
    except Exception as e:  # PyTorch refused: the table is wrong for this dtype
        row.update(status="FAIL", detail="PyTorch raised %s: %s" % (
            type(e).__name__, str(e).split("\n")[0]))
        return row
    torch_dtype = fusion_dtype(want.dtype)
    if torch_dtype != ours_dtype:
        row.update(status="FAIL", detail="dtype %s, PyTorch %s" % (ours_dtype, torch_dtype))
        return row
    ok, err, message = compare(ours_dtype, np.load(out_path), want,
                               variant.tolerance or entry.tolerance)
    row.update(status="PASS" if ok else "FAIL", max_error=err, dtype=ours_dtype)
    if message:
        row["detail"] = message
    return row


def run_variants_alone(args, op, dtype, entry, variants, directory):
    """Each variant as its own fusion, after the combined one failed: which
    variants fuserc-interp refuses, and the comparison of the others."""
    rows = []
    for i, v in enumerate(variants):
        sub = os.path.join(directory, "v%d" % i)
        source = write_cell(sub, op, dtype, [v])
        dtypes, error = run_interp(args, source, sub)
        if error:
            rows.append({"variant": v.name, "status": "FAIL", "detail": error,
                         "fusion": source})
        else:
            rows.append(check_variant(args, entry, v, dtypes["r0"],
                                      os.path.join(sub, "out", "r0.npy")))
    return rows


def run_cell(args, op, dtype, entry, rule):
    """{status, variants, ...} for one op and input dtype."""
    import oracle_semantics
    cell_seed = args.seed * 1000003 + zlib.crc32(("%s/%s" % (op, dtype)).encode())
    gen = oracle_variants.Gen(cell_seed % 2**31)
    directory = os.path.join(args.work, op, dtype)
    try:
        variants = entry.variants(dtype, gen)
    except Exception as e:
        return {"status": "FAIL", "detail": "building the variants raised %s: %s" % (
            type(e).__name__, e)}
    if dtype not in entry.accepted(rule):
        # The rule excludes this dtype: fuserc must refuse the op.
        source = write_cell(directory, op, dtype, variants[:1])
        rc, _, err = interp(args, source, "--signature")
        if rc == 1 and "error:" in err:
            return {"status": "N/A", "detail": err.split("\n")[0]}
        return {"status": "FAIL", "fusion": source,
                "detail": "ops.td's rule %s excludes %s, but fuserc-interp --signature exited "
                          "with %d" % (rule, dtype, rc)}
    if op == "rand_like":
        problem = oracle_semantics.philox_self_test()
        if problem:
            return {"status": "FAIL", "detail": "the reference Philox is wrong: " + problem}
    source = write_cell(directory, op, dtype, variants)
    dtypes, error = run_interp(args, source, directory)
    if error:
        rows = run_variants_alone(args, op, dtype, entry, variants, directory)
    else:
        rows = [check_variant(args, entry, v, dtypes["r%d" % i],
                              os.path.join(directory, "out", "r%d.npy" % i))
                for i, v in enumerate(variants)]
    failed = [r for r in rows if r["status"] != "PASS"]
    errors = [r["max_error"] for r in rows if r.get("max_error") is not None]
    cell = {"status": "FAIL" if failed else "PASS", "fusion": source, "variants": rows,
            "max_error": max(errors) if errors else None}
    if failed:
        cell["detail"] = "; ".join("%s: %s" % (r["variant"], r.get("detail", ""))
                                   for r in failed[:3])
    return cell


# ---------------------------------------------------------------------------
# Reports.

def cell_text(cell):
    """PASS, N/A, or FAIL with the largest error of the failed variants (or
    what failed when no value was compared)."""
    if cell is None:
        return ""
    status = cell["status"]
    if status != "FAIL":
        return status
    failed = [r for r in cell.get("variants", []) if r["status"] == "FAIL"]
    errors = [r["max_error"] for r in failed if r.get("max_error") is not None]
    if errors and max(errors) == float("inf"):
        return "FAIL (NaN or inf differs)"
    if errors:
        return "FAIL (max err %.3g)" % max(errors)
    details = " ".join(r.get("detail", "") for r in failed) or cell.get("detail", "")
    for key, what in (("dtype ", "dtype"), ("shape ", "shape"), ("PyTorch raised", "PyTorch"),
                      ("fuserc-interp", "fuserc-interp refused"), ("excludes", "accepted")):
        if key in details:
            return "FAIL (%s)" % what
    return "FAIL"


def markdown(results, rules, dtypes):
    lines = ["# fuserc-interp against PyTorch", "",
             "Every op of ops.td by input dtype: PASS (every variant has PyTorch's dtype and "
             "shape, and values within the GPU tests' tolerances, or bit for bit for ops that "
             "only move or convert values), FAIL (the largest error), N/A (the op's dtype rule "
             "does not accept the dtype, and fuserc refuses it). Generated by "
             "gpu/oracle_check.py.", "",
             "| op | rule | " + " | ".join(dtypes) + " |",
             "| --- | --- | " + " | ".join("---" for _ in dtypes) + " |"]
    for op, cells in results.items():
        lines.append("| `%s` | %s | %s |" % (op, rules.get(op, "?"), " | ".join(
            cell_text(cells.get(d)) for d in dtypes)))
    failures = [(op, d, c) for op, cells in results.items() for d, c in cells.items()
                if c["status"] == "FAIL"]
    if failures:
        lines += ["", "## Failures", ""]
        for op, d, c in failures:
            lines.append("- `%s` %s: %s%s" % (op, d, c.get("detail", ""),
                                             " (`%s`)" % c["fusion"] if "fusion" in c else ""))
    notes = [(op, torch_ops.TABLE[op].note) for op in results if torch_ops.TABLE[op].note]
    if notes:
        lines += ["", "## Notes: where the reference is not the plain PyTorch op, and why", ""]
        lines += ["- `%s`: %s" % (op, note) for op, note in notes]
    return "\n".join(lines) + "\n"


def summary_counts(results):
    counts = {"PASS": 0, "FAIL": 0, "N/A": 0}
    for cells in results.values():
        for c in cells.values():
            counts[c["status"]] += 1
    return counts


def list_mode(args, names):
    rules = ops_md_rules(args.ops_md) if os.path.exists(args.ops_md) else {}
    problems = check_table(names)
    cells = 0
    for op in names:
        if op in torch_ops.TABLE and op in rules:
            accepted = torch_ops.TABLE[op].accepted(rules[op])
            cells += len(accepted)
            print("%-18s %-16s %s" % (op, rules[op], " ".join(accepted)))
    for p in problems:
        print("error: " + p, file=sys.stderr)
    if problems:
        return 1
    print("%d ops of %s, every one in the table; %d op x dtype cells accepted" % (
        len(names), os.path.relpath(args.ops_td, ROOT), cells))
    return 0


def main():
    args = parse_args()
    names = ops_td_names(args.ops_td)
    if not names:
        print("error: no ops found in %s" % args.ops_td, file=sys.stderr)
        return 1
    if args.list:
        return list_mode(args, names)
    if not args.interp:
        print("error: --interp is required (or --list)", file=sys.stderr)
        return 2
    args.interp = os.path.abspath(args.interp)
    if not os.access(args.interp, os.X_OK):
        print("error: --interp: '%s' is not an executable" % args.interp, file=sys.stderr)
        return 2
    if args.device == "cuda":
        import torch
        if not torch.cuda.is_available():
            print("error: --device cuda: PyTorch sees no CUDA device", file=sys.stderr)
            return 2
    problems = check_table(names)
    rules = ops_md_rules(args.ops_md)
    problems += ["op '%s' has no dtype rule in %s" % (n, args.ops_md) for n in names
                 if n not in rules]
    for p in problems:
        print("error: " + p, file=sys.stderr)

    wanted_ops = [o for o in args.ops.split(",") if o]
    unknown = [o for o in wanted_ops if o not in names]
    if unknown:
        print("error: --ops: no op %s in ops.td" % ", ".join(unknown), file=sys.stderr)
        return 2
    dtypes = [d for d in args.dtypes.split(",") if d] or list(oracle_variants.DTYPES)
    bad = [d for d in dtypes if d not in oracle_variants.DTYPES]
    if bad:
        print("error: --dtypes: %s is not one of %s" % (", ".join(bad),
                                                       " ".join(oracle_variants.DTYPES)),
              file=sys.stderr)
        return 2
    results = {}
    for op in names:
        if (wanted_ops and op not in wanted_ops) or op not in torch_ops.TABLE or op not in rules:
            continue
        results[op] = {}
        for dtype in dtypes:
            cell = run_cell(args, op, dtype, torch_ops.TABLE[op], rules[op])
            results[op][dtype] = cell
            if cell["status"] == "FAIL":
                print("FAIL %s %s: %s" % (op, dtype, cell.get("detail", "")), flush=True)
        print("%-18s %s" % (op, "  ".join("%s:%s" % (d, results[op][d]["status"])
                                          for d in dtypes)), flush=True)

    table = markdown(results, rules, dtypes)
    counts = summary_counts(results)
    print()
    print(table)
    print("%d PASS, %d FAIL, %d N/A (%d ops)" % (counts["PASS"], counts["FAIL"], counts["N/A"],
                                                  len(results)))
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "oracle_table.md"), "w") as f:
            f.write(table)
        with open(os.path.join(args.out, "oracle.json"), "w") as f:
            json.dump({"device": args.device, "counts": counts, "problems": problems,
                       "ops": {op: {"rule": rules.get(op), "note": torch_ops.TABLE[op].note,
                                    "cells": cells} for op, cells in results.items()}},
                      f, indent=1, sort_keys=True, default=str)
    return 1 if counts["FAIL"] or problems else 0


if __name__ == "__main__":
    sys.exit(main())
