"""The CPU half of the differential fuzzer (gpu/fuzz_diff.py): one seed's
fusion generated (fuserc-fuzzgen), compiled (fuserc -o) and built into a
library with the variant hook (fuserc.testing, through gpu/harness.py; its
manifest gives the signature), and for each of its bindings random inputs written
as .npy files and the reference outputs computed by fuserc-interp, once on
the inputs and once on slightly perturbed ones (see `compare`). Also the
comparison itself. Needs NumPy, not PyTorch or a GPU, so it runs in the
harness's worker processes and in --dry-run.
"""
import json
import os
import re
import shutil
import subprocess
import time
import zlib

import numpy as np

import harness
import fuserc  # noqa: E402 (the package: harness put python/ on the path)

# Per output dtype: (rtol, atol), atol scaled by max(1, max |reference|):
# the rules of gpu/README.md (gpu/tensors.py).
TOLERANCES = {"f32": (1e-5, 1e-5), "f64": (1e-12, 1e-12), "f16": (1e-3, 1e-3),
              "bf16": (1e-2, 1e-2)}
# .npy dtypes fuserc-interp reads and writes (bf16 as exact float32).
NUMPY_EXCHANGE = {"bool": np.bool_, "i32": np.int32, "i64": np.int64, "f16": np.float16,
                  "bf16": np.float32, "f32": np.float32, "f64": np.float64}
FLOATS = ("f16", "bf16", "f32", "f64")
# The perturbed references' directories (reference_for).
PERTURBED = ("pert", "pert2", "pert3")

# Relative size of the perturbation of f32 and f64 inputs (f16 and bf16
# inputs cannot be perturbed finely and are left as they are).
PERTURBATION = {"f32": 2.0 ** -20, "f64": 2.0 ** -44}
# An element that differs is excused when it differs by at most this many
# times what the perturbation moved the reference (an ill-conditioned one).
NOISE_FACTOR = 8.0
# An element a perturbation of a few ulps moved by more than this fraction
# of its value (a condition number above ~10^5: the remainder of a huge
# value, acos next to 1) carries no digits to compare; it is excused.
CHAOTIC = 1e-3
SPECIAL_VALUES = [0.0, -0.0, float("inf"), float("-inf"), float("nan")]

INTERP_TIMEOUT = 600


class Config:
    """What the workers need of the command line (picklable)."""

    def __init__(self, args):
        self.fuzzgen = os.path.abspath(args.fuzzgen)
        self.fuserc = os.path.abspath(args.fuserc)
        self.interp = os.path.abspath(args.interp)
        self.arch = args.arch
        self.work = os.path.abspath(args.work)
        self.max_elements = args.max_elements
        self.dry_run = args.dry_run


def blur(text):
    """A message with names and numbers blurred, to group findings by."""
    return re.sub(r"\d+", "N", text)


def ops_of(text):
    """{op name: count} of a fusion's text."""
    counts = {}
    for op in re.findall(r"^\s*\w+\s*=\s*(\w+)\(", text, re.M):
        counts[op] = counts.get(op, 0) + 1
    return counts


# ---------------------------------------------------------------------------
# Compiling.

_TYPED_STATEMENT = re.compile(r"^\s*(\w+)\s*=\s*\w+\((.*)\)\s*//\s*(\w+)\[", re.M)


# Floating dtypes from the finest to the coarsest rounding.
_PRECISION = ("f64", "f32", "f16", "bf16")


def math_dtypes(config, source):
    """{output name: dtype} for each f32 or f64 output computed through
    coarser math: the coarsest of the op results of dtype f32, f16 or bf16
    among the values it depends on (f16 and bf16 math is done in f32, and a
    result rounded to f16 next to a rounding boundary may round either way).
    Its values carry that dtype's rounding errors, so they are compared at
    its tolerance. Read from the `parsed` dump."""
    proc = subprocess.run([config.fuserc, source, "--dump=parsed"], capture_output=True,
                          text=True)
    dtype, operands = {}, {}
    for name, args, result_dtype in _TYPED_STATEMENT.findall(proc.stderr):
        dtype[name] = result_dtype
        operands[name] = re.findall(r"\b[A-Za-z_]\w*\b", args)
    coarsest = {}

    def rank(d):
        return _PRECISION.index(d) if d in _PRECISION else 0

    def through(name):
        """The rank in _PRECISION of the coarsest math `name` depends on."""
        if name not in coarsest:
            coarsest[name] = 0  # no cycles in a fusion; guards the recursion
            coarsest[name] = max([rank(dtype[name])] +
                                 [through(o) for o in operands[name] if o in dtype])
        return coarsest[name]

    outputs = re.findall(r"^\s*output\s+(\w+)", proc.stderr, re.M)
    return {o: _PRECISION[through(o)] for o in outputs
            if dtype.get(o) in ("f32", "f64") and through(o) > rank(dtype[o])}


def kernel_variants(manifest_path):
    """The `__global__` symbol of every variant of every kernel in the
    manifest (docs/manifest.md, "Kernels"): what the coverage counts."""
    with open(manifest_path) as f:
        manifest = json.load(f)
    return [v["symbol"] for f in manifest["fusions"] for k in f["kernels"]
            for v in k["variants"]]


def compile_fusion(config, source, work_dir, name):
    """fuserc -o and the library with the variant hook, in WORK_DIR/NAME.
    Returns (status, detail, build dict): status "ok", "refused" (exit 3,
    "cannot compile": a finding, not a bug of the generator), "reject" (exit
    1: the generator wrote an invalid fusion), "crash" (any other exit),
    "header_error" (the header does not build, or the manifest cannot be
    read). The build dict names the directory; each process reads the
    manifest itself."""
    try:
        built = harness.build(config.fuserc, source, work_dir, config.arch, ("-j", "1"),
                              hook=True, name=name)
    except harness.HarnessError as e:
        message = e.output.strip() or str(e)
        if e.exit_code == 3 and "cannot compile" in message:
            return "refused", message, None
        if e.exit_code == 1:
            return "reject", message, None
        if e.exit_code:
            return "crash", "fuserc exit %d: %s" % (e.exit_code, message), None
        # The compiler's first error first: the summary groups by first line.
        errors = [l.split("error:", 1)[1].strip() for l in str(e).splitlines() if "error:" in l]
        return "header_error", "\n".join(errors[:1] + [str(e)]), None
    return "ok", "", dict(source=source, name=name, out_dir=built.out_dir,
                          math_dtypes=math_dtypes(config, source),
                          variants=kernel_variants(built.manifest.path))


def fusion_spec(build):
    """The manifest entry of a build's fusion (fuserc-fuzzgen writes one)."""
    return fuserc.read_manifest(os.path.join(build["out_dir"], build["name"] +
                                             ".manifest.json")).fusions[0]


# ---------------------------------------------------------------------------
# Inputs.

def round_to_bf16(values):
    """float32 values rounded to the nearest bf16 (ties to even), as float32."""
    flat = np.atleast_1d(np.asarray(values, dtype=np.float32))
    bits = flat.view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000).astype(np.uint32)
    out = rounded.view(np.float32).copy()
    out[np.isnan(flat)] = np.nan
    return out.reshape(np.shape(values))


def _as_dtype(values, dtype):
    if dtype == "bf16":
        return round_to_bf16(values.astype(np.float32))
    return values.astype(NUMPY_EXCHANGE[dtype])


def random_input(spec, binding, rng):
    """One input (the manifest's Input) as the .npy array fuserc-interp
    reads (logical, C order)."""
    dtype = spec.dtype
    dims = [e.evaluate(binding["shape"]) for e in spec.shape] if spec.is_tensor else []
    ranges = binding.get("int_ranges", {})
    if dtype == "bool":
        return rng.integers(0, 2, dims).astype(np.bool_)
    if dtype in ("i32", "i64"):
        low, high = ranges.get(spec.name, (-50, 50))
        return rng.integers(low, high, dims).astype(NUMPY_EXCHANGE[dtype])
    values = np.asarray(rng.standard_normal(dims))
    # A scalar input special every time would make most outputs NaN.
    special = binding.get("special") and (spec.is_tensor or rng.random() < 0.3)
    if special and values.size:
        count = max(1, values.size // 50)
        where = rng.choice(values.size, size=min(count, values.size), replace=False)
        flat = values.reshape(-1)
        flat[where] = rng.choice(SPECIAL_VALUES, size=where.size)
    return _as_dtype(values, dtype)


def perturbed(spec, value, rng, direction=1.0):
    """The input moved by a relative PERTURBATION, or None for dtypes not
    moved; direction -1 moves every element the other way."""
    eps = PERTURBATION.get(spec.dtype)
    if eps is None:
        return None
    # A fixed size, a random sign: every element moves by the same few ulps.
    noise = 1.0 + direction * eps * rng.choice([-1.0, 1.0], np.shape(value))
    with np.errstate(invalid="ignore", over="ignore"):
        return _as_dtype(np.asarray(value, dtype=np.float64) * noise, spec.dtype)


def write_inputs(fusion_spec, binding, seed, index, in_dir, pert_dir, anti_dir):
    """Writes in_dir/<input>.npy, and pert_dir/<input>.npy: f32 and f64
    inputs moved a few ulps, the others as they are; anti_dir/<input>.npy
    moved the other way."""
    os.makedirs(in_dir, exist_ok=True)
    values = {}
    for spec in fusion_spec.inputs:
        rng = np.random.default_rng([seed, index, zlib.crc32(spec.name.encode())])
        values[spec.name] = random_input(spec, binding, rng)
        np.save(os.path.join(in_dir, spec.name + ".npy"), values[spec.name])
    for directory, direction in ((pert_dir, 1.0), (anti_dir, -1.0)):
        os.makedirs(directory, exist_ok=True)
        for spec in fusion_spec.inputs:
            rng = np.random.default_rng([seed, index, 7, zlib.crc32(spec.name.encode())])
            moved = perturbed(spec, values[spec.name], rng, direction)
            np.save(os.path.join(directory, spec.name + ".npy"),
                    values[spec.name] if moved is None else moved)


def run_interp(config, source, fusion, shape, in_dir, out_dir, extra=()):
    """fuserc-interp; returns None on success, else the reason."""
    cmd = [config.interp, source, "--fusion", fusion, "--inputs", in_dir, "--outputs", out_dir,
           *extra]
    for symbol, value in sorted(shape.items()):
        cmd += ["--shape", "%s=%d" % (symbol, value)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=INTERP_TIMEOUT)
    except subprocess.TimeoutExpired:
        return "fuserc-interp took more than %d s" % INTERP_TIMEOUT
    if proc.returncode != 0:
        return "fuserc-interp exit %d: %s" % (proc.returncode, proc.stderr.strip())
    return None


# The detail of a pass at a binding the fusion does not fit: the wrappers
# refused it as the interpreter did.
REFUSED_BOTH = "refused as the interpreter does: "


def reference_for(config, source, fusion_spec, binding, seed, index, case_dir,
                  inputs_from=None):
    """Inputs and reference outputs of one binding under case_dir/<index>/:
    in/, pert_in/, anti_in/, ref/ and the PERTURBED references. `inputs_from` reuses the input files of an
    earlier run (the minimizer). Returns the binding's record."""
    base = os.path.join(case_dir, str(index))
    dirs = {k: os.path.join(base, k) for k in ("in", "pert_in", "anti_in", "ref") + PERTURBED}
    record = dict(binding, index=index, dirs=dirs, status="ok", detail="")
    if inputs_from:
        for kind in ("in", "pert_in", "anti_in"):
            os.makedirs(dirs[kind], exist_ok=True)
            for spec in fusion_spec.inputs:
                shutil.copy(os.path.join(inputs_from[kind], spec.name + ".npy"), dirs[kind])
    else:
        write_inputs(fusion_spec, binding, seed, index, dirs["in"], dirs["pert_in"],
                     dirs["anti_in"])
    start = time.time()
    problem = run_interp(config, source, fusion_spec.name, binding["shape"], dirs["in"],
                         dirs["ref"])
    if problem:
        # A binding the fusion does not fit (a slice past a dim's end): the
        # wrappers must refuse it too (gpu/fuzz_gpu.py checks they do).
        record.update(status="binding_refused", detail=problem,
                      interp_s=round(time.time() - start, 2))
        return record
    # Three times: perturbed inputs and every computed value moved a few
    # ulps; the second moves each the other way (so an element one op makes
    # ill-conditioned is moved both ways), the third by an independent draw
    # of signs (a draw can cancel its own moves along a chain), with
    # differences that cancel to within their moves exactly 0.
    draw = (seed * 1000 + index) * 2
    for kind, inputs, size, signs, extra in (
            ("pert", "pert_in", 1, draw, ()), ("pert2", "anti_in", -1, draw, ()),
            ("pert3", "pert_in", 1, draw + 1, ("--perturb-cancel",))):
        if problem is None:
            problem = run_interp(config, source, fusion_spec.name, binding["shape"],
                                 dirs[inputs], dirs[kind],
                                 ("--perturb", repr(size * PERTURBATION["f32"]),
                                  "--perturb-seed", str(signs)) + extra)
    record["interp_s"] = round(time.time() - start, 2)
    if problem:
        record.update(status="interp_error", detail=problem)
    return record


def prepare_seed(config, seed):
    """Everything a seed needs before the GPU: the record of gpu/fuzz_diff.py."""
    start = time.time()
    case_dir = os.path.join(config.work, str(seed))
    shutil.rmtree(case_dir, ignore_errors=True)
    os.makedirs(case_dir)
    name = "f%d" % seed
    record = dict(seed=seed, fusion=name, status="ok", detail="", bindings=[], ops={},
                  dtypes={}, case_dir=case_dir)
    gen = subprocess.run([config.fuzzgen, "--seed", str(seed)], capture_output=True, text=True)
    bind = subprocess.run([config.fuzzgen, "--seed", str(seed), "--bindings", "--max-elements",
                           str(config.max_elements)], capture_output=True, text=True)
    if gen.returncode != 0 or bind.returncode != 0:
        record.update(status="crash", detail="fuserc-fuzzgen failed: " + gen.stderr + bind.stderr)
        return record
    source = os.path.join(case_dir, name + ".fus")
    with open(source, "w") as f:
        f.write(gen.stdout)
    record["source"] = source
    record["text"] = gen.stdout
    record["ops"] = ops_of(gen.stdout)
    bindings = json.loads(bind.stdout)[0]["bindings"]

    status, detail, build = compile_fusion(config, source, os.path.join(case_dir, "lib"), name)
    record["compile_s"] = round(time.time() - start, 2)
    if status != "ok":
        record.update(status=status, detail=detail)
        return record
    record["build"] = build
    spec = fusion_spec(build)
    for kind, values in (("in", spec.inputs), ("out", spec.outputs)):
        for value in values:
            key = "%s %s" % (kind, value.dtype)
            record["dtypes"][key] = record["dtypes"].get(key, 0) + 1
    if not bindings:
        record.update(status="no_binding",
                      detail="no binding gives every extent a value within %d elements"
                      % config.max_elements)
        return record
    for index, binding in enumerate(bindings):
        record["bindings"].append(reference_for(config, source, spec, binding, seed, index,
                                                case_dir))
    return record


def prepare_candidate(config, text, seed, binding, cand_dir):
    """A smaller fusion of the minimizer (gpu/fuzz_minimize.py) compiled, with
    the inputs of the mismatching binding (those it still declares) and its
    references."""
    shutil.rmtree(cand_dir, ignore_errors=True)
    os.makedirs(cand_dir)
    name = "f%d" % seed
    source = os.path.join(cand_dir, name + ".fus")
    with open(source, "w") as f:
        f.write(text)
    status, _, build = compile_fusion(config, source, os.path.join(cand_dir, "lib"), name)
    if status != "ok":
        return dict(status=status)
    spec = fusion_spec(build)
    inputs_from = {k: binding["dirs"][k] for k in ("in", "pert_in", "anti_in")}
    plain = {k: v for k, v in binding.items() if k in ("label", "shape", "int_ranges",
                                                        "special", "elements")}
    record = reference_for(config, source, spec, plain, seed, 0, cand_dir, inputs_from)
    if record["status"] != "ok":
        return dict(status=record["status"])
    return dict(status="ok", build=build, binding=record)


# ---------------------------------------------------------------------------
# Comparison.

def _as_float64(array):
    return np.asarray(array).astype(np.float64)


def compare(name, dtype, got, want, perts, math_dtype=None):
    """Compares an output (a NumPy array, bool as uint8 or bool) with the
    reference `want` and the references of perturbed runs `perts` (a list).
    Returns (problem or None, elements excused). A float output computed in
    a narrower `math_dtype` gets that dtype's tolerance.

    Elements outside the tolerance of gpu/README.md fail, except where the
    reference itself is ill-conditioned: where a perturbation changed a
    bool or integer, flipped NaN, or moved a float by `noise` (the largest
    move), a float may differ by NOISE_FACTOR * noise more, or by anything
    where `noise` exceeds CHAOTIC of its value, or be NaN or +-inf where the
    references straddle zero (excused, and counted)."""
    perts = list(perts or [])
    if list(np.shape(got)) != list(np.shape(want)):
        return "%s: shape %s, reference %s" % (name, list(np.shape(got)),
                                              list(np.shape(want))), 0
    if dtype in ("bool", "i32", "i64"):
        g = np.asarray(got).astype(np.int64)
        w = np.asarray(want).astype(np.int64)
        bad = g != w
        excused = None
        for pert in perts:
            moved = bad & (w != np.asarray(pert).astype(np.int64))
            excused = moved if excused is None else excused | moved
    else:
        g, w = _as_float64(got), _as_float64(want)
        rtol, atol = TOLERANCES[math_dtype or dtype]
        finite = w[np.isfinite(w)]
        scale = max(1.0, float(np.abs(finite).max())) if finite.size else 1.0
        with np.errstate(invalid="ignore", over="ignore"):
            allowed = atol * scale + rtol * np.abs(w)
            close = (g == w) | (np.abs(g - w) <= allowed)
            bad = ~(close | (np.isnan(g) & np.isnan(w)))
            excused = None
            if perts and bad.any():
                noise = np.zeros(np.shape(w))
                for pert in perts:
                    p = _as_float64(pert)
                    same = (p == w) | (np.isnan(p) & np.isnan(w))
                    moved = np.where(same, 0.0, np.abs(p - w))
                    noise = np.maximum(noise, np.where(np.isnan(moved), np.inf, moved))
                excused = bad & (noise > 0) & (np.abs(g - w) <= allowed + NOISE_FACTOR * noise)
                excused |= bad & np.isinf(noise)
                excused |= bad & (noise > CHAOTIC * np.maximum(np.abs(w), atol * scale))
                # A value whose sign rounding decides (its references straddle
                # zero) may be an exact 0 in a kernel, and a quotient by it
                # NaN or +-inf there.
                low, high = w.copy(), w.copy()
                for pert in perts:
                    p = _as_float64(pert)
                    low, high = np.fmin(low, p), np.fmax(high, p)
                excused |= bad & ~np.isfinite(g) & (low < 0) & (high > 0)
    if excused is not None:
        bad = bad & ~excused
    excused_count = int(excused.sum()) if excused is not None else 0
    count = int(bad.sum())
    if count == 0:
        return None, excused_count
    where = np.argwhere(bad)[:5]
    samples = []
    for i in where:
        i = tuple(int(v) for v in i)
        text = "%s: got %s want %s" % (list(i), g[i], w[i])
        if perts:
            text += " (perturbed %s)" % ", ".join(str(np.asarray(p)[i]) for p in perts)
        samples.append(text)
    return ("%s: %d of %d elements differ (%s)" % (name, count, bad.size, ", ".join(samples)),
            excused_count)


def binding_text(binding):
    shape = ",".join("%s=%d" % kv for kv in sorted(binding["shape"].items())) or "-"
    return "%s %s%s" % (binding["label"], shape, " (special values)" if binding["special"] else "")
