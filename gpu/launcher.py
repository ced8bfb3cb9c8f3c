"""One launch of a generated fusion, prepared from PyTorch tensors: input
DLTensors, output buffers allocated (and poisoned) exactly as
NAME_F_describe_outputs describes them, views resolved into the inputs'
memory, in-place outputs bound to their input, and the workspace.

Used by gpu/run_tests.py (one checked launch) and bench/run.py (a launch
captured in a CUDA graph and replayed).
"""
import torch

import fuserc_loader as loader
import tensors


class LaunchError(Exception):
    """A generated function returned an error status."""


class PreparedLaunch:
    """`outputs` maps each output's name to the tensor the launch writes (or
    that views an input). `values` are the inputs actually passed: an input
    that an in-place output aliases is a copy, so the caller's stays intact."""

    def __init__(self, fusion, values, poison=True):
        self.fusion = fusion
        self.values = dict(values)
        for out in fusion.outputs:
            if out["aliases"]:
                self.values[out["aliases"]] = self.values[out["aliases"]].clone()
        self.args = {name: loader.TensorArg(v) if torch.is_tensor(v) else v
                     for name, v in self.values.items()}
        self.outputs, self.out_args = {}, []
        self._describe_and_allocate(poison)
        status, message, self.workspace_bytes = fusion.workspace_size(self.args)
        self._check("workspace_size", status, message)
        self.workspace = None
        if self.workspace_bytes:
            self.workspace = torch.empty(self.workspace_bytes, dtype=torch.uint8, device="cuda")
            tensors.poison(self.workspace)

    def _check(self, what, status, message):
        if status != loader.STATUS_OK:
            raise LaunchError("%s_%s returned %s: %s" % (self.fusion.name, what,
                                                        loader.STATUS_NAMES.get(status, status),
                                                        message))

    def _describe_and_allocate(self, poison):
        status, message, described = self.fusion.describe_outputs(self.args)
        self._check("describe_outputs", status, message)
        inputs = [v for v in self.values.values() if torch.is_tensor(v)]
        kinds = loader.manifest_output_kinds(self.fusion.library.build.manifest,
                                             self.fusion.name)
        for spec, arg in zip(self.fusion.outputs, described):
            dtype = loader.torch_dtype(spec["dtype"])
            shape, strides, data, byte_offset = arg.described()
            self._check_described_dtype(spec, arg)
            kind = kinds.get(spec["name"])  # None without a manifest
            if kind == "new_buffer" and data:
                raise LaunchError("%s_describe_outputs gave output %s a data pointer, but the "
                                  "manifest says it is a new buffer" % (self.fusion.name,
                                                                        spec["name"]))
            if kind == "view" and not data:
                raise LaunchError("%s_describe_outputs gave view output %s no data pointer"
                                  % (self.fusion.name, spec["name"]))
            if spec["aliases"]:
                t = self.values[spec["aliases"]]
                arg = loader.TensorArg(t)
            elif data:
                t = tensors.view_of_inputs(data + byte_offset, shape, strides, dtype, inputs)
            elif poison:
                t = tensors.allocate_poisoned(shape, strides, dtype)
                arg = loader.TensorArg(t)
            else:
                t = torch.empty_strided(shape, strides, dtype=dtype, device="cuda")
                arg = loader.TensorArg(t)
            self.outputs[spec["name"]] = t
            self.out_args.append(arg)

    def _check_described_dtype(self, spec, arg):
        want = loader.dl_dtype(spec["dtype"])
        got = arg.struct.dtype
        if (got.code, got.bits, got.lanes) != (want.code, want.bits, want.lanes):
            raise LaunchError("%s_describe_outputs: output %s has dtype (code %d, bits %d, "
                              "lanes %d), expected %s (code %d, bits %d, lanes 1)"
                              % (self.fusion.name, spec["name"], got.code, got.bits, got.lanes,
                                 spec["dtype"], want.code, want.bits))

    def launch(self, stream=None):
        """Launches on `stream` (a CUstream handle; default: PyTorch's current
        stream). Raises LaunchError on an error status; does not synchronize."""
        if stream is None:
            stream = torch.cuda.current_stream().cuda_stream
        ptr = self.workspace.data_ptr() if self.workspace is not None else None
        status, message = self.fusion.launch(self.args, self.out_args, ptr, self.workspace_bytes,
                                             stream)
        self._check("launch", status, message)
