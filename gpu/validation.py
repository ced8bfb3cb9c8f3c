"""The generated header's argument validation, tested from Python: each
check breaks one input's DLTensor of an otherwise valid launch and expects
NAME_ERROR_INVALID_ARGUMENT with a message from NAME_last_error.
"""
import ctypes

import fuserc_loader as loader


def _first_tensor_input(fusion):
    return next((s for s in fusion.inputs if not s["scalar"]), None)


def _wrong_dtype(arg):
    dtype = arg.struct.dtype
    if (dtype.code, dtype.bits) == (loader.KDL_FLOAT, 32):
        arg.struct.dtype = loader.DLDataType(loader.KDL_FLOAT, 64, 1)
    else:
        arg.struct.dtype = loader.DLDataType(loader.KDL_FLOAT, 32, 1)


def _wrong_rank(arg):
    """One more dimension, of extent 1, at the end."""
    n = arg.struct.ndim
    arg.extra_shape = (ctypes.c_int64 * (n + 1))(*arg.shape[:n], 1)
    arg.extra_strides = (ctypes.c_int64 * (n + 1))(*arg.strides[:n], 1)
    arg.struct.shape = arg.extra_shape
    arg.struct.strides = arg.extra_strides
    arg.struct.ndim = n + 1


def _cpu_device(arg):
    arg.struct.device = loader.DLDevice(loader.KDL_CPU, 0)


def _dense_strides(shape, layout):
    strides, step = [0] * len(shape), 1
    for dim in reversed(layout):
        strides[dim] = step
        step *= max(shape[dim], 1)
    return strides


def _repeated_symbol(fusion):
    """(input spec, dim, symbol) of a symbol's second occurrence, or None."""
    seen = set()
    for spec in fusion.inputs:
        for dim, e in enumerate(spec.get("shape") or []):
            if isinstance(e, str):
                if e in seen:
                    return spec, dim, e
                seen.add(e)
    return None


def _inconsistent_symbol(spec, dim):
    """The extent at `dim` one more than its symbol's value; the strides stay
    dense for the declared layout, so only the extent is wrong."""
    def breaks(arg):
        n = arg.struct.ndim
        shape = list(arg.shape[:n])
        shape[dim] += 1
        arg.extra_shape = (ctypes.c_int64 * n)(*shape)
        layout = spec["layout"] or list(range(n))
        arg.extra_strides = (ctypes.c_int64 * n)(*_dense_strides(shape, layout))
        arg.struct.shape = arg.extra_shape
        arg.struct.strides = arg.extra_strides
    return breaks


def validation_checks(fusion):
    """[(check name, input name, function breaking that input's TensorArg)];
    the null-pointer check breaks nothing but passes NULL for the input."""
    first = _first_tensor_input(fusion)
    if first is None:
        return []
    checks = [("wrong dtype", first["name"], _wrong_dtype),
              ("wrong rank", first["name"], _wrong_rank),
              ("non-CUDA device", first["name"], _cpu_device)]
    repeated = _repeated_symbol(fusion)
    if repeated:
        spec, dim, symbol = repeated
        checks.append(("inconsistent symbol %s" % symbol, spec["name"],
                       _inconsistent_symbol(spec, dim)))
    # Last: a header that does not check for NULL crashes here.
    checks.append(("null tensor", first["name"], None))
    return checks


def run_validation_checks(prepared):
    """[(check name, passed, detail)] for a PreparedLaunch that would succeed.
    Each check launches with one input broken; nothing may run."""
    results = []
    fusion = prepared.fusion
    for name, input_name, breaks in validation_checks(fusion):
        original = prepared.args[input_name]
        if breaks is None:
            prepared.args[input_name] = None
        else:
            broken = loader.TensorArg(original.tensor)
            breaks(broken)
            prepared.args[input_name] = broken
        try:
            workspace = prepared.workspace.data_ptr() if prepared.workspace is not None else None
            status, message = fusion.launch(prepared.args, prepared.out_args, workspace,
                                            prepared.workspace_bytes, 0)
        finally:
            prepared.args[input_name] = original
        passed = status == loader.STATUS_INVALID_ARGUMENT and bool(message)
        detail = "%s: %s" % (loader.STATUS_NAMES.get(status, status), message or "(no message)")
        results.append((name, passed, detail))
    return results
