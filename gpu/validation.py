"""The generated header's argument validation, tested from Python: each
check breaks one input's DLTensor of an otherwise valid launch (a
PreparedLaunch of the package) and expects NAME_ERROR_INVALID_ARGUMENT with
a message from NAME_last_error. Needs no PyTorch itself (gpu/selftest.py
runs the checks against a host-computing library).
"""
import harness  # noqa: F401 (puts python/ on the path)
import fuserc


def _first_tensor_input(spec):
    return next((i for i in spec.inputs if i.is_tensor), None)


def _copy(arg, shape=None, strides=None, dtype=None, device_type=None):
    """A new TensorArg describing `arg`'s memory, with some fields changed."""
    s = arg.struct
    n = s.ndim
    if strides is None and arg.strides is not None:
        strides = list(arg.strides[:n])
    return fuserc.TensorArg(
        s.data, list(arg.shape[:n]) if shape is None else shape, strides,
        (s.dtype.code, s.dtype.bits) if dtype is None else dtype,
        s.device.device_type if device_type is None else device_type, s.device.device_id,
        s.byte_offset, arg.owner)


def _wrong_dtype(arg):
    is_f32 = (arg.struct.dtype.code, arg.struct.dtype.bits) == (2, 32)  # (kDLFloat, 32)
    return _copy(arg, dtype="f64" if is_f32 else "f32")


def _wrong_rank(arg):
    """One more dimension, of extent 1, at the end."""
    n = arg.struct.ndim
    strides = None if arg.strides is None else list(arg.strides[:n]) + [1]
    return _copy(arg, shape=list(arg.shape[:n]) + [1], strides=strides)


def _cpu_device(arg):
    return _copy(arg, device_type=fuserc.KDL_CPU)


def _dense_strides(shape, layout):
    strides, step = [0] * len(shape), 1
    for dim in reversed(layout):
        strides[dim] = step
        step *= max(shape[dim], 1)
    return strides


def _repeated_symbol(spec):
    """(input, dim, symbol) of a symbolic extent's second occurrence, or None."""
    seen = set()
    for i in spec.tensor_inputs:
        for dim, e in enumerate(i.shape):
            if e.constant is None:
                if e.text in seen:
                    return i, dim, e.text
                seen.add(e.text)
    return None


def _inconsistent_symbol(spec, dim):
    """The extent at `dim` one more than its symbol's value; the strides stay
    dense for the declared layout, so only the extent is wrong."""
    def breaks(arg):
        n = arg.struct.ndim
        shape = list(arg.shape[:n])
        shape[dim] += 1
        layout = list(spec.layout) or list(range(n))
        return _copy(arg, shape=shape, strides=_dense_strides(shape, layout))
    return breaks


def validation_checks(spec):
    """[(check name, input name, function from that input's TensorArg to a
    broken one)] for manifest entry `spec`; the null-pointer check's
    function is None: it passes NULL for the input."""
    first = _first_tensor_input(spec)
    if first is None:
        return []
    checks = [("wrong dtype", first.name, _wrong_dtype),
              ("wrong rank", first.name, _wrong_rank),
              ("non-CUDA device", first.name, _cpu_device)]
    repeated = _repeated_symbol(spec)
    if repeated:
        i, dim, symbol = repeated
        checks.append(("inconsistent symbol %s" % symbol, i.name, _inconsistent_symbol(i, dim)))
    # Last: a header that does not check for NULL crashes here.
    checks.append(("null tensor", first.name, None))
    return checks


def launch_status(fusion, arguments, output_arguments, workspace, workspace_bytes):
    """(Status or int, message) of one launch on the NULL stream."""
    try:
        fusion.launch(arguments, output_arguments, workspace, workspace_bytes, 0)
    except fuserc.StatusError as e:
        return e.status, e.message
    return fuserc.Status.OK, ""


def run_checks(fusion, arguments, output_arguments, workspace=0, workspace_bytes=0):
    """[(check name, passed, detail)]: each check launches with one input of
    `arguments` (a launch that would succeed) broken; nothing may run."""
    results = []
    position = {i.name: k for k, i in enumerate(fusion.spec.inputs)}
    for name, input_name, breaks in validation_checks(fusion.spec):
        args = list(arguments)
        k = position[input_name]
        args[k] = None if breaks is None else breaks(args[k])
        status, message = launch_status(fusion, args, output_arguments, workspace,
                                        workspace_bytes)
        passed = status == fuserc.Status.ERROR_INVALID_ARGUMENT and bool(message)
        detail = "%s: %s" % (getattr(status, "name", status), message or "(no message)")
        results.append((name, passed, detail))
    return results


def run_validation_checks(prepared):
    """run_checks on a PreparedLaunch that would succeed."""
    return run_checks(prepared.fusion, prepared.arguments, prepared.output_arguments,
                      prepared.workspace_pointer, prepared.workspace_bytes)
