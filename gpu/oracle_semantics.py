"""fuserc semantics written with PyTorch ops, for the references of
gpu/torch_ops.py where fuserc's documented behaviour is not PyTorch's (a
dtype PyTorch has no kernel for, an error where ops.td defines a value, a
different NaN or rounding rule, an op PyTorch does not have), and helpers
that adapt PyTorch's calling conventions (several reduction axes, Python
numbers, operand placement). Each function says which rule of ops.td or
docs/language.md it follows and how PyTorch differs.
"""
import math

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # oracle_check.py --list needs neither PyTorch nor NumPy
    torch = F = None

import harness  # noqa: F401 (puts python/ on the path)
from fuserc import fusion_dtype
from oracle_variants import tdt


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


def weak(a, number):
    """A literal as a 0-d tensor of the dtype PyTorch would promote `a` and
    the Python number to, for ops that take no Python numbers
    (torch.maximum, atan2, logical_and, ...): same result dtype and value."""
    return torch.tensor(number, dtype=torch.result_type(a, number), device=a.device)


def sign_ref(x):
    # ops.td: NaN stays NaN; torch.sign(NaN) is 0.
    s = torch.sign(x)
    return torch.where(torch.isnan(x), x, s) if x.dtype.is_floating_point else s


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


def pow_ref(a, b):
    """torch.pow; on bool operands computed in i64 and converted (nonzero is
    true), since PyTorch has no bool pow."""
    if torch.result_type(a, b) == torch.bool:
        return torch.pow(a.long(), b.long() if torch.is_tensor(b) else b).bool()
    return torch.pow(a, b)


def clamp_ref(x, lo, hi):
    """torch.clamp; on bool, min(max(x, lo), hi) (ops.td's definition;
    PyTorch has no bool clamp)."""
    if x.dtype == torch.bool and all(torch.is_tensor(v) and v.dtype == torch.bool
                                     for v in (lo, hi)):
        return torch.minimum(torch.maximum(x, lo), hi)
    return torch.clamp(x, lo, hi)


def lerp_ref(a, b, w):
    """torch.lerp in the promoted float dtype: fuserc computes it the same
    way, a + w * (b - a) below |w| = 0.5 and b - (b - a) * (1 - w) above
    (exactly b at w = 1; NaN for inf - inf * 0)."""
    rt = float_result(a, b, w)
    a, b = a.to(rt), b.to(rt)
    w = w.to(rt) if torch.is_tensor(w) else torch.tensor(w, dtype=rt, device=a.device)
    return torch.lerp(a, b, w)


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
                               fusion_dtype(x.dtype))
        if x.dtype.is_floating_point:
            base = F.pad(x.double(), pads, value=0.0).to(x.dtype)
        else:
            base = F.pad(x, pads, value=0)
        mask = F.pad(torch.zeros_like(x, dtype=torch.bool), pads, value=True)
        return torch.where(mask, fill, base)
    return ref


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
