#!/usr/bin/python3
"""Peers for bench/interpreter: the same MLP and ResNet-18 forward passes in numpy and
PyTorch (eager, CPU), with the thread count given on the command line.

Usage: peers.py THREADS RUNS   -> prints lines `name milliseconds` (best of RUNS)
Weights are random (timing only). Shapes follow tests/models/{mlp,resnet18}.relay.
"""
import os
import sys
import time

threads = int(sys.argv[1]) if len(sys.argv) > 1 else 1
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = str(threads)

import numpy as np  # noqa: E402


def best(f):
    f()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times) * 1e3


rng = np.random.default_rng(0)
x = rng.standard_normal((1, 784)).astype("float32")
w = [rng.standard_normal(s).astype("float32") for s in ((128, 784), (64, 128), (10, 64))]
b = [rng.standard_normal(s).astype("float32") for s in ((128,), (64,), (10,))]


def mlp_numpy():
    h = np.maximum(x @ w[0].T + b[0], 0)
    h = np.maximum(h @ w[1].T + b[1], 0)
    z = h @ w[2].T + b[2]
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


print("mlp_numpy %.4f" % best(mlp_numpy))


def resnet18_numpy():
    """ResNet-18 (the network of resnet18() below) in numpy: convolution as im2col
    through stride tricks plus one matmul (OpenBLAS), NCHW, batch 1."""
    g = np.random.default_rng(1)

    def conv_w(cin, cout, k):
        return (g.standard_normal((cout, cin, k, k)) * 0.05).astype("float32")

    def conv(x, w, stride, pad):
        c, h, wd = x.shape[1:]
        cout, _, k, _ = w.shape
        xp = np.pad(x[0], ((0, 0), (pad, pad), (pad, pad)))
        oh = (h + 2 * pad - k) // stride + 1
        ow = (wd + 2 * pad - k) // stride + 1
        s = xp.strides
        cols = np.lib.stride_tricks.as_strided(
            xp, (c, k, k, oh, ow), (s[0], s[1], s[2], s[1] * stride, s[2] * stride))
        out = w.reshape(cout, -1) @ np.ascontiguousarray(cols).reshape(c * k * k, oh * ow)
        return out.reshape(1, cout, oh, ow)

    def bn(x):  # inference batch norm with unit variance and zero mean: scale and shift
        return x * np.float32(1 / np.sqrt(1 + 2e-5))

    def relu(x):
        return np.maximum(x, 0)

    def max_pool(x):
        xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=-np.inf)
        oh = (x.shape[2] + 2 - 3) // 2 + 1
        s = xp.strides
        win = np.lib.stride_tricks.as_strided(
            xp, (1, x.shape[1], oh, oh, 3, 3), (s[0], s[1], s[2] * 2, s[3] * 2, s[2], s[3]))
        return win.max(axis=(4, 5))

    w0 = conv_w(3, 64, 7)
    units = []
    cin = 64
    for stage, cout in enumerate((64, 128, 256, 512)):
        for unit in range(2):
            stride = 2 if stage > 0 and unit == 0 else 1
            sc = conv_w(cin, cout, 1) if cin != cout or stride != 1 else None
            units.append((conv_w(cin, cout, 3), conv_w(cout, cout, 3), sc, stride))
            cin = cout
    fc = (g.standard_normal((1000, 512)) * 0.05).astype("float32")
    data = g.standard_normal((1, 3, 224, 224)).astype("float32")

    def forward():
        t = conv(bn(data), w0, 2, 3)
        t = max_pool(relu(bn(t)))
        for w1, w2, sc, stride in units:
            a = relu(bn(t))
            h = relu(bn(conv(a, w1, stride, 1)))
            h = conv(h, w2, 1, 1)
            t = h + (conv(a, sc, stride, 0) if sc is not None else t)
        t = relu(bn(t)).mean(axis=(2, 3))
        z = t @ fc.T
        e = np.exp(z - z.max())
        return e / e.sum()

    return forward


print("resnet18_numpy %.4f" % best(resnet18_numpy()))

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    print("torch_missing 1")
    sys.exit(0)

torch.set_num_threads(threads)
tx = torch.from_numpy(x)
tw = [torch.from_numpy(a) for a in w]
tb = [torch.from_numpy(a) for a in b]


def mlp_torch():
    with torch.no_grad():
        h = F.relu(F.linear(tx, tw[0], tb[0]))
        h = F.relu(F.linear(h, tw[1], tb[1]))
        return F.softmax(F.linear(h, tw[2], tb[2]), dim=1)


print("mlp_torch %.4f" % best(mlp_torch))


def bn(c):
    return [torch.ones(c), torch.zeros(c), torch.zeros(c), torch.ones(c)]


def resnet18():
    """The network of tests/models/resnet18.relay (TVM's resnet builder, version 2:
    pre-activation units), as PyTorch eager calls."""
    g = torch.Generator().manual_seed(0)

    def conv(cin, cout, k):
        return torch.randn(cout, cin, k, k, generator=g) * 0.05

    params = {"bn_data": bn(3), "conv0": conv(3, 64, 7), "bn0": bn(64)}
    stages = []
    cin = 64
    for stage, cout in enumerate((64, 128, 256, 512)):
        units = []
        for unit in range(2):
            stride = 2 if stage > 0 and unit == 0 else 1
            p = {"bn1": bn(cin), "conv1": conv(cin, cout, 3), "bn2": bn(cout), "conv2": conv(cout, cout, 3),
                 "stride": stride}
            if cin != cout or stride != 1:
                p["sc"] = conv(cin, cout, 1)
            units.append(p)
            cin = cout
        stages.append(units)
    params["bn1"] = bn(512)
    fc_w = torch.randn(1000, 512, generator=g) * 0.05
    fc_b = torch.zeros(1000)
    data = torch.randn(1, 3, 224, 224, generator=g)

    def batch_norm(t, p, scale=True):
        return F.batch_norm(t, p[2], p[3], p[0] if scale else None, p[1], training=False, eps=2e-5)

    def forward():
        with torch.no_grad():
            t = batch_norm(data, params["bn_data"], scale=False)
            t = F.conv2d(t, params["conv0"], stride=2, padding=3)
            t = F.relu(batch_norm(t, params["bn0"]))
            t = F.max_pool2d(t, 3, stride=2, padding=1)
            for units in stages:
                for p in units:
                    a = F.relu(batch_norm(t, p["bn1"]))
                    h = F.conv2d(a, p["conv1"], stride=p["stride"], padding=1)
                    h = F.relu(batch_norm(h, p["bn2"]))
                    h = F.conv2d(h, p["conv2"], padding=1)
                    sc = F.conv2d(a, p["sc"], stride=p["stride"]) if "sc" in p else t
                    t = h + sc
            t = F.relu(batch_norm(t, params["bn1"]))
            t = F.adaptive_avg_pool2d(t, 1).flatten(1)
            return F.softmax(F.linear(t, fc_w, fc_b), dim=1)

    return forward


print("resnet18_torch %.4f" % best(resnet18()))
