"""DLPack's C structures (dlpack.h) in ctypes, and the fusion dtypes' codes.
The generated functions take `DLTensor *` (docs/header.md)."""
import ctypes

KDL_CPU = 1
KDL_CUDA = 2
KDL_INT, KDL_UINT, KDL_FLOAT, KDL_BFLOAT, KDL_BOOL = 0, 1, 2, 4, 6


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


# Fusion dtype -> (DLPack code, bits); bool is kDLBool (DLPack 0.8).
DTYPE_CODES = {"bool": (KDL_BOOL, 8), "i32": (KDL_INT, 32), "i64": (KDL_INT, 64),
               "f16": (KDL_FLOAT, 16), "bf16": (KDL_BFLOAT, 16), "f32": (KDL_FLOAT, 32),
               "f64": (KDL_FLOAT, 64)}
# A scalar input's C type in the launch function -> ctypes.
SCALAR_CTYPES = {"float": ctypes.c_float, "double": ctypes.c_double, "int32_t": ctypes.c_int32,
                 "int64_t": ctypes.c_int64}
ITEMSIZE = {d: bits // 8 for d, (_, bits) in DTYPE_CODES.items()}


class TensorArg:
    """A DLTensor with the shape and strides arrays it points at kept alive.
    `owner` keeps the memory's owner (a torch tensor) alive with it."""

    __slots__ = ("struct", "shape", "strides", "owner")

    def __init__(self, data, shape, strides, dtype, device_type=KDL_CUDA, device_id=0,
                 byte_offset=0, owner=None):
        ndim = len(shape)
        self.shape = (ctypes.c_int64 * max(ndim, 1))(*shape)
        self.strides = None if strides is None else (ctypes.c_int64 * max(ndim, 1))(*strides)
        code, bits = DTYPE_CODES[dtype] if isinstance(dtype, str) else dtype
        self.struct = DLTensor(data or None, DLDevice(device_type, device_id), ndim,
                               DLDataType(code, bits, 1), self.shape, self.strides, byte_offset)
        self.owner = owner

    @classmethod
    def empty(cls, rank):
        """An output for describe_outputs to fill in."""
        arg = cls(None, [0] * rank, [0] * rank, (0, 0))
        arg.struct.ndim = rank
        return arg

    def described(self):
        """(shape, strides, data or None, byte_offset, (code, bits)) as filled in."""
        n = self.struct.ndim
        return (tuple(self.shape[:n]), tuple(self.strides[:n]), self.struct.data,
                self.struct.byte_offset, (self.struct.dtype.code, self.struct.dtype.bits))
