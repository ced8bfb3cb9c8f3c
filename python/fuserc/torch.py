"""The fusions of a Library as PyTorch custom ops (torch.library), for
torch.compile(fullgraph=True), torch.export, CUDA graphs and FakeTensor:

    ops = fuserc.torch.register(lib, namespace="myns")
    y = ops.softmax(x)               # or torch.ops.myns.softmax(x)

Each fusion F becomes the op `namespace::F` (schema: fuserc._schema.op_schema)
with a CUDA implementation (the generated launch) and a fake one computed
from the manifest's symbolic shapes and strides. `ops.F` returns every
output as `lib.F` does: it calls the op, returns in-place outputs as the
updated inputs and builds views with as_strided from the manifest's view
formulas (a custom op may not return an alias of an input)."""
import torch

from ._schema import bind_symbols, new_buffer_layouts, op_schema
from ._dtypes import torch_dtype
from ._torch_call import TorchCall


def view_of(base, shape, strides, offset):
    """The view of `base` with these shape and strides starting `offset`
    elements past base's first element, made without reading
    base.storage_offset() (torch.compile breaks the graph on it): an empty
    [offset, 0] view at base's start, narrowed to the end of its first
    dimension, is at base's offset plus `offset` (empty, so even past the
    storage's end, as an empty slice may be), and as_strided without an
    offset keeps that."""
    start = base.as_strided([offset, 0], [1, 1]).narrow(0, offset, 0)
    return start.as_strided(shape, strides)


def _check(condition, message):
    if isinstance(condition, bool):
        if not condition:
            raise ValueError(message)
    else:
        torch._check(condition, lambda: message)


class FusionOp:
    """`ops.F`: the op `namespace::F` with every output returned."""

    def __init__(self, fusion, op):
        self.fusion = fusion
        self.spec = fusion.spec
        self.op = op
        self.names = [i.name for i in self.spec.inputs]
        self.position = {n: k for k, n in enumerate(self.names)}
        self.schema = op_schema(self.spec)

    def __call__(self, *args, **kwargs):
        values = list(args)
        for name in self.names[len(args):]:
            if name not in kwargs:
                raise TypeError("%s: missing input '%s'" % (self.spec.name, name))
            values.append(kwargs.pop(name))
        if kwargs or len(values) != len(self.names):
            raise TypeError("%s takes the inputs %s" % (self.spec.name, ", ".join(self.names)))
        result = self.op(*values)
        new = iter(() if result is None else [result] if isinstance(result, torch.Tensor)
                   else result)
        env = None
        outputs = []
        for o in self.spec.outputs:
            if o.kind == "new_buffer":
                outputs.append(next(new))
            elif o.kind == "in_place":
                outputs.append(values[self.position[o.aliases]])
            else:
                if env is None:
                    env = bind_symbols(self.spec, {n: values[self.position[n]] for n in
                                                   (i.name for i in self.spec.tensor_inputs)},
                                       _check)
                outputs.append(view_of(values[self.position[o.view.base]],
                                       [e.evaluate(env) for e in o.shape],
                                       [e.evaluate(env) for e in o.view.strides],
                                       o.view.offset.evaluate(env)))
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def __repr__(self):
        return "<fuserc op %s>" % self.schema


class Ops:
    """What register returns: one FusionOp per fusion, as attributes."""

    def __init__(self, namespace, library):
        self.namespace = namespace
        self.torch_library = library  # keeps the registrations alive

    def __repr__(self):
        return "<fuserc ops %s: %s>" % (self.namespace, ", ".join(
            k for k in vars(self) if k not in ("namespace", "torch_library")))


def _implementations(fusion):
    spec = fusion.spec
    call = TorchCall(fusion)
    tensor_names = [i.name for i in spec.tensor_inputs]
    positions = [k for k, i in enumerate(spec.inputs) if i.is_tensor]
    count = sum(o.kind == "new_buffer" for o in spec.outputs)

    def pack(new):
        # A schema returning `()` (every output in place) needs None.
        if count == 0:
            return None
        return new[0] if count == 1 else tuple(new)

    def cuda_impl(*values):
        outputs = call.run(list(values), views=False)
        return pack([t for o, t in zip(spec.outputs, outputs) if o.kind == "new_buffer"])

    def fake_impl(*values):
        tensors = {n: values[k] for n, k in zip(tensor_names, positions)}
        env = bind_symbols(spec, tensors, _check)
        device = values[positions[0]].device if positions else torch.device("cuda")
        return pack([torch.empty_strided(shape, strides, dtype=torch_dtype(o.dtype),
                                         device=device)
                     for o, shape, strides in new_buffer_layouts(spec, env)])

    return cuda_impl, fake_impl


def register(lib, namespace, fusions=None):
    """Registers the fusions of `lib` (all, or those named in `fusions`) as
    the custom ops `namespace::F`; returns an Ops whose attribute F calls one
    with every output. A namespace holds one library's fusions once per
    process (torch.library refuses to define an op twice)."""
    torch_library = torch.library.Library(namespace, "FRAGMENT")
    ops = Ops(namespace, torch_library)
    for name in (fusions if fusions is not None else list(lib.fusions)):
        fusion = lib.fusions[name]
        torch_library.define(op_schema(fusion.spec))
        cuda_impl, fake_impl = _implementations(fusion)
        torch_library.impl(name, cuda_impl, "CUDA")
        qualname = "%s::%s" % (namespace, name)
        if hasattr(torch.library, "register_fake"):
            torch.library.register_fake(qualname, fake_impl, lib=torch_library)
        else:  # PyTorch before 2.4
            torch.library.impl_abstract(qualname, fake_impl, lib=torch_library)
        setattr(ops, name, FusionOp(fusion, getattr(getattr(torch.ops, namespace), name)))
    return ops
