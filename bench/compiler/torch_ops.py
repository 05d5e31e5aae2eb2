"""Relay operators as PyTorch calls, for torch_peer.py's translation of a Relay-text model.

OPS maps an operator name to fn(attrs, *operands) -> tensor (or a tuple where Relay's
operator returns one: nn.batch_norm, nn.dropout). Only NCHW/OIHW layouts are translated
(TVM's printed models use them); another layout, asymmetric padding that torch cannot
express, or an operator missing here raises Unsupported, which the bench reports.
Convolutions and dense also count their FLOPs into FLOPS when it is not None (the
bench's "convolution GFLOP/s": 2 * N * O * OH * OW * (C / groups) * KH * KW).
"""
import torch
import torch.nn.functional as F


class Unsupported(Exception):
    pass


FLOPS = None  # a dict {"conv": n, "dense": n} while counting


def count(kind, n):
    if FLOPS is not None:
        FLOPS[kind] = FLOPS.get(kind, 0) + int(n)


def pad4(p):
    """Relay's padding (1, 2 or 4 numbers) as [top, left, bottom, right]."""
    p = list(p)
    if len(p) == 1:
        return p * 4
    if len(p) == 2:
        return p + p
    return p


def sym_pad(x, p):
    """(x, torch padding): symmetric padding goes to the op, the asymmetric part to F.pad."""
    t, l, b, r = pad4(p)
    st, sl = min(t, b), min(l, r)
    if (t, l) != (b, r):
        x = F.pad(x, (l - sl, r - sl, t - st, b - st))
    return x, (st, sl)


def check_layout(a, data="NCHW", kernel=None):
    if a.get("data_layout", a.get("layout", data)) != data:
        raise Unsupported("layout " + a.get("data_layout", a.get("layout")))
    if kernel and a.get("kernel_layout", kernel) != kernel:
        raise Unsupported("kernel_layout " + a["kernel_layout"])


def conv2d(a, x, w):
    check_layout(a, kernel="OIHW")
    x, p = sym_pad(x, a.get("padding", [0, 0]))
    y = F.conv2d(x, w, None, tuple(a.get("strides", [1, 1])), p, tuple(a.get("dilation", [1, 1])), a.get("groups", 1))
    count("conv", 2 * y.numel() * w.shape[1] * w.shape[2] * w.shape[3])
    return y


def conv2d_transpose(a, x, w):
    # Relay's default kernel layout for conv2d_transpose is IOHW, torch's (in, out/groups, kh, kw)
    check_layout(a, kernel="IOHW")
    t, l, b, r = pad4(a.get("padding", [0, 0]))
    if (t, l) != (b, r):
        raise Unsupported("asymmetric conv2d_transpose padding")
    y = F.conv_transpose2d(x, w, None, tuple(a.get("strides", [1, 1])), (t, l), tuple(a.get("output_padding", [0, 0])),
                           a.get("groups", 1), tuple(a.get("dilation", [1, 1])))
    count("conv", 2 * x.numel() * w.shape[1] * w.shape[2] * w.shape[3])
    return y


def pool_args(a, x, pad_value):
    check_layout(a)
    t, l, b, r = pad4(a.get("padding", [0, 0]))
    if (t, l) != (b, r):
        raise Unsupported("asymmetric pool padding")
    if tuple(a.get("dilation", [1, 1])) != (1, 1):
        raise Unsupported("pool dilation")
    return tuple(a["pool_size"]), tuple(a.get("strides", [1, 1])), (t, l)


def max_pool2d(a, x):
    k, s, p = pool_args(a, x, float("-inf"))
    return F.max_pool2d(x, k, s, p, ceil_mode=a.get("ceil_mode", False))


def avg_pool2d(a, x):
    k, s, p = pool_args(a, x, 0.0)
    return F.avg_pool2d(x, k, s, p, ceil_mode=a.get("ceil_mode", False),
                        count_include_pad=a.get("count_include_pad", False))


def batch_norm(a, x, gamma, beta, mean, var):
    if a.get("axis", 1) != 1:
        raise Unsupported("batch_norm axis")
    return (F.batch_norm(x, mean, var, gamma if a.get("scale", True) else None,
                         beta if a.get("center", True) else None, False, 0.0, a.get("epsilon", 1e-5)),)


def bias_add(a, x, b):
    axis = a.get("axis", 1) % x.dim()
    return x + b.view([-1 if d == axis else 1 for d in range(x.dim())])


def dense(a, x, w):
    count("dense", 2 * x.numel() // x.shape[-1] * w.shape[0] * w.shape[1])
    return F.linear(x, w)


def reshape(a, x):
    shape = []
    for i, d in enumerate(a["newshape"]):
        if d == 0:
            shape.append(x.shape[i])  # Relay's 0: copy the input's dimension
        elif d >= -1:
            shape.append(d)
        else:
            raise Unsupported("reshape code %d" % d)
    return x.reshape(shape)


def concatenate(a, xs):
    return torch.cat(list(xs), a.get("axis", 0))


OPS = {
    "nn.batch_norm": batch_norm,
    "nn.conv2d": conv2d,
    "nn.conv2d_transpose": conv2d_transpose,
    "nn.relu": lambda a, x: F.relu(x),
    "nn.leaky_relu": lambda a, x: F.leaky_relu(x, a.get("alpha", 0.01)),
    "nn.max_pool2d": max_pool2d,
    "nn.avg_pool2d": avg_pool2d,
    "nn.global_avg_pool2d": lambda a, x: (check_layout(a), F.adaptive_avg_pool2d(x, 1))[1],
    "nn.global_max_pool2d": lambda a, x: (check_layout(a), F.adaptive_max_pool2d(x, 1))[1],
    "nn.batch_flatten": lambda a, x: torch.flatten(x, 1),
    "nn.dense": dense,
    "nn.bias_add": bias_add,
    "nn.softmax": lambda a, x: torch.softmax(x, a.get("axis", -1)),
    "nn.log_softmax": lambda a, x: torch.log_softmax(x, a.get("axis", -1)),
    "nn.dropout": lambda a, x: (x, torch.ones_like(x)),  # inference: the identity
    "concatenate": concatenate,
    "reshape": reshape,
    "sigmoid": lambda a, x: torch.sigmoid(x),
    "tanh": lambda a, x: torch.tanh(x),
    "exp": lambda a, x: torch.exp(x),
    "sqrt": lambda a, x: torch.sqrt(x),
    "clip": lambda a, x: torch.clamp(x, a["a_min"], a["a_max"]),
    "add": lambda a, x, y: x + y,
    "subtract": lambda a, x, y: x - y,
    "multiply": lambda a, x, y: x * y,
    "divide": lambda a, x, y: x / y,
}
