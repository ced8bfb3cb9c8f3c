"""A compiled library loaded into the process: libNAME.so (fuserc --emit
so) bound through ctypes from what NAME.manifest.json says, one Fusion per
fusion. Loading needs neither PyTorch nor a GPU; calling a fusion with
tensors needs PyTorch (docs/python.md)."""
import ctypes
import os

from . import _dlpack as dl
from ._errors import FusercError, Status, StatusError
from ._manifest import read_manifest

_P_TENSOR = ctypes.POINTER(dl.DLTensor)


def _bind(cdll, symbol, argtypes):
    try:
        fn = getattr(cdll, symbol)
    except AttributeError:
        raise FusercError("%s does not export %s" % (cdll._name, symbol)) from None
    fn.argtypes = argtypes
    fn.restype = ctypes.c_int
    return fn


class Fusion:
    """One fusion of a Library. `spec` is its manifest entry (FusionSpec).
    Call it with tensors (`lib.softmax(x)`), or use the raw entry points
    (`describe_outputs`, `workspace_size`, `launch`) on TensorArgs."""

    def __init__(self, library, spec):
        self.library = library
        self.spec = spec
        self.name = spec.name
        prefix = spec.c_prefix
        tensors = [_P_TENSOR] * len(spec.tensor_inputs)
        outputs = [_P_TENSOR] * len(spec.outputs)
        launch_inputs = [_P_TENSOR if i.is_tensor else dl.SCALAR_CTYPES[i.c_type]
                         for i in spec.inputs]
        cdll = library.cdll
        self._describe = _bind(cdll, prefix + "_describe_outputs", tensors + outputs)
        self._workspace = _bind(cdll, prefix + "_workspace_size",
                                tensors + [ctypes.POINTER(ctypes.c_size_t)])
        self._launch = _bind(cdll, prefix + "_launch", launch_inputs + outputs +
                             [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p])
        self._call = None  # the PyTorch calling path, made on first use

    def _check(self, status, suffix):
        if status != Status.OK:
            raise StatusError(self.spec.c_prefix + suffix, status, self.library.last_error())

    # -- raw entry points: TensorArgs in, nothing of PyTorch ---------------
    def describe_outputs(self, tensor_inputs):
        """TensorArgs of the outputs as NAME__F_describe_outputs fills them in
        (see TensorArg.described), from the tensor inputs in order."""
        outs = [dl.TensorArg.empty(o.rank) for o in self.spec.outputs]
        args = [ctypes.byref(t.struct) for t in tensor_inputs]
        self._check(self._describe(*args, *[ctypes.byref(o.struct) for o in outs]),
                    "_describe_outputs")
        return outs

    def workspace_size(self, tensor_inputs):
        """Bytes of workspace a launch with these tensor inputs needs."""
        size = ctypes.c_size_t(0)
        args = [ctypes.byref(t.struct) for t in tensor_inputs]
        self._check(self._workspace(*args, ctypes.byref(size)), "_workspace_size")
        return size.value

    def launch(self, inputs, outputs, workspace=0, workspace_bytes=0, stream=0):
        """NAME__F_launch: `inputs` in declaration order (TensorArgs and numbers),
        `outputs` TensorArgs or None (a view output), `stream` a CUstream
        handle as an int (0: the NULL stream). Raises StatusError."""
        args = [ctypes.byref(a.struct) if isinstance(a, dl.TensorArg) else a for a in inputs]
        args += [None if o is None else ctypes.byref(o.struct) for o in outputs]
        self._check(self._launch(*args, workspace or None, workspace_bytes, stream or None),
                    "_launch")

    # -- PyTorch ------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        """Runs the fusion on torch tensors (or objects with __dlpack__) on
        their device's current stream; returns its outputs (one, or a tuple
        in declaration order): new buffers allocated as describe_outputs
        says, views as views of their input, in-place outputs as the
        caller's tensor, updated."""
        return self._torch_call()(args, kwargs)

    def prepare(self, *args, poison=False, **kwargs):
        """A PreparedLaunch of these inputs (as for a call): outputs and
        workspace allocated once, `launch(stream=None)` runs it again on
        them (what a CUDA graph captures). `poison`: fill the new buffers
        and the workspace with NaN (floats) or 0xA5 bytes first, so an
        element a launch does not write shows."""
        from ._prepared import PreparedLaunch
        return PreparedLaunch(self, args, kwargs, poison)

    def _torch_call(self):
        """The PyTorch calling path, made on first use (it imports PyTorch)."""
        if self._call is None:
            from ._torch_call import TorchCall
            self._call = TorchCall(self)
        return self._call

    def __repr__(self):
        ins = ", ".join(i.name for i in self.spec.inputs)
        outs = ", ".join(o.name for o in self.spec.outputs)
        return "<fuserc fusion %s(%s) -> (%s)>" % (self.name, ins, outs)


class Library:
    """libNAME.so and NAME.manifest.json of one fuserc output directory.
    Each fusion is an attribute (`lib.softmax`) and in `lib.fusions`."""

    def __init__(self, directory, name=None):
        self.directory = os.path.abspath(directory)
        if name is None:
            try:
                manifests = sorted(f for f in os.listdir(self.directory)
                                   if f.endswith(".manifest.json"))
            except OSError as e:
                raise FusercError("cannot list %s: %s" % (directory, e.strerror)) from None
            if len(manifests) != 1:
                raise FusercError("%s holds %s manifests; name the library: load(dir, name=...)"
                                  % (directory, len(manifests) or "no"))
            name = manifests[0][:-len(".manifest.json")]
        self.manifest = read_manifest(os.path.join(self.directory, name + ".manifest.json"))
        self.name = self.manifest.name
        self.path = os.path.join(self.directory, "lib%s.so" % self.name)
        if not os.path.exists(self.path):
            raise FusercError("%s has no lib%s.so: compile with `fuserc --emit so` (as "
                              "fuserc.compile does)" % (directory, self.name))
        try:
            self.cdll = ctypes.CDLL(self.path)
        except OSError as e:
            raise FusercError("cannot load %s: %s" % (self.path, e)) from None
        self._last_error = self.cdll[self.name + "_last_error"]
        self._last_error.argtypes, self._last_error.restype = [], ctypes.c_char_p
        self._unload = self.cdll[self.name + "_unload"]
        self._unload.argtypes, self._unload.restype = [], None
        self.closed = False
        self.fusions = {spec.name: Fusion(self, spec) for spec in self.manifest.fusions}

    def last_error(self):
        """This thread's message for its last call into the library."""
        message = self._last_error()
        return message.decode("utf-8", "replace") if message else ""

    def unload(self):
        """NAME_unload: releases the kernels (they reload on the next launch)."""
        self._unload()

    def close(self):
        """NAME_unload, then the library is unloaded from the process
        (dlclose), so that a process loading many libraries (a fuzzer) does
        not keep them all. Nothing of this Library may be called afterwards,
        and no launch of it may still be running."""
        if self.closed:
            return
        self._unload()
        import _ctypes
        handle = self.cdll._handle
        self.fusions = {}
        self._last_error = self._unload = self.cdll = None
        self.closed = True
        _ctypes.dlclose(handle)

    def __getattr__(self, name):
        fusions = self.__dict__.get("fusions", {})
        if name in fusions:
            return fusions[name]
        raise AttributeError("library '%s' has no fusion '%s' (fusions: %s)"
                             % (self.__dict__.get("name"), name, ", ".join(fusions)))

    def __dir__(self):
        return list(super().__dir__()) + list(self.__dict__.get("fusions", {}))

    def __repr__(self):
        return "<fuserc library %s: %s>" % (self.name, ", ".join(self.fusions))


def load(directory, name=None):
    """The Library in `directory` (fuserc -o DIR --emit so,...): NAME is the
    outputs' base name, needed only when the directory holds several."""
    return Library(directory, name)
