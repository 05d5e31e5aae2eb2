"""Golden data for the §3.10 qnn.* operators.

The expected values come from a numpy/Python-integer implementation of what TVM 0.14's QNN
canonicalisation lowers each operator to (src/relay/qnn/op/*.cc, src/relay/qnn/utils.cc,
python/tvm/relay/qnn/op/legalizations.py), written from those definitions and not from
the C++ kernels:
  * requantize: per channel, m = float64(float32 in_scale) / float64(float32 out_scale)
    encoded as a Q31 multiplier and shift (frexp); x' = x - in_zp;
    y = (x' << max(shift, 0)) * multiplier + r >> (31 + max(-shift, 0)) in int64, with
    r = 2^(total-1) (UPWARD, TVM's default for "None") or 2^(total-1) - 1 for a negative
    product (TONEAREST); then + out_zp and saturate unless out_dtype is int32;
  * quantize: clip(round_half_away(float32(x / scale)) + zp); dequantize: float32(x - zp) * scale;
  * add/subtract: both operands requantized to the output's (int32, no clip), added, minus
    out_zp (subtract: plus), saturated; mul: (a - zp_a) * (b - zp_b) requantized from
    float32(scale_a * scale_b);
  * conv2d/dense/batch_matmul: sum((x - zp_x) * (w - zp_w)) in int32 (kernel zero point per
    output channel); concatenate and avg_pool2d requantize first;
  * the unary ops: quantize(f(dequantize(x))) with f in float32;
  * requantize with compute_dtype float32/float64 (RequantizeLowerFP): each step in that
    numpy float type, then the Upward/Tonearest sequence TVM emits without SSE4.1;
  * softmax (QnnSoftmaxCanonicalize): the integer exponent approximation in wrapping int32
    with truncating division, then requantize from 1/128 (see softmax_ref).
"""
import math

import numpy as np

from families.common import Case, op_case, program, relay_type, rng

I8 = np.int8


def f32(v):
    return np.float32(v)


def i32(v):
    return np.array(v, dtype="int32")


def q31(m):
    """TVM's GetFixedPointMultiplierShift."""
    if m == 0.0:
        return 0, 0
    sig, exp = math.frexp(m)
    q = int(round_half_away(sig * (1 << 31)))
    if q == (1 << 31):
        q //= 2
        exp += 1
    return q, exp


def round_half_away(v):
    return math.floor(v + 0.5) if v >= 0 else -math.floor(-v + 0.5)


def wrap(v, bits=64):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def fpm(x, m, rounding):
    """round(x * m) as the lowered int64 sequence computes it (Python integers)."""
    mult, shift = q31(m)
    left, right = max(shift, 0), max(-shift, 0)
    v = wrap(wrap(x << left) * mult)
    total = right + 31
    half = 1 << (total - 1)
    v = wrap(v + (half - 1 if rounding == "TONEAREST" and v < 0 else half))
    return wrap(v >> total, 32)


def channel_of(shape, axis):
    """For each flat index, its index along `axis`."""
    idx = np.indices(shape)[axis] if len(shape) else np.zeros((), "int64")
    return idx.reshape(-1)


def per(param, shape, axis):
    p = np.asarray(param).reshape(-1)
    if p.size == 1:
        return np.full(int(np.prod(shape)), p[0])
    return p[channel_of(shape, axis % len(shape))]


def requantize_ref(x, in_scale, in_zp, out_scale, out_zp, axis=-1, rounding="UPWARD", clip_to=None):
    shape = x.shape
    s, z = per(in_scale, shape, axis), per(in_zp, shape, axis)
    out = []
    for v, sc, zp in zip(x.reshape(-1).tolist(), s.tolist(), z.tolist()):
        m = float(f32(sc)) / float(f32(out_scale))
        shifted = wrap(int(v) - int(zp), 32)
        out.append(wrap(fpm(shifted, m, rounding) + int(out_zp), 32))
    out = np.array(out, dtype="int64").reshape(shape)
    if clip_to is not None and clip_to != "int32":
        info = np.iinfo(clip_to)
        out = np.clip(out, info.min, info.max)
    return out.astype(clip_to or "int32")


def quantize_ref(x, scale, zp, out_dtype, axis=-1):
    shape = x.shape
    s, z = per(scale, shape, axis).astype("float32"), per(zp, shape, axis)
    q = (x.reshape(-1).astype("float32") / s).astype("float32")
    r = np.array([round_half_away(float(v)) for v in q], dtype="float32") + z.astype("float32")
    info = np.iinfo(out_dtype)
    return np.clip(r, info.min, info.max).astype(out_dtype).reshape(shape)


def dequantize_ref(x, scale, zp, axis=-1):
    shape = x.shape
    s, z = per(scale, shape, axis).astype("float32"), per(zp, shape, axis)
    return ((x.reshape(-1).astype("int64") - z).astype("float32") * s).reshape(shape)


def ints(r, shape, dtype="int8", lo=None, hi=None):
    info = np.iinfo(dtype)
    return r.integers(info.min if lo is None else lo, (info.max if hi is None else hi) + 1, size=shape).astype(dtype)


# ---------------------------------------------------------------------------------------

def requantize_cases():
    out = []
    r = rng("requantize")
    x = ints(r, (4, 6), "int32", -3000, 3000)
    for rounding in ("UPWARD", "TONEAREST", "None"):
        args = [x, f32(0.37), i32(3), f32(0.9), i32(-5)]
        ref = requantize_ref(x, 0.37, 3, 0.9, -5, rounding="UPWARD" if rounding == "None" else rounding,
                             clip_to="int8")
        out.append(op_case("requantize_" + rounding.lower(), "qnn.requantize", args, ref,
                           'rounding="%s", out_dtype="int8"' % rounding))
    # Exact halves, where UPWARD and TONEAREST differ: scale ratio 1/2 on odd values.
    x = np.arange(-9, 10, dtype="int32").reshape(1, 19)
    for rounding in ("UPWARD", "TONEAREST"):
        ref = requantize_ref(x, 0.5, 0, 1.0, 0, rounding=rounding, clip_to="int8")
        out.append(op_case("requantize_halves_" + rounding.lower(), "qnn.requantize",
                           [x, f32(0.5), i32(0), f32(1.0), i32(0)], ref, 'rounding="%s", out_dtype="int8"' % rounding))
    # Per-channel scales along axis 1 (NCHW output channels), uint8 and int32 outputs.
    x = ints(r, (2, 3, 2, 2), "int32", -20000, 20000)
    scales = np.array([0.001, 0.0173, 0.25], dtype="float32")
    for rounding in ("UPWARD", "TONEAREST"):
        ref = requantize_ref(x, scales, 0, 0.05, 128, axis=1, rounding=rounding, clip_to="uint8")
        out.append(op_case("requantize_per_channel_" + rounding.lower(), "qnn.requantize",
                           [x, scales, i32(0), f32(0.05), i32(128)], ref,
                           'axis=1, rounding="%s", out_dtype="uint8"' % rounding))
    ref = requantize_ref(x, scales, 0, 0.05, 7, axis=1, clip_to="int32")
    out.append(op_case("requantize_to_int32", "qnn.requantize", [x, scales, i32(0), f32(0.05), i32(7)], ref,
                       'axis=1, out_dtype="int32"'))
    # An upscale (multiplier > 1: a left shift) from int8 with a zero point, to int16.
    x = ints(r, (3, 5), "int8")
    ref = requantize_ref(x, 0.8, -3, 0.011, 2, clip_to="int16")
    out.append(op_case("requantize_upscale_int16", "qnn.requantize", [x, f32(0.8), i32(-3), f32(0.011), i32(2)], ref,
                       'out_dtype="int16"'))
    # Saturation at both ends.
    x = np.array([-100000, -200, 0, 200, 100000], dtype="int32")
    ref = requantize_ref(x, 1.0, 0, 0.5, 0, clip_to="int8")
    out.append(op_case("requantize_saturates", "qnn.requantize", [x, f32(1.0), i32(0), f32(0.5), i32(0)], ref,
                       'out_dtype="int8"'))
    return out


def quantize_cases():
    out = []
    r = rng("quantize")
    x = (r.standard_normal((3, 7)) * 4).astype("float32")
    x[0, :4] = [0.25, -0.25, 0.75, -0.75]  # halves after dividing by 0.5: away from zero
    for dt, zp in (("int8", 3), ("uint8", 128), ("int32", -7)):
        out.append(op_case("quantize_" + dt, "qnn.quantize", [x, f32(0.5), i32(zp)], quantize_ref(x, 0.5, zp, dt),
                           'out_dtype="%s"' % dt))
    x = (r.standard_normal((2, 4, 3)) * 10).astype("float32")
    scales = np.array([0.1, 0.05, 0.3, 1.0], dtype="float32")
    zps = i32([0, 1, -2, 5])
    out.append(op_case("quantize_per_channel", "qnn.quantize", [x, scales, zps],
                       quantize_ref(x, scales, zps, "int8", axis=1), 'out_dtype="int8", axis=1'))
    q = ints(r, (3, 7), "int8")
    out.append(op_case("dequantize_int8", "qnn.dequantize", [q, f32(0.125), i32(-4)], dequantize_ref(q, 0.125, -4),
                       'out_dtype="float32"', rtol=0, atol=0))
    q = ints(r, (2, 4, 3), "uint8")
    out.append(op_case("dequantize_per_channel", "qnn.dequantize", [q, scales, zps],
                       dequantize_ref(q, scales, zps, axis=1), 'out_dtype="float32", axis=1', rtol=0, atol=0))
    return out


def binary_ref(op, a, b, sa, za, sb, zb, so, zo, dtype):
    shape = np.broadcast_shapes(a.shape, b.shape)
    if op in ("add", "subtract"):
        ra = requantize_ref(a, sa, za, so, zo).astype("int64")
        rb = requantize_ref(b, sb, zb, so, zo).astype("int64")
        v = ra + rb - zo if op == "add" else ra - rb + zo
    else:
        prod = (a.astype("int64") - za) * (b.astype("int64") - zb)
        v = requantize_ref(np.broadcast_to(prod, shape).astype("int32"), f32(f32(sa) * f32(sb)), 0, so, zo)
    info = np.iinfo(dtype)
    return np.clip(np.broadcast_to(v, shape), info.min, info.max).astype(dtype)


def binary_cases():
    out = []
    r = rng("qnn_binary")
    for op in ("add", "subtract", "mul"):
        for dt in ("int8", "uint8"):
            a, b = ints(r, (2, 3, 4), dt), ints(r, (3, 1), dt)
            za, zb, zo = (0, 2, -3) if dt == "int8" else (128, 120, 130)
            sa, sb, so = 0.02, 0.035, 0.05 if op != "mul" else 0.4
            args = [a, b, f32(sa), i32(za), f32(sb), i32(zb), f32(so), i32(zo)]
            out.append(op_case("%s_%s" % (op, dt), "qnn." + op, args, binary_ref(op, a, b, sa, za, sb, zb, so, zo, dt)))
    # Equal scales and zero points: add takes the operands as they are (RequantizeOrUpcast).
    a, b = ints(r, (5,), "int8"), ints(r, (5,), "int8")
    args = [a, b, f32(0.1), i32(1), f32(0.1), i32(1), f32(0.1), i32(1)]
    out.append(op_case("add_same_params", "qnn.add", args, binary_ref("add", a, b, 0.1, 1, 0.1, 1, 0.1, 1, "int8")))
    return out


UNARY = {
    "abs": np.abs, "exp": np.exp, "log": np.log, "sqrt": np.sqrt, "rsqrt": lambda v: 1 / np.sqrt(v),
    "sigmoid": lambda v: 1 / (1 + np.exp(-v)), "tanh": np.tanh,
    "hardswish": lambda v: v * np.clip(v + np.float32(3.0), np.float32(0.0), np.float32(6.0)) / np.float32(6.0),
    "erf": lambda v: np.array([math.erf(float(e)) for e in v.reshape(-1)], "float32").reshape(v.shape),
}


def unary_cases():
    out = []
    for name, f in sorted(UNARY.items()):
        r = rng("qnn_" + name)
        # log/sqrt/rsqrt see positive reals only (zero point below every value).
        positive = name in ("log", "sqrt", "rsqrt")
        x = ints(r, (4, 8), "uint8", 1, 255) if positive else ints(r, (4, 8), "int8")
        zp = 0 if positive else -2
        s, so, zo = 0.05, 0.03, (0 if positive else 1)
        real = dequantize_ref(x, s, zp)
        with np.errstate(all="ignore"):
            y = f(real).astype("float32")
        ref = quantize_ref(y, so, zo, str(x.dtype))
        out.append(op_case("unary_" + name, "qnn." + name, [x, f32(s), i32(zp), f32(so), i32(zo)], ref))
    return out


def conv2d_ref(x, w, zx, zw, strides, padding, groups):
    """NCHW / OIHW integer convolution of the zero-point-shifted operands (int64)."""
    xs = x.astype("int64") - zx
    ws = w.astype("int64") - np.asarray(zw).reshape(-1, 1, 1, 1)
    n, c, h, wd = xs.shape
    o, ig, kh, kw = ws.shape
    pt, pl, pb, pr = padding
    xp = np.zeros((n, c, h + pt + pb, wd + pl + pr), "int64")
    xp[:, :, pt:pt + h, pl:pl + wd] = xs
    oh = (h + pt + pb - kh) // strides[0] + 1
    ow = (wd + pl + pr - kw) // strides[1] + 1
    res = np.zeros((n, o, oh, ow), "int64")
    og = o // groups
    for oc in range(o):
        g = oc // og
        for i in range(oh):
            for j in range(ow):
                patch = xp[:, g * ig:(g + 1) * ig, i * strides[0]:i * strides[0] + kh, j * strides[1]:j * strides[1] + kw]
                res[:, oc, i, j] = (patch * ws[oc]).sum(axis=(1, 2, 3))
    return res.astype("int32")


def product_cases():
    out = []
    r = rng("qnn_conv2d")
    x, w = ints(r, (1, 3, 6, 6), "int8"), ints(r, (4, 3, 3, 3), "int8")
    zw = i32([0, 1, -2, 3])
    ref = conv2d_ref(x, w, 5, zw, (1, 1), (1, 1, 1, 1), 1)
    attrs = 'padding=[1, 1, 1, 1], channels=4, kernel_size=[3, 3], out_dtype="int32"'
    out.append(op_case("conv2d_per_channel_pad", "qnn.conv2d", [x, w, i32(5), zw, f32(0.1), np.full(4, 0.2, "float32")],
                       ref, attrs))
    x, w = ints(r, (1, 4, 7, 7), "uint8"), ints(r, (4, 1, 3, 3), "uint8")
    ref = conv2d_ref(x, w, 128, 120, (2, 2), (0, 0, 0, 0), 4)
    attrs = 'strides=[2, 2], padding=[0, 0, 0, 0], groups=4, channels=4, kernel_size=[3, 3], out_dtype="int32"'
    out.append(op_case("conv2d_depthwise_uint8", "qnn.conv2d", [x, w, i32(128), i32(120), f32(0.1), f32(0.2)], ref, attrs))

    r = rng("qnn_dense")
    x, w = ints(r, (3, 10), "int8"), ints(r, (5, 10), "int8")
    zw = i32([1, 0, -1, 2, 3])
    ref = ((x.astype("int64") - 4) @ (w.astype("int64") - zw.reshape(-1, 1)).T).astype("int32")
    out.append(op_case("dense_per_channel", "qnn.dense", [x, w, i32(4), zw, f32(0.5), np.full(5, 0.25, "float32")], ref,
                       'units=5, out_dtype="int32"'))
    x, y = ints(r, (2, 3, 6), "int8"), ints(r, (2, 4, 6), "int8")
    ref = np.einsum("bik,bjk->bij", x.astype("int64") + 1, y.astype("int64") - 2).astype("int32")
    out.append(op_case("batch_matmul", "qnn.batch_matmul", [x, y, i32(-1), i32(2), f32(0.5), f32(0.25)], ref,
                       'out_dtype="int32", transpose_b=True'))

    r = rng("qnn_dense_pack")
    x, w = ints(r, (2, 6), "int8"), ints(r, (8, 6), "int8")
    packed = w.reshape(2, 4, 6).transpose(0, 2, 1).copy()  # (N/4, K, 4), as nn.contrib_dense_pack reads it
    ref = ((x.astype("int64") - 3) @ (w.astype("int64") + 1).T).astype("int32")
    out.append(op_case("dense_pack", "qnn.contrib_dense_pack", [x, packed, i32(3), i32(-1), f32(0.5), f32(0.5)], ref,
                       'units=None, out_dtype="int32"'))

    r = rng("qnn_conv2d_transpose")
    x, w = ints(r, (1, 2, 3, 3), "int8"), ints(r, (2, 3, 2, 2), "int8")  # IOHW
    zw = i32([1, -1, 2])
    xs = x.astype("int64") - 2
    ws = w.astype("int64") - zw.reshape(1, -1, 1, 1)
    ref = np.zeros((1, 3, 6, 6), "int64")  # stride 2, kernel 2: (3 - 1) * 2 + 2
    for i in range(3):
        for j in range(3):
            ref[0, :, 2 * i:2 * i + 2, 2 * j:2 * j + 2] += np.einsum("c,cokl->okl", xs[0, :, i, j], ws)
    out.append(op_case("conv2d_transpose_per_channel", "qnn.conv2d_transpose",
                       [x, w, i32(2), zw, f32(0.1), np.full(3, 0.1, "float32")], ref.astype("int32"),
                       'channels=3, kernel_size=[2, 2], strides=[2, 2], padding=[0, 0, 0, 0], out_dtype="int32"'))
    return out


def concat_pool_cases():
    out = []
    r = rng("qnn_concatenate")
    a, b = ints(r, (2, 3), "int8"), ints(r, (2, 4), "int8")
    sa, za, sb, zb, so, zo = 0.1, 2, 0.05, -1, 0.08, 0
    ref = np.concatenate([requantize_ref(a, sa, za, so, zo, clip_to="int8"),
                          requantize_ref(b, sb, zb, so, zo, clip_to="int8")], axis=1)
    inputs = [a, b, f32(sa), f32(sb), i32(za), i32(zb), f32(so), i32(zo)]
    body = "qnn.concatenate((%x0, %x1), (%x2, %x3), (%x4, %x5), %x6, %x7, axis=1)"
    out.append(Case("concatenate_requantized", program(inputs, body), inputs, ref))
    # An input already at the output's parameters is taken as it is.
    inputs = [a, b, f32(so), f32(sb), i32(zo), i32(zb), f32(so), i32(zo)]
    ref = np.concatenate([a, requantize_ref(b, sb, zb, so, zo, clip_to="int8")], axis=1)
    out.append(Case("concatenate_passthrough", program(inputs, body), inputs, ref))

    r = rng("qnn_avg_pool2d")
    x = ints(r, (1, 2, 4, 4), "uint8")
    rq = requantize_ref(x, 0.1, 120, 0.2, 110).astype("int64")
    # nn.avg_pool2d on int32, 2x2 windows, stride 2: sum / 4 truncated (TOPI's integer div).
    s = rq.reshape(1, 2, 2, 2, 2, 2).sum(axis=(3, 5))
    pooled = np.trunc(s / 4).astype("int64")
    ref = np.clip(pooled, 0, 255).astype("uint8")
    out.append(op_case("avg_pool2d", "qnn.avg_pool2d", [x, f32(0.1), i32(120), f32(0.2), i32(110)], ref,
                       "pool_size=[2, 2], strides=[2, 2], padding=[0, 0, 0, 0]"))
    return out


def simulated_cases():
    """TOPI's simulated_quantize / simulated_dequantize: float in, float out; dtype codes
    0 disable (pass through), 1 int8, 2 uint8, 3 int32; scale and zero point indexed by
    the channel modulo their length."""
    out = []
    r = rng("qnn_simulated")
    x = (r.standard_normal((2, 3, 4)) * 8).astype("float32")
    scales = np.array([0.05, 0.1, 0.5], dtype="float32")
    zps = i32([0, 3, -2])
    for code, dt in ((1, "int8"), (2, "uint8"), (3, "int32")):
        ref = quantize_ref(x, scales, zps, dt, axis=1).astype("float32")
        out.append(op_case("simulated_quantize_" + dt, "qnn.simulated_quantize", [x, i32(code), scales, zps], ref,
                           "axis=1", rtol=0, atol=0))
    out.append(op_case("simulated_quantize_disable", "qnn.simulated_quantize", [x, i32(0), scales, zps], x, "axis=1",
                       rtol=0, atol=0))
    q = np.round(x).astype("float32")
    ref = ((q - zps.reshape(1, 3, 1).astype("float32")) * scales.reshape(1, 3, 1)).astype("float32")
    out.append(op_case("simulated_dequantize_int8", "qnn.simulated_dequantize", [q, i32(1), scales, zps], ref,
                       'out_dtype="float32", axis=1', rtol=0, atol=0))
    out.append(op_case("simulated_dequantize_disable", "qnn.simulated_dequantize", [q, i32(0), scales, zps], q,
                       'out_dtype="float32", axis=1', rtol=0, atol=0))
    return out


def leaky_relu_cases():
    """QnnLeakyReluCanonicalize: x' = requantize(x) (or x as int32 when the parameters are the
    output's); x < zp_in: fpm(x', alpha) + fpm(zp_out, 1 - alpha); UPWARD throughout."""
    out = []
    r = rng("qnn_leaky_relu")
    for name, dt, (s, z, so, zo), alpha in (("int8", "int8", (0.1, -3, 0.05, 4), 0.1),
                                            ("uint8_same_params", "uint8", (0.2, 128, 0.2, 128), 0.3)):
        x = ints(r, (3, 9), dt)
        rq = requantize_ref(x, s, z, so, zo).astype("int64") if (s, z) != (so, zo) else x.astype("int64")
        neg = np.array([fpm(int(v), alpha, "UPWARD") for v in rq.reshape(-1)]).reshape(rq.shape)
        neg = neg + fpm(zo, 1 - alpha, "UPWARD")
        res = np.where(x.astype("int64") < z, neg, rq)
        info = np.iinfo(dt)
        ref = np.clip(res, info.min, info.max).astype(dt)
        out.append(op_case("leaky_relu_" + name, "qnn.leaky_relu", [x, f32(s), i32(z), f32(so), i32(zo)], ref,
                           "alpha=%s" % alpha))
    return out


def requantize_fp_ref(x, in_scale, in_zp, out_scale, out_zp, axis=-1, rounding="UPWARD", bits=32, clip_to="int8"):
    """RequantizeLowerFP<bits>: every step in float32 (or float64) numpy arithmetic, then the
    rounding sequence TVM emits for a target without SSE4.1 (Upward/Tonearest)."""
    F, I = (np.float32, np.int32) if bits == 32 else (np.float64, np.int64)
    shape = x.shape
    s, z = per(in_scale, shape, axis), per(in_zp, shape, axis)
    m = np.array([float(f32(v)) / float(f32(out_scale)) for v in s.tolist()]).astype(F)
    t = x.reshape(-1).astype(F) - z.astype("int32").astype(F)
    t = m * t
    t = t + F(out_zp)
    if rounding == "UPWARD":
        b = t + F(0.5)
        bf = b.astype(I).astype(F)
        t = np.where((b == bf) | (b >= F(0)), bf, bf - F(1))
    else:
        sign = np.where(t < F(0), F(-1), F(1)).astype(F)
        biased = (t + F(0.5) * sign) * sign
        t = biased.astype(I).astype(F) * sign
    out = np.clip(t.astype("float64"), -2 ** 31, 2 ** 31 - 1).astype("int64")
    if clip_to != "int32":
        info = np.iinfo(clip_to)
        out = np.clip(out, info.min, info.max)
    return out.reshape(shape).astype(clip_to)


def requantize_fp_cases():
    out = []
    r = rng("requantize_fp")
    x = ints(r, (4, 6), "int32", -3000, 3000)
    for bits in (32, 64):
        for rounding in ("UPWARD", "TONEAREST", "None"):
            ref = requantize_fp_ref(x, 0.37, 3, 0.9, -5, rounding="UPWARD" if rounding == "None" else rounding,
                                    bits=bits)
            out.append(op_case("requantize_float%d_%s" % (bits, rounding.lower()), "qnn.requantize",
                               [x, f32(0.37), i32(3), f32(0.9), i32(-5)], ref,
                               'rounding="%s", compute_dtype="float%d", out_dtype="int8"' % (rounding, bits)))
    # Exact halves, where the two roundings differ.
    x = np.arange(-9, 10, dtype="int32").reshape(1, 19)
    for rounding in ("UPWARD", "TONEAREST"):
        ref = requantize_fp_ref(x, 0.5, 0, 1.0, 0, rounding=rounding)
        out.append(op_case("requantize_float32_halves_" + rounding.lower(), "qnn.requantize",
                           [x, f32(0.5), i32(0), f32(1.0), i32(0)], ref,
                           'rounding="%s", compute_dtype="float32", out_dtype="int8"' % rounding))
    # Per-channel scales and zero points along axis 1, to uint8 and int32.
    x = ints(r, (2, 3, 2, 2), "int32", -20000, 20000)
    scales = np.array([0.001, 0.0173, 0.25], dtype="float32")
    zps = np.array([0, -7, 12], dtype="int32")
    ref = requantize_fp_ref(x, scales, zps, 0.05, 128, axis=1, rounding="TONEAREST", clip_to="uint8")
    out.append(op_case("requantize_float32_per_channel", "qnn.requantize", [x, scales, zps, f32(0.05), i32(128)], ref,
                       'axis=1, rounding="TONEAREST", compute_dtype="float32", out_dtype="uint8"'))
    ref = requantize_fp_ref(x, scales, zps, 0.05, 7, axis=1, bits=64, clip_to="int32")
    out.append(op_case("requantize_float64_per_channel_int32", "qnn.requantize", [x, scales, zps, f32(0.05), i32(7)],
                       ref, 'axis=1, compute_dtype="float64", out_dtype="int32"'))
    # Odd values in [2^23, 2^24): float32's t + 0.5 is a tie that rounds to even, so UPWARD
    # in float32 adds one where float64 does not.
    x = np.array([8388609, 8388611, 8388612, -8388609], dtype="int32")
    for bits in (32, 64):
        ref = requantize_fp_ref(x, 1.0, 0, 1.0, 0, bits=bits, clip_to="int32")
        out.append(op_case("requantize_float%d_large_odd" % bits, "qnn.requantize", [x, f32(1.0), i32(0), f32(1.0),
                                                                                   i32(0)],
                           ref, 'compute_dtype="float%d", out_dtype="int32"' % bits))
    return out


def wrap32(v):
    v = np.asarray(v, dtype="int64") & 0xFFFFFFFF
    return np.where(v >= 1 << 31, v - (1 << 32), v).astype("int64")


def trunc_div(a, b):
    a, b = np.asarray(a, dtype="int64"), np.asarray(b, dtype="int64")
    return wrap32(np.sign(a) * np.sign(b) * (np.abs(a) // np.abs(b)))


def softmax_ref(x, scale, zp, out_scale, out_zp, axis=-1):
    """QnnSoftmaxCanonicalize (arXiv 2207.01405, Algorithm 1) in wrapping int32 arithmetic:
    x0 = round(1 / scale); d = (x - zp) - max; xp = d + (d >> 1) - (d >> 4);
    k = clip(xp / -x0, 0, 20) truncating; e = (((xp + k * x0) >> 1) + x0) << (max(k) - k);
    y = ((2^30 / sum(e)) * e) >> 23, requantized from scale 1/128 to the output's."""
    x0 = int(round_half_away(float(np.float32(1) / f32(scale))))
    q = wrap32(x.astype("int64") - zp)
    d = wrap32(q - q.max(axis=axis, keepdims=True))
    xp = wrap32(wrap32(d + (d >> 1)) - (d >> 4))
    k = np.clip(trunc_div(xp, -x0), 0, 20)
    rem = wrap32(xp - wrap32(k * -x0))
    e = wrap32(wrap32((rem >> 1) + x0) << (k.max(axis=axis, keepdims=True) - k))
    total = wrap32(e.sum(axis=axis, keepdims=True))
    y = wrap32(trunc_div(1 << 30, total) * e) >> (30 - 7)
    return requantize_ref(y.astype("int32"), float(np.float32(1) / np.float32(128)), 0, out_scale, out_zp,
                          clip_to="int8")


def softmax_cases():
    out = []
    r = rng("qnn_softmax")
    for name, shape, axis, params in (("last_axis", (2, 3, 10), -1, (0.05, 3, 1.0 / 256, -128)),
                                      ("axis1", (2, 7, 3), 1, (0.1, 0, 0.004, -100)),
                                      ("unit_scale", (4, 16), -1, (1.0, -5, 1.0 / 256, -128)),
                                      ("small_scale", (3, 12), 0, (0.0078, 10, 0.01, 0))):
        x = ints(r, shape, "int8")
        ref = softmax_ref(x, *params, axis=axis)
        s, z, so, zo = params
        out.append(op_case("softmax_" + name, "qnn.softmax", [x, f32(s), i32(z), f32(so), i32(zo)], ref,
                           "axis=%d" % axis))
    # Equal inputs: every exponential is x0, each output 2^30 / (n x0) * x0 >> 23.
    x = np.full((2, 5), 17, dtype="int8")
    out.append(op_case("softmax_uniform", "qnn.softmax", [x, f32(0.25), i32(0), f32(1.0 / 256), i32(-128)],
                       softmax_ref(x, 0.25, 0, 1.0 / 256, -128), "axis=-1"))
    return out


def cases():
    return (requantize_cases() + requantize_fp_cases() + quantize_cases() + binary_cases() + unary_cases() +
            product_cases() + concat_pool_cases() + simulated_cases() + leaky_relu_cases() + softmax_cases())
