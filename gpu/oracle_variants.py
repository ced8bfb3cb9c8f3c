"""The vocabulary of gpu/oracle_check.py's table (gpu/torch_ops.py): the
dtypes and the ones each dtype rule of ops.td accepts, the special values of
each dtype, and the objects an entry is made of: Input (a fusion input and
its values), Variant (one op call and the PyTorch expression it must match),
OpEntry (an op's variants per dtype and how its reference departs from
plain PyTorch) and Gen (deterministic input values).

Importable without PyTorch; making values needs it.
"""
try:
    import torch
except ImportError:  # oracle_check.py --list needs neither PyTorch nor NumPy
    torch = None

import harness  # noqa: F401 (puts python/ on the path)
from fuserc import torch_dtype


DTYPES = ("bool", "i32", "i64", "f16", "bf16", "f32", "f64")


FLOATS = ("f16", "bf16", "f32", "f64")


INTEGRAL = ("bool", "i32", "i64")


# The input dtypes each dtype rule of ops.td accepts (for the first operand;
# an OpEntry may narrow or widen this, saying why).
RULE_DTYPES = {
    "Promote": DTYPES, "PromoteFloat": DTYPES, "PromoteToBool": DTYPES,
    "PromoteIntegral": INTEGRAL, "Where": DTYPES, "FromAttr": DTYPES, "SameAsFirst": DTYPES,
    "SameFloat": FLOATS, "Reduce": DTYPES, "ReduceKeep": DTYPES, "ReduceFloat": FLOATS,
    "Index": DTYPES,
}


INF = float("inf")


NAN = float("nan")


# Values every op should be tried on, per dtype (rounded to the dtype when
# used): signed zeros, infinities, NaN, the largest and smallest normal and
# subnormal magnitudes, ties for rounding, integer limits.
SPECIAL = {
    "f32": [0.0, -0.0, INF, -INF, NAN, 1.0, -1.0, 0.5, -0.5, 2.5, -3.5, 7.25, 100.0, 1e30,
            -1e30, 1e-30, 1.1754943508222875e-38, 1e-40, -1.401298464324817e-45,
            3.4028234663852886e38],
    "f64": [0.0, -0.0, INF, -INF, NAN, 1.0, -1.0, 0.5, -0.5, 2.5, -3.5, 7.25, 100.0, 1e300,
            -1e300, 1e-300, 2.2250738585072014e-308, 1e-310, -5e-324, 1.7976931348623157e308],
    "f16": [0.0, -0.0, INF, -INF, NAN, 1.0, -1.0, 0.5, -0.5, 2.5, -3.5, 7.25, 100.0, 1000.0,
            -30000.0, 0.1, 6.103515625e-05, 1e-6, -5.960464477539063e-08, 65504.0],
    "bf16": [0.0, -0.0, INF, -INF, NAN, 1.0, -1.0, 0.5, -0.5, 2.5, -3.5, 7.25, 100.0, 1e30,
             -1e30, 1e-30, 1.1754943508222875e-38, 1e-40, -9.183549615799121e-41, 3.3895e38],
    "i32": [0, 1, -1, 2, -2, 7, -7, 100, -100, 65536, -65535, 2**31 - 1, -2**31],
    "i64": [0, 1, -1, 2, -2, 7, -7, 100, -100, 2**31, -2**31 - 1, 2**53 + 1, 2**63 - 1, -2**63],
    "bool": [False, True],
}


# A second dtype per dtype, for the mixed-dtype (type promotion) variants.
PARTNER = {"bool": "i32", "i32": "i64", "i64": "f16", "f16": "bf16", "bf16": "f32",
           "f32": "f64", "f64": "i32"}


INTEGRAL_PARTNER = {"bool": "i32", "i32": "i64", "i64": "bool"}


def is_float(dtype):
    return dtype in FLOATS


def tdt(dtype):
    return torch_dtype(dtype)


class Input:
    """A fusion input: `input NAME: DTYPE[SHAPE]`, or a scalar input
    (`input NAME: DTYPE`) when `scalar`; `tensor` holds its values, exactly
    representable in the dtype. `dims` declares the shape with symbols
    (strings) where given; the tensor's shape binds them."""

    def __init__(self, name, dtype, tensor, scalar=False, dims=None):
        self.name, self.dtype, self.tensor, self.scalar = name, dtype, tensor, scalar
        self.dims = dims

    def symbols(self):
        return [d for d in self.dims or () if isinstance(d, str)]

    def declaration(self, prefix):
        if self.scalar:
            return "input %s%s: %s" % (prefix, self.name, self.dtype)
        dims = self.dims or list(self.tensor.shape)
        text = ", ".join(prefix + d if isinstance(d, str) else str(d) for d in dims)
        return "input %s%s: %s[%s]" % (prefix, self.name, self.dtype, text)


class Variant:
    """One op call: `call` is a format string over {op} and the input
    names; `ref(*tensors)`, called with the inputs in order, is the PyTorch
    expression it must match; `tolerance` overrides the entry's."""

    def __init__(self, name, call, inputs, ref, tolerance=None):
        self.name, self.call, self.inputs, self.ref = name, call, inputs, ref
        self.tolerance = tolerance

    def expression(self, op, prefix):
        """The call with the inputs' names and symbols prefixed (several
        variants share one fusion)."""
        names = {i.name: prefix + i.name for i in self.inputs}
        names.update((s, prefix + s) for i in self.inputs for s in i.symbols())
        return self.call.format(op=op, **names)


class OpEntry:
    """`variants(dtype, gen)`: the variants of one input dtype; `note`: how
    fuserc's semantics differ from PyTorch's and how `ref` encodes them;
    `dtypes`: the accepted input dtypes when not those of the op's rule;
    `tolerance`, how floating-point outputs are compared:
      "output"   the GPU tests' rule: atol scaled by max(1, max |reference|)
                 of the whole output (reductions, composites);
      "element"  atol scaled by max(1, |reference|) of each element, for ops
                 whose output element depends on the same input element only
                 (a 1e30 in the output must not hide an error beside it);
      "exact"    bit for bit but for the sign of zero, for ops that only move
                 or convert values exactly (shape, indexing, creation ops)."""

    def __init__(self, variants, note="", dtypes=None, tolerance="output"):
        self.variants, self.note, self.dtypes = variants, note, dtypes
        self.tolerance = tolerance

    def accepted(self, rule):
        return self.dtypes if self.dtypes is not None else RULE_DTYPES[rule]


class Gen:
    """Deterministic input values for one (op, dtype) cell."""

    def __init__(self, seed):
        self.g = torch.Generator().manual_seed(seed)

    def tensor(self, dtype, shape, lo=-4.0, hi=4.0):
        shape = tuple(shape)
        if dtype == "bool":
            return torch.randint(0, 2, shape, generator=self.g).bool()
        if dtype in ("i32", "i64"):
            return torch.randint(int(lo), int(hi) + 1, shape, generator=self.g).to(tdt(dtype))
        u = torch.rand(shape, generator=self.g, dtype=torch.float64)
        return (u * (hi - lo) + lo).to(tdt(dtype))

    def random(self, name, dtype, shape, lo=-4.0, hi=4.0, scalar=False, dims=None):
        return Input(name, dtype, self.tensor(dtype, shape, lo, hi), scalar, dims)

    def special(self, name, dtype, roll=0, shape=None):
        """Every special value of the dtype, rolled by `roll`, as a 1-D tensor
        (or reshaped to `shape`)."""
        values = SPECIAL[dtype]
        values = values[roll % len(values):] + values[:roll % len(values)]
        t = exact(values, dtype)
        return Input(name, dtype, t if shape is None else t.reshape(shape))

    def mixed(self, name, dtype, shape, lo=-4.0, hi=4.0, dims=None):
        """Random values with the dtype's special values at the start."""
        t = self.tensor(dtype, shape, lo, hi).flatten()
        s = exact(SPECIAL[dtype], dtype)[:t.numel()]
        t[:s.numel()] = s
        return Input(name, dtype, t.reshape(shape), dims=dims)

    def index(self, name, dtype, shape, high):
        return Input(name, dtype, torch.randint(0, high, tuple(shape), generator=self.g)
                     .to(tdt(dtype)))


def exact(values, dtype, shape=None):
    """A tensor of `dtype` holding `values` (rounded once to the dtype)."""
    if dtype == "bool":
        t = torch.tensor(values, dtype=torch.bool)
    elif dtype in ("i32", "i64"):
        t = torch.tensor(values, dtype=torch.int64).to(tdt(dtype))
    else:
        t = torch.tensor(values, dtype=torch.float64).to(tdt(dtype))
    return t if shape is None else t.reshape(shape)


def literal(value):
    """A number as the fusion text writes it (an int stays an int literal)."""
    return repr(value) if isinstance(value, float) else str(value)
