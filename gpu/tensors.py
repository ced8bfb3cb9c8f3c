"""PyTorch and NumPy helpers of the GPU harnesses: random inputs laid out as
a fusion declares them, .npy files for fuserc-interp, poisoned output
buffers shaped as NAME_F_describe_outputs says, and the comparison of a GPU
result with the reference.
"""
import os
import random
import struct

import numpy as np
import torch

import fuserc_loader as loader
import shapes
from fuserc._extent import Extent  # noqa: E402 (python/ is on the path through fuserc_loader)

# Per output dtype: (rtol, atol). atol is scaled by max(1, max |reference|),
# so outputs of large magnitude (sums) are held to a relative standard.
TOLERANCES = {"f32": (1e-5, 1e-5), "f64": (1e-12, 1e-12), "f16": (1e-3, 1e-3),
              "bf16": (1e-2, 1e-2)}
INT_POISON = 0xA5  # every byte of an integer or bool output before the launch

NUMPY_EXCHANGE = {"bool": np.bool_, "i32": np.int32, "i64": np.int64, "f16": np.float16,
                  "bf16": np.float32, "f32": np.float32, "f64": np.float64}


def extent(e, binding):
    """A declared extent (an int, a symbol or a formula such as "2*D") under a
    binding."""
    if isinstance(e, int):
        return e
    try:
        return Extent(e).evaluate(binding)
    except KeyError:
        raise KeyError("extent %s has a symbol without a value in the binding %s"
                       % (e, binding)) from None


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
        return torch.tensor(v).to(loader.torch_dtype(dtype)).item()
    return v


def random_tensor(spec, binding, int_range, generator, device="cuda"):
    """A tensor with the declared shape, dense in the declared layout (for a
    `strided` input, with the innermost memory dimension padded)."""
    logical = [extent(e, binding) for e in spec["shape"]]
    layout = spec["layout"] or list(range(len(logical)))
    memory = [logical[d] for d in layout]
    if spec["strided"] and memory:
        memory[-1] += 3
    dtype = loader.torch_dtype(spec["dtype"])
    kw = dict(generator=generator, device=device)
    if spec["dtype"] == "bool":
        t = torch.randint(0, 2, memory, **kw).bool()
    elif spec["dtype"] in ("i32", "i64"):
        low, high = int_range
        t = torch.randint(low, high, memory, dtype=dtype, **kw)
    elif spec["dtype"] == "f64":
        t = torch.randn(memory, dtype=torch.float64, **kw)
    else:
        t = torch.randn(memory, dtype=torch.float32, **kw).to(dtype)
    if spec["strided"] and memory:
        t = t[..., :memory[-1] - 3]
    return t.permute(_inverse(layout))


def make_inputs(fusion_spec, stem, binding, seed, device="cuda"):
    """{input name: torch tensor (on the GPU) or Python number}."""
    generator = torch.Generator(device=device).manual_seed(seed)
    rng = random.Random(seed)
    values = {}
    for spec in fusion_spec["inputs"]:
        if spec["scalar"]:
            values[spec["name"]] = random_scalar(spec["dtype"], rng)
        else:
            bounds = shapes.int_range(stem, fusion_spec["name"], spec["name"], binding)
            values[spec["name"]] = random_tensor(spec, binding, bounds, generator, device)
    return values


def write_npy_inputs(fusion_spec, values, directory):
    """DIR/<input>.npy for fuserc-interp: C order, bf16 as exact float32."""
    os.makedirs(directory, exist_ok=True)
    for spec in fusion_spec["inputs"]:
        value = values[spec["name"]]
        if spec["scalar"]:
            array = np.array(value, dtype=NUMPY_EXCHANGE[spec["dtype"]])
        else:
            t = value.contiguous().cpu()
            array = (t.float() if spec["dtype"] == "bf16" else t).numpy()
        np.save(os.path.join(directory, spec["name"] + ".npy"), array)


def poison(flat):
    """Fills a buffer with NaN (floats) or the byte pattern INT_POISON."""
    if flat.dtype.is_floating_point:
        flat.fill_(float("nan"))
    else:
        flat.view(torch.uint8).fill_(INT_POISON)


def allocate_poisoned(shape, strides, dtype, device="cuda"):
    """A poisoned tensor with exactly these shape and strides (every byte of
    its storage poisoned, gaps between elements included)."""
    if any(s < 0 for s in strides):
        raise ValueError("negative strides %s" % strides)
    span = 0 if 0 in shape else 1 + sum((n - 1) * s for n, s in zip(shape, strides))
    flat = torch.empty(max(span, 1), dtype=dtype, device=device)
    poison(flat)
    return flat.as_strided(shape, strides)


def view_of_inputs(pointer, shape, strides, dtype, tensors):
    """The tensor a view output describes: `pointer` inside one input's storage
    (one past its end too for a view of no elements: an empty slice)."""
    itemsize = torch.empty(0, dtype=dtype).element_size()
    if 0 in shape:
        return torch.empty(shape, dtype=dtype, device=tensors[0].device if tensors else "cuda")
    for t in tensors:
        storage = t.untyped_storage()
        start = storage.data_ptr()
        if start <= pointer < start + max(storage.nbytes(), 1):
            offset, rem = divmod(pointer - start, itemsize)
            if rem:
                raise ValueError("view data is not aligned to its dtype")
            view = torch.empty(0, dtype=dtype, device=t.device)
            return view.set_(storage, offset, shape, strides)
    raise ValueError("view output's data 0x%x is in no input's buffer" % pointer)


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
