"""The PyTorch side of gpu/oracle_check.py: for every op of ops.td, the
one-op fusions that exercise it for one input dtype ("variants": shapes,
attributes, special values) and the PyTorch expression each one must match.

TABLE maps an op name to an OpEntry. An entry's `variants(dtype, gen)`
returns Variant objects: the op call (a format string over `{op}` and the
input names), the inputs (with their values) and `ref`, the PyTorch
expression over the inputs as tensors. Where fuserc's documented semantics
differ from PyTorch's (PyTorch has no such dtype, an error where fuserc
defines a value, a different NaN rule), `ref` encodes fuserc's semantics
explicitly with PyTorch ops and the entry's `note` says why; nothing is
skipped silently.

Importable without PyTorch or NumPy (`oracle_check.py --list` only needs the
table's keys); building variants needs PyTorch.
"""
import math

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # --list needs neither
    torch = F = None

import fuserc_loader as loader

DTYPES = ("bool", "i32", "i64", "f16", "bf16", "f32", "f64")
FLOATS = ("f16", "bf16", "f32", "f64")
INTEGRAL = ("bool", "i32", "i64")

# The input dtypes each dtype rule of ops.td accepts (for the first operand;
# an OpEntry may narrow or widen this, saying why).
RULE_DTYPES = {
    "Promote": DTYPES, "PromoteFloat": DTYPES, "PromoteToBool": DTYPES,
    "PromoteIntegral": INTEGRAL, "Where": DTYPES, "FromAttr": DTYPES, "SameAsFirst": DTYPES,
    "SameFloat": FLOATS, "Reduce": DTYPES, "ReduceKeep": DTYPES, "ReduceFloat": FLOATS,
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
    return loader.torch_dtype(dtype)


# ---------------------------------------------------------------------------
# Inputs, variants, entries.

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
    expression it must match."""

    def __init__(self, name, call, inputs, ref):
        self.name, self.call, self.inputs, self.ref = name, call, inputs, ref

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
    `per_element`: each output element is a function of the same element of
    the inputs, so the tolerances' atol is scaled by max(1, |reference|) per
    element rather than per output (a special value of 1e30 in the output
    must not hide an error in its neighbours)."""

    def __init__(self, variants, note="", dtypes=None, per_element=False):
        self.variants, self.note, self.dtypes = variants, note, dtypes
        self.per_element = per_element

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


# ---------------------------------------------------------------------------
# fuserc semantics PyTorch does not have, written with PyTorch ops.

def saturating_cast(x, dtype):
    """cast to an integer dtype from floating point as ops.td defines it:
    truncation toward zero, saturating at the dtype's limits, NaN gives 0
    (PyTorch leaves out-of-range and NaN conversions undefined)."""
    target = tdt(dtype)
    if not x.dtype.is_floating_point or target in (torch.bool,) or target.is_floating_point:
        return x.to(target)
    info = torch.iinfo(target)
    t = torch.trunc(x.double())
    # The largest double below 2^63 (2^63 - 1024) still converts to int64.
    safe = torch.nan_to_num(t, nan=0.0).clamp(float(info.min), min(float(info.max),
                                                                   2.0**63 - 1024))
    out = safe.to(torch.int64)
    out = torch.where(t >= float(info.max), torch.full_like(out, info.max), out)
    out = torch.where(t <= float(info.min), torch.full_like(out, info.min), out)
    return torch.where(torch.isnan(t), torch.zeros_like(out), out).to(target)


def result_type(*values):
    """torch.result_type over any number of tensors and numbers (pairwise,
    keeping whether a dimensioned tensor took part)."""
    rep = values[0]
    for v in values[1:]:
        dt = torch.result_type(rep, v)
        dimensioned = any(torch.is_tensor(t) and t.dim() > 0 for t in (rep, v))
        rep = torch.zeros((1,) if dimensioned else (), dtype=dt)
    return rep.dtype if torch.is_tensor(rep) else torch.result_type(rep, rep)


def float_result(*values):
    """The dtype of a PromoteFloat op: the promotion, or f32 when integral."""
    dt = result_type(*values)
    return dt if dt.is_floating_point else torch.float32


def as_float(fn):
    """fn on x converted to f32 first, for PromoteFloat ops PyTorch has no
    integer or bool kernel for (the conversion is the one ops.td defines)."""
    def ref(x, *rest, **kw):
        if not x.dtype.is_floating_point:
            x = x.float()
        return fn(x, *rest, **kw)
    return ref


def bool_identity(fn):
    """fn, except that on bool it is the identity: fuserc computes the op in
    int64 and converts back (nonzero is true), so neg/abs/relu/floor/... of
    a bool are the bool itself; PyTorch has no bool kernel for these."""
    def ref(x):
        return x.clone() if x.dtype == torch.bool else fn(x)
    return ref


def exact_mod(fn, remainder):
    """fmod / remainder on floating operands: PyTorch's CPU kernels compute
    a - b * trunc(a / b) (floor for remainder), which loses the result, or
    gives NaN, once a / b passes 2^24 or overflows; fuserc's is C's exact
    fmod (remainder adds b when the signs differ, ops.td). So where
    |a / b| >= 2^20 the reference is NumPy's C fmod, computed in f64 (exact
    for every narrower dtype), elsewhere the PyTorch op."""
    import numpy as np

    def ref(a, b):
        rt = torch.result_type(a, b)
        a2 = a.to(rt)
        b2 = b.to(rt) if torch.is_tensor(b) else torch.tensor(b, dtype=rt, device=a.device)
        an, bn = np.broadcast_arrays(a2.double().cpu().numpy(), b2.double().cpu().numpy())
        with np.errstate(all="ignore"):
            r = np.asarray(np.fmod(an, bn))
            if remainder:
                r = np.asarray(np.where((r != 0) & ((r < 0) != (bn < 0)), r + bn, r))
            quotient = np.asarray(np.abs(an / bn))
        exact = torch.from_numpy(r).to(rt).to(a.device)
        big = torch.from_numpy(np.asarray(~(quotient < 2.0**20))).to(a.device)
        return torch.where(big, exact, fn(a, b))
    return ref


def integral_safe_mod(fn, remainder=False):
    """fmod / remainder where integer division by zero gives 0 (and x % -1
    is 0 without computing INT_MIN % -1, which traps in C++); PyTorch raises
    ZeroDivisionError on CPU. Bool operands are computed in i64."""
    def ref(a, b):
        rt = torch.result_type(a, b)
        if rt.is_floating_point:
            return exact_mod(fn, remainder)(a, b)
        a64 = a.long()
        b64 = b.long() if torch.is_tensor(b) else torch.tensor(b, device=a.device)
        bad = (b64 == 0) | (b64 == -1)
        r = fn(a64, torch.where(bad, torch.ones_like(b64), b64))
        return torch.where(bad, torch.zeros_like(r), r).to(rt)
    return ref


def reduce_prod(x, axes, keepdim, dtype=None):
    """torch.prod over several axes (it takes one at a time)."""
    out = x if dtype is None else x.to(dtype)
    if dtype is None and not x.dtype.is_floating_point:
        out = x.long()
    for a in sorted((a % x.dim() for a in axes), reverse=True):
        out = torch.prod(out, dim=a, keepdim=keepdim)
    return out


# ---------------------------------------------------------------------------
# Elementwise families.

def _unary_values(dtype, domain, int_domain):
    return domain if is_float(dtype) else int_domain


def unary(fn, domain=(-4.0, 4.0), int_domain=(-20, 20), extra=(), note=""):
    """An elementwise op of one operand: random values in `domain`, every
    special value, a 0-d tensor, size-1 dims, an empty tensor and a scalar
    input; `extra` adds (label, attribute text, fn) variants."""
    def variants(dtype, gen):
        lo, hi = _unary_values(dtype, domain, int_domain)
        call = "{op}({x})"
        vs = [Variant("random [3, 5]", call, [gen.random("x", dtype, (3, 5), lo, hi)], fn),
              Variant("special values", call, [gen.special("x", dtype)], fn),
              Variant("0-d", call, [gen.random("x", dtype, (), lo, hi)], fn),
              Variant("size-1 dims [1, 7, 1]", call,
                      [gen.random("x", dtype, (1, 7, 1), lo, hi)], fn),
              Variant("empty [0, 3]", call, [gen.random("x", dtype, (0, 3), lo, hi)], fn),
              Variant("scalar input", call,
                      [gen.random("x", dtype, (), lo, hi, scalar=True)], fn),
              Variant("symbolic [M, N] = [2, 9]", call,
                      [gen.random("x", dtype, (2, 9), lo, hi, dims=["M", "N"])], fn)]
        for label, attrs, efn in extra:
            ecall = "{op}({x}, %s)" % attrs
            vs.append(Variant("random, " + label, ecall,
                              [gen.random("x", dtype, (3, 5), lo, hi)], efn))
            vs.append(Variant("special values, " + label, ecall, [gen.special("x", dtype)], efn))
        return vs
    return OpEntry(variants, note, per_element=True)


def weak(a, number):
    """A literal as a 0-d tensor of the dtype PyTorch would promote `a` and
    the Python number to, for ops that take no Python numbers
    (torch.maximum, atan2, logical_and, ...): same result dtype and value."""
    return torch.tensor(number, dtype=torch.result_type(a, number), device=a.device)


def binary(fn, a_domain=(-4.0, 4.0), b_domain=(-4.0, 4.0), a_int=(-50, 50), b_int=(-50, 50),
           integral=False, tensors_only=False, note=""):
    """An elementwise op of two operands: same-shape and broadcast random
    operands, the grid of every special value against every other, 0-d
    operands, int and float literals, an f64 (or i64) scalar input, and a
    second operand of another dtype (type promotion). `tensors_only`: fn
    takes no Python number, so literals are passed through weak()."""
    def with_literal(number):
        return (lambda a: fn(a, weak(a, number))) if tensors_only else (lambda a: fn(a, number))

    def variants(dtype, gen):
        (alo, ahi), (blo, bhi) = ((a_domain, b_domain) if is_float(dtype) else (a_int, b_int))
        call = "{op}({a}, {b})"
        n = len(SPECIAL[dtype])
        vs = [Variant("random [4, 5]", call, [gen.random("a", dtype, (4, 5), alo, ahi),
                                               gen.random("b", dtype, (4, 5), blo, bhi)], fn),
              Variant("broadcast [3, 1] x [1, 4]", call,
                      [gen.random("a", dtype, (3, 1), alo, ahi),
                       gen.random("b", dtype, (1, 4), blo, bhi)], fn),
              Variant("special grid [%d, 1] x [1, %d]" % (n, n), call,
                      [gen.special("a", dtype, shape=(n, 1)),
                       gen.special("b", dtype, shape=(1, n))], fn),
              Variant("0-d x 0-d", call, [gen.random("a", dtype, (), alo, ahi),
                                          gen.random("b", dtype, (), blo, bhi)], fn),
              Variant("int literal", "{op}({a}, 3)",
                      [gen.random("a", dtype, (2, 3), alo, ahi)], with_literal(3))]
        if not integral:
            vs.append(Variant("float literal", "{op}({a}, 2.5)",
                              [gen.random("a", dtype, (2, 3), alo, ahi)], with_literal(2.5)))
        scalar = "i64" if integral else "f64"
        vs.append(Variant("%s scalar input" % scalar, call,
                          [gen.random("a", dtype, (2, 3), alo, ahi),
                           gen.random("b", scalar, (), 1, 3, scalar=True)], fn))
        partner = (INTEGRAL_PARTNER if integral else PARTNER).get(dtype, dtype)
        plo, phi = (b_domain if is_float(partner) else b_int)
        vs.append(Variant("with a %s tensor" % partner, call,
                          [gen.random("a", dtype, (2, 3), alo, ahi),
                           gen.random("b", partner, (2, 3), plo, phi)], fn))
        vs.append(Variant("with a 0-d %s tensor" % partner, call,
                          [gen.random("a", dtype, (2, 3), alo, ahi),
                           gen.random("b", partner, (), plo, phi)], fn))
        return vs
    return OpEntry(variants, note, per_element=True)


# Unary refs -----------------------------------------------------------------

def sign_ref(x):
    # ops.td: NaN stays NaN; torch.sign(NaN) is 0.
    s = torch.sign(x)
    return torch.where(torch.isnan(x), x, s) if x.dtype.is_floating_point else s


def lerp_ref(a, b, w):
    """torch.lerp where every operand is finite; elsewhere fuserc's formula
    a + w * (b - a) (torch.lerp switches to b - (b - a) * (1 - w) for
    w >= 0.5, which differs from it at infinities: 0 + 1 * inf is inf, but
    inf - inf * 0 is NaN)."""
    rt = float_result(a, b, w)
    a, b = a.to(rt), b.to(rt)
    w = w.to(rt) if torch.is_tensor(w) else torch.tensor(w, dtype=rt, device=a.device)
    formula = (a.double() + w.double() * (b.double() - a.double())).to(rt)
    finite = torch.isfinite(a) & torch.isfinite(b) & torch.isfinite(w)
    return torch.where(finite, torch.lerp(a, b, w), formula)


def clamp_ref(x, lo, hi):
    """torch.clamp; on bool, min(max(x, lo), hi) (ops.td's definition;
    PyTorch has no bool clamp)."""
    if x.dtype == torch.bool and all(torch.is_tensor(v) and v.dtype == torch.bool
                                     for v in (lo, hi)):
        return torch.minimum(torch.maximum(x, lo), hi)
    return torch.clamp(x, lo, hi)


def pow_ref(a, b):
    """torch.pow; on bool operands computed in i64 and converted (nonzero is
    true), since PyTorch has no bool pow."""
    if torch.result_type(a, b) == torch.bool:
        return torch.pow(a.long(), b.long() if torch.is_tensor(b) else b).bool()
    return torch.pow(a, b)


def sub_ref(a, b):
    """torch.sub, except that PyTorch refuses any subtraction with a bool
    tensor: of two bools, a != b (fuserc subtracts in int64 and converts,
    nonzero is true); a bool with a number or wider tensor is promoted first,
    as fuserc does."""
    rt = torch.result_type(a, b)
    if rt == torch.bool:
        return torch.logical_xor(a, b)
    if a.dtype == torch.bool or (torch.is_tensor(b) and b.dtype == torch.bool):
        return torch.sub(a.to(rt), b.to(rt) if torch.is_tensor(b) else b)
    return torch.sub(a, b)


# ---------------------------------------------------------------------------
# Ternary, cast, reductions.

def where_entry():
    def variants(dtype, gen):
        call = "{op}({c}, {a}, {b})"
        partner = PARTNER[dtype]
        n = len(SPECIAL[dtype])
        return [
            Variant("random [4, 5]", call, [gen.random("c", "bool", (4, 5)),
                                            gen.random("a", dtype, (4, 5)),
                                            gen.random("b", dtype, (4, 5))], torch.where),
            Variant("broadcast [4, 1] [1, 5] [4, 5]", call,
                    [gen.random("c", "bool", (4, 1)), gen.random("a", dtype, (1, 5)),
                     gen.random("b", dtype, (4, 5))], torch.where),
            Variant("special values", call, [gen.random("c", "bool", (n,)),
                                             gen.special("a", dtype),
                                             gen.special("b", dtype, roll=3)], torch.where),
            Variant("0-d", call, [gen.random("c", "bool", ()), gen.random("a", dtype, ()),
                                  gen.random("b", dtype, ())], torch.where),
            Variant("int literal branch", "{op}({c}, {a}, 0)",
                    [gen.random("c", "bool", (2, 3)), gen.random("a", dtype, (2, 3))],
                    lambda c, a: torch.where(c, a, 0)),
            Variant("float literal branch", "{op}({c}, 2.5, {b})",
                    [gen.random("c", "bool", (2, 3)), gen.random("b", dtype, (2, 3))],
                    lambda c, b: torch.where(c, 2.5, b)),
            Variant("with a %s tensor" % partner, call,
                    [gen.random("c", "bool", (2, 3)), gen.random("a", dtype, (2, 3)),
                     gen.random("b", partner, (2, 3))], torch.where),
        ]
    return OpEntry(variants, "Columns are the dtype of the branches; the condition is bool.",
                   per_element=True)


def clamp_entry():
    def variants(dtype, gen):
        call = "{op}({x}, {lo}, {hi})"
        lim = (-50, 50) if not is_float(dtype) else (-4.0, 4.0)
        vs = [Variant("random [4, 5]", call, [gen.random("x", dtype, (4, 5), *lim),
                                              gen.random("lo", dtype, (4, 5), *lim),
                                              gen.random("hi", dtype, (4, 5), *lim)], clamp_ref),
              Variant("special values", call, [gen.special("x", dtype),
                                               gen.special("lo", dtype, roll=2),
                                               gen.special("hi", dtype, roll=5)], clamp_ref),
              Variant("broadcast bounds [1, 5]", call,
                      [gen.random("x", dtype, (4, 5), *lim), gen.random("lo", dtype, (1, 5),
                                                                        lim[0], 0),
                       gen.random("hi", dtype, (1, 5), 0, lim[1])], clamp_ref),
              Variant("0-d", call, [gen.random("x", dtype, ()), gen.random("lo", dtype, ()),
                                    gen.random("hi", dtype, ())], clamp_ref)]
        if dtype != "bool":
            vs.append(Variant("int literal bounds", "{op}({x}, -1, 2)",
                              [gen.random("x", dtype, (3, 4), *lim)],
                              lambda x: torch.clamp(x, -1, 2)))
            vs.append(Variant("float literal bounds", "{op}({x}, -1.5, 2.5)",
                              [gen.random("x", dtype, (3, 4), *lim)],
                              lambda x: torch.clamp(x, -1.5, 2.5)))
        return vs
    return OpEntry(variants, "bool: min(max(x, lo), hi) with torch.maximum/minimum "
                             "(PyTorch has no bool clamp).", per_element=True)


def lerp_entry():
    def variants(dtype, gen):
        call = "{op}({a}, {b}, {w})"
        n = len(SPECIAL[dtype])
        return [
            Variant("random [4, 5]", call, [gen.random("a", dtype, (4, 5)),
                                            gen.random("b", dtype, (4, 5)),
                                            gen.random("w", dtype, (4, 5), 0, 1)], lerp_ref),
            Variant("special values", call, [gen.special("a", dtype), gen.special("b", dtype, 4),
                                             gen.special("w", dtype, 9)], lerp_ref),
            Variant("w 0 and 1 on specials", call,
                    [gen.special("a", dtype, shape=(n, 1)), gen.special("b", dtype, 1, (n, 1)),
                     Input("w", dtype, exact([0, 1], dtype))], lerp_ref),
            Variant("literal weight", "{op}({a}, {b}, 0.25)",
                    [gen.random("a", dtype, (3, 4)), gen.random("b", dtype, (3, 4))],
                    lambda a, b: lerp_ref(a, b, 0.25)),
            Variant("0-d", call, [gen.random("a", dtype, ()), gen.random("b", dtype, ()),
                                  gen.random("w", dtype, (), 0, 1)], lerp_ref),
        ]
    return OpEntry(variants, "torch.lerp on finite operands; where one is inf or NaN the "
                             "reference is a + w * (b - a) in f64, since torch.lerp uses "
                             "b - (b - a) * (1 - w) for w >= 0.5 (0 + 1 * inf is inf there, "
                             "inf - inf * 0 is NaN). Integer and bool operands are converted "
                             "to f32 first (PromoteFloat; torch.lerp has no integer kernel).",
                   per_element=True)


def cast_entry():
    def variants(dtype, gen):
        vs = []
        wide = (-300.0, 300.0) if is_float(dtype) else (-300, 300)
        for target in DTYPES:
            call = "{op}({x}, dtype=%s)" % target
            ref = (lambda t: (lambda x: saturating_cast(x, t)))(target)
            vs.append(Variant("random to %s" % target, call,
                              [gen.random("x", dtype, (3, 5), *wide)], ref))
            vs.append(Variant("special values to %s" % target, call,
                              [gen.special("x", dtype)], ref))
        vs.append(Variant("0-d to f32", "{op}({x}, dtype=f32)", [gen.random("x", dtype, ())],
                          lambda x: x.to(torch.float32)))
        return vs
    return OpEntry(variants, "Columns are the source dtype; every target dtype is a variant. "
                             "Floating point to i32/i64 saturates and NaN gives 0 (ops.td); "
                             "PyTorch leaves those conversions undefined (x86 gives INT_MIN), "
                             "so the reference clamps explicitly.", per_element=True)


def reduction(name):
    """sum, prod, max, min, mean, var over `axes` with keepdim and their own
    attributes (sum's and mean's dtype=, var's correction=)."""
    def torch_ref(axes, keepdim, dtype=None, correction=None):
        tdtype = tdt(dtype) if dtype else None

        def ref(x):
            if name == "sum":
                return torch.sum(x, dim=axes, keepdim=keepdim, dtype=tdtype)
            if name == "prod":
                return reduce_prod(x, axes, keepdim, tdtype)
            if name == "max":
                return torch.amax(x, dim=axes, keepdim=keepdim)
            if name == "min":
                return torch.amin(x, dim=axes, keepdim=keepdim)
            if name == "mean":
                return torch.mean(x, dim=axes, keepdim=keepdim, dtype=tdtype)
            return torch.var(x, dim=axes, keepdim=keepdim,
                             correction=1 if correction is None else correction)
        return ref

    def half_in_f32(axes, dtype):
        """sum / mean with dtype=f16 or bf16 as fuserc computes them: f16
        and bf16 math is f32 math (docs/language.md), so the input is
        converted to f32, not to the half type as torch.sum(dtype=f16)
        does; only the result is rounded to it."""
        fn = torch.sum if name == "sum" else torch.mean

        def ref(x):
            lanes = fn(x.to(torch.float32).double(), dim=axes)
            return lanes.to(torch.float32).to(tdt(dtype))
        return ref

    def variants(dtype, gen):
        small = name == "prod"
        lo, hi = ((-1.5, 1.5) if is_float(dtype) else (-3, 3)) if small else (
            (-4.0, 4.0) if is_float(dtype) else (-100, 100))
        # mean of integers needs a floating dtype= (ReduceFloat).
        base_dtype = "f32" if name == "mean" and not is_float(dtype) else None

        def call(axes, keepdim=False, dtype_attr=None, correction=None):
            text = "{op}({x}, axes=%s" % list(axes)
            if keepdim:
                text += ", keepdim=true"
            if dtype_attr:
                text += ", dtype=%s" % dtype_attr
            if correction is not None:
                text += ", correction=%d" % correction
            return text + ")"

        def v(label, x, axes, keepdim=False, dtype_attr=base_dtype, correction=None):
            return Variant(label, call(axes, keepdim, dtype_attr, correction), [x],
                           torch_ref(list(axes), keepdim, dtype_attr, correction))

        n = len(SPECIAL[dtype])
        rows = torch.stack([exact(SPECIAL[dtype], dtype).roll(-k) for k in (0, 1, 3)], dim=1)
        vs = [v("[3, 4, 5] axes=[1]", gen.random("x", dtype, (3, 4, 5), lo, hi), [1]),
              v("[3, 4, 5] axes=[0, 2] keepdim", gen.random("x", dtype, (3, 4, 5), lo, hi),
                [0, 2], keepdim=True),
              v("[3, 4, 5] axes=[-1]", gen.random("x", dtype, (3, 4, 5), lo, hi), [-1]),
              v("[2, 3] all axes", gen.random("x", dtype, (2, 3), lo, hi), [0, 1]),
              v("special rows [%d, 3] axes=[1]" % n, Input("x", dtype, rows), [1]),
              v("size-1 [1, 5] axes=[0]", gen.random("x", dtype, (1, 5), lo, hi), [0]),
              v("odd [7, 13] axes=[0]", gen.random("x", dtype, (7, 13), lo, hi), [0])]
        if name not in ("max", "min"):  # the max of nothing is an error in both
            vs.append(v("empty [0, 3] axes=[0]", gen.random("x", dtype, (0, 3)), [0]))
        if name == "sum":
            for target in ("f64", "f16", "bf16") if is_float(dtype) else ("f64", "i32", "i64"):
                vs.append(v("dtype=%s" % target, gen.random("x", dtype, (3, 4), lo, hi), [1],
                            dtype_attr=target))
        if name == "mean":
            vs.append(v("dtype=f64", gen.random("x", dtype, (3, 4), lo, hi), [1],
                        dtype_attr="f64"))
        if name in ("sum", "mean") and dtype in ("f32", "f64"):
            for target in ("f16", "bf16"):
                big = exact([70000.0, -70000.0, 1.0, 3e38, -3e38, 2.0], dtype, (2, 3))
                vs.append(Variant("dtype=%s of values beyond f16" % target,
                                  call([1], dtype_attr=target), [Input("x", dtype, big)],
                                  half_in_f32([1], target)))
        if name == "var":
            for c in (0, 2, 7):
                vs.append(v("correction=%d" % c, gen.random("x", dtype, (3, 5), lo, hi), [1],
                            correction=c))
        return vs

    note = {
        "prod": "torch.prod takes one axis; several axes are reduced one after the other.",
        "mean": "Integer and bool inputs are accepted with a floating dtype= (ReduceFloat); "
                "their variants use dtype=f32 or f64. dtype=f16/bf16: as sum.",
        "sum": "dtype=f16/bf16 of an f32 or f64 input: fuserc converts the input to f32 (f16 "
               "and bf16 math is f32 math, docs/language.md) where torch.sum converts it to "
               "f16 (70000 becomes inf); the variant with values beyond f16 encodes fuserc's "
               "rule, the others use torch.sum.",
        "var": "correction=7 on 5 values divides by max(5 - 7, 0) = 0 (inf or NaN), as torch.",
    }.get(name, "")
    dtypes = DTYPES if name == "mean" else None
    return OpEntry(variants, note, dtypes)


# ---------------------------------------------------------------------------
# Shape ops.

def broadcast_in_dim_ref(shape, dims):
    """Operand dim i becomes result dim dims[i]: the operand's dims put in
    result order, extent-1 dims inserted, then expanded."""
    def ref(x):
        order = sorted(range(len(dims)), key=lambda i: dims[i])
        view = [1] * len(shape)
        for i in order:
            view[dims[i]] = x.shape[i]
        return x.permute(order).reshape(view).expand(shape).clone()
    return ref


def shape_op(cases, note=""):
    """A data-movement op: `cases` lists (label, input shape, attribute text,
    ref[, declared dims with symbols]); the inputs mix random and special
    values."""
    def variants(dtype, gen):
        vs = []
        for label, shape, attrs, ref, *dims in cases:
            x = gen.mixed("x", dtype, shape, dims=dims[0] if dims else None)
            vs.append(Variant(label, "{op}({x}, %s)" % attrs, [x], ref))
        return vs
    return OpEntry(variants, note, per_element=True)


def slice_ref(dim, start=0, end=None, step=1):
    def ref(x):
        index = [slice(None)] * x.dim()
        index[dim] = slice(start, end, step)
        return x[tuple(index)].clone()
    return ref


def pad_ref(dim, before, after, value):
    """F.pad on one dim; the value converted to the dtype as cast does (F.pad
    refuses a value the dtype cannot hold, fuserc rounds or saturates)."""
    def ref(x):
        pads = [0, 0] * (x.dim() - dim % x.dim() - 1) + [before, after]
        fill = saturating_cast(torch.tensor(value, dtype=torch.float64 if isinstance(value, float)
                                            else torch.int64, device=x.device),
                               loader.fusion_dtype(x.dtype))
        if x.dtype.is_floating_point:
            base = F.pad(x.double(), pads, value=0.0).to(x.dtype)
        else:
            base = F.pad(x, pads, value=0)
        mask = F.pad(torch.zeros_like(x, dtype=torch.bool), pads, value=True)
        return torch.where(mask, fill, base)
    return ref


def cat_entry():
    def variants(dtype, gen):
        partner = PARTNER[dtype]
        return [
            Variant("[2, 3] + [4, 3] dim=0", "{op}({a}, {b}, dim=0)",
                    [gen.mixed("a", dtype, (2, 3)), gen.random("b", dtype, (4, 3))],
                    lambda a, b: torch.cat([a, b], dim=0)),
            Variant("three operands dim=-1", "{op}({a}, {b}, {c}, dim=-1)",
                    [gen.random("a", dtype, (2, 1)), gen.mixed("b", dtype, (2, 5)),
                     gen.random("c", dtype, (2, 2))],
                    lambda a, b, c: torch.cat([a, b, c], dim=-1)),
            Variant("one operand", "{op}({a}, dim=0)", [gen.mixed("a", dtype, (3,))],
                    lambda a: torch.cat([a], dim=0)),
            Variant("an empty operand", "{op}({a}, {b}, dim=0)",
                    [gen.random("a", dtype, (0, 3)), gen.random("b", dtype, (2, 3))],
                    lambda a, b: torch.cat([a, b], dim=0)),
            Variant("with a %s tensor" % partner, "{op}({a}, {b}, dim=1)",
                    [gen.mixed("a", dtype, (2, 3)), gen.random("b", partner, (2, 2))],
                    lambda a, b: torch.cat([a, b], dim=1)),
        ]
    return OpEntry(variants)


# ---------------------------------------------------------------------------
# Indexing.

def scatter_in_order(x, dim, index, src):
    """scatter with fuserc's rule for duplicate indices: writes in row-major
    order over the index, the last one wins (torch.scatter leaves the winner
    unspecified)."""
    out = x.clone()
    srcs = src if torch.is_tensor(src) and src.dim() > 0 else None
    for position in torch.cartesian_prod(*[torch.arange(n) for n in index.shape]).reshape(
            -1, index.dim()).tolist():
        target = list(position)
        target[dim] = int(index[tuple(position)])
        value = srcs[tuple(position)] if srcs is not None else src
        out[tuple(target)] = value
    return out


def unique_index(gen, dtype, shape, dim, extent):
    """An index shaped `shape` whose entries along `dim` are distinct values
    in [0, extent) (so scatter has no duplicate targets)."""
    index = torch.empty(shape, dtype=torch.int64)
    moved = index.movedim(dim, -1)
    for lane in moved.reshape(-1, shape[dim]):
        lane.copy_(torch.randperm(extent, generator=gen.g)[:shape[dim]])
    return Input("index", dtype, index.to(tdt(dtype)))


def index_select_entry():
    def variants(dtype, gen):
        def v(label, shape, dim, index):
            return Variant(label, "{op}({x}, {index}, dim=%d)" % dim,
                           [gen.mixed("x", dtype, shape), index],
                           lambda x, index: torch.index_select(x, dim, index))
        return [v("[5, 4] dim=0, i64 index with repeats", (5, 4), 0,
                  Input("index", "i64", exact([4, 0, 4, 2], "i64"))),
                v("[5, 4] dim=1, i32 index", (5, 4), 1, gen.index("index", "i32", (6,), 4)),
                v("[2, 3, 7] dim=-1", (2, 3, 7), -1, gen.index("index", "i64", (3,), 7)),
                v("empty index", (5, 4), 0, Input("index", "i64", exact([], "i64"))),
                v("1-D", (6,), 0, gen.index("index", "i32", (9,), 6))]
    return OpEntry(variants, "The index may be i32 or i64.")


def gather_entry():
    def variants(dtype, gen):
        def v(label, shape, dim, index):
            return Variant(label, "{op}({x}, {index}, dim=%d)" % dim,
                           [gen.mixed("x", dtype, shape), index],
                           lambda x, index: torch.gather(x, dim, index.long()))
        return [v("[4, 5] dim=1", (4, 5), 1, gen.index("index", "i64", (4, 3), 5)),
                v("[4, 5] dim=0", (4, 5), 0, gen.index("index", "i64", (6, 5), 4)),
                v("i32 index", (4, 5), 1, gen.index("index", "i32", (4, 7), 5)),
                v("index smaller than x [2, 3] of [4, 5]", (4, 5), 1,
                  gen.index("index", "i64", (2, 3), 5)),
                v("[2, 3, 4] dim=-2", (2, 3, 4), -2, gen.index("index", "i64", (2, 5, 4), 3))]
    return OpEntry(variants, "torch.gather takes only an i64 index; an i32 index is converted "
                             "to i64 for the reference.")


def scatter_entry():
    def variants(dtype, gen):
        def ref(dim):
            def r(x, index, src=None):
                return torch.scatter(x, dim, index.long(), src)
            return r
        vs = [Variant("[4, 5] dim=1, src [4, 2]", "{op}({x}, {index}, {src}, dim=1)",
                      [gen.mixed("x", dtype, (4, 5)), unique_index(gen, "i64", (4, 2), 1, 5),
                       gen.random("src", dtype, (4, 2))], ref(1)),
              Variant("[4, 5] dim=0, i32 index", "{op}({x}, {index}, {src}, dim=0)",
                      [gen.mixed("x", dtype, (4, 5)), unique_index(gen, "i32", (3, 5), 0, 4),
                       gen.mixed("src", dtype, (3, 5))], ref(0)),
              Variant("index smaller than x", "{op}({x}, {index}, {src}, dim=1)",
                      [gen.random("x", dtype, (4, 5)), unique_index(gen, "i64", (3, 2), 1, 5),
                       gen.mixed("src", dtype, (3, 2))], ref(1)),
              Variant("int literal src", "{op}({x}, {index}, 7, dim=1)",
                      [gen.mixed("x", dtype, (4, 5)), unique_index(gen, "i64", (4, 2), 1, 5)],
                      lambda x, index: torch.scatter(x, 1, index.long(), 7)),
              Variant("duplicate indices, last write wins", "{op}({x}, {index}, {src}, dim=1)",
                      [gen.random("x", dtype, (3, 4)), gen.index("index", "i64", (3, 6), 2),
                       gen.mixed("src", dtype, (3, 6))],
                      lambda x, index, src: scatter_in_order(x, 1, index, src))]
        if is_float(dtype):
            vs.append(Variant("float literal src", "{op}({x}, {index}, -2.5, dim=0)",
                              [gen.random("x", dtype, (4, 5)),
                               unique_index(gen, "i64", (2, 5), 0, 4)],
                              lambda x, index: torch.scatter(x, 0, index.long(), -2.5)))
        return vs
    return OpEntry(variants, "torch.scatter takes only an i64 index (an i32 index is converted "
                             "for the reference) and leaves the winner among duplicate indices "
                             "unspecified; fuserc's last-write-wins in row-major index order is "
                             "written out as a loop for that variant.")


# ---------------------------------------------------------------------------
# Creation.

def full_entry():
    def variants(dtype, gen):
        def v(label, shape, value, ref=None):
            call = "{op}(shape=%s, value=%s, dtype=%s)" % (list(shape), literal(value), dtype)
            if ref is None:
                ref = (lambda: torch.full(shape, value, dtype=tdt(dtype)))
            return Variant(label, call, [], ref)

        def converted(shape, value):
            # torch.full refuses a value the dtype cannot hold; fuserc
            # converts it as cast does (rounds to inf, saturates, wraps).
            src = torch.full(shape, value, dtype=torch.float64 if isinstance(value, float)
                             else torch.int64)
            return lambda: saturating_cast(src, dtype)
        return [v("[2, 3] value=3", (2, 3), 3), v("[4] value=-7", (4,), -7),
                v("[2, 3] value=2.5", (2, 3), 2.5), v("[3] value=-0.5", (3,), -0.5),
                v("0-d value=0", (), 0), v("empty [0, 4] value=1", (0, 4), 1),
                v("[2] value=1e10 (out of f16 and i32 range)", (2,), 1e10,
                  converted((2,), 1e10)),
                v("[2] value=2^40+1 (int)", (2,), 2**40 + 1, converted((2,), 2**40 + 1))]
    return OpEntry(variants, "Columns are the dtype= attribute. torch.full refuses values the "
                             "dtype cannot hold; fuserc converts the value as cast does (f16 "
                             "rounds 1e10 to inf, i32 saturates it, an integer wraps to i32), "
                             "so those variants use torch.full in f64/i64 and the conversion.")


def iota_entry():
    def variants(dtype, gen):
        def v(label, shape, dim, dtype_attr=dtype):
            call = "{op}(shape=%s, dim=%d%s)" % (list(shape), dim,
                                                  ", dtype=%s" % dtype_attr if dtype_attr else "")

            def ref():
                view = [1] * len(shape)
                view[dim] = shape[dim]
                index = torch.arange(shape[dim], dtype=torch.int64).reshape(view).expand(shape)
                return index.to(tdt(dtype_attr or "i64")).clone()
            return Variant(label, call, [], ref)
        vs = [v("[3, 4] dim=1", (3, 4), 1), v("[3, 4] dim=0", (3, 4), 0),
              v("[2, 3, 5] dim=-1", (2, 3, 5), -1), v("[300] dim=0", (300,), 0),
              v("empty [0, 3] dim=1", (0, 3), 1)]
        if dtype == "i64":
            vs.append(v("default dtype", (2, 4), 1, dtype_attr=None))
        return vs
    return OpEntry(variants, "Columns are the dtype= attribute. The reference is torch.arange "
                             "in i64 converted to the dtype (torch.arange has no bool; the "
                             "conversion gives index != 0, as fuserc's).")


# Philox4x32-10 (Random123 constants), written independently of
# ir/interp/Philox.h from the published algorithm and checked against
# Random123's known-answer vectors by philox_self_test().
_M0, _M1, _W0, _W1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
_MASK32 = 0xFFFFFFFF


def philox4x32(ctr, key):
    c0, c1, c2, c3 = ctr
    k0, k1 = key
    for r in range(10):
        if r:
            k0, k1 = (k0 + _W0) & _MASK32, (k1 + _W1) & _MASK32
        p0, p1 = _M0 * c0, _M1 * c2
        c0, c1, c2, c3 = ((p1 >> 32) ^ c1 ^ k0, p1 & _MASK32, (p0 >> 32) ^ c3 ^ k1,
                          p0 & _MASK32)
    return c0, c1, c2, c3


def philox_self_test():
    """None when philox4x32 gives Random123's known answers, else a message."""
    vectors = [((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
               ((_MASK32,) * 4, (_MASK32,) * 2, (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
               ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
                (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1))]
    for ctr, key, want in vectors:
        got = philox4x32(ctr, key)
        if got != want:
            return "philox4x32(%s, %s) = %s, Random123 says %s" % (
                [hex(c) for c in ctr], [hex(k) for k in key], [hex(g) for g in got],
                [hex(w) for w in want])
    return None


UNIT_BITS = {"f16": 11, "bf16": 8, "f32": 24, "f64": 32}


def rand_like_values(shape, dtype, seed, offset):
    """ops.td: element i (row-major) is word i % 4 of the Philox block at
    counter (i / 4, offset) keyed by the seed; the word's top bits (as many
    as the dtype's mantissa holds) scaled into [0, 1)."""
    seed, offset = seed & (2**64 - 1), offset & (2**64 - 1)
    key = (seed & _MASK32, seed >> 32)
    numel = math.prod(shape)
    bits = UNIT_BITS[dtype]
    values, blocks = [], {}
    for i in range(numel):
        block = i // 4
        if block not in blocks:
            blocks[block] = philox4x32((block & _MASK32, block >> 32, offset & _MASK32,
                                        offset >> 32), key)
        values.append((blocks[block][i % 4] >> (32 - bits)) * 2.0**-bits)
    return torch.tensor(values, dtype=torch.float64).reshape(shape).to(tdt(dtype))


def rand_like_entry():
    def variants(dtype, gen):
        def v(label, shape, seed, offset, scalar_dtype="i64"):
            inputs = [gen.random("x", dtype, shape),
                      Input("seed", scalar_dtype, exact(seed, scalar_dtype), scalar=True),
                      Input("offset", scalar_dtype, exact(offset, scalar_dtype), scalar=True)]
            return Variant(label, "{op}({x}, {seed}, {offset})", inputs,
                           lambda x, seed, offset: rand_like_values(
                               tuple(x.shape), dtype, int(seed), int(offset)).to(x.device))
        return [v("[5, 7] seed=0 offset=0", (5, 7), 0, 0),
                v("[3, 11] seed=2026 offset=5", (3, 11), 2026, 5),
                v("negative seed, offset past 2^32", (2, 9), -12345, 2**40 + 3),
                v("i32 scalars, negative seed", (4, 4), -7, 9, scalar_dtype="i32"),
                v("0-d", (), 99, 1)]
    return OpEntry(variants, "PyTorch's generators use other counters, so the reference is "
                             "an independent Python Philox4x32-10 (checked against "
                             "Random123's known answers) following ops.td's counter layout.")


# ---------------------------------------------------------------------------
# Composites.

def normalization_ref(kind, axes, eps):
    """layer_norm / rms_norm: F.layer_norm / F.rms_norm when `axes` are the
    trailing dims and the parameters are shaped like them; otherwise the
    definition in f64 with PyTorch ops (F.* only normalize trailing dims)."""
    def ref(x, w, b=None):
        rank = x.dim()
        ax = sorted(a % rank for a in axes)
        trailing = ax == list(range(rank - len(ax), rank)) and w.dim() == len(ax)
        if trailing:
            shape = tuple(x.shape[rank - len(ax):])
            if kind == "layer_norm":
                return F.layer_norm(x, shape, w, b, eps)
            return F.rms_norm(x, shape, w, eps)
        view = [x.shape[d] if d in ax else 1 for d in range(rank)]
        xd = x.double()
        wd = w.double().reshape(view) if w.dim() else w.double()
        if kind == "layer_norm":
            mu = xd.mean(dim=ax, keepdim=True)
            var = ((xd - mu) ** 2).mean(dim=ax, keepdim=True)
            bd = b.double().reshape(view) if b.dim() else b.double()
            out = (xd - mu) / torch.sqrt(var + eps) * wd + bd
        else:
            out = xd / torch.sqrt((xd * xd).mean(dim=ax, keepdim=True) + eps) * wd
        return out.to(x.dtype)
    return ref


def normalization_entry(kind, default_eps):
    def variants(dtype, gen):
        def v(label, shape, axes, eps=None):
            pshape = tuple(shape[a] for a in axes)
            inputs = [gen.random("x", dtype, shape), gen.random("w", dtype, pshape, 0.5, 2.0)]
            names = "{x}, {w}"
            if kind == "layer_norm":
                inputs.append(gen.random("b", dtype, pshape))
                names += ", {b}"
            attrs = "axes=%s" % list(axes) + (", eps=%s" % literal(eps) if eps else "")
            return Variant(label, "{op}(%s, %s)" % (names, attrs), inputs,
                           normalization_ref(kind, axes, eps or default_eps))
        return [v("[4, 6] axes=[1]", (4, 6), [1]),
                v("[2, 3, 4] axes=[1, 2]", (2, 3, 4), [1, 2]),
                v("[5, 3] axes=[0] (not trailing)", (5, 3), [0]),
                v("[3, 7] eps=0.1", (3, 7), [1], eps=0.1),
                v("[1, 9] one row", (1, 9), [1]),
                v("[4, 1] size-1 lane", (4, 1), [1])]
    return OpEntry(variants, "F.%s normalizes trailing dims only; other axes use the "
                             "definition in f64 with PyTorch ops." % kind)


def softmax_entry(fn):
    def variants(dtype, gen):
        def v(label, x, dim):
            return Variant(label, "{op}({x}, dim=%d)" % dim, [x], lambda x: fn(x, dim))
        n = len(SPECIAL[dtype])
        rows = torch.stack([exact(SPECIAL[dtype], dtype).roll(-k) for k in (0, 1, 3)], dim=1)
        return [v("[3, 7] dim=1", gen.random("x", dtype, (3, 7), -10, 10), 1),
                v("[3, 7] dim=0", gen.random("x", dtype, (3, 7), -10, 10), 0),
                v("[2, 3, 4] dim=-1", gen.random("x", dtype, (2, 3, 4), -10, 10), -1),
                v("special rows [%d, 3] dim=1" % n, Input("x", dtype, rows), 1),
                v("size-1 lane [4, 1] dim=1", gen.random("x", dtype, (4, 1)), 1)]
    return OpEntry(variants)


# ---------------------------------------------------------------------------
# The table: every op of ops.td.

_POS = (0.01, 20.0)
_MOD = integral_safe_mod

TABLE = {
    # Unary
    "neg": unary(bool_identity(torch.neg) if torch else None,
                 note="bool: PyTorch refuses; fuserc negates in int64 and converts (nonzero is "
                      "true), so neg(x) is x."),
    "abs": unary(bool_identity(torch.abs) if torch else None,
                 note="bool: identity (PyTorch has no bool abs)."),
    "exp": unary(torch.exp if torch else None, (-10.0, 10.0)),
    "exp2": unary(torch.exp2 if torch else None, (-10.0, 10.0)),
    "expm1": unary(torch.expm1 if torch else None, (-10.0, 10.0)),
    "log": unary(torch.log if torch else None, _POS, (1, 100)),
    "log2": unary(torch.log2 if torch else None, _POS, (1, 100)),
    "log10": unary(torch.log10 if torch else None, _POS, (1, 100)),
    "log1p": unary(torch.log1p if torch else None, (-0.99, 20.0), (0, 100)),
    "sqrt": unary(torch.sqrt if torch else None, _POS, (0, 100)),
    "rsqrt": unary(torch.rsqrt if torch else None, _POS, (1, 100)),
    "reciprocal": unary(torch.reciprocal if torch else None),
    "sin": unary(torch.sin if torch else None, (-7.0, 7.0)),
    "cos": unary(torch.cos if torch else None, (-7.0, 7.0)),
    "tan": unary(torch.tan if torch else None, (-1.5, 1.5)),
    "tanh": unary(torch.tanh if torch else None),
    "sinh": unary(torch.sinh if torch else None, (-10.0, 10.0)),
    "cosh": unary(torch.cosh if torch else None, (-10.0, 10.0)),
    "asin": unary(torch.asin if torch else None, (-1.0, 1.0), (-1, 1)),
    "acos": unary(torch.acos if torch else None, (-1.0, 1.0), (-1, 1)),
    "atan": unary(torch.atan if torch else None, (-10.0, 10.0)),
    "sigmoid": unary(torch.sigmoid if torch else None, (-10.0, 10.0)),
    "relu": unary(bool_identity(torch.relu) if torch else None,
                  note="bool: identity (PyTorch refuses bool relu)."),
    "silu": unary(as_float(F.silu) if torch else None, (-10.0, 10.0),
                  note="Integer and bool inputs are converted to f32 first (PromoteFloat; "
                       "F.silu has no integer kernel)."),
    "gelu": unary(as_float(F.gelu) if torch else None, (-6.0, 6.0),
                  extra=[("approximate=tanh", "approximate=tanh",
                          as_float(lambda x: F.gelu(x, approximate="tanh")) if torch else None)],
                  note="Integer and bool inputs are converted to f32 first (PromoteFloat; "
                       "F.gelu has no integer kernel)."),
    "erf": unary(torch.erf if torch else None),
    "erfc": unary(torch.erfc if torch else None),
    "floor": unary(bool_identity(torch.floor) if torch else None, (-10.0, 10.0),
                   note="bool: identity (PyTorch has no bool floor)."),
    "ceil": unary(bool_identity(torch.ceil) if torch else None, (-10.0, 10.0),
                  note="bool: identity (PyTorch has no bool ceil)."),
    "round": unary(bool_identity(torch.round) if torch else None, (-10.0, 10.0),
                   note="bool: identity (PyTorch has no bool round)."),
    "trunc": unary(bool_identity(torch.trunc) if torch else None, (-10.0, 10.0),
                   note="bool: identity (PyTorch has no bool trunc)."),
    "sign": unary(sign_ref, note="NaN stays NaN (ops.td); torch.sign(NaN) is 0, so the "
                                 "reference keeps NaN where x is NaN."),
    "logical_not": unary(torch.logical_not if torch else None),
    "bitwise_not": unary(torch.bitwise_not if torch else None),
    "isnan": unary(torch.isnan if torch else None),
    "isinf": unary(torch.isinf if torch else None),
    "isfinite": unary(torch.isfinite if torch else None),
    # Binary
    "add": binary(torch.add if torch else None),
    "sub": binary(sub_ref, note="PyTorch refuses subtraction with a bool tensor; fuserc "
                                "promotes first (bool - bool is computed in int64 and converted, "
                                "nonzero is true: a != b)."),
    "mul": binary(torch.mul if torch else None),
    "div": binary(torch.div if torch else None),
    "pow": binary(pow_ref, (0.1, 3.0), (-3.0, 3.0), (-5, 5), (-2, 8),
                  note="bool ** bool: PyTorch has no bool pow; computed in i64 and converted."),
    "maximum": binary(torch.maximum if torch else None, tensors_only=True),
    "minimum": binary(torch.minimum if torch else None, tensors_only=True),
    "fmod": binary(_MOD(torch.fmod) if torch else None,
                   note="Integer division by zero gives 0 (ops.td; PyTorch raises "
                        "ZeroDivisionError), x fmod -1 is computed as 0 (INT_MIN % -1 traps in "
                        "C++); bool operands are computed in i64. Floating point: PyTorch's CPU "
                        "kernel computes a - b * trunc(a / b), NaN or inexact once |a / b| is "
                        "large (1e30 fmod 1e-30); fuserc's is C's exact fmod, so where "
                        "|a / b| >= 2^20 the reference is NumPy's C fmod in f64."),
    "remainder": binary(_MOD(torch.remainder, remainder=True) if torch else None,
                        note="As fmod: integer division by zero gives 0 (PyTorch raises); "
                             "floating point where |a / b| >= 2^20 is C's exact fmod plus b "
                             "when the signs differ (PyTorch's a - b * floor(a / b) is NaN "
                             "or inexact there)."),
    "atan2": binary(torch.atan2 if torch else None, tensors_only=True),
    "eq": binary(torch.eq if torch else None),
    "ne": binary(torch.ne if torch else None),
    "lt": binary(torch.lt if torch else None),
    "le": binary(torch.le if torch else None),
    "gt": binary(torch.gt if torch else None),
    "ge": binary(torch.ge if torch else None),
    "logical_and": binary(torch.logical_and if torch else None, tensors_only=True),
    "logical_or": binary(torch.logical_or if torch else None, tensors_only=True),
    "bitwise_and": binary(torch.bitwise_and if torch else None, integral=True),
    "bitwise_or": binary(torch.bitwise_or if torch else None, integral=True),
    "bitwise_xor": binary(torch.bitwise_xor if torch else None, integral=True),
    # Ternary
    "where": where_entry(),
    "clamp": clamp_entry(),
    "lerp": lerp_entry(),
    # Conversion
    "cast": cast_entry(),
    # Reductions
    "sum": reduction("sum"),
    "prod": reduction("prod"),
    "max": reduction("max"),
    "min": reduction("min"),
    "mean": reduction("mean"),
    "var": reduction("var"),
    # Shape
    "broadcast_in_dim": shape_op([
        ("[3] to [2, 3, 4] dims=[1]", (3,), "shape=[2, 3, 4], broadcast_dims=[1]",
         broadcast_in_dim_ref((2, 3, 4), [1])),
        ("[3, 1] to [2, 3, 4] dims=[1, 2]", (3, 1), "shape=[2, 3, 4], broadcast_dims=[1, 2]",
         broadcast_in_dim_ref((2, 3, 4), [1, 2])),
        ("0-d to [2, 5]", (), "shape=[2, 5], broadcast_dims=[]",
         broadcast_in_dim_ref((2, 5), [])),
        ("[4, 1] to [4, 2, 3] dims=[0, 2]", (4, 1), "shape=[4, 2, 3], broadcast_dims=[0, 2]",
         broadcast_in_dim_ref((4, 2, 3), [0, 2]))]),
    "expand": shape_op([
        ("[3, 1] to [2, 3, 4]", (3, 1), "shape=[2, 3, 4]",
         lambda x: x.expand(2, 3, 4).clone()),
        ("[1, 5] with -1", (1, 5), "shape=[3, -1]", lambda x: x.expand(3, -1).clone()),
        ("0-d to [4]", (), "shape=[4]", lambda x: x.expand(4).clone()),
        ("same shape", (2, 3), "shape=[2, 3]", lambda x: x.expand(2, 3).clone())]),
    "reshape": shape_op([
        ("[2, 3, 4] to [4, -1]", (2, 3, 4), "shape=[4, -1]", lambda x: x.reshape(4, -1)),
        ("[6] to [2, 1, 3]", (6,), "shape=[2, 1, 3]", lambda x: x.reshape(2, 1, 3)),
        ("0-d to [1, 1]", (), "shape=[1, 1]", lambda x: x.reshape(1, 1)),
        ("[1, 1] to 0-d", (1, 1), "shape=[]", lambda x: x.reshape(())),
        ("[0, 3] to [3, 0]", (0, 3), "shape=[3, 0]", lambda x: x.reshape(3, 0))]),
    "permute": shape_op([
        ("[2, 3, 4] dims=[2, 0, 1]", (2, 3, 4), "dims=[2, 0, 1]",
         lambda x: x.permute(2, 0, 1).contiguous()),
        ("[5, 7] dims=[1, 0]", (5, 7), "dims=[1, 0]", lambda x: x.permute(1, 0).contiguous()),
        ("[2, 3] dims=[-1, 0]", (2, 3), "dims=[-1, 0]", lambda x: x.permute(1, 0).contiguous()),
        ("identity", (3, 2), "dims=[0, 1]", lambda x: x.clone())]),
    "squeeze": shape_op([
        ("[1, 3, 1] dims=[0, 2]", (1, 3, 1), "dims=[0, 2]", lambda x: x.squeeze((0, 2))),
        ("[4, 1] dims=[-1]", (4, 1), "dims=[-1]", lambda x: x.squeeze(-1)),
        ("[1] to 0-d", (1,), "dims=[0]", lambda x: x.squeeze(0))]),
    "unsqueeze": shape_op([
        ("[3, 4] dim=1", (3, 4), "dim=1", lambda x: x.unsqueeze(1)),
        ("[3, 4] dim=-1", (3, 4), "dim=-1", lambda x: x.unsqueeze(-1)),
        ("[3, 4] dim=0", (3, 4), "dim=0", lambda x: x.unsqueeze(0)),
        ("0-d dim=0", (), "dim=0", lambda x: x.unsqueeze(0))]),
    "slice": shape_op([
        ("[4, 7] dim=1 1:6:2", (4, 7), "dim=1, start=1, end=6, step=2", slice_ref(1, 1, 6, 2)),
        ("[5, 3] dim=0 start=2", (5, 3), "dim=0, start=2", slice_ref(0, 2)),
        ("[5, 3] dim=0 end past the extent", (5, 3), "dim=0, start=1, end=100",
         slice_ref(0, 1, 100)),
        ("[9] step=4", (9,), "dim=0, step=4", slice_ref(0, 0, None, 4)),
        ("[2, 6] dim=-1 empty", (2, 6), "dim=-1, start=3, end=3", slice_ref(1, 3, 3)),
        ("[R, C] = [3, 6] end=C (symbol)", (3, 6), "dim=1, start=1, end={C}",
         slice_ref(1, 1, 6), ["R", "C"]),
        ("[R, C] = [4, 5] start=R (symbol)", (4, 5), "dim=1, start={R}", slice_ref(1, 4),
         ["R", "C"])]),
    "pad": shape_op([
        ("[3, 4] dim=1 before=2 after=1", (3, 4), "dim=1, before=2, after=1",
         pad_ref(1, 2, 1, 0)),
        ("[3, 4] dim=0 value=-1", (3, 4), "dim=0, before=1, after=2, value=-1",
         pad_ref(0, 1, 2, -1)),
        ("[5] value=2.5", (5,), "dim=0, before=3, after=0, value=2.5", pad_ref(0, 3, 0, 2.5)),
        ("[2, 3] dim=-1 value=1e10", (2, 3), "dim=-1, before=1, after=1, value=1e10",
         pad_ref(-1, 1, 1, 1e10)),
        ("[0, 2] dim=0", (0, 2), "dim=0, before=1, after=1, value=7", pad_ref(0, 1, 1, 7)),
        ("[R, 4] = [2, 4] before=R (symbol)", (2, 4), "dim=1, before={R}, after=1",
         pad_ref(1, 2, 1, 0), ["R", 4])],
        note="The pad value is converted to the dtype as cast does (2.5 truncates to 2 in "
             "integers, 1e10 is inf in f16 and saturates in i32); F.pad refuses values the "
             "dtype cannot hold, so the reference pads and fills with the converted value."),
    "cat": cat_entry(),
    # Indexing
    "index_select": index_select_entry(),
    "gather": gather_entry(),
    "scatter": scatter_entry(),
    # Creation
    "full": full_entry(),
    "iota": iota_entry(),
    "rand_like": rand_like_entry(),
    # Composites
    "softmax": softmax_entry(lambda x, dim: torch.softmax(x, dim)),
    "log_softmax": softmax_entry(lambda x, dim: torch.log_softmax(x, dim)),
    "layer_norm": normalization_entry("layer_norm", 1e-5),
    "rms_norm": normalization_entry("rms_norm", 1e-6),
}
