"""The benchmark cases for bench/run.py: per file of bench/cases/, the symbol
binding of README.md's table, the values of scalar inputs, and a PyTorch
implementation taking the fusion's inputs in declaration order and
returning its outputs in order (the same math as bench/torch_reference.py,
written op for op after the fusion).
"""
try:
    import torch
    import torch.nn.functional as F
except ImportError:  # bench/run.py --dry-run reads CASES on machines without PyTorch
    torch = F = None


def bias_relu_nhwc(x, s, b):
    t1 = x * s + b
    return torch.relu(t1).half(), t1 > 0


def gelu_bwd_bias_grad(s0, s1, s2, s3, t4, t5, t6):
    t16 = torch.tanh(0.797885 * (t6 + 0.044715 * t6 ** 3.0))
    t19 = t4.sum(dim=(0, 1))
    t28 = t5 * (0.5 * t6) * (1.0 - t16 * t16) * s3
    t38 = t28 + t28 * s2 * s1 * t6 ** 2.0 + t5 * (1.0 + t16) * s0
    return t19, t38


def softmax(x):
    return torch.softmax(x, dim=-1)


def layernorm(x, w, b):
    return F.layer_norm(x, (x.shape[-1],), w, b, 1e-5)


def rmsnorm(x, w):
    xf = x.float()
    return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6) * w.float()).to(x.dtype)


def rope(q, cos, sin):
    x1, x2 = q[..., :64], q[..., 64:]
    return q * cos + torch.cat((-x2, x1), dim=-1) * sin


def xent_bwd(logits, labels):
    p = torch.softmax(logits.float(), dim=-1)
    one_hot = torch.zeros_like(p).scatter_(1, labels[:, None], -1.0)
    return (p + one_hot).to(torch.bfloat16)


def transpose_add(a, c):
    return a.t() + c


def transpose_3d(x):
    return x.permute(0, 2, 1).contiguous()


def sum_inner(x):
    return x.sum(-1)


def swiglu(gate, up):
    g = gate.float()
    return ((g / (torch.exp(-g) + 1.0)) * up.float()).to(torch.bfloat16)


def sum_outer(x):
    return x.sum(0)


def cumsum_rows(x):
    return torch.cumsum(x, dim=1)


def cumsum_columns(x):
    return torch.cumsum(x, dim=0)


def argmax_rows(x):
    return torch.argmax(x, dim=1)


def logsumexp_rows(x):
    return torch.logsumexp(x.float(), dim=1).to(x.dtype)


# stem: (binding, scalar input values, implementation)
def mean_var_extent_one(x):
    return x.mean(dim=1), x.var(dim=1)


def sum_heads(k):
    return k.reshape(1, 8, 4, k.shape[2], 128).sum(dim=(0, 2))


CASES = {
    "bias_relu_nhwc": ({"N": 32, "C": 1024, "H": 25, "W": 25}, {}, bias_relu_nhwc),
    "gelu_bwd_bias_grad": ({"B": 16, "S": 512, "H": 4096},
                           {"s0": 1.0, "s1": 2.0, "s2": 3.0, "s3": 4.0}, gelu_bwd_bias_grad),
    "softmax": ({"M": 32768, "N": 8192}, {}, softmax),
    "layernorm": ({"M": 32768, "N": 8192}, {}, layernorm),
    "rmsnorm": ({"M": 32768, "N": 8192}, {}, rmsnorm),
    "rope": ({"B": 8, "H": 32, "S": 4096}, {}, rope),
    "xent_bwd": ({"M": 8192, "V": 50257}, {}, xent_bwd),
    "transpose_add": ({"M": 8192, "N": 8192}, {}, transpose_add),
    "sum_inner": ({"M": 16384, "N": 16384}, {}, sum_inner),
    "sum_outer": ({"M": 16384, "N": 16384}, {}, sum_outer),
    # Not in the shared suite: the project's large pure-pointwise case.
    "swiglu": ({"M": 16384, "N": 16384}, {}, swiglu),
    "transpose_3d": ({"B": 64, "S": 512, "D": 768}, {}, transpose_3d),
    # The ops of issue 27 that make kernels of their own kind.
    "cumsum_rows": ({"M": 16384, "N": 8192}, {}, cumsum_rows),
    "cumsum_columns": ({"M": 8192, "N": 16384}, {}, cumsum_columns),
    "argmax_rows": ({"M": 32768, "N": 8192}, {}, argmax_rows),
    "logsumexp_rows": ({"M": 32768, "N": 8192}, {}, logsumexp_rows),
    # Reductions over a few static elements, computed pointwise (issue 24).
    "mean_var_extent_one": ({"M": 8192, "N": 8192}, {}, mean_var_extent_one),
    "sum_heads": ({"S": 16384}, {}, sum_heads),
}
