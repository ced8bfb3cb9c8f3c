"""Loading fuserc's generated kernels into Python through ctypes.

Shared by the GPU tests (gpu/run_tests.py) and the benchmarks (bench/run.py).
It runs `fuserc FILE -o DIR`, compiles the generated NAME.c into a shared
library (one C file that includes it, with the testing hook when asked for),
reads the per-fusion prototypes from the header (docs/header.md), and calls
NAME_F_describe_outputs / _workspace_size / _launch with DLTensor structures
built here with ctypes from PyTorch tensors.

Importing this module needs neither PyTorch nor a GPU: the compile, build
and header-parsing steps run anywhere (the harnesses' --dry-run uses them).
"""
import ctypes
import json
import os
import re
import shutil
import subprocess
import sys

# DLPack's C layout (dlpack.h): DLDevice, DLDataType, DLTensor.
KDL_CPU = 1
KDL_CUDA = 2
KDL_INT, KDL_FLOAT, KDL_BFLOAT, KDL_BOOL = 0, 2, 4, 6

# DLPack's structures and the status codes are the Python package's
# (python/fuserc/).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "python"))
from fuserc._dlpack import DLDataType, DLDevice, DLTensor  # noqa: E402,F401
from fuserc._errors import Status  # noqa: E402

STATUS_NAMES = {s.value: s.name for s in Status}
STATUS_OK = 0
STATUS_INVALID_ARGUMENT = 1


# Fusion dtype -> DLPack code and bits. Bool is kDLBool (DLPack 0.8), which
# the header defines itself for older dlpack.h; it also accepts kDLUInt 8.
DTYPE_BITS = {"bool": 8, "i32": 32, "i64": 64, "f16": 16, "bf16": 16, "f32": 32, "f64": 64}
DTYPE_CODES = {"bool": KDL_BOOL, "i32": KDL_INT, "i64": KDL_INT, "f16": KDL_FLOAT,
               "bf16": KDL_BFLOAT, "f32": KDL_FLOAT, "f64": KDL_FLOAT}

# C parameter types of the generated functions -> ctypes.
C_TYPES = {
    "const DLTensor *": ctypes.POINTER(DLTensor),
    "DLTensor *": ctypes.POINTER(DLTensor),
    "float": ctypes.c_float,
    "double": ctypes.c_double,
    "int32_t": ctypes.c_int32,
    "int64_t": ctypes.c_int64,
    "void *": ctypes.c_void_p,
    "size_t": ctypes.c_size_t,
    "size_t *": ctypes.POINTER(ctypes.c_size_t),
    "CUstream": ctypes.c_void_p,
}


class FusercError(Exception):
    """fuserc, fuserc-interp or the C compiler failed, or the header does not
    match the fusion; the text says why."""


def short_reason(text, width=110):
    """One line for a summary table: fuserc's "cannot be compiled yet" notes
    when there are any (they name the segment and scheduler), else the first
    line."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    notes = [line.split("note: ", 1)[-1] for line in lines if "cannot be compiled yet" in line]
    segments = re.findall(r"fusion '(\w+)', segment (\d+) .*? is scheduled as '(\w+)'.*? yet",
                          text)
    if segments:
        notes = ["%s segment %s: no '%s' kernels yet" % s for s in segments]
    line = "; ".join(notes) if notes else (lines[0] if lines else "")
    return line if len(line) <= width else line[:width - 3] + "..."


def sanitize_name(stem):
    """A C identifier for the library name fuserc is given (--name)."""
    name = re.sub(r"[^A-Za-z0-9_]", "_", stem)
    return "_" + name if name[0].isdigit() else name


def run_fuserc(fuserc, source, out_dir, name, archs="sm_90", extra=()):
    """Runs `fuserc SOURCE -o OUT_DIR --name NAME` into an emptied OUT_DIR (no
    stale header can survive a failure); returns (returncode, its messages)."""
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    cmd = [fuserc, source, "-o", out_dir, "--name", name, "--arch", archs, *extra]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    return proc.returncode, (proc.stderr + proc.stdout).strip()


# The header's testing hook (docs/header.md, "Testing hook"), defined for a
# library built with variant_hook=True: fuserc_test_set(pick) makes every
# launch block with more than `pick` alternatives force alternative `pick`
# (-1: none); afterwards fuserc_test_most() is the most alternatives a block
# offered and fuserc_test_name(i) the i-th of fuserc_test_count() kernels
# launched.
VARIANT_HOOK_C = r"""
static int hook_pick = -1, hook_most = 0, hook_count = 0;
static const char *hook_names[256];
int fuserc_test_variant(const char *kernel, int alternatives) {
  (void)kernel;
  if (alternatives > hook_most)
    hook_most = alternatives;
  return hook_pick < alternatives ? hook_pick : -1;
}
void fuserc_test_launched(const char *kernel) {
  if (hook_count < 256)
    hook_names[hook_count++] = kernel;
}
void fuserc_test_set(int pick) { hook_pick = pick; hook_count = 0; }
int fuserc_test_most(void) { return hook_most; }
int fuserc_test_count(void) { return hook_count; }
const char *fuserc_test_name(int i) { return i >= 0 && i < hook_count ? hook_names[i] : 0; }
"""


def build_shared_library(out_dir, name, dlpack_include, cuda_home="/usr/local/cuda", cc="gcc",
                         variant_hook=False):
    """Compiles OUT_DIR/NAME.c (the implementation of NAME.h) into
    OUT_DIR/libNAME.so; with variant_hook, with the testing hook
    (VARIANT_HOOK_C) compiled in."""
    impl = os.path.join(out_dir, name + "_impl.c")
    with open(impl, "w") as f:
        if variant_hook:
            f.write("#define FUSERC_TEST_VARIANTS\n")
        f.write("#include \"%s.c\"\n" % name)
        if variant_hook:
            f.write(VARIANT_HOOK_C)
    lib = os.path.join(out_dir, "lib%s.so" % name)
    # -Bsymbolic: each library's launches call its own hook, whatever else is loaded.
    cmd = [cc, "-shared", "-fPIC", "-O2", "-std=c99", "-Wall", "-x", "c", impl,
           "-I", out_dir, "-I", dlpack_include, "-I", os.path.join(cuda_home, "include"),
           "-L", os.path.join(cuda_home, "lib64", "stubs"), "-lcuda", "-Wl,-Bsymbolic", "-o", lib]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise FusercError("compiling %s.c failed:\n%s\n%s" % (name, " ".join(cmd), proc.stderr))
    return lib


def manifest_output_kinds(manifest, fusion):
    """{output name: "new_buffer" | "view" | "in_place"} from NAME.manifest.json
    (docs/manifest.md), or {} when there is no manifest or it says nothing."""
    for entry in (manifest or {}).get("fusions", []):
        if entry.get("name") == fusion:
            return {o["name"]: o["kind"] for o in entry.get("outputs", []) if "kind" in o}
    return {}


def interp_signature(interp, source):
    """The fusions of SOURCE as `fuserc-interp --signature` prints them."""
    proc = subprocess.run([interp, source, "--signature"], capture_output=True, text=True)
    if proc.returncode != 0:
        raise FusercError("fuserc-interp --signature %s failed:\n%s" % (source, proc.stderr))
    return json.loads(proc.stdout)["fusions"]


def read_manifest(out_dir, name):
    """NAME.manifest.json as a dict, or None when fuserc wrote none."""
    path = os.path.join(out_dir, name + ".manifest.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


# ---------------------------------------------------------------------------
# Header parsing: the prototypes of NAME_F_describe_outputs, _workspace_size
# and _launch, in the order the header declares their parameters.

class Param:
    """One C parameter: its name and normalised type (a key of C_TYPES)."""

    def __init__(self, text):
        tokens = text.replace("*", " * ").split()
        if len(tokens) < 2:
            raise FusercError("cannot read the parameter '%s'" % text.strip())
        self.name = tokens[-1]
        words = [t for t in tokens[:-1] if t != "*"]
        self.ctype = " ".join(words) + " *" * (len(tokens) - 1 - len(words))
        if self.ctype not in C_TYPES:
            raise FusercError("unexpected parameter type '%s' for '%s'" % (self.ctype, self.name))

    @property
    def is_tensor(self):
        return self.ctype.endswith("DLTensor *")

    @property
    def is_input_tensor(self):
        return self.ctype == "const DLTensor *"

    @property
    def is_scalar(self):
        return self.ctype in ("float", "double", "int32_t", "int64_t")

    def __repr__(self):
        return ("%s%s" if self.ctype.endswith("*") else "%s %s") % (self.ctype, self.name)


def _strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def parse_header(text, name):
    """{fusion: {"launch"|"describe_outputs"|"workspace_size": [Param]}} and the
    output ranks {fusion: {o: rank}} from the NAME_F_OUTPUT_<o>_RANK macros."""
    code = _strip_comments(text)
    functions = {}
    pattern = re.compile(r"\b%s_status\s+%s_(\w+?)_(launch|describe_outputs|workspace_size)"
                         r"\s*\(([^)]*)\)" % (re.escape(name), re.escape(name)))
    for match in pattern.finditer(code):
        fusion, kind, params = match.group(1), match.group(2), match.group(3).strip()
        entry = functions.setdefault(fusion, {})
        if kind not in entry:  # the declaration; a definition repeats it
            entry[kind] = [] if params in ("", "void") else [Param(p) for p in params.split(",")]
    ranks = {}
    rank_macro = r"#\s*define\s+%s_(\w+?)_OUTPUT_(\d+)_RANK\s+\(?(\d+)" % re.escape(name)
    for match in re.finditer(rank_macro, text):
        ranks.setdefault(match.group(1), {})[int(match.group(2))] = int(match.group(3))
    return functions, ranks


# ---------------------------------------------------------------------------
# DLTensors from PyTorch tensors, and the calls.

def torch_dtype(dtype):
    """The torch dtype of a fusion dtype."""
    import torch
    return {"bool": torch.bool, "i32": torch.int32, "i64": torch.int64, "f16": torch.float16,
            "bf16": torch.bfloat16, "f32": torch.float32, "f64": torch.float64}[dtype]


def fusion_dtype(torch_dt):
    """The fusion dtype name of a torch dtype."""
    import torch
    return {torch.bool: "bool", torch.int32: "i32", torch.int64: "i64", torch.float16: "f16",
            torch.bfloat16: "bf16", torch.float32: "f32", torch.float64: "f64"}[torch_dt]


def dl_dtype(dtype):
    """The DLDataType of a fusion dtype."""
    return DLDataType(DTYPE_CODES[dtype], DTYPE_BITS[dtype], 1)


class TensorArg:
    """A DLTensor describing a torch tensor, with the arrays it points at
    kept alive. `struct` may be edited (the validation tests do)."""

    def __init__(self, tensor, rank=None):
        self.tensor = tensor
        ndim = tensor.dim() if tensor is not None else rank
        self.shape = (ctypes.c_int64 * max(ndim, 1))()
        self.strides = (ctypes.c_int64 * max(ndim, 1))()
        self.struct = DLTensor()
        self.struct.shape = self.shape
        self.struct.strides = self.strides
        if tensor is None:  # an output for describe_outputs to fill in
            return
        self.shape[:ndim] = list(tensor.shape)
        self.strides[:ndim] = list(tensor.stride())
        self.struct.data = tensor.data_ptr() or None
        self.struct.device = DLDevice(KDL_CUDA if tensor.is_cuda else KDL_CPU,
                                      tensor.device.index or 0)
        self.struct.ndim = ndim
        self.struct.dtype = dl_dtype(fusion_dtype(tensor.dtype))
        self.struct.byte_offset = 0

    def described(self):
        """(shape, strides, data or None, byte_offset) as describe_outputs left them."""
        n = self.struct.ndim
        return (list(self.shape[:n]), list(self.strides[:n]), self.struct.data,
                self.struct.byte_offset)


SCALAR_CTYPES = {"bool": ctypes.c_int32, "i32": ctypes.c_int32, "i64": ctypes.c_int64,
                 "f16": ctypes.c_float, "bf16": ctypes.c_float, "f32": ctypes.c_float,
                 "f64": ctypes.c_double}


def _match_inputs(fusion, kind, inputs, params):
    """Pairs each input with its parameter of `kind`, in order. Scalars may be
    absent (describe_outputs and workspace_size need no scalar values)."""
    matched, p = [], 0
    for spec in inputs:
        if p < len(params) and (params[p].is_scalar if spec["scalar"]
                                else params[p].is_input_tensor):
            matched.append((spec, params[p]))
            p += 1
        elif not spec["scalar"]:
            raise FusercError("%s_%s: no parameter for tensor input '%s' (parameters: %s)"
                              % (fusion, kind, spec["name"], params))
    return matched


def _c_argument(param, value):
    if param.is_tensor:
        return None if value is None else ctypes.pointer(value.struct)
    return C_TYPES[param.ctype](value)


TRAILING_PARAMS = {"describe_outputs": 0, "workspace_size": 1, "launch": 3}


def match_prototypes(library_name, fusion_name, functions, spec):
    """{kind: [(input spec, Param)]} for the three entry points of a fusion,
    checked against its signature: the launch takes every input, then every
    output, then workspace, workspace bytes and stream; describe_outputs every
    tensor input (scalars optional), then the outputs; workspace_size the
    tensor inputs (scalars optional), then `size_t *`. Raises FusercError."""
    matched_by_kind = {}
    for kind, trailing in TRAILING_PARAMS.items():
        symbol = "%s_%s_%s" % (library_name, fusion_name, kind)
        params = functions.get(kind)
        if params is None:
            raise FusercError("%s.h declares no %s" % (library_name, symbol))
        matched = _match_inputs(fusion_name, kind, spec["inputs"], params)
        outputs = len(spec["outputs"]) if kind != "workspace_size" else 0
        if len(matched) + outputs + trailing != len(params) or (
                kind == "launch" and len(matched) != len(spec["inputs"])):
            raise FusercError("%s has parameters %s; the fusion has %d inputs and %d outputs"
                              % (symbol, params, len(spec["inputs"]), len(spec["outputs"])))
        matched_by_kind[kind] = matched
    return matched_by_kind


class Fusion:
    """One fusion's three entry points in a loaded library, with its
    signature (from fuserc-interp) to tell inputs, scalars and outputs apart.
    Inputs are passed as {input name: TensorArg, or a number for a scalar}."""

    def __init__(self, library, name, functions, signature, ranks):
        self.library = library
        self.name = name
        self.inputs = signature["inputs"]
        self.outputs = signature["outputs"]
        self.ranks = ranks
        self._input_params = match_prototypes(library.name, name, functions, signature)
        self._fn = {}
        for kind in TRAILING_PARAMS:
            fn = getattr(library.cdll, "%s_%s_%s" % (library.name, name, kind))
            fn.restype = ctypes.c_int
            fn.argtypes = [C_TYPES[p.ctype] for p in functions[kind]]
            self._fn[kind] = fn

    def output_rank(self, index):
        return self.ranks.get(index, len(self.outputs[index]["shape"]))

    def _input_args(self, kind, inputs):
        return [_c_argument(param, inputs[spec["name"]])
                for spec, param in self._input_params[kind]]

    def _call(self, kind, args):
        status = self._fn[kind](*args)
        return status, (self.library.last_error() if status != STATUS_OK else "")

    def describe_outputs(self, inputs):
        """(status, message, [TensorArg]) with each output's shape and strides filled in."""
        outs = [TensorArg(None, self.output_rank(i))
                for i in range(len(self.outputs))]
        args = self._input_args("describe_outputs", inputs)
        args += [ctypes.pointer(o.struct) for o in outs]
        status, message = self._call("describe_outputs", args)
        return status, message, outs

    def workspace_size(self, inputs):
        """(status, message, bytes)."""
        size = ctypes.c_size_t(0)
        args = self._input_args("workspace_size", inputs) + [ctypes.pointer(size)]
        status, message = self._call("workspace_size", args)
        return status, message, size.value

    def launch(self, inputs, outputs, workspace_ptr, workspace_bytes, stream):
        """(status, message). `outputs`: [TensorArg] in output order; `stream`: a
        CUstream handle as an int (0: the legacy default stream)."""
        args = self._input_args("launch", inputs)
        args += [None if o is None else ctypes.pointer(o.struct) for o in outputs]
        args += [workspace_ptr or None, workspace_bytes, stream or None]
        return self._call("launch", args)


class Build:
    """What `fuserc -o` and the C compiler produced for one fusion file."""

    def __init__(self, source, name, out_dir, signature, lib_path):
        self.source = source
        self.name = name
        self.out_dir = out_dir
        self.signature = signature
        self.lib_path = lib_path
        with open(os.path.join(out_dir, name + ".h")) as f:
            self.header_text = f.read()
        self.functions, self.ranks = parse_header(self.header_text, name)
        missing = [f["name"] for f in signature if f["name"] not in self.functions]
        if missing:
            raise FusercError("%s.h has no functions for fusion(s) %s (it has: %s)"
                              % (name, ", ".join(missing), ", ".join(sorted(self.functions))))
        self.manifest = read_manifest(out_dir, name)


def build(fuserc, interp, source, work_dir, dlpack_include, archs="sm_90",
          cuda_home="/usr/local/cuda", extra=()):
    """Runs fuserc -o and compiles the header; returns a Build. Raises
    FusercError, with `.skipped` True when fuserc refused the source with a
    message saying what it cannot do *yet* ("does not generate 'reduction'
    kernels yet"); any other refusal, a crash, or a header that does not
    compile is a failure."""
    name = sanitize_name(os.path.splitext(os.path.basename(source))[0])
    out_dir = os.path.join(work_dir, name)
    signature = interp_signature(interp, source)
    code, message = run_fuserc(fuserc, source, out_dir, name, archs, extra)
    if code != 0:
        error = FusercError("fuserc (exit %d): %s" % (code, message.replace("fuserc: error: ", "")))
        error.skipped = code > 0 and re.search(r"\byet\b", message) is not None
        raise error
    lib_path = build_shared_library(out_dir, name, dlpack_include, cuda_home)
    return Build(source, name, out_dir, signature, lib_path)


class VariantHook:
    """Forces launch blocks' alternatives in a library built with the hook."""

    def __init__(self, cdll):
        self._set = cdll.fuserc_test_set
        self._set.argtypes, self._set.restype = [ctypes.c_int], None
        self._most = cdll.fuserc_test_most
        self._most.argtypes, self._most.restype = [], ctypes.c_int
        self._count = cdll.fuserc_test_count
        self._count.argtypes, self._count.restype = [], ctypes.c_int
        self._name = cdll.fuserc_test_name
        self._name.argtypes, self._name.restype = [ctypes.c_int], ctypes.c_char_p

    def force(self, pick):
        """From the next launch on, alternative `pick` of each block (-1: none)."""
        self._set(pick)

    def most(self):
        """The most alternatives any launch block offered so far."""
        return self._most()

    def launched(self):
        """The kernels launched since the last force(), in order."""
        return [self._name(i).decode() for i in range(self._count())]


class Library:
    """A Build loaded into the process: `fusions` maps each fusion's name to
    a Fusion. Load it after PyTorch has initialised CUDA, so that the launch
    runs in PyTorch's (primary) context."""

    def __init__(self, built):
        self.name = built.name
        self.build = built
        self.cdll = ctypes.CDLL(built.lib_path)
        self._last_error = getattr(self.cdll, built.name + "_last_error")
        self._last_error.restype = ctypes.c_char_p
        self._last_error.argtypes = []
        self.fusions = {spec["name"]: Fusion(self, spec["name"], built.functions[spec["name"]],
                                             spec, built.ranks.get(spec["name"], {}))
                        for spec in built.signature}

    def variant_hook(self):
        """The testing hook's controls (VARIANT_HOOK_C), or None when the
        library was built without it."""
        if not hasattr(self.cdll, "fuserc_test_set"):
            return None
        return VariantHook(self.cdll)

    def last_error(self):
        message = self._last_error()
        return message.decode("utf-8", "replace") if message else ""
