"""The table of gpu/oracle_check.py: every op of ops.td mapped to an OpEntry
(gpu/oracle_variants.py) whose variants, for one input dtype, are one-op
calls (shapes, attributes, special values, literals, mixed dtypes) each
with the PyTorch expression fuserc-interp must match.

Where fuserc's documented semantics differ from PyTorch's (PyTorch has no
kernel for a dtype, raises where ops.td defines a value, rounds or treats
NaN otherwise), the reference encodes fuserc's semantics with PyTorch ops
(gpu/oracle_semantics.py) and the entry's `note` says why; nothing is
skipped silently. The families (unary, binary, reductions, ...) are in
gpu/oracle_families.py.

Importable without PyTorch or NumPy: `oracle_check.py --list` only needs the
table's keys, so CI checks that no op of ops.td lacks an entry.
"""
try:
    import torch
    import torch.nn.functional as F
except ImportError:  # oracle_check.py --list needs neither PyTorch nor NumPy
    torch = F = None

from oracle_families import (arg_extreme_entry, binary, cast_entry, cat_entry, clamp_entry,
                             extent_entry, full_entry, gather_entry, index_select_entry,
                             iota_entry, lerp_entry,
                             logsumexp_entry, normalization_entry, rand_like_entry, reduction,
                             scan_entry,
                             scatter_entry, shape_op, size_entry, softmax_entry, softplus_entry,
                             unary, where_entry)
from oracle_semantics import (as_float, bool_identity, broadcast_in_dim_ref, integral_safe_mod,
                              pad_ref, pow_ref, sign_ref, slice_ref, sub_ref)


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
    "cumsum": scan_entry("cumsum"),
    "cumprod": scan_entry("cumprod"),
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
             "integers, 1e10 saturates in i32); F.pad refuses values the dtype cannot hold, so "
             "the reference pads and fills with the converted value. A finite value beyond a "
             "floating dtype's range is an error, so f16 has no 1e10 variant.",
        refused={"[2, 3] dim=-1 value=1e10": ("f16",)}),
    "cat": cat_entry(),
    # Indexing
    "index_select": index_select_entry(),
    "gather": gather_entry(),
    "scatter": scatter_entry(),
    # Creation
    "full": full_entry(),
    "iota": iota_entry(),
    "size": size_entry(),
    "extent": extent_entry(),
    "rand_like": rand_like_entry(),
    # Composites
    "softmax": softmax_entry(lambda x, dim: torch.softmax(x, dim)),
    "log_softmax": softmax_entry(lambda x, dim: torch.log_softmax(x, dim)),
    "layer_norm": normalization_entry("layer_norm", 1e-5),
    "rms_norm": normalization_entry("rms_norm", 1e-6),
    "softplus": softplus_entry(),
    "logsumexp": logsumexp_entry(),
    "argmax": arg_extreme_entry(lambda x, dim, keepdim: torch.argmax(x, dim, keepdim)),
    "argmin": arg_extreme_entry(lambda x, dim, keepdim: torch.argmin(x, dim, keepdim)),
    "std": reduction("std"),
}
