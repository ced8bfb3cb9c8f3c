"""Calling a Fusion with PyTorch tensors (Fusion.__call__, Fusion.prepare,
and the CUDA implementation of the custom ops of fuserc.torch): DLTensors
of the inputs, outputs as describe_outputs says, workspace from PyTorch's
caching allocator, the launch on the inputs' device's current stream."""
import ctypes
import threading

import torch

from . import _dlpack as dl
from ._dtypes import torch_dtype
from ._errors import FusercError

_CACHE_ENTRIES = 256  # input signatures whose outputs and workspace are remembered


def _dl_dtype(t):
    """(DLPack code, bits) of a tensor's dtype, for any dtype: the header
    refuses one that is not the fusion's with a message naming both."""
    dtype = t.dtype
    if dtype == torch.bool:
        return dl.KDL_BOOL, 8
    if dtype == torch.bfloat16:
        return dl.KDL_BFLOAT, 16
    code = 5 if dtype.is_complex else dl.KDL_FLOAT if dtype.is_floating_point else (
        dl.KDL_INT if dtype.is_signed else dl.KDL_UINT)
    return code, t.element_size() * 8


def tensor_arg(t):
    device = t.device
    return dl.TensorArg(t.data_ptr(), t.shape, t.stride(), _dl_dtype(t),
                        dl.KDL_CUDA if device.type == "cuda" else dl.KDL_CPU, device.index or 0,
                        owner=t)


class _Context:
    """Makes the device's primary context (PyTorch's) current on a thread
    that has none, as the header's driver checks need: PyTorch's device
    guard sets the device only when it differs from the runtime's idea of
    the current one, which on a new thread is device 0 with no context."""

    def __init__(self):
        self._local = threading.local()
        self._cuda = None

    def ensure(self, index):
        done = getattr(self._local, "devices", None)
        if done is None:
            done = self._local.devices = set()
        if index in done:
            return
        if self._cuda is None:
            self._cuda = ctypes.CDLL("libcuda.so.1")
        ctx = ctypes.c_void_p()
        if self._cuda.cuCtxGetCurrent(ctypes.byref(ctx)) == 0 and not ctx.value:
            dev = ctypes.c_int()
            if self._cuda.cuDeviceGet(ctypes.byref(dev), index) == 0 and \
                    self._cuda.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev) == 0:
                self._cuda.cuCtxSetCurrent(ctx)
        done.add(index)


_context = _Context()


class TorchCall:
    """The PyTorch calling path of one Fusion."""

    def __init__(self, fusion):
        self.fusion = fusion
        spec = fusion.spec
        self.spec = spec
        self.names = [i.name for i in spec.inputs]
        self.position = {n: k for k, n in enumerate(self.names)}
        self.tensor_positions = [k for k, i in enumerate(spec.inputs) if i.is_tensor]
        self.out_dtypes = [torch_dtype(o.dtype) for o in spec.outputs]
        self.out_itemsize = [dl.ITEMSIZE[o.dtype] for o in spec.outputs]
        self._cache = {}

    def bind(self, args, kwargs):
        """The inputs in declaration order, from positional and named arguments."""
        if len(args) > len(self.names):
            raise TypeError("%s takes %d inputs (%s), got %d" % (
                self.spec.name, len(self.names), ", ".join(self.names), len(args)))
        values = list(args) + [None] * (len(self.names) - len(args))
        given = [True] * len(args) + [False] * (len(self.names) - len(args))
        for name, value in kwargs.items():
            k = self.position.get(name)
            if k is None:
                raise TypeError("%s has no input '%s' (inputs: %s)"
                                % (self.spec.name, name, ", ".join(self.names)))
            if given[k]:
                raise TypeError("%s: input '%s' given twice" % (self.spec.name, name))
            values[k], given[k] = value, True
        missing = [n for n, g in zip(self.names, given) if not g]
        if missing:
            raise TypeError("%s: missing input(s) %s" % (self.spec.name, ", ".join(missing)))
        for k in self.tensor_positions:
            v = values[k]
            if not isinstance(v, torch.Tensor):
                if not hasattr(v, "__dlpack__"):
                    raise TypeError("%s: input '%s' is a tensor, got %s"
                                    % (self.spec.name, self.names[k], type(v).__name__))
                values[k] = torch.from_dlpack(v)
        return values

    def _layout(self, key, tensor_args):
        """Per output (shape, strides, element offset from its base's data)
        and the workspace bytes, from describe_outputs and workspace_size,
        remembered per input signature (they depend on nothing else). What
        describe_outputs says is checked against the manifest once."""
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        outs = []
        for spec, arg, size in zip(self.spec.outputs, self.fusion.describe_outputs(tensor_args),
                                   self.out_itemsize):
            shape, strides, data, byte_offset, dtype = arg.described()
            self._check_described(spec, data, dtype)
            offset = None
            if spec.kind == "view":
                base = tensor_args[self.tensor_positions.index(
                    self.position[spec.view.base])].struct
                offset, rest = divmod((data or 0) + byte_offset - (base.data or 0), size)
                if rest:
                    raise FusercError("%s_describe_outputs: view %s starts %d bytes into an "
                                      "element of %s" % (self.spec.c_prefix, spec.name, rest,
                                                         spec.view.base))
            outs.append((shape, strides, offset))
        hit = (outs, self.fusion.workspace_size(tensor_args))
        if len(self._cache) >= _CACHE_ENTRIES:
            self._cache.clear()
        self._cache[key] = hit
        return hit

    def _check_described(self, spec, data, dtype):
        """describe_outputs must agree with the manifest on the output's dtype
        and kind: a new buffer has no data pointer (a view or an in-place
        output has its input's, NULL only for an input with no elements)."""
        where = "%s_describe_outputs: output %s" % (self.spec.c_prefix, spec.name)
        if dtype != dl.DTYPE_CODES[spec.dtype]:
            raise FusercError("%s has DLPack dtype (code %d, bits %d), the manifest says %s: "
                              "the library and its manifest do not match"
                              % (where, dtype[0], dtype[1], spec.dtype))
        if spec.kind == "new_buffer" and data:
            raise FusercError("%s has a data pointer, the manifest says it is a new buffer: "
                              "the library and its manifest do not match" % where)

    def arguments(self, values):
        """(launch arguments in declaration order: TensorArgs and C numbers,
        the tensor inputs' TensorArgs, the tensor inputs, their device)."""
        args = [tensor_arg(v) if k in self.tensor_positions else v
                for k, v in enumerate(values)]
        tensors = [values[k] for k in self.tensor_positions]
        for k, i in enumerate(self.spec.inputs):
            if not i.is_tensor:
                v = values[k]
                v = v.item() if isinstance(v, torch.Tensor) else v
                args[k] = float(v) if i.c_type in ("float", "double") else int(bool(v)) \
                    if i.dtype == "bool" else int(v)
        device = tensors[0].device if tensors else torch.device("cuda")
        return args, [args[k] for k in self.tensor_positions], tensors, device

    def layout(self, tensor_args, tensors):
        """_layout for these tensor inputs."""
        key = tuple((tuple(t.shape), t.stride(), t.dtype, t.device) for t in tensors)
        return self._layout(key, tensor_args)

    def outputs(self, values, args, layouts, device, views=True, allocate=None):
        """(outputs, their launch arguments): new buffers made by
        `allocate(shape, strides, dtype, device)` (default torch.empty_strided),
        in-place outputs the caller's tensors, views as_strided on their input
        (None unless `views`; a view's argument is None)."""
        outputs, out_args = [], []
        for spec, (shape, strides, offset), dtype in zip(self.spec.outputs, layouts,
                                                        self.out_dtypes):
            if spec.kind == "new_buffer":
                t = allocate(shape, strides, dtype, device) if allocate else \
                    torch.empty_strided(shape, strides, dtype=dtype, device=device)
                out_args.append(tensor_arg(t))
            elif spec.kind == "in_place":
                k = self.position[spec.aliases]
                t = values[k]
                out_args.append(args[k])
            else:
                base = values[self.position[spec.view.base]]
                t = base.as_strided(shape, strides, base.storage_offset() + offset) \
                    if views else None
                out_args.append(None)
            outputs.append(t)
        return outputs, out_args

    def launch(self, device, args, out_args, workspace, workspace_bytes, stream=None):
        """The launch on `device` with it current and its primary context
        current on this thread; `workspace` a pointer (0: none), `stream` a
        CUstream handle (default: the device's current stream). A CPU
        device goes straight to the header, which refuses it."""
        if device.type != "cuda":
            self.fusion.launch(args, out_args, workspace, workspace_bytes, 0)
            return
        index = device.index if device.index is not None else torch.cuda.current_device()
        if torch.cuda.current_device() != index:
            with torch.cuda.device(index):
                self._launch(index, device, args, out_args, workspace, workspace_bytes, stream)
        else:
            self._launch(index, device, args, out_args, workspace, workspace_bytes, stream)

    def _launch(self, index, device, args, out_args, workspace, workspace_bytes, stream):
        _context.ensure(index)
        if stream is None:
            stream = torch.cuda.current_stream(device).cuda_stream
        self.fusion.launch(args, out_args, workspace, workspace_bytes, stream)

    def run(self, values, views=True):
        """Launches on bound `values`; returns every output (views as None
        unless `views`). The workspace comes from the caching allocator."""
        args, tensor_args, tensors, device = self.arguments(values)
        layouts, workspace_bytes = self.layout(tensor_args, tensors)
        outputs, out_args = self.outputs(values, args, layouts, device, views)
        workspace = None
        if workspace_bytes and device.type == "cuda":
            workspace = torch.empty(workspace_bytes, dtype=torch.uint8, device=device)
        self.launch(device, args, out_args, workspace.data_ptr() if workspace is not None else 0,
                    workspace_bytes)
        return outputs

    def __call__(self, args, kwargs):
        outputs = self.run(self.bind(args, kwargs))
        return outputs[0] if len(outputs) == 1 else tuple(outputs)
