"""Fusion.prepare: one launch made ready once (arguments, outputs,
workspace) and run any number of times with the same buffers, so that it can
be captured in a CUDA graph (no allocation or C call but the launch) or
timed on its own; with poisoned outputs for tests (docs/python.md,
"Prepared launches")."""
import torch

# Every byte of an integer or bool buffer, and of the workspace, when poisoned.
POISON_BYTE = 0xA5


def poison(tensor):
    """Fills `tensor` (every element) with NaN, or with POISON_BYTE bytes
    when it is not floating point."""
    if tensor.dtype.is_floating_point:
        tensor.fill_(float("nan"))
    else:
        tensor.view(torch.uint8).fill_(POISON_BYTE)


def poisoned_empty_strided(shape, strides, dtype, device):
    """A tensor with exactly these shape and strides whose whole storage,
    gaps between elements included, is poisoned."""
    if any(s < 0 for s in strides):
        raise ValueError("negative strides %s" % (strides,))
    span = 0 if 0 in shape else 1 + sum((n - 1) * s for n, s in zip(shape, strides))
    flat = torch.empty(max(span, 1), dtype=dtype, device=device)
    poison(flat)
    return flat.as_strided(shape, strides)


class PreparedLaunch:
    """A fusion's launch with everything made once: `arguments` (the inputs'
    TensorArgs and numbers, declaration order), `outputs` (tensors in
    declaration order: new buffers allocated as describe_outputs says,
    views of their input, in-place outputs the caller's tensors),
    `output_arguments` (their TensorArgs, None for a view), `workspace` (a
    uint8 tensor, or None) and `workspace_bytes`. launch() reruns it on the
    same buffers. The arguments may be replaced between launches (a test
    breaking one); the tensors must stay alive and unchanged in shape."""

    def __init__(self, fusion, args, kwargs, poison_buffers=False):
        call = fusion._torch_call()
        self.fusion = fusion
        self._call = call
        self.inputs = call.bind(args, kwargs)
        self.arguments, tensor_args, tensors, self.device = call.arguments(self.inputs)
        layouts, self.workspace_bytes = call.layout(tensor_args, tensors)
        allocate = poisoned_empty_strided if poison_buffers else None
        outputs, self.output_arguments = call.outputs(self.inputs, self.arguments, layouts,
                                                      self.device, allocate=allocate)
        self.outputs = tuple(outputs)
        self.workspace = None
        if self.workspace_bytes and self.device.type == "cuda":
            self.workspace = torch.empty(self.workspace_bytes, dtype=torch.uint8,
                                         device=self.device)
            if poison_buffers:
                poison(self.workspace)

    @property
    def workspace_pointer(self):
        """The workspace's device address (0: none)."""
        return self.workspace.data_ptr() if self.workspace is not None else 0

    def output(self, name):
        """The output tensor called `name`."""
        for spec, tensor in zip(self.fusion.spec.outputs, self.outputs):
            if spec.name == name:
                return tensor
        raise KeyError("fusion '%s' has no output '%s'" % (self.fusion.name, name))

    def launch(self, stream=None):
        """Launches on `stream` (a torch.cuda.Stream or a CUstream handle;
        default: the device's current stream, which inside
        torch.cuda.graph is the capture stream). Asynchronous; raises
        StatusError on a failed status."""
        if isinstance(stream, torch.cuda.Stream):
            stream = stream.cuda_stream
        self._call.launch(self.device, self.arguments, self.output_arguments,
                          self.workspace_pointer, self.workspace_bytes, stream)
