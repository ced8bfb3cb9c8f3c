"""The variants of each op family for gpu/torch_ops.py's table: the shapes,
values, literals, mixed dtypes and attributes every op of a family is tried
on for one input dtype, each with its PyTorch reference. A family function
returns an OpEntry (gpu/oracle_variants.py).
"""
try:
    import torch
except ImportError:  # oracle_check.py --list needs neither PyTorch nor NumPy
    torch = None

from oracle_semantics import (clamp_ref, lerp_ref, normalization_ref, rand_like_values,
                              reduce_prod, saturating_cast, scatter_in_order, weak)
from oracle_variants import (DTYPES, INTEGRAL_PARTNER, PARTNER, SPECIAL, Input, OpEntry,
                             Variant, exact, is_float, literal, tdt)


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
    return OpEntry(variants, note, tolerance="element")


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
    return OpEntry(variants, note, tolerance="element")


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
                   tolerance="exact")


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
                             "(PyTorch has no bool clamp).", tolerance="element")


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
    return OpEntry(variants, "torch.lerp, infinities included (fuserc computes it the same "
                             "way: b - (b - a) * (1 - w) from |w| = 0.5 on). Integer and bool "
                             "operands are converted to f32 first (PromoteFloat; torch.lerp "
                             "has no integer kernel).",
                   tolerance="element")


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
                             "so the reference clamps explicitly.", tolerance="exact")


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
            if name == "std":
                return torch.std(x, dim=axes, keepdim=keepdim,
                                 correction=1 if correction is None else correction)
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

        # prod's rows leave out magnitudes whose products of three can overflow
        # or underflow (f16 too): there the result depends on the order of the
        # multiplications and on the type they are carried in (PyTorch's CUDA
        # kernel, its CPU kernel and the interpreter differ; all are right).
        specials = [s for s in SPECIAL[dtype]
                    if name != "prod" or not is_float(dtype) or s == 0 or s != s
                    or abs(s) == float("inf") or 0.1 <= abs(s) <= 40]
        n = len(specials)
        rows = torch.stack([exact(specials, dtype).roll(-k) for k in (0, 1, 3)], dim=1)
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
                x = gen.random("x", dtype, (3, 4), lo, hi)
                if dtype in ("f32", "f64") and target in ("f16", "bf16"):
                    vs.append(Variant("dtype=%s" % target, call([1], dtype_attr=target), [x],
                                      half_in_f32([1], target)))
                else:
                    vs.append(v("dtype=%s" % target, x, [1], dtype_attr=target))
        if name == "mean":
            vs.append(v("dtype=f64", gen.random("x", dtype, (3, 4), lo, hi), [1],
                        dtype_attr="f64"))
        if name in ("sum", "mean") and dtype in ("f32", "f64"):
            for target in ("f16", "bf16"):
                # Integers exact in f32 whatever the order of the additions.
                big = exact([70000.0, -70000.0, 1.0, 1e5, 2.5e5, -3e5], dtype, (2, 3))
                vs.append(Variant("dtype=%s of values beyond f16" % target,
                                  call([1], dtype_attr=target), [Input("x", dtype, big)],
                                  half_in_f32([1], target)))
        if name in ("var", "std"):
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
               "f16 (70000 becomes inf), so those variants' reference sums the input in f32 "
               "and rounds the result.",
        "var": "correction=7 on 5 values divides by max(5 - 7, 0) = 0 (inf or NaN), as torch.",
        "std": "The composite sqrt(var): correction=7 on 5 values gives inf or NaN, as torch.",
    }.get(name, "")
    dtypes = DTYPES if name == "mean" else None
    return OpEntry(variants, note, dtypes)


def shape_op(cases, note="", refused=None):
    """A data-movement op: `cases` lists (label, input shape, attribute text,
    ref[, declared dims with symbols]); the inputs mix random and special
    values. `refused` maps a label to the dtypes fuserc refuses it for (an
    error the diagnostics tests check), which it is not run at."""
    def variants(dtype, gen):
        vs = []
        for label, shape, attrs, ref, *dims in cases:
            if dtype in (refused or {}).get(label, ()):
                continue
            x = gen.mixed("x", dtype, shape, dims=dims[0] if dims else None)
            vs.append(Variant(label, "{op}({x}, %s)" % attrs, [x], ref))
        return vs
    return OpEntry(variants, note, tolerance="exact")


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
    return OpEntry(variants, tolerance="exact")


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
                v("1-D", (6,), 0, gen.index("index", "i32", (9,), 6)),
                v("0-d index keeps the dim (extent 1)", (5, 4), 1,
                  Input("index", "i64", exact([3], "i64", ()))),
                v("0-d i32 index, dim=0", (5, 4), 0, Input("index", "i32", exact([4], "i32", ())))]
    return OpEntry(variants, "The index may be i32 or i64, 1-D or 0-d (one entry, the dim "
                             "kept, as torch.index_select).", tolerance="exact")


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
                             "to i64 for the reference.", tolerance="exact")


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
                             "written out as a loop for that variant.", tolerance="exact")


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
                v("[2] value=2^40+1 (int)", (2,), 2**40 + 1, converted((2,), 2**40 + 1))] + (
                    # A finite value beyond a floating dtype's range is an
                    # error (tests/lit/diagnostics/value-out-of-range.fus).
                    [] if dtype == "f16" else
                    [v("[2] value=1e10 (out of i32 range)", (2,), 1e10, converted((2,), 1e10))])
    return OpEntry(variants, "Columns are the dtype= attribute. torch.full refuses values the "
                             "dtype cannot hold; fuserc converts an integer dtype's value as "
                             "cast does (i32 saturates 1e10, an integer wraps to i32), so those "
                             "variants use torch.full in f64/i64 and the conversion. A finite "
                             "value beyond a floating dtype's range is an error, so f16 has no "
                             "1e10 variant.",
                   tolerance="exact")


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
                             "conversion gives index != 0, as fuserc's).",
                   tolerance="exact")


def size_entry():
    def variants(dtype, gen):
        def v(label, shape, dim, dims=None, dtype_attr=dtype):
            attr = ", dtype=%s" % dtype_attr if dtype_attr else ""
            return Variant(label, "{op}({x}, dim=%d%s)" % (dim, attr),
                           [gen.random("x", "f32", shape, dims=dims)],
                           lambda x: torch.tensor(x.shape[dim]).to(tdt(dtype_attr or "i64")))
        vs = [v("[3, 4] dim=1", (3, 4), 1), v("[3, 4] dim=-2", (3, 4), -2),
              v("[N, 300] = [2, 300] dim=0 (symbol)", (2, 300), 0, ["N", 300]),
              v("[N, K] = [5, 2049] dim=1 (symbol)", (5, 2049), 1, ["N", "K"]),
              v("empty [0, 3] dim=0", (0, 3), 0)]
        if dtype == "i64":
            vs.append(v("default dtype", (2, 4), 1, dtype_attr=None))
        return vs
    return OpEntry(variants, "Columns are the dtype= attribute; x is f32. The reference is "
                             "x.size(dim) converted to the dtype (bool: size != 0).",
                   tolerance="exact")


def extent_entry():
    def variants(dtype, gen):
        def v(label, shape, value, dims, ref, dtype_attr=dtype):
            attr = ", dtype=%s" % dtype_attr if dtype_attr else ""
            # x binds the symbols the value names; its elements are not used.
            return Variant(label, "{op}(value=%s%s)" % (value, attr),
                           [gen.random("x", "f32", shape, dims=dims)],
                           lambda x: torch.tensor(ref(*x.shape)).to(tdt(dtype_attr or "i64")))
        vs = [v("N = 7", (7,), "{N}", ["N"], lambda n: n),
              v("H*W = 3*5", (3, 5), "{H}*{W}", ["H", "W"], lambda h, w: h * w),
              v("N - 1 = 0", (1,), "{N} - 1", ["N"], lambda n: n - 1),
              v("ceildiv(N, 32) = 2", (33,), "ceildiv({N}, 32)", ["N"], lambda n: -(-n // 32)),
              v("static 2049", (2,), "2049", None, lambda n: 2049),
              v("N*N = 4099^2", (4099,), "{N}*{N}", ["N"], lambda n: n * n)]
        if dtype == "i64":
            vs.append(v("default dtype", (4,), "{N}", ["N"], lambda n: n, dtype_attr=None))
        return vs
    return OpEntry(variants, "Columns are the dtype= attribute. The reference is the "
                             "extent computed from x's shape in Python, converted to the dtype "
                             "(16,801,801 rounds in f32 and bf16 and is inf in f16; bool: value != 0).",
                   tolerance="exact")


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
                             "Random123's known answers) following ops.td's counter layout.",
                   tolerance="exact")


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


def softplus_entry():
    """softplus with its beta and threshold, on random and special values."""
    def variants(dtype, gen):
        def v(label, x, beta=None, threshold=None):
            attrs = "".join(", %s=%s" % (k, literal(a)) for k, a in
                            (("beta", beta), ("threshold", threshold)) if a is not None)
            return Variant(label, "{op}({x}%s)" % attrs, [x],
                           lambda x: torch.nn.functional.softplus(
                               x, beta=1 if beta is None else beta,
                                                threshold=20 if threshold is None else threshold))
        return [v("[3, 7] defaults", gen.mixed("x", dtype, (3, 7), -30.0, 30.0)),
                v("[4, 5] beta=2", gen.random("x", dtype, (4, 5), -15.0, 15.0), beta=2),
                v("[4, 5] beta=0.5 threshold=3", gen.random("x", dtype, (4, 5), -10.0, 10.0),
                  beta=0.5, threshold=3),
                v("[9] beta=-1 (negative)", gen.random("x", dtype, (9,), -25.0, 25.0), beta=-1),
                v("[6] threshold=0", gen.random("x", dtype, (6,)), threshold=0),
                v("special values", gen.special("x", dtype)),
                v("0-d", gen.random("x", dtype, ())),
                v("empty [0, 3]", gen.random("x", dtype, (0, 3)))]
    return OpEntry(variants, tolerance="element")


def arg_extreme_entry(fn):
    """argmax / argmin (`fn`: torch.argmax or torch.argmin) along a dim, with
    keepdim: random values, ties (the first wins), every special value of the
    dtype (NaN counts as the extreme, -0 equals +0), a symbolic extent."""
    def ref(dim, keepdim):
        # torch has no bool argmax; False < True as in integers.
        return lambda x: fn(x.to(torch.int64) if x.dtype == torch.bool else x, dim, keepdim)

    def variants(dtype, gen):
        def v(label, x, dim, keepdim=False):
            call = "{op}({x}, dim=%d%s)" % (dim, ", keepdim=true" if keepdim else "")
            return Variant(label, call, [x], ref(dim, keepdim))
        ties = exact([1, 3, 3, 2, 0, 5, 5, 5, 5, 5, 0, 1, 0, 1, 0], dtype, (3, 5))
        n = len(SPECIAL[dtype])
        rows = torch.stack([exact(SPECIAL[dtype], dtype).roll(-k) for k in (0, 1, 3)])
        return [v("[3, 7] dim=1", gen.random("x", dtype, (3, 7)), 1),
                v("[4, 5, 6] dim=1 keepdim", gen.random("x", dtype, (4, 5, 6)), 1, keepdim=True),
                v("[6, 4] dim=0", gen.random("x", dtype, (6, 4)), 0),
                v("[1, 5] dim=-2 (one candidate)", gen.random("x", dtype, (1, 5)), -2),
                v("ties [3, 5] dim=1", Input("x", dtype, ties), 1),
                v("ties [3, 5] dim=0 keepdim", Input("x", dtype, ties), 0, keepdim=True),
                v("special values [3, %d] dim=1" % n, Input("x", dtype, rows), 1),
                v("[R, C] = [5, 300] dim=1 (symbol)",
                  gen.random("x", dtype, (5, 300), dims=["R", "C"]), 1)]
    return OpEntry(variants, "bool is compared as 0 < 1 (torch.argmax has no bool kernel); "
                             "an empty dim is an error in both.", tolerance="exact")


def logsumexp_entry():
    """logsumexp over axes with keepdim: rows of special values (all -inf,
    +inf, NaN), empty lanes, integer and bool inputs (f32 results)."""
    def ref(axes, keepdim):
        def run(x):
            if not x.is_floating_point():
                x = x.to(torch.float32)
            if x.dtype in (torch.float16, torch.bfloat16):
                return torch.logsumexp(x.float(), axes, keepdim).to(x.dtype)
            return torch.logsumexp(x, axes, keepdim)
        return run

    def variants(dtype, gen):
        def v(label, x, axes, keepdim=False):
            call = "{op}({x}, axes=%s%s)" % (list(axes), ", keepdim=true" if keepdim else "")
            return Variant(label, call, [x], ref(list(axes), keepdim))
        lo, hi = (-10.0, 10.0) if is_float(dtype) else (-20, 20)
        n = len(SPECIAL[dtype])
        rows = torch.stack([exact(SPECIAL[dtype], dtype).roll(-k) for k in (0, 1, 3)], dim=1)
        vs = [v("[3, 7] axes=[1]", gen.random("x", dtype, (3, 7), lo, hi), [1]),
              v("[3, 4, 5] axes=[0, 2] keepdim", gen.random("x", dtype, (3, 4, 5), lo, hi),
                [0, 2], keepdim=True),
              v("[2, 3] all axes", gen.random("x", dtype, (2, 3), lo, hi), [0, 1]),
              v("special rows [%d, 3] axes=[1]" % n, Input("x", dtype, rows), [1]),
              v("size-1 [1, 5] axes=[0]", gen.random("x", dtype, (1, 5), lo, hi), [0]),
              v("empty lanes [0, 3] axes=[0] (-inf)", gen.random("x", dtype, (0, 3)), [0])]
        if is_float(dtype):
            inf = float("inf")
            lanes = exact([-inf, -inf, -inf, inf, 1.0, -inf, 80.0, 80.5, 79.0], dtype, (3, 3))
            vs.append(v("lanes of -inf, +inf, large values", Input("x", dtype, lanes), [1]))
        return vs
    return OpEntry(variants, "Integer and bool inputs compute in f32, as torch.logsumexp converts "
                             "them to the default float dtype. f16/bf16: fuserc computes in f32 "
                             "and rounds once (as its other composites), where PyTorch rounds "
                             "the shift, exp, sum, log and add to the half type in turn; the "
                             "reference is torch.logsumexp in f32, rounded.")


def scan_entry(name):
    """cumsum / cumprod along a dim, with dtype=: random values, rows of
    special values (inf, NaN, 0 carried along), a size-1 lane, an empty dim.
    f16 and bf16 accumulate in f32 (their math is f32 math:
    docs/language.md); the reference does the same and rounds the result."""
    fn = (torch.cumsum if name == "cumsum" else torch.cumprod) if torch else None

    def ref(dim, dtype=None):
        def run(x):
            target = tdt(dtype) if dtype else None
            if target is None and x.dtype in (torch.float16, torch.bfloat16):
                return fn(x.to(torch.float32), dim).to(x.dtype)
            if target in (torch.float16, torch.bfloat16):
                return fn(x.to(torch.float32), dim).to(target)
            return fn(x, dim, dtype=target)
        return run

    def variants(dtype, gen):
        small = name == "cumprod"
        lo, hi = ((-1.5, 1.5) if is_float(dtype) else (-3, 3)) if small else (
            (-4.0, 4.0) if is_float(dtype) else (-100, 100))

        def v(label, x, dim, dtype_attr=None):
            call = "{op}({x}, dim=%d%s)" % (dim, ", dtype=%s" % dtype_attr if dtype_attr else "")
            return Variant(label, call, [x], ref(dim, dtype_attr))
        n = len(SPECIAL[dtype])
        rows = torch.stack([exact(SPECIAL[dtype], dtype).roll(-k) for k in (0, 1, 3)])
        vs = [v("[3, 7] dim=1", gen.random("x", dtype, (3, 7), lo, hi), 1),
              v("[6, 4] dim=0", gen.random("x", dtype, (6, 4), lo, hi), 0),
              v("[2, 3, 4] dim=-1", gen.random("x", dtype, (2, 3, 4), lo, hi), -1),
              v("[2, 3, 4] dim=1", gen.random("x", dtype, (2, 3, 4), lo, hi), 1),
              v("size-1 lane [4, 1] dim=1", gen.random("x", dtype, (4, 1), lo, hi), 1),
              v("empty [0, 3] dim=0", gen.random("x", dtype, (0, 3)), 0),
              v("special rows [3, %d] dim=1" % n, Input("x", dtype, rows), 1),
              v("[R, C] = [3, 300] dim=1 (symbol)",
                gen.random("x", dtype, (3, 300), lo, hi, dims=["R", "C"]), 1)]
        for target in ("f64", "f32") if is_float(dtype) else ("i32", "i64", "f64"):
            vs.append(v("dtype=%s" % target, gen.random("x", dtype, (3, 5), lo, hi), 1, target))
        return vs
    return OpEntry(variants, "Bool and integer inputs give i64 (wrapping), as torch; f16 and "
                             "bf16 accumulate in f32 and round the result (torch's own half "
                             "kernels may round each step).")
