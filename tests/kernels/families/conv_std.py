"""Golden data for §3.7 convolutions: nn.conv1d/2d/3d, the NCHWc forms, the transposed
convolutions and nn.conv2d_backward_weight. The references below (also used by
conv_variants.py) compute TOPI's definitions directly in numpy in canonical layouts
(N, C, spatial...), accumulating in float64 or wrapping int64."""
import re

import numpy as np

from families.common import op_case, rng


# ---------------------------------------------------------------------------------------
# Layouts: a layout is primal axes (upper case) and sub-axes ("4c": 4 of C).

def parse_layout(text):
    return [(m.group(2), int(m.group(1)) if m.group(1) else 0)
            for m in re.finditer(r"(\d*)([A-Za-z])", text)]


def from_canonical(x, canonical, layout):
    """x in `canonical` (primal letters only) -> `layout`, splitting sub-axes."""
    axes = parse_layout(layout)
    factors = {name.upper(): f for name, f in axes if f}
    split_shape, split_names = [], []
    for i, c in enumerate(canonical):
        if c in factors:
            split_shape += [x.shape[i] // factors[c], factors[c]]
            split_names += [c, c.lower()]
        else:
            split_shape.append(x.shape[i])
            split_names.append(c)
    y = x.reshape(split_shape)
    return np.ascontiguousarray(y.transpose([split_names.index(n) for n, _ in axes]))


def to_canonical(x, layout, canonical):
    axes = parse_layout(layout)
    names = [n for n, _ in axes]
    order, shape = [], []
    for c in canonical:
        order.append(names.index(c))
        shape.append(x.shape[names.index(c)])
        if c.lower() in names:
            order.append(names.index(c.lower()))
            shape[-1] *= x.shape[names.index(c.lower())]
    return np.ascontiguousarray(x.transpose(order).reshape(shape))


# ---------------------------------------------------------------------------------------
# References

def acc_of(dtype):
    return np.int64 if np.dtype(dtype).kind in "iub" else np.float64


def expand_padding(pad, rank):
    if len(pad) == 1:
        return [pad[0]] * rank, [pad[0]] * rank
    if len(pad) == rank:
        return list(pad), list(pad)
    return list(pad[:rank]), list(pad[rank:])


def conv_ref(x, w, strides, dilation, pad_before, pad_after, groups, out_dtype):
    """TOPI's (group) convolution: x (N, C, sp...), w (O, C/groups, k...)."""
    acc = acc_of(out_dtype)
    r = x.ndim - 2
    x = np.pad(x.astype(out_dtype).astype(acc), [(0, 0), (0, 0)] + list(zip(pad_before, pad_after)))
    w = w.astype(out_dtype).astype(acc)
    N, C = x.shape[:2]
    O, k = w.shape[0], w.shape[2:]
    out_sp = [(x.shape[2 + i] - ((k[i] - 1) * dilation[i] + 1)) // strides[i] + 1 for i in range(r)]
    cg, og = C // groups, O // groups
    y = np.zeros((N, O) + tuple(out_sp), acc)
    for kidx in np.ndindex(*k):
        sl = tuple(slice(kidx[i] * dilation[i], kidx[i] * dilation[i] + (out_sp[i] - 1) * strides[i] + 1,
                         strides[i]) for i in range(r))
        patch = x[(slice(None), slice(None)) + sl]
        for g in range(groups):
            wk = w[(slice(g * og, (g + 1) * og), slice(None)) + kidx]
            y[:, g * og:(g + 1) * og] += np.einsum("nc...,oc->no...", patch[:, g * cg:(g + 1) * cg], wk)
    return y.astype(out_dtype)


def conv_transpose_ref(x, w, strides, dilation, pad_before, pad_after, output_padding, groups, out_dtype):
    """Scatter form of TOPI's conv*_transpose: x (N, C, sp...), w (C, O/groups, k...)."""
    acc = acc_of(out_dtype)
    r = x.ndim - 2
    x = x.astype(out_dtype).astype(acc)
    w = w.astype(out_dtype).astype(acc)
    N, C = x.shape[:2]
    og, k = w.shape[1], w.shape[2:]
    cg = C // groups
    out_sp = [strides[i] * (x.shape[2 + i] - 1) + (k[i] - 1) * dilation[i] + 1 - pad_before[i] - pad_after[i]
              + output_padding[i] for i in range(r)]
    full = [max(pad_before[i] + out_sp[i], strides[i] * (x.shape[2 + i] - 1) + (k[i] - 1) * dilation[i] + 1)
            for i in range(r)]
    y = np.zeros((N, og * groups) + tuple(full), acc)
    for kidx in np.ndindex(*k):
        sl = tuple(slice(kidx[i] * dilation[i], kidx[i] * dilation[i] + (x.shape[2 + i] - 1) * strides[i] + 1,
                         strides[i]) for i in range(r))
        for g in range(groups):
            wk = w[(slice(g * cg, (g + 1) * cg), slice(None)) + kidx]
            y[(slice(None), slice(g * og, (g + 1) * og)) + sl] += np.einsum(
                "nc...,co->no...", x[:, g * cg:(g + 1) * cg], wk)
    crop = tuple(slice(pad_before[i], pad_before[i] + out_sp[i]) for i in range(r))
    return y[(slice(None), slice(None)) + crop].astype(out_dtype)


def conv_backward_weight_ref(grad, x, k, strides, dilation, pad_before, pad_after, groups, out_dtype):
    acc = acc_of(out_dtype)
    xp = np.pad(x.astype(acc), [(0, 0), (0, 0)] + list(zip(pad_before, pad_after)))
    grad = grad.astype(acc)
    O, C = grad.shape[1], x.shape[1]
    og, cg = O // groups, C // groups
    oh, ow = grad.shape[2:]
    dw = np.zeros((O, cg) + tuple(k), acc)
    for ky in range(k[0]):
        for kx in range(k[1]):
            patch = xp[:, :, ky * dilation[0]: ky * dilation[0] + (oh - 1) * strides[0] + 1: strides[0],
                       kx * dilation[1]: kx * dilation[1] + (ow - 1) * strides[1] + 1: strides[1]]
            for g in range(groups):
                dw[g * og:(g + 1) * og, :, ky, kx] = np.einsum(
                    "nohw,nchw->oc", grad[:, g * og:(g + 1) * og], patch[:, g * cg:(g + 1) * cg])
    return dw.astype(out_dtype)


def fmt(v):
    return "[" + ", ".join(str(int(a)) for a in v) + "]"


def data_of(r, shape, dtype):
    if np.dtype(dtype).kind in "iu":
        lo = 0 if np.dtype(dtype).kind == "u" else -8
        return r.integers(lo, 8, size=shape).astype(dtype)
    return r.standard_normal(shape).astype(dtype)


def tol(dtype):
    d = np.dtype(dtype)
    if d == np.float16:
        return dict(rtol=1e-2, atol=1e-2)
    if d == np.float64:
        return dict(rtol=1e-10, atol=1e-10)
    return dict(rtol=1e-4, atol=1e-4)


# ---------------------------------------------------------------------------------------
# Cases

def conv_case(name, op, rank, n, c, sp, o, k, strides=None, dilation=None, padding=None, groups=1,
              data_layout=None, kernel_layout=None, out_layout=None, dtype="float32", out_dtype=None,
              depthwise_weight=False, extra=""):
    """A conv{1,2,3}d / NCHWc case; the weight is (O, C/groups, k) or, depthwise_weight, TVM's
    depthwise (C, O/C, k) reading of OIHW."""
    r = rng(name)
    letters = "DHW"[3 - rank:]
    canon_d, canon_k = "NC" + letters, "OI" + letters
    x = data_of(r, (n, c) + tuple(sp), dtype)
    if depthwise_weight:
        w = data_of(r, (c, o // c) + tuple(k), dtype)
        w_eff = w.reshape((o, 1) + tuple(k))
    else:
        w = data_of(r, (o, c // groups) + tuple(k), dtype)
        w_eff = w
    strides = strides or [1] * rank
    dilation = dilation or [1] * rank
    padding = padding or [0] * rank
    pb, pa = expand_padding(padding, rank)
    od = out_dtype or dtype
    y = conv_ref(x, w_eff, strides, dilation, pb, pa, groups, od)
    attrs = ["strides=%s" % fmt(strides), "padding=%s" % fmt(padding), "dilation=%s" % fmt(dilation)]
    if groups != 1:
        attrs.append("groups=%d" % groups)
    dl = data_layout or canon_d
    kl = kernel_layout or canon_k
    if data_layout:
        attrs.append('data_layout="%s"' % data_layout)
    if kernel_layout:
        attrs.append('kernel_layout="%s"' % kernel_layout)
    if out_layout:
        attrs.append('out_layout="%s"' % out_layout)
    if out_dtype:
        attrs.append('out_dtype="%s"' % out_dtype)
    if extra:
        attrs.append(extra)
    xin = from_canonical(x, canon_d, dl)
    win = from_canonical(w, canon_k, kl)
    yout = from_canonical(y, canon_d, out_layout or dl)
    return op_case(name, op, [xin, win], yout, ", ".join(attrs), **tol(od))


def conv_transpose_case(name, op, rank, n, c, sp, o_per_group, k, strides=None, dilation=None, padding=None,
                        output_padding=None, groups=1, data_layout=None, kernel_layout=None, dtype="float32",
                        out_dtype=None, channels=None):
    r = rng(name)
    letters = "DHW"[3 - rank:]
    canon_d, canon_k = "NC" + letters, "IO" + letters
    x = data_of(r, (n, c) + tuple(sp), dtype)
    w = data_of(r, (c, o_per_group) + tuple(k), dtype)
    strides = strides or [1] * rank
    dilation = dilation or [1] * rank
    padding = padding or [0] * rank
    output_padding = output_padding or [0] * rank
    pb, pa = expand_padding(padding, rank)
    od = out_dtype or dtype
    y = conv_transpose_ref(x, w, strides, dilation, pb, pa, output_padding, groups, od)
    attrs = ["strides=%s" % fmt(strides), "padding=%s" % fmt(padding), "dilation=%s" % fmt(dilation),
             "output_padding=%s" % fmt(output_padding)]
    if groups != 1:
        attrs.append("groups=%d" % groups)
    if channels:
        attrs.append("channels=%d" % channels)
        attrs.append("kernel_size=%s" % fmt(k))
    dl, kl = data_layout or canon_d, kernel_layout or canon_k
    if data_layout:
        attrs.append('data_layout="%s"' % data_layout)
    if kernel_layout:
        attrs.append('kernel_layout="%s"' % kernel_layout)
    if out_dtype:
        attrs.append('out_dtype="%s"' % out_dtype)
    return op_case(name, op, [from_canonical(x, canon_d, dl), from_canonical(w, canon_k, kl)],
                   from_canonical(y, canon_d, dl), ", ".join(attrs), **tol(od))


def cases():
    out = []
    # conv1d
    out.append(conv_case("conv1d_basic", "nn.conv1d", 1, 2, 3, [7], 4, [3]))
    out.append(conv_case("conv1d_stride_pad_dil", "nn.conv1d", 1, 1, 4, [11], 6, [3], strides=[2],
                         dilation=[2], padding=[1, 2]))
    out.append(conv_case("conv1d_pad1_groups", "nn.conv1d", 1, 2, 4, [6], 6, [2], padding=[1], groups=2))
    out.append(conv_case("conv1d_nwc", "nn.conv1d", 1, 2, 3, [8], 5, [3], padding=[1, 1], data_layout="NWC",
                         kernel_layout="WIO"))
    out.append(conv_case("conv1d_int8_int32", "nn.conv1d", 1, 1, 3, [9], 2, [4], strides=[3], dtype="int8",
                         out_dtype="int32"))
    out.append(conv_case("conv1d_f64", "nn.conv1d", 1, 1, 2, [5], 3, [2], dtype="float64"))
    # conv2d
    out.append(conv_case("conv2d_basic", "nn.conv2d", 2, 1, 3, [5, 6], 4, [3, 3]))
    out.append(conv_case("conv2d_pad2", "nn.conv2d", 2, 2, 3, [5, 5], 2, [3, 3], padding=[1, 2]))
    out.append(conv_case("conv2d_pad4_stride", "nn.conv2d", 2, 1, 2, [7, 8], 3, [3, 2], strides=[2, 3],
                         padding=[1, 0, 2, 1]))
    out.append(conv_case("conv2d_pad1", "nn.conv2d", 2, 1, 2, [4, 5], 3, [3, 3], padding=[1]))
    out.append(conv_case("conv2d_dilation", "nn.conv2d", 2, 1, 2, [9, 9], 2, [3, 3], dilation=[2, 3],
                         padding=[2, 2]))
    out.append(conv_case("conv2d_groups", "nn.conv2d", 2, 1, 6, [5, 5], 4, [3, 3], groups=2, padding=[1, 1]))
    out.append(conv_case("conv2d_depthwise", "nn.conv2d", 2, 2, 4, [6, 5], 4, [3, 3], groups=4, padding=[1, 1]))
    out.append(conv_case("conv2d_depthwise_mult", "nn.conv2d", 2, 1, 3, [5, 5], 6, [3, 3], groups=3,
                         depthwise_weight=True, padding=[1, 1], extra="channels=6, kernel_size=[3, 3]"))
    out.append(conv_case("conv2d_nhwc_hwio", "nn.conv2d", 2, 2, 3, [6, 7], 5, [3, 3], strides=[2, 1],
                         padding=[1, 1], data_layout="NHWC", kernel_layout="HWIO"))
    out.append(conv_case("conv2d_nhwc_depthwise_hwoi", "nn.conv2d", 2, 1, 4, [5, 5], 8, [3, 3], groups=4,
                         depthwise_weight=True, padding=[1, 1], data_layout="NHWC", kernel_layout="HWOI"))
    out.append(conv_case("conv2d_out_layout", "nn.conv2d", 2, 1, 3, [5, 5], 4, [3, 3], out_layout="NHWC"))
    out.append(conv_case("conv2d_1x1", "nn.conv2d", 2, 2, 5, [4, 3], 3, [1, 1]))
    out.append(conv_case("conv2d_1x1_stride", "nn.conv2d", 2, 1, 4, [5, 5], 3, [1, 1], strides=[2, 2]))
    out.append(conv_case("conv2d_int8_int32", "nn.conv2d", 2, 1, 3, [5, 5], 2, [3, 3], padding=[1, 1],
                         dtype="int8", out_dtype="int32"))
    out.append(conv_case("conv2d_int32", "nn.conv2d", 2, 1, 2, [4, 4], 3, [2, 2], dtype="int32"))
    out.append(conv_case("conv2d_uint8", "nn.conv2d", 2, 1, 2, [4, 4], 2, [2, 2], dtype="uint8",
                         out_dtype="int32"))
    out.append(conv_case("conv2d_f16", "nn.conv2d", 2, 1, 3, [4, 4], 2, [3, 3], padding=[1, 1], dtype="float16"))
    out.append(conv_case("conv2d_f64", "nn.conv2d", 2, 1, 2, [5, 4], 3, [2, 3], dtype="float64"))
    out.append(conv_case("conv2d_f32_to_f64", "nn.conv2d", 2, 1, 2, [4, 4], 2, [3, 3], out_dtype="float64"))
    out.append(conv_case("conv2d_empty_batch", "nn.conv2d", 2, 0, 2, [4, 4], 3, [3, 3]))
    out.append(conv_case("conv2d_resnet_like", "nn.conv2d", 2, 1, 8, [14, 14], 8, [3, 3], padding=[1, 1],
                         extra="channels=8, kernel_size=[3, 3]"))
    out.append(conv_case("conv2d_nchw4c", "nn.contrib_conv2d_NCHWc", 2, 1, 8, [5, 5], 8, [3, 3], padding=[1, 1],
                         data_layout="NCHW4c", kernel_layout="OIHW4i4o",
                         extra="channels=8, kernel_size=[3, 3]"))
    out.append(conv_case("conv2d_nchw2c_out4c", "nn.contrib_conv2d_NCHWc", 2, 1, 4, [4, 5], 8, [2, 2],
                         strides=[2, 1], data_layout="NCHW2c", kernel_layout="OIHW2i4o", out_layout="NCHW4c",
                         extra="channels=8, kernel_size=[2, 2]"))
    out.append(conv_case("depthwise_nchw4c", "nn.contrib_depthwise_conv2d_NCHWc", 2, 1, 8, [5, 6], 8, [3, 3],
                         groups=8, padding=[1, 1], data_layout="NCHW4c", kernel_layout="OIHW1i4o",
                         extra="channels=8, kernel_size=[3, 3]"))
    # conv3d
    out.append(conv_case("conv3d_basic", "nn.conv3d", 3, 1, 2, [4, 5, 4], 3, [2, 3, 2]))
    out.append(conv_case("conv3d_pad_stride", "nn.conv3d", 3, 1, 2, [5, 5, 5], 2, [3, 3, 3], strides=[2, 1, 2],
                         padding=[1, 0, 1, 0, 1, 1], dilation=[1, 2, 1]))
    out.append(conv_case("conv3d_ndhwc", "nn.conv3d", 3, 2, 3, [3, 4, 4], 4, [2, 2, 2], padding=[1],
                         data_layout="NDHWC", kernel_layout="DHWIO"))
    out.append(conv_case("conv3d_groups_int", "nn.conv3d", 3, 1, 4, [3, 3, 3], 2, [2, 2, 2], groups=2,
                         dtype="int16", out_dtype="int32"))
    # transposed
    out.append(conv_transpose_case("conv1d_transpose_basic", "nn.conv1d_transpose", 1, 2, 3, [5], 2, [3]))
    out.append(conv_transpose_case("conv1d_transpose_stride_pad", "nn.conv1d_transpose", 1, 1, 2, [6], 3, [4],
                                   strides=[2], padding=[1], output_padding=[1]))
    out.append(conv_transpose_case("conv1d_transpose_pad2", "nn.conv1d_transpose", 1, 1, 2, [5], 2, [3],
                                   strides=[3], padding=[2, 1]))
    out.append(conv_transpose_case("conv2d_transpose_basic", "nn.conv2d_transpose", 2, 1, 3, [4, 5], 2, [3, 3]))
    out.append(conv_transpose_case("conv2d_transpose_stride", "nn.conv2d_transpose", 2, 2, 2, [3, 4], 3, [3, 2],
                                   strides=[2, 3], padding=[1, 0, 0, 1], output_padding=[1, 2]))
    out.append(conv_transpose_case("conv2d_transpose_groups", "nn.conv2d_transpose", 2, 1, 4, [3, 3], 2, [3, 3],
                                   strides=[2, 2], padding=[1, 1], groups=2, channels=4))
    out.append(conv_transpose_case("conv2d_transpose_nhwc", "nn.conv2d_transpose", 2, 1, 3, [4, 4], 2, [2, 2],
                                   strides=[2, 2], data_layout="NHWC", kernel_layout="HWIO"))
    out.append(conv_transpose_case("conv2d_transpose_int", "nn.conv2d_transpose", 2, 1, 2, [3, 3], 2, [2, 2],
                                   strides=[2, 2], dtype="int8", out_dtype="int32"))
    out.append(conv_transpose_case("conv2d_transpose_dilation", "nn.conv2d_transpose", 2, 1, 2, [3, 4], 2, [2, 3],
                                   dilation=[2, 1], padding=[1, 1]))
    out.append(conv_transpose_case("conv3d_transpose_basic", "nn.conv3d_transpose", 3, 1, 2, [3, 3, 3], 2,
                                   [2, 2, 2], strides=[2, 1, 2], padding=[1, 0, 0]))
    out.append(conv_transpose_case("conv3d_transpose_ks", "nn.conv3d_transpose", 3, 1, 2, [2, 3, 3], 3,
                                   [3, 2, 2], strides=[1, 2, 2], output_padding=[0, 1, 1], channels=3))
    out.append(conv_transpose_case("conv3d_transpose_f64", "nn.conv3d_transpose", 3, 1, 2, [2, 2, 2], 2,
                                   [2, 2, 2], dtype="float64"))
    # conv2d_backward_weight
    for name, n, c, o, sp, k, s, d, p, groups, layout in [
            ("bw_basic", 2, 3, 4, [6, 6], [3, 3], [1, 1], [1, 1], [1, 1], 1, "NCHW"),
            ("bw_stride_dil", 1, 2, 3, [7, 8], [3, 2], [2, 2], [1, 2], [1, 0, 0, 1], 1, "NCHW"),
            ("bw_groups", 1, 4, 4, [5, 5], [3, 3], [1, 1], [1, 1], [1, 1], 2, "NCHW"),
            ("bw_depthwise", 1, 3, 3, [5, 4], [3, 3], [1, 1], [1, 1], [1, 1], 3, "NCHW"),
            ("bw_nhwc", 1, 2, 3, [5, 5], [3, 3], [2, 2], [1, 1], [1, 1], 1, "NHWC")]:
        r = rng(name)
        x = r.standard_normal((n, c) + tuple(sp)).astype("float32")
        pb, pa = expand_padding(p, 2)
        oh = (sp[0] + pb[0] + pa[0] - (k[0] - 1) * d[0] - 1) // s[0] + 1
        ow = (sp[1] + pb[1] + pa[1] - (k[1] - 1) * d[1] - 1) // s[1] + 1
        g = r.standard_normal((n, o, oh, ow)).astype("float32")
        dw = conv_backward_weight_ref(g, x, k, s, d, pb, pa, groups, "float32")
        attrs = "strides=%s, padding=%s, dilation=%s, groups=%d, channels=%d, kernel_size=%s" % (
            fmt(s), fmt(p), fmt(d), groups, o, fmt(k))
        # TVM's builder stores grad's layout in data_layout, data's in kernel_layout and the
        # weight's in out_layout.
        wl = "OIHW" if layout == "NCHW" else "HWIO"
        attrs += ', data_layout="%s", kernel_layout="%s", out_layout="%s"' % (layout, layout, wl)
        dw = from_canonical(dw, "OIHW", wl)
        out.append(op_case(name, "nn.conv2d_backward_weight",
                           [from_canonical(g, "NCHW", layout), from_canonical(x, "NCHW", layout)], dw, attrs,
                           **tol("float32")))
    return out
