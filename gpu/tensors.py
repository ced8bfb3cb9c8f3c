"""PyTorch and NumPy helpers of the GPU harnesses: random inputs laid out as
a fusion declares them (its manifest entry, a fuserc.Manifest FusionSpec),
.npy files for fuserc-interp, and the comparison of a GPU result with the
reference. Outputs are allocated and poisoned by the package
(Fusion.prepare, through gpu/harness.py).
"""
import os
import random
import struct

import numpy as np
import torch

import harness  # noqa: F401 (puts python/ on the path)
import shapes
from fuserc import torch_dtype

# Per output dtype: (rtol, atol). atol is scaled by max(1, max |reference|),
# so outputs of large magnitude (sums) are held to a relative standard.
TOLERANCES = {"f32": (1e-5, 1e-5), "f64": (1e-12, 1e-12), "f16": (1e-3, 1e-3),
              "bf16": (1e-2, 1e-2)}
NUMPY_EXCHANGE = {"bool": np.bool_, "i32": np.int32, "i64": np.int64, "f16": np.float16,
                  "bf16": np.float32, "f32": np.float32, "f64": np.float64}


def extent(e, binding):
    """A manifest extent (an Extent: a number, a symbol or a formula such as
    "2*D") under a binding."""
    try:
        return e.evaluate(binding)
    except KeyError:
        raise KeyError("extent %s has a symbol without a value in the binding %s"
                       % (e.text, binding)) from None


def _inverse(perm):
    inv = [0] * len(perm)
    for position, dim in enumerate(perm):
        inv[dim] = position
    return inv


def random_scalar(dtype, rng):
    """A value exactly representable in `dtype`, as a Python number."""
    if dtype == "bool":
        return rng.randrange(2)
    if dtype in ("i32", "i64"):
        return rng.randrange(-50, 50)
    v = rng.uniform(-2.0, 2.0)
    if dtype == "f32":
        return struct.unpack("<f", struct.pack("<f", v))[0]
    if dtype in ("f16", "bf16"):
        return torch.tensor(v).to(torch_dtype(dtype)).item()
    return v


def random_tensor(spec, binding, int_range, generator, device="cuda"):
    """A tensor with the declared shape, dense in the declared layout (for a
    `strided` input, with the innermost memory dimension padded). `spec`:
    the manifest's Input."""
    logical = [extent(e, binding) for e in spec.shape]
    layout = list(spec.layout) or list(range(len(logical)))
    memory = [logical[d] for d in layout]
    if spec.strided and memory:
        memory[-1] += 3
    dtype = torch_dtype(spec.dtype)
    kw = dict(generator=generator, device=device)
    if spec.dtype == "bool":
        t = torch.randint(0, 2, memory, **kw).bool()
    elif spec.dtype in ("i32", "i64") and len(int_range) > 2 and memory:
        # Distinct along the first dim (as a scatter without duplicates
        # needs): the first memory[0] of each column's permutation.
        low, high, _ = int_range
        order = torch.rand([high - low] + memory[1:], **kw).argsort(dim=0)
        t = (order[:memory[0]] + low).to(dtype)
    elif spec.dtype in ("i32", "i64"):
        low, high = int_range[:2]
        t = torch.randint(low, high, memory, dtype=dtype, **kw)
    elif spec.dtype == "f64":
        t = torch.randn(memory, dtype=torch.float64, **kw)
    else:
        t = torch.randn(memory, dtype=torch.float32, **kw).to(dtype)
    if spec.strided and memory:
        t = t[..., :memory[-1] - 3]
    return t.permute(_inverse(layout))


def make_inputs(fusion_spec, stem, binding, seed, device="cuda"):
    """{input name: torch tensor (on the GPU) or Python number} for the
    fusion of manifest entry `fusion_spec`."""
    generator = torch.Generator(device=device).manual_seed(seed)
    rng = random.Random(seed)
    values = {}
    for spec in fusion_spec.inputs:
        if not spec.is_tensor:
            values[spec.name] = random_scalar(spec.dtype, rng)
        else:
            bounds = shapes.int_range(stem, fusion_spec.name, spec.name, binding)
            values[spec.name] = random_tensor(spec, binding, bounds, generator, device)
    return values


def write_npy_inputs(fusion_spec, values, directory):
    """DIR/<input>.npy for fuserc-interp: C order, bf16 as exact float32."""
    os.makedirs(directory, exist_ok=True)
    for spec in fusion_spec.inputs:
        value = values[spec.name]
        if not spec.is_tensor:
            array = np.array(value, dtype=NUMPY_EXCHANGE[spec.dtype])
        else:
            t = value.contiguous().cpu()
            array = (t.float() if spec.dtype == "bf16" else t).numpy()
        np.save(os.path.join(directory, spec.name + ".npy"), array)


def _float64(t, dtype):
    t = t.detach()
    if dtype == "bf16":
        t = t.float()
    return t.cpu().numpy().astype(np.float64)


def compare(name, dtype, gpu, reference):
    """None when the GPU output matches the reference (a NumPy array in the
    exchange dtype); otherwise a message with the first mismatches."""
    if list(gpu.shape) != list(reference.shape):
        return "%s: shape %s, reference %s" % (name, list(gpu.shape), list(reference.shape))
    if dtype == "bool":
        got = gpu.view(torch.uint8).cpu().numpy()
        want = reference.astype(np.uint8)
        bad = got != want
    elif dtype in ("i32", "i64"):
        got, want = gpu.cpu().numpy(), reference
        bad = got != want
    else:
        got, want = _float64(gpu, dtype), reference.astype(np.float64)
        rtol, atol = TOLERANCES[dtype]
        finite = want[np.isfinite(want)]
        scale = max(1.0, float(np.abs(finite).max())) if finite.size else 1.0
        with np.errstate(invalid="ignore"):
            close = (got == want) | (np.abs(got - want) <= atol * scale + rtol * np.abs(want))
        bad = ~(close | (np.isnan(got) & np.isnan(want)))
    count = int(bad.sum())
    if count == 0:
        return None
    where = np.argwhere(bad)[:5]
    samples = ", ".join("%s: got %s want %s" % (list(map(int, i)), got[tuple(i)], want[tuple(i)])
                        for i in where)
    return "%s: %d of %d elements differ (%s)" % (name, count, bad.size, samples)


def compare_on_gpu(name, dtype, gpu, reference):
    """compare() for outputs too large to copy: both tensors on the GPU."""
    if list(gpu.shape) != list(reference.shape):
        return "%s: shape %s, reference %s" % (name, list(gpu.shape), list(reference.shape))
    if dtype in ("bool", "i32", "i64"):
        bad = gpu != reference
    else:
        # As compare(): in f64 (an f64 output rounded to f32 would differ
        # by an f32 ulp), atol scaled by the reference's largest finite value.
        rtol, atol = TOLERANCES[dtype]
        wide = torch.float64 if dtype == "f64" else torch.float32
        got, want = gpu.to(wide), reference.to(wide)
        scale = 1.0
        for chunk in want.flatten().split(1 << 26):  # little memory beside the >2^31 cases
            finite = torch.nan_to_num(chunk.abs(), nan=0.0, posinf=0.0)
            scale = max(scale, float(finite.max().item()) if finite.numel() else 0.0)
        close = (got == want) | ((got - want).abs() <= atol * scale + rtol * want.abs())
        bad = ~(close | (got.isnan() & want.isnan()))
        del got, want, close
    count = int(bad.sum().item())
    if count == 0:
        return None
    first = bad.flatten().nonzero()[:5].flatten().tolist()
    return "%s: %d of %d elements differ (first flat indices %s)" % (name, count, bad.numel(),
                                                                     first)
