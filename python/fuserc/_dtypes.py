"""The fusion dtypes' PyTorch counterparts, both ways (fuserc.torch_dtype,
fuserc.fusion_dtype). PyTorch is imported on the first conversion, so
importing the package still needs none."""

_NAMES = {"bool": "bool", "i32": "int32", "i64": "int64", "f16": "float16", "bf16": "bfloat16",
          "f32": "float32", "f64": "float64"}


def torch_dtype(dtype):
    """The torch dtype of a fusion dtype name ("bf16" -> torch.bfloat16)."""
    import torch
    try:
        return getattr(torch, _NAMES[dtype])
    except KeyError:
        raise ValueError("'%s' is not a fusion dtype (%s)" % (dtype, ", ".join(_NAMES))) from None


def fusion_dtype(dtype):
    """The fusion dtype name of a torch dtype (torch.bfloat16 -> "bf16")."""
    import torch
    for name, attribute in _NAMES.items():
        if dtype == getattr(torch, attribute):
            return name
    raise ValueError("%s has no fusion dtype (fusions take %s)" % (dtype, ", ".join(_NAMES)))
