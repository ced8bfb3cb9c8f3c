"""fuserc for Python: compile fusions with the fuserc command line and call
the generated kernels on PyTorch tensors (docs/python.md).

    lib = fuserc.compile("softmax.fus", archs=["sm_90"])   # or fuserc.load(dir)
    y = lib.softmax(x)
    ops = fuserc.torch.register(lib, namespace="myns")     # import fuserc.torch
    launch = lib.softmax.prepare(x); launch.launch()       # buffers made once (CUDA graphs)
    fuserc.testing.compile(...)                            # import fuserc.testing: the variant hook

Importing it loads nothing and compiles nothing; PyTorch is imported on the
first call with tensors.
"""
from ._compile import compile, find_fuserc
from ._dlpack import KDL_CPU, KDL_CUDA, TensorArg
from ._dtypes import fusion_dtype, torch_dtype
from ._extent import Extent
from ._errors import CompileError, Diagnostic, FusercError, ManifestError, Status, StatusError
from ._library import Fusion, Library, load
from ._manifest import Manifest, read_manifest
from ._schema import op_schema

__version__ = "0.1.0"
__all__ = ["compile", "load", "find_fuserc", "Library", "Fusion", "TensorArg", "KDL_CPU",
           "KDL_CUDA", "Manifest", "Extent", "read_manifest", "op_schema", "torch_dtype", "fusion_dtype",
           "FusercError", "CompileError", "Diagnostic", "ManifestError", "Status", "StatusError"]
