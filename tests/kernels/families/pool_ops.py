"""Golden data for §3.7 pooling: max/avg pooling in 1-3 D (padding, strides, dilation,
ceil_mode, count_include_pad, layouts), global and adaptive pooling and the 2-D pooling
gradients. The references follow TOPI's pool_impl_nd / adaptive_pool / pool_grad: max pads
with the dtype's lowest value; avg skips padding unless count_include_pad, and never counts
the extra ceil_mode tail."""
import itertools

import numpy as np

from families.common import op_case, rng
from families.conv_std import expand_padding, fmt, from_canonical


def lowest(dtype):
    d = np.dtype(dtype)
    return np.finfo(d).min if d.kind == "f" else np.iinfo(d).min


def pool_ref(x, pool, strides, dil, pb, pa, ceil_mode, is_max, count_include_pad):
    """x canonical (N, C, sp...)."""
    r = x.ndim - 2
    sp = x.shape[2:]
    outs = []
    for i in range(r):
        span = sp[i] + pb[i] + pa[i] - ((pool[i] - 1) * dil[i] + 1) + (strides[i] - 1 if ceil_mode else 0)
        outs.append(span // strides[i] + 1)
    y = np.zeros(x.shape[:2] + tuple(outs), x.dtype)
    integer = x.dtype.kind in "iu"
    for o in itertools.product(*[range(v) for v in outs]):
        idx = []
        count, padded = 1, 1
        for i in range(r):
            start = o[i] * strides[i] - pb[i]
            taps = [start + t * dil[i] for t in range(pool[i])]
            valid = [t for t in taps if 0 <= t < sp[i]]
            idx.append(valid)
            count *= len(valid)
            end = min(start + (pool[i] - 1) * dil[i], sp[i] + pa[i] - 1)
            padded *= int((end - start) / dil[i]) + 1  # truncating, as TOPI divides
        window = x[(slice(None), slice(None)) + np.ix_(*idx)].reshape(x.shape[:2] + (count,)) if count else None
        if is_max:
            full = count == np.prod(pool)
            v = window.max(-1) if count else np.full(x.shape[:2], lowest(x.dtype))
            if not full and count:
                v = np.maximum(v, lowest(x.dtype))
        else:
            # TOPI leaves count_include_pad's float divisor unclamped: a ceil_mode window past
            # the padding counts 0 taps and averages to 0/0 = NaN.
            div = padded if count_include_pad and not integer else max(padded if count_include_pad else count, 1)
            if integer:
                s = window.astype(np.int64).sum(-1) if count else 0
                s = np.asarray(s).astype(x.dtype).astype(np.int64)  # TVM sums in the data dtype
                v = np.trunc(s / div).astype(np.int64)
            else:
                s = window.astype(np.float64).sum(-1) if count else 0.0
                with np.errstate(invalid="ignore", divide="ignore"):
                    v = np.asarray(s) / np.float64(div)
        y[(slice(None), slice(None)) + o] = v
    return y


def adaptive_ref(x, sizes, is_max):
    r = x.ndim - 2
    sp = x.shape[2:]
    y = np.zeros(x.shape[:2] + tuple(sizes), x.dtype)
    for o in itertools.product(*[range(v) for v in sizes]):
        sl = tuple(slice(o[i] * sp[i] // sizes[i], -(-((o[i] + 1) * sp[i]) // sizes[i])) for i in range(r))
        win = x[(slice(None), slice(None)) + sl].reshape(x.shape[:2] + (-1,))
        if is_max:
            y[(slice(None), slice(None)) + o] = win.max(-1)
        elif x.dtype.kind in "iu":
            s = win.astype(np.int64).sum(-1).astype(x.dtype).astype(np.int64)
            y[(slice(None), slice(None)) + o] = np.trunc(s / win.shape[-1]).astype(np.int64)
        else:
            y[(slice(None), slice(None)) + o] = win.astype(np.float64).mean(-1)
    return y


def pool_grad_ref(og, x, pool, strides, pb, is_max, count_include_pad):
    N, C, H, W = x.shape
    gx = np.zeros(x.shape, np.float64)
    for oh in range(og.shape[2]):
        for ow in range(og.shape[3]):
            h0, w0 = oh * strides[0] - pb[0], ow * strides[1] - pb[1]
            if is_max:
                for n in range(N):
                    for c in range(C):
                        best, where = None, None
                        for kh in range(pool[0]):
                            for kw in range(pool[1]):
                                h, w = h0 + kh, w0 + kw
                                inside = 0 <= h < H and 0 <= w < W
                                v = x[n, c, h, w] if inside else lowest(x.dtype)
                                if best is None or v > best:
                                    best, where = v, ((h, w) if inside else None)
                        if where:
                            gx[n, c, where[0], where[1]] += og[n, c, oh, ow]
            else:
                hs, he = max(h0, 0), min(h0 + pool[0], H)
                ws, we = max(w0, 0), min(w0 + pool[1], W)
                f = pool[0] * pool[1] if count_include_pad else max((he - hs) * (we - ws), 1)
                gx[:, :, hs:he, ws:we] += (og[:, :, oh, ow] / f)[:, :, None, None]
    return gx.astype(x.dtype)


def data_of(r, shape, dtype):
    if np.dtype(dtype).kind in "iu":
        return r.integers(-50 if np.dtype(dtype).kind == "i" else 0, 50, size=shape).astype(dtype)
    return r.standard_normal(shape).astype(dtype)


def tol(dtype):
    return dict(rtol=1e-2, atol=1e-2) if np.dtype(dtype) == np.float16 else dict(rtol=1e-5, atol=1e-5)


def pool_case(name, op, shape, pool, strides=None, dil=None, padding=None, ceil_mode=False,
              count_include_pad=False, layout=None, dtype="float32"):
    r = rng(name)
    rank = len(pool)
    canon = "NC" + "DHW"[3 - rank:]
    x = data_of(r, shape, dtype)
    strides = strides or [1] * rank
    dil = dil or [1] * rank
    padding = padding or [0] * rank
    pb, pa = expand_padding(padding, rank)
    is_max = "max" in op
    y = pool_ref(x, pool, strides, dil, pb, pa, ceil_mode, is_max, count_include_pad)
    attrs = "pool_size=%s, strides=%s, dilation=%s, padding=%s" % (fmt(pool), fmt(strides), fmt(dil), fmt(padding))
    if ceil_mode:
        attrs += ", ceil_mode=True"
    if count_include_pad:
        attrs += ", count_include_pad=True"
    lay = layout or canon
    if layout:
        attrs += ', layout="%s"' % layout
    return op_case(name, op, [from_canonical(x, canon, lay)], from_canonical(y, canon, lay), attrs, **tol(dtype))


def cases():
    out = []
    out.append(pool_case("max_pool1d_basic", "nn.max_pool1d", (2, 3, 9), [3], strides=[2], padding=[1]))
    out.append(pool_case("max_pool1d_ceil_dil", "nn.max_pool1d", (1, 2, 10), [2], strides=[3], dil=[2],
                         padding=[0, 1], ceil_mode=True))
    out.append(pool_case("max_pool1d_nwc_int", "nn.max_pool1d", (1, 3, 7), [3], strides=[2], layout="NWC",
                         dtype="int32"))
    out.append(pool_case("avg_pool1d_basic", "nn.avg_pool1d", (2, 2, 8), [3], strides=[2], padding=[1]))
    out.append(pool_case("avg_pool1d_incl_pad", "nn.avg_pool1d", (1, 2, 8), [3], strides=[2], padding=[1, 2],
                         count_include_pad=True))
    out.append(pool_case("max_pool2d_basic", "nn.max_pool2d", (1, 2, 6, 7), [2, 2], strides=[2, 2]))
    out.append(pool_case("max_pool2d_resnet", "nn.max_pool2d", (1, 3, 9, 9), [3, 3], strides=[2, 2],
                         padding=[1, 1]))
    out.append(pool_case("max_pool2d_pad4_ceil", "nn.max_pool2d", (2, 2, 7, 6), [3, 2], strides=[2, 2],
                         padding=[1, 0, 0, 1], ceil_mode=True))
    out.append(pool_case("max_pool2d_dilation", "nn.max_pool2d", (1, 2, 8, 8), [2, 3], dil=[2, 2], padding=[1]))
    out.append(pool_case("max_pool2d_nhwc", "nn.max_pool2d", (2, 3, 6, 5), [3, 3], strides=[2, 1],
                         padding=[1, 1], layout="NHWC"))
    out.append(pool_case("max_pool2d_int8", "nn.max_pool2d", (1, 2, 5, 5), [2, 2], strides=[2, 2], ceil_mode=True,
                         dtype="int8"))
    out.append(pool_case("max_pool2d_f16", "nn.max_pool2d", (1, 2, 5, 5), [3, 3], padding=[1, 1], dtype="float16"))
    out.append(pool_case("max_pool2d_empty", "nn.max_pool2d", (0, 2, 5, 5), [2, 2]))
    out.append(pool_case("avg_pool2d_basic", "nn.avg_pool2d", (1, 2, 6, 6), [2, 2], strides=[2, 2]))
    out.append(pool_case("avg_pool2d_pad_excl", "nn.avg_pool2d", (1, 2, 5, 6), [3, 3], strides=[2, 2],
                         padding=[1, 1]))
    out.append(pool_case("avg_pool2d_pad_incl", "nn.avg_pool2d", (1, 2, 5, 6), [3, 3], strides=[2, 2],
                         padding=[1, 1], count_include_pad=True))
    out.append(pool_case("avg_pool2d_ceil_incl", "nn.avg_pool2d", (1, 2, 6, 7), [3, 3], strides=[2, 2],
                         padding=[1, 0, 0, 1], ceil_mode=True, count_include_pad=True))
    # ceil_mode's last window along W starts past the padding: 0 taps, NaN in TVM.
    out.append(pool_case("avg_pool2d_ceil_past_pad", "nn.avg_pool2d", (1, 2, 2, 2), [1, 1], strides=[1, 4],
                         padding=[0, 1, 0, 1], ceil_mode=True, count_include_pad=True))
    out.append(pool_case("avg_pool2d_ceil_excl", "nn.avg_pool2d", (1, 1, 6, 7), [3, 3], strides=[2, 2],
                         ceil_mode=True))
    out.append(pool_case("avg_pool2d_dil_nhwc", "nn.avg_pool2d", (1, 7, 7, 3), [2, 2], dil=[2, 3], padding=[1, 1],
                         layout="NHWC"))
    out.append(pool_case("avg_pool2d_int32", "nn.avg_pool2d", (1, 2, 5, 5), [2, 2], strides=[2, 2], padding=[1, 1],
                         dtype="int32"))
    out.append(pool_case("avg_pool2d_f64", "nn.avg_pool2d", (1, 2, 5, 5), [3, 2], dtype="float64"))
    out.append(pool_case("max_pool3d_basic", "nn.max_pool3d", (1, 2, 4, 5, 5), [2, 2, 2], strides=[2, 2, 2],
                         padding=[1, 0, 1]))
    out.append(pool_case("max_pool3d_ndhwc_ceil", "nn.max_pool3d", (1, 2, 5, 5, 4), [2, 3, 2], strides=[2, 2, 2],
                         ceil_mode=True, layout="NDHWC"))
    out.append(pool_case("avg_pool3d_basic", "nn.avg_pool3d", (1, 2, 4, 4, 5), [2, 2, 3], strides=[1, 2, 2],
                         padding=[0, 1, 1, 1, 0, 1]))
    out.append(pool_case("avg_pool3d_incl", "nn.avg_pool3d", (1, 1, 4, 4, 4), [3, 3, 3], strides=[2, 2, 2],
                         padding=[1], count_include_pad=True))
    # global pooling
    for name, op, shape, layout, dtype in [("global_avg_nchw", "nn.global_avg_pool2d", (2, 3, 4, 5), None, "float32"),
                                           ("global_max_nchw", "nn.global_max_pool2d", (2, 3, 4, 5), None, "float32"),
                                           ("global_avg_nhwc", "nn.global_avg_pool2d", (1, 3, 3, 4), "NHWC", "float32"),
                                           ("global_max_int", "nn.global_max_pool2d", (1, 2, 3, 3), None, "int32"),
                                           ("global_avg_f16", "nn.global_avg_pool2d", (1, 2, 3, 3), None, "float16")]:
        r = rng(name)
        x = data_of(r, shape, dtype)
        is_max = "max" in op
        y = x.reshape(shape[:2] + (-1,)).max(-1) if is_max else x.astype(np.float64).reshape(shape[:2] + (-1,)).mean(-1)
        y = y.astype(dtype).reshape(shape[:2] + (1, 1))
        lay = layout or "NCHW"
        out.append(op_case(name, op, [from_canonical(x, "NCHW", lay)], from_canonical(y, "NCHW", lay),
                           ('layout="%s"' % layout) if layout else "", **tol(dtype)))
    # adaptive pooling
    for name, op, shape, sizes, layout, dtype in [
            ("adaptive_avg1d", "nn.adaptive_avg_pool1d", (1, 2, 7), [3], None, "float32"),
            ("adaptive_max1d_nwc", "nn.adaptive_max_pool1d", (2, 2, 9), [4], "NWC", "float32"),
            ("adaptive_avg2d", "nn.adaptive_avg_pool2d", (1, 3, 7, 5), [3, 2], None, "float32"),
            ("adaptive_avg2d_one", "nn.adaptive_avg_pool2d", (1, 2, 5, 6), [1], None, "float32"),
            ("adaptive_max2d_nhwc", "nn.adaptive_max_pool2d", (1, 2, 6, 7), [4, 3], "NHWC", "float32"),
            ("adaptive_max2d_int", "nn.adaptive_max_pool2d", (1, 2, 5, 5), [2, 2], None, "int8"),
            ("adaptive_avg2d_int", "nn.adaptive_avg_pool2d", (1, 2, 5, 5), [2, 3], None, "int32"),
            ("adaptive_avg2d_grow", "nn.adaptive_avg_pool2d", (1, 1, 3, 3), [5, 4], None, "float32"),
            ("adaptive_avg3d", "nn.adaptive_avg_pool3d", (1, 2, 4, 5, 6), [2, 3, 4], None, "float32"),
            ("adaptive_max3d_ndhwc", "nn.adaptive_max_pool3d", (1, 2, 5, 4, 4), [2], "NDHWC", "float32"),
            ("adaptive_max3d_f64", "nn.adaptive_max_pool3d", (1, 1, 3, 4, 5), [3, 2, 2], None, "float64")]:
        r = rng(name)
        x = data_of(r, shape, dtype)
        rank = len(shape) - 2
        canon = "NC" + "DHW"[3 - rank:]
        full = sizes * rank if len(sizes) == 1 else sizes
        y = adaptive_ref(x, full, "max" in op)
        lay = layout or canon
        attrs = "output_size=%s" % fmt(sizes) + ((', layout="%s"' % layout) if layout else "")
        out.append(op_case(name, op, [from_canonical(x, canon, lay)], from_canonical(y, canon, lay), attrs, **tol(dtype)))
    # pooling gradients
    for name, op, shape, pool, strides, padding, layout, ceil in [
            ("max_pool2d_grad_basic", "nn.max_pool2d_grad", (1, 2, 6, 6), [2, 2], [2, 2], [0, 0], None, False),
            ("max_pool2d_grad_overlap", "nn.max_pool2d_grad", (2, 2, 7, 6), [3, 3], [2, 1], [1, 1], None, False),
            ("max_pool2d_grad_nhwc", "nn.max_pool2d_grad", (1, 3, 5, 5), [3, 3], [2, 2], [1, 1], "NHWC", True),
            ("avg_pool2d_grad_basic", "nn.avg_pool2d_grad", (1, 2, 6, 6), [2, 2], [2, 2], [0, 0], None, False),
            ("avg_pool2d_grad_pad", "nn.avg_pool2d_grad", (1, 2, 7, 5), [3, 3], [2, 2], [1, 1, 0, 1], None, False),
            ("avg_pool2d_grad_nhwc", "nn.avg_pool2d_grad", (1, 2, 5, 6), [3, 2], [1, 2], [1, 0], "NHWC", True)]:
        r = rng(name)
        x = r.standard_normal(shape).astype("float32")
        pb, pa = expand_padding(padding, 2)
        outs = [(shape[2 + i] + pb[i] + pa[i] - pool[i] + (strides[i] - 1 if ceil else 0)) // strides[i] + 1
                for i in range(2)]
        og = r.standard_normal(shape[:2] + tuple(outs)).astype("float32")
        gx = pool_grad_ref(og, x, pool, strides, pb, "max" in op, False)
        lay = layout or "NCHW"
        attrs = "pool_size=%s, strides=%s, padding=%s" % (fmt(pool), fmt(strides), fmt(padding))
        if ceil:
            attrs += ", ceil_mode=True"
        if layout:
            attrs += ', layout="%s"' % layout
        out.append(op_case(name, op, [from_canonical(og, "NCHW", lay), from_canonical(x, "NCHW", lay)],
                           from_canonical(gx, "NCHW", lay), attrs, rtol=1e-5, atol=1e-5))
    return out
