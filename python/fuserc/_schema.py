"""What the PyTorch custom op of a fusion looks like, from its manifest entry
alone (no PyTorch needed, so CI checks it): the schema, and the symbols and
shapes its fake implementation computes."""
from ._errors import FusercError

_SCALAR_TYPES = {"bool": "bool", "i32": "int", "i64": "int", "f16": "float", "bf16": "float",
                 "f32": "float", "f64": "float"}
_ALIAS_SETS = "abcdefghijklmnopqrstuvwxyz"


def op_schema(spec):
    """The torch.library schema of fusion `spec`: its inputs in order (an
    input that an in-place output writes is mutated, `Tensor(a!)`), returning
    its new-buffer outputs. In-place outputs are the mutated inputs, and
    views are made from their inputs outside the op (fuserc.torch), since a
    custom op may not return an alias of an input."""
    mutated = {o.aliases for o in spec.outputs if o.kind == "in_place"}
    if len(mutated) > len(_ALIAS_SETS):
        raise FusercError("fusion '%s' updates more than %d inputs in place"
                          % (spec.name, len(_ALIAS_SETS)))
    params, alias = [], iter(_ALIAS_SETS)
    for i in spec.inputs:
        if i.is_tensor:
            kind = "Tensor(%s!)" % next(alias) if i.name in mutated else "Tensor"
        else:
            kind = _SCALAR_TYPES[i.dtype]
        params.append("%s %s" % (kind, i.name))
    returns = ["Tensor" for o in spec.outputs if o.kind == "new_buffer"]
    result = returns[0] if len(returns) == 1 else "(%s)" % ", ".join(returns)
    return "%s(%s) -> %s" % (spec.name, ", ".join(params), result)


def bind_symbols(spec, tensors, check):
    """The symbols of the fusion's extents, from its tensor inputs' sizes (and
    `x.strideK` for a strided input x) in `tensors` (a dict by input name),
    bound as the wrappers bind them (the manifest's `symbols`: a dim that is
    the symbol, or `a*G + rest` solved for G). `check(condition, message)`
    is called for each solved symbol and each extent the binding must match,
    so PyTorch can guard on symbolic sizes."""
    for i in spec.tensor_inputs:
        if len(tensors[i.name].shape) != i.rank:
            raise ValueError("%s: input '%s' has rank %d, expected %d"
                             % (spec.name, i.name, len(tensors[i.name].shape), i.rank))
    env = {}
    for s in spec.symbols:
        size = tensors[s.input].shape[s.dim]
        if s.rest is None:
            env[s.name] = size
            continue
        rest = s.rest.evaluate(env)
        extent = spec.input_by_name[s.input].shape[s.dim]
        check(size >= rest and (size - rest) % s.coefficient == 0,
              "%s: input '%s' extent %d is %s, which is not %s for any whole %s >= 0"
              % (spec.name, s.input, s.dim, size, extent.text, s.name))
        env[s.name] = (size - rest) // s.coefficient
    for i in spec.tensor_inputs:
        t = tensors[i.name]
        for d, (extent, size) in enumerate(zip(i.shape, t.shape)):
            want = extent.evaluate(env)
            check(size == want, "%s: input '%s' extent %d is %s, expected %s%s"
                  % (spec.name, i.name, d, size, want,
                     "" if extent.constant is not None else " (%s)" % _bound_text(extent, env)))
        if i.strided:
            for d in range(i.rank):
                env["%s.stride%d" % (i.name, d)] = t.stride(d)
    return env


def _bound_text(extent, env):
    """`extent` with the values of its symbols: "M = 8", "2*D with D = 4"."""
    values = ", ".join("%s = %s" % (s, env[s]) for s in sorted(extent.symbols))
    return values if extent.text in extent.symbols else "%s with %s" % (extent.text, values)


def new_buffer_layouts(spec, env):
    """(output, shape, strides) of each new-buffer output, in order."""
    return [(o, [e.evaluate(env) for e in o.shape], [e.evaluate(env) for e in o.strides])
            for o in spec.outputs if o.kind == "new_buffer"]
