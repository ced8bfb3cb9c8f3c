"""The GPU half of the differential fuzzer (gpu/fuzz_diff.py): a process of
its own that loads each seed's library (the fuserc package: fuserc.load,
its manifest, Fusion.prepare; the variant hook of fuserc.testing), launches
it at every binding on the
inputs gpu/fuzz_case.py wrote, and compares the outputs with the
reference: once as the launch chooses its variants, then once per
alternative the header's testing hook lets it force. A CUDA error (which
leaves the context unusable), a crash or a hang costs this process only:
the harness starts another.

Protocol over a multiprocessing connection: the harness sends a case
{"build": ..., "bindings": [binding records]} and receives
{"bindings": [{"result", "detail", "excused"}], "context_lost": text or
None}; None ends the process.
"""
import os
import traceback

import numpy as np

import harness
import fuserc  # noqa: E402 (the package: harness put python/ on the path)
import fuserc.testing  # noqa: E402
import fuzz_case


def _inverse(perm):
    inv = [0] * len(perm)
    for position, dim in enumerate(perm):
        inv[dim] = position
    return inv


def to_device(array, spec):
    """The .npy input as a CUDA tensor dense in its declared layout (`spec`:
    the manifest's Input); a `strided` input gets its innermost memory
    dimension padded."""
    import torch
    # np.array, not np.ascontiguousarray: that makes a 0-d array 1-d.
    t = torch.from_numpy(np.array(array, order="C")).to(fuserc.torch_dtype(spec.dtype))
    rank = t.dim()
    layout = list(spec.layout) or list(range(rank))
    memory = t.permute(layout).contiguous()
    if spec.strided and rank:
        n = memory.shape[-1]
        padded = torch.zeros(list(memory.shape[:-1]) + [n + 3], dtype=memory.dtype)
        padded[..., :n] = memory
        memory = padded.cuda()[..., :n]
    else:
        memory = memory.cuda()
    return memory.permute(_inverse(layout))


def scalar_value(array, dtype):
    value = np.asarray(array).item()
    return float(value) if dtype in fuzz_case.FLOATS else int(value)


def to_numpy(tensor, dtype):
    import torch
    t = tensor.detach()
    if dtype == "bool":
        return t.view(torch.uint8).cpu().numpy()
    if dtype == "bf16":
        t = t.float()
    return t.cpu().numpy()


def is_cuda_error(text):
    return "CUDA error" in text or "ERROR_CUDA" in text or "illegal" in text


def run_once(fusion, binding, values, math_dtypes):
    """One launch on fresh (poisoned) outputs, compared with the reference:
    (problems, excused)."""
    import torch

    dirs = binding["dirs"]
    prepared = harness.prepare(fusion, values)
    prepared.launch()
    torch.cuda.synchronize()
    problems, excused, gots = [], 0, {}
    for out, tensor in zip(fusion.spec.outputs, prepared.outputs):
        got = gots[out.name] = to_numpy(tensor, out.dtype)
        want = np.load(os.path.join(dirs["ref"], out.name + ".npy"))
        perts = [np.load(os.path.join(dirs[kind], out.name + ".npy"))
                 for kind in fuzz_case.PERTURBED]
        problem, n = fuzz_case.compare(out.name, out.dtype, got, want, perts,
                                       math_dtypes.get(out.name))
        excused += n
        if problem:
            problems.append(problem)
    del prepared
    if problems:  # the kernels' outputs beside the references (kept with --keep)
        got_dir = os.path.join(os.path.dirname(dirs["ref"]), "got")
        os.makedirs(got_dir, exist_ok=True)
        for name, got in gots.items():
            np.save(os.path.join(got_dir, name + ".npy"), got)
    return problems, excused


# Bindings with more elements (all of a fusion's values together) run the
# launch's own choice only: at the large binding every alternative's compare
# would cost seconds. The small ones reach the forced variants' edge cases.
FORCED_ELEMENTS_MAX = 1 << 18


def input_values(fusion, binding):
    """{input name: CUDA tensor or number} from the binding's .npy inputs."""
    values = {}
    for s in fusion.spec.inputs:
        array = np.load(os.path.join(binding["dirs"]["in"], s.name + ".npy"))
        values[s.name] = to_device(array, s) if s.is_tensor else scalar_value(array, s.dtype)
    return values


def check_binding(fusion, binding, math_dtypes, hook):
    """The launch's own choice of variants, then (with the testing hook, at
    bindings of at most FORCED_ELEMENTS_MAX elements) each alternative the
    launch blocks offer forced in turn; the first mismatch says which."""
    values = input_values(fusion, binding)
    launched, excused, problems, pick = set(), 0, [], -1
    while True:
        if hook:
            hook.force(pick)
        problems, n = run_once(fusion, binding, values, math_dtypes)
        excused = max(excused, n)
        kernels = hook.launched() if hook else []
        launched.update(kernels)
        if problems:
            if pick >= 0:
                problems.insert(0, "with alternative %d forced (kernels %s)"
                                % (pick, " ".join(kernels)))
            break
        pick += 1
        if not hook or pick >= hook.most() or binding.get("elements", 0) > FORCED_ELEMENTS_MAX:
            break
    if hook:
        hook.force(-1)
    return dict(result="mismatch" if problems else "pass", detail="; ".join(problems),
                excused=excused, launched=sorted(launched))


def check_refusal(fusion, binding):
    """A binding the interpreter refuses: the wrappers must refuse it as an
    invalid argument before anything runs."""
    values = input_values(fusion, binding)
    try:
        harness.prepare(fusion, values).launch()
    except fuserc.StatusError as e:
        if e.status == fuserc.Status.ERROR_INVALID_ARGUMENT:
            return dict(result="pass", detail=fuzz_case.REFUSED_BOTH + str(e), excused=0)
        return dict(result="launch_error", detail=str(e), excused=0)
    return dict(result="mismatch", excused=0,
                detail="the wrappers accept a binding the interpreter refuses: "
                + binding["detail"])


def check_case(case):
    import torch

    build = case["build"]
    try:
        library = fuserc.load(build["out_dir"], build["name"])
    except Exception as e:  # a library that does not load is a finding
        return dict(bindings=[dict(result="launch_error", detail="loading the library: %s" % e,
                                   excused=0)] * len(case["bindings"]), context_lost=None)
    fusion = library.fusions[library.manifest.fusions[0].name]
    hook = fuserc.testing.variant_hook(library)
    results, lost = [], None
    for binding in case["bindings"]:
        if binding["status"] == "binding_refused" and not lost:
            results.append(check_refusal(fusion, binding))
            continue
        if binding["status"] != "ok":
            results.append(dict(result=binding["status"], detail=binding["detail"], excused=0))
            continue
        if lost:
            results.append(dict(result="not_run", detail="after " + lost, excused=0))
            continue
        try:
            results.append(check_binding(fusion, binding, build.get("math_dtypes", {}), hook))
        except Exception as e:  # an error status, a CUDA error
            text = "%s: %s" % (type(e).__name__, e)
            if is_cuda_error(text):
                lost = text
                results.append(dict(result="cuda_error", detail=text, excused=0))
            else:
                results.append(dict(result="launch_error", detail=text, excused=0))
    if not lost:
        # Closed, so that 2,000 seeds' libraries do not pile up in the process.
        library.close()
        torch.cuda.empty_cache()
    return dict(bindings=results, context_lost=lost, device=torch.cuda.get_device_name())


def serve(conn):
    """The GPU process's loop (a multiprocessing target)."""
    import torch
    torch.cuda.init()
    torch.empty(1, device="cuda")  # PyTorch's primary context, current for the launches
    while True:
        try:
            case = conn.recv()
        except EOFError:
            return
        if case is None:
            return
        try:
            result = check_case(case)
        except Exception:
            result = dict(bindings=[dict(result="launch_error", detail=traceback.format_exc(),
                                         excused=0)] * len(case["bindings"]),
                          context_lost="harness error")
        conn.send(result)
        if result["context_lost"]:
            return
