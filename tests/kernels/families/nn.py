"""Golden data for the §3.7 nn.* operators other than convolution and pooling.

Where TVM's semantics are not numpy's the reference is written out here: the norms follow
TVM's SimplifyInference rewrites, upsampling follows TOPI's resize (float32 coordinates,
clamped reads), losses, sparse and bit-serial ops follow their TOPI computes.
"""
import numpy as np

from families.common import op_case, rng


def normal(r, shape, dtype="float32"):
    return r.standard_normal(shape).astype(dtype)


def ints(r, shape, lo, hi, dtype="int32"):
    return r.integers(lo, hi, size=shape).astype(dtype)


def along(v, axis, ndim):
    """A per-channel vector shaped to broadcast along `axis`."""
    shape = [1] * ndim
    shape[axis] = -1
    return v.reshape(shape)


# ---------------------------------------------------------------------------------------
# Matrix products

def dense_cases():
    out = []
    r = rng("dense")
    x, w = normal(r, (5, 7)), normal(r, (3, 7))
    out.append(op_case("dense_f32", "nn.dense", [x, w], x @ w.T, "units=3", rtol=1e-5, atol=1e-5))
    x, w = normal(r, (2, 3, 6)), normal(r, (4, 6))
    out.append(op_case("dense_3d_no_units", "nn.dense", [x, w], x @ w.T, "units=None", atol=1e-5))
    x, w = normal(r, (3, 5), "float64"), normal(r, (2, 5), "float64")
    out.append(op_case("dense_f64", "nn.dense", [x, w], x @ w.T, "units=None"))
    x, w = ints(r, (4, 9), -128, 128, "int8"), ints(r, (3, 9), -128, 128, "int8")
    out.append(op_case("dense_int8_int32", "nn.dense", [x, w],
                       x.astype("int32") @ w.astype("int32").T, 'units=3, out_dtype="int32"'))
    x, w = ints(r, (2, 4), -100, 100), ints(r, (5, 4), -100, 100)
    out.append(op_case("dense_int32", "nn.dense", [x, w], x @ w.T, "units=None"))
    x, w = normal(r, (3, 8), "float16"), normal(r, (2, 8), "float16")
    ref = (x.astype("float32") @ w.astype("float32").T).astype("float16")
    out.append(op_case("dense_f16", "nn.dense", [x, w], ref, "units=2", rtol=1e-2, atol=1e-2))
    x, w = normal(r, (0, 4)), normal(r, (3, 4))
    out.append(op_case("dense_empty_batch", "nn.dense", [x, w], np.zeros((0, 3), "float32"), "units=3"))
    x, w = normal(r, (2, 0)), normal(r, (3, 0))
    out.append(op_case("dense_empty_k", "nn.dense", [x, w], np.zeros((2, 3), "float32"), "units=None"))

    r = rng("matmul")
    for ta in (False, True):
        for tb in (False, True):
            a = normal(r, (4, 6) if ta else (6, 4))
            b = normal(r, (5, 4) if tb else (4, 5))
            am = a.T if ta else a
            bm = b.T if tb else b
            attrs = "units=None, transpose_a=%s, transpose_b=%s" % (ta, tb)
            out.append(op_case("matmul_ta%d_tb%d" % (ta, tb), "nn.matmul", [a, b], am @ bm, attrs, atol=1e-5))
    a, b = ints(r, (3, 4), -9, 9, "int16"), ints(r, (4, 2), -9, 9, "int16")
    out.append(op_case("matmul_int16_int32", "nn.matmul", [a, b], a.astype("int32") @ b.astype("int32"),
                       'units=2, out_dtype="int32"'))

    r = rng("batch_matmul")
    for ta in (False, True):
        for tb in (False, True):
            x = normal(r, (3, 4, 5) if ta else (3, 5, 4))
            y = normal(r, (3, 6, 4) if tb else (3, 4, 6))
            xm = x.transpose(0, 2, 1) if ta else x
            ym = y.transpose(0, 2, 1) if tb else y
            out.append(op_case("batch_matmul_ta%d_tb%d" % (ta, tb), "nn.batch_matmul", [x, y], xm @ ym,
                               "transpose_a=%s, transpose_b=%s" % (ta, tb), atol=1e-5))
    x, y = normal(r, (1, 2, 3)), normal(r, (4, 5, 3))
    out.append(op_case("batch_matmul_bcast_x", "nn.batch_matmul", [x, y], x @ y.transpose(0, 2, 1),
                       "transpose_b=True", atol=1e-5))
    x, y = normal(r, (3, 2, 4), "float64"), normal(r, (1, 4, 2), "float64")
    out.append(op_case("batch_matmul_bcast_y_f64", "nn.batch_matmul", [x, y], x @ y))
    x, y = ints(r, (2, 3, 4), -128, 128, "int8"), ints(r, (2, 4, 3), -128, 128, "int8")
    out.append(op_case("batch_matmul_int8", "nn.batch_matmul", [x, y], x.astype("int32") @ y.astype("int32"),
                       'out_dtype="int32"'))
    x, y = normal(r, (0, 2, 3)), normal(r, (0, 3, 2))
    out.append(op_case("batch_matmul_empty", "nn.batch_matmul", [x, y], np.zeros((0, 2, 2), "float32")))

    r = rng("dense_pack")
    x, w = normal(r, (3, 5)), normal(r, (8, 5))
    packed = w.reshape(2, 4, 5).transpose(0, 2, 1).copy()  # (N/4, K, 4)
    out.append(op_case("dense_pack_3d", "nn.contrib_dense_pack", [x, packed], x @ w.T, "units=None", atol=1e-5))
    x, w = ints(r, (2, 8), -128, 128, "int8"), ints(r, (4, 8), -128, 128, "int8")
    packed4 = w.reshape(2, 2, 2, 4).transpose(0, 2, 1, 3).copy()  # (N/2, K/4, 2, 4)
    out.append(op_case("dense_pack_4d_int8", "nn.contrib_dense_pack", [x, packed4],
                       x.astype("int32") @ w.astype("int32").T, 'units=None, out_dtype="int32"'))
    return out


# ---------------------------------------------------------------------------------------
# Activations and per-channel ops

def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def log_softmax(x, axis):
    m = x - x.max(axis=axis, keepdims=True)
    return m - np.log(np.exp(m).sum(axis=axis, keepdims=True))


def activation_cases():
    out = []
    r = rng("relu")
    x = normal(r, (3, 5))
    out.append(op_case("relu_f32", "nn.relu", [x], np.maximum(x, 0)))
    x = ints(r, (7,), -5, 5, "int8")
    out.append(op_case("relu_int8", "nn.relu", [x], np.maximum(x, 0)))
    x = normal(r, (0, 3), "float16")
    out.append(op_case("relu_empty_f16", "nn.relu", [x], x))
    x = normal(r, (2, 3, 4))
    out.append(op_case("leaky_relu_default", "nn.leaky_relu", [x], np.where(x > 0, x, x * np.float32(0.25))))
    out.append(op_case("leaky_relu_alpha", "nn.leaky_relu", [x], np.where(x > 0, x, x * np.float32(0.1)),
                       "alpha=0.1f"))
    x = ints(r, (6,), -10, 10)
    # alpha becomes an int32 constant first: 2.5 -> 2
    out.append(op_case("leaky_relu_int32", "nn.leaky_relu", [x], np.where(x > 0, x, x * 2).astype("int32"),
                       "alpha=2.5f"))
    x, a = normal(r, (2, 3, 4)), normal(r, (3,))
    out.append(op_case("prelu_axis1", "nn.prelu", [x, a], np.where(x > 0, x, x * along(a, 1, 3))))
    x, a = normal(r, (2, 3, 4), "float64"), normal(r, (4,), "float64")
    out.append(op_case("prelu_axis2_f64", "nn.prelu", [x, a], np.where(x > 0, x, x * along(a, 2, 3)), "axis=2"))

    r = rng("bias_add")
    x, b = normal(r, (2, 3, 4, 5)), normal(r, (3,))
    out.append(op_case("bias_add_default", "nn.bias_add", [x, b], x + along(b, 1, 4)))
    x, b = normal(r, (2, 3, 5)), normal(r, (5,))
    out.append(op_case("bias_add_neg_axis", "nn.bias_add", [x, b], x + b, "axis=-1"))
    x, b = ints(r, (4, 3), -100, 100), ints(r, (4,), -100, 100)
    out.append(op_case("bias_add_int32_axis0", "nn.bias_add", [x, b], x + b[:, None], "axis=0"))
    x, b = normal(r, (0, 3), "float16"), normal(r, (3,), "float16")
    out.append(op_case("bias_add_empty", "nn.bias_add", [x, b], x + b))

    r = rng("softmax")
    x = normal(r, (3, 7)) * 4
    out.append(op_case("softmax_last", "nn.softmax", [x], softmax(x, -1)))
    x = normal(r, (2, 5, 3)) * 4
    out.append(op_case("softmax_axis1", "nn.softmax", [x], softmax(x, 1), "axis=1"))
    out.append(op_case("softmax_axis_neg3", "nn.softmax", [x], softmax(x, 0), "axis=-3"))
    x = normal(r, (4, 6), "float64") * 10
    out.append(op_case("softmax_f64", "nn.softmax", [x], softmax(x, -1), rtol=1e-10, atol=1e-12))
    x = normal(r, (2, 5), "float16")
    out.append(op_case("softmax_f16", "nn.softmax", [x], softmax(x.astype("float32"), -1).astype("float16"),
                       rtol=1e-2, atol=1e-3))
    x = normal(r, (0, 4))
    out.append(op_case("softmax_empty", "nn.softmax", [x], x))
    x = normal(r, (3, 4, 2)) * 3
    out.append(op_case("fast_softmax_axis1", "nn.fast_softmax", [x], softmax(x, 1), "axis=1", rtol=1e-4))
    out.append(op_case("log_softmax_last", "nn.log_softmax", [x], log_softmax(x, -1), atol=1e-5))
    out.append(op_case("log_softmax_axis0", "nn.log_softmax", [x], log_softmax(x, 0), "axis=0", atol=1e-5))

    r = rng("batch_flatten")
    x = normal(r, (2, 3, 4))
    out.append(op_case("batch_flatten_3d", "nn.batch_flatten", [x], x.reshape(2, 12)))
    x = ints(r, (3,), 0, 9)
    out.append(op_case("batch_flatten_1d", "nn.batch_flatten", [x], x.reshape(3, 1)))
    x = normal(r, (2, 0, 3))
    out.append(op_case("batch_flatten_empty", "nn.batch_flatten", [x], x.reshape(2, 0)))
    x = normal(r, (3, 4))
    # inference: the identity, and a mask keeping everything
    out.append(op_case("dropout", "nn.dropout", [x], [x, np.ones_like(x)], "rate=0.3f", tuple=True))
    return out


# ---------------------------------------------------------------------------------------
# Normalisations

def batch_norm_ref(x, g, b, m, v, axis, eps, center=True, scale=True):
    s = 1 / np.sqrt(v + eps)
    if scale:
        s = s * g
    shift = -m * s + (b if center else 0)
    return x * along(s, axis, x.ndim) + along(shift, axis, x.ndim)


def moments(x, axes):
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    return mean, var


def norm_cases():
    out = []
    r = rng("batch_norm")
    for name, shape, axis, attrs, dtype in [
            ("batch_norm_nchw", (2, 3, 4, 5), 1, "", "float32"),
            ("batch_norm_last", (4, 3), 1, "axis=-1", "float32"),
            ("batch_norm_axis2_f64", (2, 2, 3), 2, "axis=2, epsilon=0.01", "float64"),
            ("batch_norm_no_center_scale", (2, 3, 2), 1, "center=False, scale=False", "float32"),
            ("batch_norm_empty", (0, 3, 2), 1, "", "float32")]:
        x = normal(r, shape, dtype)
        c = shape[axis]
        g, b, m = normal(r, (c,), dtype), normal(r, (c,), dtype), normal(r, (c,), dtype)
        v = (r.random(c) + 0.5).astype(dtype)
        eps = 0.01 if "epsilon" in attrs else 1e-5
        ref = batch_norm_ref(x, g, b, m, v, axis, eps, "center=False" not in attrs, "scale=False" not in attrs)
        out.append(op_case(name, "nn.batch_norm", [x, g, b, m, v], [ref.astype(dtype), m, v], attrs,
                           tuple=True, atol=1e-5))
    x = normal(r, (2, 3, 2), "float16")
    g, b, m = normal(r, (3,), "float16"), normal(r, (3,), "float16"), normal(r, (3,), "float16")
    v = (r.random(3) + 0.5).astype("float16")
    ref = batch_norm_ref(*(a.astype("float32") for a in (x, g, b, m, v)), 1, 1e-5).astype("float16")
    out.append(op_case("batch_norm_f16", "nn.batch_norm", [x, g, b, m, v], [ref, m, v], tuple=True,
                       rtol=1e-2, atol=1e-2))

    r = rng("layer_norm")
    for name, shape, axis, attrs in [("layer_norm_last", (3, 8), -1, ""),
                                     ("layer_norm_axis1", (2, 5, 3), 1, "axis=1, epsilon=0.001"),
                                     ("layer_norm_no_affine", (4, 6), -1, "center=False, scale=False")]:
        x = normal(r, shape) * 2 + 1
        c = shape[axis]
        g, b = normal(r, (c,)), normal(r, (c,))
        eps = 0.001 if "epsilon" in attrs else 1e-5
        mean, var = moments(x.astype("float64"), (axis,))
        y = (x - mean) / np.sqrt(var + eps)
        if "scale=False" not in attrs:
            y = y * along(g, axis, x.ndim)
        if "center=False" not in attrs:
            y = y + along(b, axis, x.ndim)
        out.append(op_case(name, "nn.layer_norm", [x, g, b], y.astype("float32"), attrs, atol=1e-5))

    r = rng("group_norm")
    for name, shape, groups, axis, attrs in [("group_norm_nchw", (2, 6, 3, 2), 3, 1, "num_groups=3"),
                                             ("group_norm_nhwc", (2, 3, 4), 2, 2, "num_groups=2, axis=-1"),
                                             ("group_norm_one_group", (1, 4, 5), 1, 1, "num_groups=1")]:
        x = normal(r, shape)
        c = shape[axis]
        g, b = normal(r, (c,)), normal(r, (c,))
        new_shape = shape[:axis] + (groups, c // groups) + shape[axis + 1:]
        xr = x.astype("float64").reshape(new_shape)
        red = tuple(range(axis + 1, len(new_shape)))
        mean, var = moments(xr, red)
        y = ((xr - mean) / np.sqrt(var + 1e-5)).reshape(shape)
        y = y * along(g, axis, x.ndim) + along(b, axis, x.ndim)
        out.append(op_case(name, "nn.group_norm", [x, g, b], y.astype("float32"), attrs, atol=1e-5))

    r = rng("instance_norm")
    for name, shape, axis, attrs in [("instance_norm_nchw", (2, 3, 4, 5), 1, ""),
                                     ("instance_norm_nwc", (2, 5, 3), 2, "axis=-1, epsilon=0.1")]:
        x = normal(r, shape)
        c = shape[axis]
        g, b = normal(r, (c,)), normal(r, (c,))
        red = tuple(i for i in range(1, len(shape)) if i != axis)
        mean, var = moments(x.astype("float64"), red)
        eps = 0.1 if "epsilon" in attrs else 1e-5
        y = (x - mean) / np.sqrt(var + eps) * along(g, axis, x.ndim) + along(b, axis, x.ndim)
        out.append(op_case(name, "nn.instance_norm", [x, g, b], y.astype("float32"), attrs, atol=1e-5))

    r = rng("l2_normalize")
    x = normal(r, (2, 3, 4))
    for name, axes, eps in [("l2_normalize_axis1", [1], 1e-10), ("l2_normalize_axes_neg", [-1, 0], 1e-10),
                            ("l2_normalize_big_eps", [2], 4.0)]:
        s = np.sqrt(np.maximum((x.astype("float64") ** 2).sum(axis=tuple(axes), keepdims=True), eps))
        out.append(op_case(name, "nn.l2_normalize", [x], (x / s).astype("float32"),
                           "eps=%r, axis=%s" % (eps, axes)))

    r = rng("lrn")
    for name, shape, attrs, size, axis, bias, alpha, beta in [
            ("lrn_default", (2, 7, 3, 3), "", 5, 1, 2.0, 1e-4, 0.75),
            ("lrn_nhwc_size3", (1, 2, 2, 6), "size=3, axis=3, bias=1f, alpha=0.5f, beta=0.5f", 3, 3, 1.0, 0.5, 0.5),
            ("lrn_even_size", (1, 5, 2), "size=4, alpha=0.3f", 4, 1, 2.0, 0.3, 0.75)]:
        x = normal(r, shape)
        xd = np.moveaxis(x.astype("float64"), axis, -1)
        n = xd.shape[-1]
        sq = np.zeros_like(xd)
        for i in range(n):
            lo, hi = max(0, i - size // 2), min(n, i - size // 2 + size)
            sq[..., i] = (xd[..., lo:hi] ** 2).sum(axis=-1)
        y = xd / (bias + alpha * sq / size) ** beta
        out.append(op_case(name, "nn.lrn", [x], np.moveaxis(y, -1, axis).astype("float32"), attrs, atol=1e-6))
    return out


# ---------------------------------------------------------------------------------------
# Padding and data movement

def layout_cases():
    out = []
    r = rng("pad")
    x = normal(r, (2, 3))
    pv = np.array(1.5, "float32")
    out.append(op_case("pad_constant", "nn.pad", [x, pv], np.pad(x, [[1, 2], [0, 3]], constant_values=1.5),
                       "pad_width=[[1, 2], [0, 3]]"))
    x = ints(r, (3, 4), -9, 9)
    pv = np.array(7, "int32")
    out.append(op_case("pad_int_negative", "nn.pad", [x, pv], np.pad(x, [[2, 0], [0, 0]], constant_values=7)[:, 1:],
                       "pad_width=[[2, 0], [-1, 0]]"))
    x = normal(r, (2, 3, 4))
    out.append(op_case("pad_edge", "nn.pad", [x, np.array(0, "float32")], np.pad(x, [[0, 0], [2, 1], [1, 3]], "edge"),
                       'pad_width=[[0, 0], [2, 1], [1, 3]], pad_mode="edge"'))
    out.append(op_case("pad_reflect", "nn.pad", [x, np.array(0, "float32")],
                       np.pad(x, [[1, 1], [2, 1], [0, 3]], "reflect"),
                       'pad_width=[[1, 1], [2, 1], [0, 3]], pad_mode="reflect"'))
    x = normal(r, (0, 2), "float16")
    out.append(op_case("pad_empty", "nn.pad", [x, np.array(2, "float16")],
                       np.pad(x, [[1, 0], [1, 1]], constant_values=2).astype("float16"), "pad_width=[[1, 0], [1, 1]]"))
    x = normal(r, (3, 4))
    out.append(op_case("mirror_pad_symmetric", "nn.mirror_pad", [x], np.pad(x, [[2, 3], [1, 4]], "symmetric"),
                       "pad_width=[[2, 3], [1, 4]]"))
    x = ints(r, (2, 3, 4), 0, 100, "uint8")
    out.append(op_case("mirror_pad_reflect", "nn.mirror_pad", [x], np.pad(x, [[0, 1], [2, 2], [3, 0]], "reflect"),
                       'mode="REFLECT", pad_width=[[0, 1], [2, 2], [3, 0]]'))

    r = rng("dilate")
    x = normal(r, (2, 3))
    y = np.zeros((3, 7), "float32")
    y[::2, ::3] = x
    out.append(op_case("dilate_2d", "nn.dilate", [x], y,
                       'strides=[2, 3], attrs_type_key="relay.attrs.DilateAttrs"'))
    x = ints(r, (2, 2, 3), 1, 9)
    y = np.full((2, 3, 3), -1, "int32")
    y[:, ::2, :] = x
    out.append(op_case("dilate_value_int", "nn.dilate", [x], y,
                       'strides=[1, 2, 1], dilation_value=-1f, attrs_type_key="relay.attrs.DilateAttrs"'))

    r = rng("fifo_buffer")
    d, b = normal(r, (1, 3)), normal(r, (5, 3))
    out.append(op_case("fifo_buffer_axis0", "nn.fifo_buffer", [d, b], np.concatenate([b, d], 0)[1:]))
    d, b = ints(r, (2, 2, 3), 0, 9), ints(r, (2, 2, 7), 0, 9)
    out.append(op_case("fifo_buffer_axis_neg1", "nn.fifo_buffer", [d, b], np.concatenate([b, d], -1)[..., 3:],
                       "axis=-1"))

    r = rng("depth_to_space")
    x = normal(r, (2, 8, 2, 3))
    n, c, h, w = x.shape
    bs = 2
    dcr = x.reshape(n, bs, bs, c // 4, h, w).transpose(0, 3, 4, 1, 5, 2).reshape(n, c // 4, h * bs, w * bs)
    crd = x.reshape(n, c // 4, bs, bs, h, w).transpose(0, 1, 4, 2, 5, 3).reshape(n, c // 4, h * bs, w * bs)
    out.append(op_case("depth_to_space_dcr", "nn.depth_to_space", [x], dcr, "block_size=2"))
    out.append(op_case("depth_to_space_crd", "nn.depth_to_space", [x], crd, 'block_size=2, mode="CRD"'))
    xh = x.transpose(0, 2, 3, 1).copy()
    out.append(op_case("depth_to_space_nhwc", "nn.depth_to_space", [xh], dcr.transpose(0, 2, 3, 1),
                       'block_size=2, layout="NHWC"'))
    x = ints(r, (1, 2, 6, 4), 0, 100)
    n, c, h, w = x.shape
    s2d = x.reshape(n, c, h // 2, 2, w // 2, 2).transpose(0, 3, 5, 1, 2, 4).reshape(n, c * 4, h // 2, w // 2)
    out.append(op_case("space_to_depth", "nn.space_to_depth", [x], s2d, "block_size=2"))
    out.append(op_case("space_to_depth_nhwc", "nn.space_to_depth", [x.transpose(0, 2, 3, 1).copy()],
                       s2d.transpose(0, 2, 3, 1), 'block_size=2, layout="NHWC"'))

    r = rng("space_to_batch")

    def s2b(x, block, pads, value):
        m = len(block)
        p = np.pad(x, [[0, 0]] + pads + [[0, 0]] * (x.ndim - 1 - m), constant_values=value)
        b = x.shape[0]
        shape = [b]
        for i in range(m):
            shape += [p.shape[i + 1] // block[i], block[i]]
        shape += list(p.shape[m + 1:])
        t = p.reshape(shape)
        perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + list(range(2 * m + 1, t.ndim))
        t = t.transpose(perm)
        return t.reshape([b * int(np.prod(block))] + [p.shape[i + 1] // block[i] for i in range(m)] +
                         list(p.shape[m + 1:]))

    def b2s(x, block, crops):
        m = len(block)
        prod = int(np.prod(block))
        b = x.shape[0] // prod
        t = x.reshape(list(block) + [b] + list(x.shape[1:]))
        perm = [m]
        for i in range(m):
            perm += [m + 1 + i, i]
        perm += list(range(2 * m + 1, t.ndim))
        t = t.transpose(perm)
        t = t.reshape([b] + [x.shape[i + 1] * block[i] for i in range(m)] + list(x.shape[m + 1:]))
        idx = [slice(None)] + [slice(c[0], t.shape[i + 1] - c[1]) for i, c in enumerate(crops)]
        return t[tuple(idx)]

    x = normal(r, (2, 3, 4, 2))
    out.append(op_case("space_to_batch_nd", "nn.space_to_batch_nd", [x], s2b(x, [2, 3], [[1, 0], [1, 1]], 0.5),
                       "block_shape=[2, 3], paddings=[[1, 0], [1, 1]], pad_value=0.5"))
    x = ints(r, (1, 4, 3), 0, 50)
    out.append(op_case("space_to_batch_nd_1d", "nn.space_to_batch_nd", [x], s2b(x, [2], [[0, 0]], 0),
                       "block_shape=[2], paddings=[[0, 0]]"))
    x = normal(r, (12, 2, 2, 3))
    out.append(op_case("batch_to_space_nd", "nn.batch_to_space_nd", [x], b2s(x, [2, 3], [[1, 0], [2, 1]]),
                       "block_shape=[2, 3], crops=[[1, 0], [2, 1]]"))
    x = ints(r, (4, 3, 2), 0, 50, "int64")
    out.append(op_case("batch_to_space_nd_1d", "nn.batch_to_space_nd", [x], b2s(x, [4], [[0, 0]]),
                       "block_shape=[4], crops=[[0, 0]]"))
    return out


# ---------------------------------------------------------------------------------------
# Resampling

def resize_axis(n_in, n_out, method, coord):
    """TOPI's per-axis taps: (indices, weights) per output, coordinates in float32."""
    taps = []
    f = np.float32
    scale = f(n_in) / f(n_out)
    int_div = method == "nearest" and coord == "asymmetric" and n_out % n_in == 0
    for o in range(n_out):
        if int_div:
            taps.append(([min(o // (n_out // n_in), n_in - 1)], [1.0]))
            continue
        x = f(o)
        if coord == "half_pixel":
            pos = (x + f(0.5)) * scale - f(0.5)
        elif coord == "align_corners":
            pos = f(n_in - 1) / f(n_out - 1) * x if n_out > 1 else f(0)
        else:
            pos = scale * x
        clamp = lambda i: int(min(max(i, 0), n_in - 1))  # noqa: E731
        if method == "nearest":
            # TVM's round is half away from zero; the cases avoid exact halves
            i = np.floor(pos + f(0.5)) if coord == "align_corners" else np.floor(pos + f(1e-5))
            taps.append(([clamp(i)], [1.0]))
            continue
        base = int(np.floor(pos))
        t = f(pos - np.floor(pos))
        if method == "linear":
            taps.append(([clamp(base), clamp(base + 1)], [f(1) - t, t]))
        else:
            a = f(-0.5)
            t2, t3 = t * t, t * t * t
            w = [a * (t3 - 2 * t2 + t), (a + 2) * t3 - (3 + a) * t2 + 1, -(a + 2) * t3 + (3 + 2 * a) * t2 - a * t,
                 -a * t3 + a * t2]
            taps.append(([clamp(base + k) for k in (-1, 0, 1, 2)], w))
    return taps


def resize(x, spatial_axes, sizes, method, coord):
    y = x.astype("float64")
    for ax, size in zip(spatial_axes, sizes):
        taps = resize_axis(x.shape[ax], size, method, coord)
        mat = np.zeros((size, x.shape[ax]))
        for o, (idx, w) in enumerate(taps):
            for i, wi in zip(idx, w):
                mat[o, i] += wi
        y = np.moveaxis(np.tensordot(mat, np.moveaxis(y, ax, 0), axes=1), 0, ax)
    return y.astype(x.dtype)


def resample_cases():
    out = []
    r = rng("upsampling")
    x = normal(r, (1, 2, 3, 4))
    out.append(op_case("upsampling_nearest", "nn.upsampling", [x], resize(x, (2, 3), (6, 8), "nearest", "asymmetric"),
                       "scale_h=2f, scale_w=2f"))
    out.append(op_case("upsampling_nearest_frac", "nn.upsampling", [x],
                       resize(x, (2, 3), (4, 6), "nearest", "asymmetric"), "scale_h=1.5f, scale_w=1.5f"))
    out.append(op_case("upsampling_bilinear", "nn.upsampling", [x], resize(x, (2, 3), (6, 8), "linear", "asymmetric"),
                       'scale_h=2f, scale_w=2f, method="bilinear"', atol=1e-5))
    out.append(op_case("upsampling_bilinear_align", "nn.upsampling", [x],
                       resize(x, (2, 3), (6, 12), "linear", "align_corners"),
                       'scale_h=2f, scale_w=3f, method="bilinear", align_corners=True', atol=1e-5))
    out.append(op_case("upsampling_bicubic", "nn.upsampling", [x], resize(x, (2, 3), (6, 8), "cubic", "asymmetric"),
                       'scale_h=2f, scale_w=2f, method="bicubic"', atol=1e-5))
    xh = normal(r, (1, 3, 2, 2))
    out.append(op_case("upsampling_nhwc_align_nearest", "nn.upsampling", [xh],
                       resize(xh, (1, 2), (6, 4), "nearest", "align_corners"),
                       'scale_h=2f, scale_w=2f, layout="NHWC", align_corners=True'))
    r = rng("upsampling3d")
    x = normal(r, (1, 2, 2, 3, 2))
    out.append(op_case("upsampling3d_nearest", "nn.upsampling3d", [x],
                       resize(x, (2, 3, 4), (4, 6, 4), "nearest", "half_pixel"), "scale_d=2f, scale_h=2f, scale_w=2f"))
    out.append(op_case("upsampling3d_trilinear", "nn.upsampling3d", [x],
                       resize(x, (2, 3, 4), (4, 3, 6), "linear", "half_pixel"),
                       'scale_d=2f, scale_h=1f, scale_w=3f, method="trilinear"', atol=1e-5))
    out.append(op_case("upsampling3d_trilinear_align", "nn.upsampling3d", [x],
                       resize(x, (2, 3, 4), (4, 6, 4), "linear", "align_corners"),
                       'scale_d=2f, scale_h=2f, scale_w=2f, method="trilinear", '
                       'coordinate_transformation_mode="align_corners"', atol=1e-5))
    xl = x.transpose(0, 2, 3, 4, 1).copy()
    out.append(op_case("upsampling3d_ndhwc_asym", "nn.upsampling3d", [xl],
                       resize(xl, (1, 2, 3), (4, 6, 4), "nearest", "asymmetric"),
                       'scale_d=2f, scale_h=2f, scale_w=2f, layout="NDHWC", '
                       'coordinate_transformation_mode="asymmetric"'))

    r = rng("correlation")

    def corr(a, b, k, maxd, s1, s2, pad, mult):
        n, c, h, w = a.shape
        pa = np.pad(a.astype("float64"), [[0, 0], [0, 0], [pad[0]] * 2, [pad[1]] * 2])
        pb = np.pad(b.astype("float64"), [[0, 0], [0, 0], [pad[0]] * 2, [pad[1]] * 2])
        border = maxd + (k - 1) // 2
        oh = -(-(h + 2 * pad[0] - 2 * border) // s1)
        ow = -(-(w + 2 * pad[1] - 2 * border) // s1)
        rad = maxd // s2
        grid = 2 * rad + 1
        res = np.zeros((n, grid * grid, oh, ow))

        def at(p, y, x):
            if 0 <= y < p.shape[2] and 0 <= x < p.shape[3]:
                return p[:, :, y, x]
            return np.zeros((n, c))
        for q in range(grid * grid):
            for i in range(oh):
                for j in range(ow):
                    y1, x1 = i * s1 + maxd, j * s1 + maxd
                    y2, x2 = y1 + (q // grid - rad) * s2, x1 + (q % grid - rad) * s2
                    s = np.zeros(n)
                    for ry in range(k):
                        for rx in range(k):
                            u, v = at(pa, y1 + ry, x1 + rx), at(pb, y2 + ry, x2 + rx)
                            s += (u * v if mult else np.abs(u - v)).sum(axis=1)
                    res[:, q, i, j] = s / (k * k * c)
        return res.astype(a.dtype)

    a, b = normal(r, (1, 2, 5, 6)), normal(r, (1, 2, 5, 6))
    out.append(op_case("correlation_default", "nn.correlation", [a, b], corr(a, b, 1, 1, 1, 1, (0, 0), True),
                       atol=1e-5))
    out.append(op_case("correlation_padded", "nn.correlation", [a, b], corr(a, b, 3, 2, 2, 1, (2, 2), True),
                       "kernel_size=3, max_displacement=2, stride1=2, stride2=1, padding=[2, 2]", atol=1e-5))
    out.append(op_case("correlation_abs", "nn.correlation", [a, b], corr(a, b, 1, 2, 1, 2, (1, 1), False),
                       "max_displacement=2, stride2=2, padding=[1, 1], is_multiply=False", atol=1e-5))
    return out


# ---------------------------------------------------------------------------------------
# Losses

def loss_cases():
    out = []
    r = rng("cross_entropy")
    x = (r.random((3, 4)) + 0.1).astype("float32")
    y = r.random((3, 4)).astype("float32")
    out.append(op_case("cross_entropy", "nn.cross_entropy", [x, y],
                       np.array(-(np.log(x) * y).sum() / 3, "float32"), atol=1e-5))
    x, y = normal(r, (2, 5), "float64"), r.random((2, 5))
    out.append(op_case("cross_entropy_with_logits", "nn.cross_entropy_with_logits", [x, y],
                       np.array(-(x * y).sum() / 2)))

    r = rng("nll_loss")

    def nll(p, t, w, reduction, ignore):
        n, c = p.shape[:2]
        pm = np.moveaxis(p, 1, -1)
        tc = np.where(t == ignore, 0, t)
        picked = np.take_along_axis(pm, tc[..., None], -1)[..., 0]
        wt = np.where(t == ignore, 0, w[tc])
        loss = -picked * wt
        if reduction == "none":
            return loss.astype(p.dtype)
        if reduction == "sum":
            return np.array(loss.sum(), p.dtype)
        return np.array(loss.sum() / wt.sum(), p.dtype)

    p = normal(r, (4, 3))
    t = np.array([0, 2, 1, 2], "int32")
    w = r.random(3).astype("float32")
    for red in ("mean", "sum", "none"):
        out.append(op_case("nll_loss_" + red, "nn.nll_loss", [p, t, w], nll(p, t, w, red, -100),
                           'reduction="%s", ignore_index=-100' % red, atol=1e-5))
    p = normal(r, (2, 4, 3, 2), "float64")
    t = ints(r, (2, 3, 2), 0, 4, "int64")
    t[0, 1, 1] = 1
    w = r.random(4)
    out.append(op_case("nll_loss_spatial_ignore", "nn.nll_loss", [p, t, w], nll(p, t, w, "mean", 1),
                       'ignore_index=1'))
    out.append(op_case("nll_loss_spatial_none", "nn.nll_loss", [p, t, w], nll(p, t, w, "none", 3),
                       'reduction="none", ignore_index=3'))
    return out


# ---------------------------------------------------------------------------------------
# Sparse

def csr(dense):
    rows, cols = np.nonzero(dense)
    indptr = np.zeros(dense.shape[0] + 1, "int32")
    for rr in rows:
        indptr[rr + 1] += 1
    return dense[rows, cols], cols.astype("int32"), np.cumsum(indptr).astype("int32")


def sparse_cases():
    out = []
    r = rng("sparse_dense")
    x = normal(r, (3, 6))
    w = normal(r, (4, 6)) * (r.random((4, 6)) < 0.4)
    w[2] = 0  # an empty row
    d, i, p = csr(w.astype("float32"))
    out.append(op_case("sparse_dense_csr", "nn.sparse_dense", [x, d, i, p], x @ w.T.astype("float32"), atol=1e-5))
    out.append(op_case("sparse_dense_csr_lhs", "nn.sparse_dense", [x, d, i, p], (w @ x.T).astype("float32"),
                       "sparse_lhs=True", atol=1e-5))
    # BSR with 2x3 blocks: block rows 0 and 2 of a (6, 6) matrix
    blocks = normal(r, (3, 2, 3))
    bi = np.array([1, 0, 1], "int32")
    bp = np.array([0, 1, 1, 3], "int32")
    wd = np.zeros((6, 6), "float32")
    wd[0:2, 3:6] = blocks[0]
    wd[4:6, 0:3] = blocks[1]
    wd[4:6, 3:6] = blocks[2]
    out.append(op_case("sparse_dense_bsr", "nn.sparse_dense", [x, blocks, bi, bp], x @ wd.T, atol=1e-5))
    out.append(op_case("sparse_dense_padded", "nn.internal.sparse_dense_padded", [x, blocks, bi, bp], x @ wd.T,
                       atol=1e-5))

    # nn.sparse_conv2d: the weight is a sparse (OC, kh*kw*C) matrix with columns ordered
    # (kh, kw, c) as TOPI's im2col; "same" padding for 3x3.
    r = rng("sparse_conv2d")

    def bsr(dense, br, bc):
        rows_b, cols_b = dense.shape[0] // br, dense.shape[1] // bc
        data, idx, ptr = [], [], [0]
        for rb in range(rows_b):
            for cb in range(cols_b):
                blk = dense[rb * br:(rb + 1) * br, cb * bc:(cb + 1) * bc]
                if np.any(blk):
                    data.append(blk)
                    idx.append(cb)
            ptr.append(len(idx))
        return (np.array(data, "float32").reshape(-1, br, bc), np.array(idx, "int32"), np.array(ptr, "int32"))

    def sparse_weight(oc, k, br, bc):
        w = normal(r, (oc, k))
        mask = r.random((oc // br, k // bc)) < 0.5
        return (w * np.repeat(np.repeat(mask, br, 0), bc, 1)).astype("float32")

    def im2col_nhwc(x, k):
        n, h, wd, c = x.shape
        p = k // 2
        xp = np.pad(x, ((0, 0), (p, p), (p, p), (0, 0)))
        cols = [xp[:, a:a + h, b:b + wd, :] for a in range(k) for b in range(k)]
        return np.concatenate(cols, axis=3)  # (n, h, w, k*k*c), ordered (kh, kw, c)

    x = normal(r, (2, 3, 4, 6))
    w = sparse_weight(4, 6, 2, 3)
    d, i, p = bsr(w, 2, 3)
    out.append(op_case("sparse_conv2d_1x1_nhwc", "nn.sparse_conv2d", [x, d, i, p], (x @ w.T).astype("float32"),
                       'layout="NHWC"', atol=1e-5))
    xc = np.ascontiguousarray(x.transpose(0, 3, 1, 2))
    out.append(op_case("sparse_conv2d_1x1_nchw", "nn.sparse_conv2d", [xc, d, i, p],
                       np.einsum("oc,nchw->nohw", w, xc).astype("float32"), 'layout="NCHW"', atol=1e-5))
    w3 = sparse_weight(4, 9 * 6, 2, 6)
    d3, i3, p3 = bsr(w3, 2, 6)
    out.append(op_case("sparse_conv2d_3x3_nhwc", "nn.sparse_conv2d", [x, d3, i3, p3],
                       (im2col_nhwc(x, 3) @ w3.T).astype("float32"), 'layout="NHWC", kernel_size=[3, 3]', atol=1e-4))
    # 2-D weight data: (nnz, bs_r) blocks of one column
    w1 = sparse_weight(4, 6, 2, 1)
    d1, i1, p1 = bsr(w1, 2, 1)
    out.append(op_case("sparse_conv2d_2d_weight", "nn.sparse_conv2d", [x, d1.reshape(-1, 2), i1, p1],
                       (x @ w1.T).astype("float32"), atol=1e-5))

    r = rng("sparse_add")
    a = normal(r, (3, 4))
    s = normal(r, (3, 4)) * (r.random((3, 4)) < 0.5)
    d, i, p = csr(s.astype("float32"))
    out.append(op_case("sparse_add_f32", "nn.sparse_add", [a, d, i, p], a + s.astype("float32")))
    a = ints(r, (2, 3), -9, 9)
    # a duplicate column in row 0 accumulates
    d, i, p = np.array([1, 2, 5], "int32"), np.array([1, 1, 2], "int32"), np.array([0, 2, 3], "int32")
    e = a.copy()
    e[0, 1] += 3
    e[1, 2] += 5
    out.append(op_case("sparse_add_int_dup", "nn.sparse_add", [a, d, i, p], e))

    r = rng("sparse_transpose")
    m = normal(r, (4, 4)) * (r.random((4, 4)) < 0.5)
    m[1] = 0
    d, i, p = csr(m.astype("float32"))
    td, ti, tp = csr(m.T.copy().astype("float32"))
    out.append(op_case("sparse_transpose", "nn.sparse_transpose", [d, i, p], [td, ti, tp], tuple=True))
    return out


# ---------------------------------------------------------------------------------------
# Bit-serial

def bitpack_ref(x, bits, pack_axis, bit_axis, width, dtype):
    xm = np.moveaxis(x.astype("int64"), pack_axis, -1)
    shape = xm.shape[:-1] + (xm.shape[-1] // width, width)
    xm = xm.reshape(shape)
    planes = []
    for b in range(bits):
        bit = (xm >> b) & 1
        word = (bit << (width - 1 - np.arange(width))).sum(axis=-1)
        planes.append(np.moveaxis(word, -1, pack_axis))
    res = np.stack(planes, axis=bit_axis)
    return res.astype(dtype)


def bitserial_cases():
    out = []
    r = rng("bitpack")
    x = ints(r, (2, 16, 3), 0, 4, "uint8")
    out.append(op_case("bitpack_2bits", "nn.bitpack", [x], bitpack_ref(x, 2, 1, 1, 8, "uint8"),
                       'bits=2, pack_axis=1, bit_axis=1, pack_type="uint8"'))
    x = ints(r, (3, 32), 0, 8)
    out.append(op_case("bitpack_3bits_last", "nn.bitpack", [x], bitpack_ref(x, 3, 1, 2, 32, "uint32"),
                       'bits=3, pack_axis=1, bit_axis=2, pack_type="uint32"'))
    x = ints(r, (16, 2), 0, 2, "int8")
    out.append(op_case("bitpack_axis0_u16", "nn.bitpack", [x], bitpack_ref(x, 1, 0, 0, 16, "uint16"),
                       'bits=1, pack_axis=0, bit_axis=0, pack_type="uint16"'))

    r = rng("bitserial_dense")
    d = ints(r, (3, 32), 0, 4, "int16")
    w = ints(r, (5, 32), 0, 2, "int16")
    dl, wl = d.astype("int64") & 3, w.astype("int64") & 1
    out.append(op_case("bitserial_dense_unipolar", "nn.bitserial_dense", [d, w],
                       (dl @ (2 * wl - 1).T).astype("int16"), 'units=5, data_bits=2, pack_dtype="uint32"'))
    w = ints(r, (5, 32), 0, 4, "int16")
    wl = w.astype("int64") & 3
    out.append(op_case("bitserial_dense_bipolar", "nn.bitserial_dense", [d, w], (dl @ wl.T).astype("int32"),
                       'units=5, data_bits=2, weight_bits=2, pack_dtype="uint8", out_dtype="int32", unipolar=False'))
    # TOPI also takes the weight already packed, (X, weight bits, K / word bits): the planes
    # come from the weight's shape, its words' dtype is the word size.
    d = ints(r, (2, 16), 0, 8, "int16")
    w = ints(r, (3, 16), 0, 4, "int16")
    dl, wl = d.astype("int64") & 3, w.astype("int64") & 3
    wp = bitpack_ref(w, 2, 1, 1, 8, "uint8")
    out.append(op_case("bitserial_dense_packed_unipolar", "nn.bitserial_dense", [d, wp],
                       (dl @ (2 * wl - 3).T).astype("int16"), 'units=3, data_bits=2, weight_bits=2, out_dtype="int16"'))
    out.append(op_case("bitserial_dense_packed_bipolar", "nn.bitserial_dense", [d, wp],
                       (dl @ wl.T).astype("int32"), 'units=3, data_bits=2, out_dtype="int32", unipolar=False'))
    return out


def cases():
    return (dense_cases() + activation_cases() + norm_cases() + layout_cases() + resample_cases() + loss_cases() +
            sparse_cases() + bitserial_cases())
