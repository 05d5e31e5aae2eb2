#!/usr/bin/python3
"""Runs tests/models/quantized_cnn.relay with `relay run` on seeded inputs and weights and
compares its output with this file's numpy implementation of the same integer arithmetic,
bit for bit (issue 17 §4).

The reference follows TVM 0.14's QNN canonicalisation, written here with numpy int64 and
independent of the C++ kernels: quantize = clip(round-half-away(x / s) + zp);
qnn.conv2d / qnn.dense = sum((x - zp_x) * w) in int32 (the weights' zero point is 0);
requantize = per channel, the float64 ratio of float32 scales as a Q31 multiplier and
shift (frexp), (x << left) * multiplier + 2^(total-1) >> total (UPWARD, the default for
"None"), + zp, saturate to int8; qnn.add = both operands requantized to the output's
scale (int32) added, minus its zero point, saturated; dequantize = float32(q - zp) * s.
The model's output is the dequantized logits, so equality of the float32 outputs is
equality of the int8 logits.

Usage: quantized_cnn_check.py RELAY_BINARY MODEL.relay [--write-inputs DIR]
Exit status 0 when the outputs are identical.
"""
import math
import sys

import numpy as np

from run_relay import run_model

F32 = np.float32

# The constants printed in quantized_cnn.relay (tests/models/generate.py, QCNN_*).
INPUT = (0.0078125, 0)
BLOCKS = [("conv1", 3, 8, 1, (0.05, -128)), ("conv2", 8, 16, 2, (0.05, -128)),
          ("conv3", 16, 16, 1, (0.05, -128))]
ADD = (0.08, -128)
FC = (0.1, 3)


def params(seed=17):
    """Weights, per-channel scales and biases sized so that few activations saturate."""
    r = np.random.default_rng(seed)
    p = {"data": r.uniform(-1, 1, (1, 3, 32, 32)).astype("float32")}
    for name, cin, cout, _, _ in BLOCKS:
        p[name + "_weight"] = r.integers(-127, 128, (cout, cin, 3, 3)).astype("int8")
        p[name + "_weight_scale"] = r.uniform(0.002, 0.006, cout).astype("float32") * F32(3.0 / math.sqrt(cin))
        p[name + "_bias"] = r.integers(-2000, 2000, cout).astype("int32")
    p["fc_weight"] = r.integers(-127, 128, (10, 4096)).astype("int8")
    p["fc_weight_scale"] = r.uniform(0.0005, 0.001, 10).astype("float32")
    p["fc_bias"] = r.integers(-5000, 5000, 10).astype("int32")
    return p


def q31(m):
    sig, exp = math.frexp(m)
    q = int(math.floor(sig * (1 << 31) + 0.5))
    if q == 1 << 31:
        q, exp = q // 2, exp + 1
    return q, exp


def requantize(x, in_scales, out_scale, out_zp, axis):
    """Per-channel requantize of int32 `x` (input zero point 0) to int8."""
    x = x.astype("int64")
    out = np.empty_like(x)
    for c, s in enumerate(np.asarray(in_scales, "float32")):
        q, shift = q31(float(F32(s)) / float(F32(out_scale)))
        left, right = max(shift, 0), max(-shift, 0)
        total = 31 + right
        idx = [slice(None)] * x.ndim
        idx[axis] = c
        v = (x[tuple(idx)] << left) * q
        out[tuple(idx)] = (v + (1 << (total - 1))) >> total
    return np.clip(out + out_zp, -128, 127)


def requantize_scalar(x, in_scale, in_zp, out_scale, out_zp):
    """Per-tensor requantize to int32 (no clip), as qnn.add's operands."""
    q, shift = q31(float(F32(in_scale)) / float(F32(out_scale)))
    left, right = max(shift, 0), max(-shift, 0)
    total = 31 + right
    v = ((x.astype("int64") - in_zp) << left) * q
    return ((v + (1 << (total - 1))) >> total) + out_zp


def conv3x3(x, w, zp, stride):
    """NCHW/OIHW 3x3 convolution, padding 1 (padded with the zero point), int64."""
    xs = np.pad(x.astype("int64") - zp, ((0, 0), (0, 0), (1, 1), (1, 1)))
    n, c, h, wd = xs.shape
    oh, ow = (h - 3) // stride + 1, (wd - 3) // stride + 1
    cols = np.empty((c, 3, 3, oh, ow), "int64")
    for i in range(3):
        for j in range(3):
            cols[:, i, j] = xs[0, :, i:i + stride * oh:stride, j:j + stride * ow:stride]
    return np.einsum("ocij,cijhw->ohw", w.astype("int64"), cols)[None]


def reference(p):
    x = p["data"] / F32(INPUT[0])
    x = np.where(x >= 0, np.floor(x.astype("float64") + 0.5), -np.floor(-x.astype("float64") + 0.5))
    net = np.clip(x + INPUT[1], -128, 127).astype("int64")
    scale, zp = INPUT
    outs = {}
    for name, _, _, stride, (out_scale, out_zp) in BLOCKS:
        acc = conv3x3(net, p[name + "_weight"], zp, stride) + p[name + "_bias"].reshape(1, -1, 1, 1)
        rq_scale = (p[name + "_weight_scale"] * F32(scale)).astype("float32")
        net = np.clip(requantize(acc, rq_scale, out_scale, out_zp, 1), out_zp, 127)
        outs[name] = net
        scale, zp = out_scale, out_zp
    s2, z2 = BLOCKS[1][4]
    a = requantize_scalar(outs["conv2"], s2, z2, ADD[0], ADD[1])
    b = requantize_scalar(outs["conv3"], scale, zp, ADD[0], ADD[1])
    net = np.clip(a + b - ADD[1], -128, 127).reshape(1, -1)
    acc = (net - ADD[1]) @ p["fc_weight"].astype("int64").T + p["fc_bias"]
    logits = requantize(acc, (p["fc_weight_scale"] * F32(ADD[0])).astype("float32"), FC[0], FC[1], 1)
    out = (logits - FC[1]).astype("float32") * F32(FC[0])
    return out.astype("float32"), logits, outs


def main(argv):
    relay, model = argv[1], argv[2]
    p = params()
    expected, logits, outs = reference(p)
    for name, act in outs.items():
        print("%s: %.1f%% of activations saturated at 127, %.1f%% at the zero point (ReLU)" %
              (name, 100 * float(np.mean(act == 127)), 100 * float(np.mean(act == -128))))
    print("int8 logits (numpy):", logits.reshape(-1).tolist())
    got, failure = run_model(relay, model, p)
    if got is None:
        print(failure)
        return 1
    if got.dtype != expected.dtype or got.shape != expected.shape or not np.array_equal(got, expected):
        print("MISMATCH\n  relay: %s\n  numpy: %s" % (got.reshape(-1).tolist(), expected.reshape(-1).tolist()))
        return 1
    print("identical: %s" % got.reshape(-1).tolist())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
