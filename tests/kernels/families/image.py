"""Golden data for §3.8 image.*: resize1d/2d/3d (every method, coordinate transformation
mode and rounding method, cubic_alpha/cubic_exclude, tf_crop_and_resize with roi and
extrapolation, layouts, out_dtype), crop_and_resize, grid_sample (2-D/3-D, every method
and padding mode), affine_grid and dilation2d. The reference restates TOPI 0.14's
python/tvm/topi/image/resize.py in numpy: coordinates and weights in float32, reads
clamped to the image, TVM's `round` rounding halves away from zero, 3-D quirks kept (its
cubic_exclude depth weights come from the width axis; its tf_crop_and_resize ignores the
depth test)."""
import math

import numpy as np

from families.common import op_case, rng

F = np.float32


def coord(x, in_size, out_size, mode, start=0.0, end=0.0):
    x = F(x)
    scale = F(in_size) / F(out_size)
    if mode == "half_pixel":
        return (x + F(0.5)) * scale - F(0.5)
    if mode == "align_corners":
        return F(in_size - 1) / F(out_size - 1) * x if out_size > 1 else F(0)
    if mode == "asymmetric":
        return scale * x
    if mode == "pytorch_half_pixel":
        return (x + F(0.5)) * scale - F(0.5) if out_size > 1 else F(0)
    if mode == "tf_half_pixel_for_nn":
        return (x + F(0.5)) * scale
    if mode == "tf_crop_and_resize":
        span = F(in_size - 1)
        if out_size > 1:
            return F(start) * span + x * (F(end) - F(start)) * span / F(out_size - 1)
        return F(0.5) * (F(start) + F(end)) * span
    raise ValueError(mode)


def round_away(v):
    return F(math.floor(v + 0.5)) if v >= 0 else F(-math.floor(-v + 0.5))


def nearest(v, rounding):
    if rounding == "round":
        r = round_away(v)
    elif rounding == "round_prefer_floor":
        r = np.ceil(v - F(0.5))
    elif rounding == "round_prefer_ceil":
        r = np.floor(v + F(0.5))
    elif rounding == "floor":
        r = np.floor(v + F(1e-5))
    else:
        r = np.ceil(v - F(1e-5))
    return int(r)


def cubic_w(t, a):
    t, a = F(t), F(a)
    t2, t3 = t * t, t * t * t
    return [a * (t3 - F(2) * t2 + t), (a + F(2)) * t3 - (F(3) + a) * t2 + F(1),
            -(a + F(2)) * t3 + (F(3) + F(2) * a) * t2 - a * t, -a * t3 + a * t2]


def exclude(w, base, limit):
    w = [F(0) if (base - 1 + i < 0 or base + i > limit) else w[i] for i in range(4)]
    s = F(0)
    for v in w:
        s = s + v
    return [v / s for v in w]


def axis_taps(x, n, method, rounding, alpha, excl):
    """[(index, weight)] read at float32 coordinate x on an axis of n samples."""
    clamp = lambda i: min(max(i, 0), n - 1)
    if method == "nearest_neighbor":
        return [(clamp(nearest(x, rounding)), F(1))]
    base = int(np.floor(x))
    t = F(x - np.floor(x))
    if method == "linear":
        return [(clamp(base), F(1) - t), (clamp(base + 1), t)]
    w = cubic_w(t, alpha)
    if excl:
        w = exclude(w, base, n)
    return [(clamp(base - 1 + i), w[i]) for i in range(4)]


def combine(img, taps):
    """Separable sum over taps (one list per spatial axis), the last axis innermost."""
    if not taps:
        return F(img)
    acc = F(0)
    for i, w in taps[0]:
        acc = acc + F(combine(img[i], taps[1:])) * w
    return acc


def resize_ref(x, layout, size, method="linear", mode="half_pixel", rounding="round", alpha=-0.5,
               excl=0, extrap=0.0, roi=None, out_dtype=None):
    letters = {1: "W", 2: "HW", 3: "DHW"}[len(size)]
    canon = "NC" + letters
    perm = [layout.index(c) for c in canon]
    xc = np.transpose(x, perm).astype(F)
    S = len(size)
    roi = list(roi or [0.0] * (2 * S))
    if method == "nearest_neighbor" and rounding == "":
        rounding = "round" if mode == "align_corners" else "floor"
    sp = xc.shape[2:]
    out = np.zeros(xc.shape[:2] + tuple(size), F)
    starts = {1: [0], 2: [0, 1], 3: [2, 1, 0]}[S]
    for o in np.ndindex(*size):
        taps, outside = [], False
        for s in range(S):
            n, m = sp[s], size[s]
            c = coord(o[s], n, m, mode, roi[starts[s]], roi[starts[s] + S])
            if (S == 2 and method == "nearest_neighbor" and mode == "asymmetric" and m % n == 0
                    and m // n <= 1.0 / (1e-5 * n + 1e-5)):
                taps.append([(min(o[s] // (m // n), n - 1), F(1))])
                continue
            taps.append(axis_taps(c, n, method, rounding, alpha, excl))
            if mode == "tf_crop_and_resize" and not (S == 3 and s == 0):
                outside = outside or c < 0 or c > F(n - 1)
        if S == 3 and method == "cubic" and excl:
            cx = coord(o[2], sp[2], size[2], mode, roi[0], roi[3])
            bx = int(np.floor(cx))
            wz = exclude(cubic_w(cx - np.floor(cx), alpha), bx, sp[1])
            taps[0] = [(i, wz[k]) for k, (i, _) in enumerate(taps[0])]
        for nn in range(xc.shape[0]):
            for ch in range(xc.shape[1]):
                out[(nn, ch) + o] = F(extrap) if outside else combine(xc[nn, ch], taps)
    res = np.transpose(out, np.argsort(perm))
    return res.astype(out_dtype or x.dtype)


def attrs(size, layout, method, mode, rounding, alpha=-0.5, excl=0, extrap=0.0, roi=None, out_dtype=""):
    S = len(size)
    roi = roi or [0.0] * (2 * S)
    return ("size=[%s], roi=[%s], layout=\"%s\", method=\"%s\", coordinate_transformation_mode=\"%s\", "
            "rounding_method=\"%s\", cubic_alpha=%sf, cubic_exclude=%d, extrapolation_value=%sf, out_dtype=\"%s\""
            % (", ".join(map(str, size)), ", ".join("%gf" % r for r in roi), layout, method, mode, rounding,
               repr(float(alpha)), excl, repr(float(extrap)), out_dtype))


def resize_case(name, shape, layout, size, method, mode, rounding="", alpha=-0.5, excl=0, extrap=0.0, roi=None,
                dtype="float32", out_dtype=""):
    g = rng(name)
    x = (g.standard_normal(shape) * 4).astype(dtype) if dtype.startswith("float") else \
        g.integers(0, 255, shape).astype(dtype)
    op = "image.resize%dd" % len(size)
    if layout == "NCHW4c":  # resize the NCHW view: (N, C, H, W, c) -> (N, C*c, H, W) and back
        n, c, h, w, cc = shape
        v = np.transpose(x, (0, 1, 4, 2, 3)).reshape(n, c * cc, h, w)
        y = resize_ref(v, "NCHW", size, method, mode, rounding, alpha, excl, extrap, roi, out_dtype or None)
        y = np.transpose(y.reshape(n, c, cc, size[0], size[1]), (0, 1, 3, 4, 2))
    else:
        y = resize_ref(x, layout, size, method, mode, rounding, alpha, excl, extrap, roi, out_dtype or None)
    return op_case(name, op, [x], y, attrs(size, layout, method, mode, rounding, alpha, excl, extrap, roi, out_dtype),
                   rtol=1e-5, atol=1e-5)


MODES = ["half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel", "tf_half_pixel_for_nn"]
ROUNDINGS = ["round", "floor", "ceil", "round_prefer_floor", "round_prefer_ceil", ""]


def crop_ref(x, boxes, idx, crop, layout, method, extrap, out_dtype=None):
    perm = [layout.index(c) for c in "NCHW"]
    xc = np.transpose(x, perm).astype(F)
    H, W = xc.shape[2:]
    out = np.zeros((len(idx), xc.shape[1]) + tuple(crop), F)
    m = "linear" if method == "bilinear" else method
    for b in range(len(idx)):
        y1, x1, y2, x2 = [F(v) for v in boxes[b]]
        for oy in range(crop[0]):
            for ox in range(crop[1]):
                cs = []
                for (lo, hi, n, m_, o) in ((y1, y2, H, crop[0], oy), (x1, x2, W, crop[1], ox)):
                    span = F(n - 1)
                    cs.append(lo * span + span * (hi - lo) / F(m_ - 1) * F(o) if m_ > 1 else F(0.5) * (lo + hi) * span)
                outside = any(c < 0 or c > F(n - 1) for c, n in zip(cs, (H, W)))
                taps = [axis_taps(c, n, m, "round", -0.5, 0) for c, n in zip(cs, (H, W))]
                for ch in range(xc.shape[1]):
                    out[b, ch, oy, ox] = F(extrap) if outside else combine(xc[idx[b], ch], taps)
    return np.transpose(out, np.argsort(perm)).astype(out_dtype or x.dtype)


def crop_case(name, shape, layout, crop, method, extrap=0.0):
    g = rng(name)
    x = (g.standard_normal(shape) * 3).astype("float32")
    nb = 3
    boxes = np.array([[0.1, 0.2, 0.8, 0.9], [-0.2, 0.0, 0.6, 1.3], [0.5, 0.4, 0.25, 0.05]], "float32")[:nb]
    idx = np.array([0, shape[0] - 1, 0], "int32")[:nb]
    y = crop_ref(x, boxes, idx, crop, layout, method, extrap)
    a = "crop_size=[%d, %d], layout=\"%s\", method=\"%s\", extrapolation_value=%sf, out_dtype=\"\"" % (
        crop[0], crop[1], layout, method, repr(float(extrap)))
    return op_case(name, "image.crop_and_resize", [x, boxes, idx], y, a, rtol=1e-5, atol=1e-5)


def cases():
    out = []
    for method in ["nearest_neighbor", "linear", "cubic"]:
        for mode in MODES:
            out.append(resize_case("resize2d_%s_%s_up" % (method, mode), (1, 2, 4, 5), "NCHW", [7, 8], method, mode))
            out.append(resize_case("resize2d_%s_%s_down" % (method, mode), (2, 1, 6, 7), "NCHW", [4, 3], method, mode))
    for r in ROUNDINGS:
        out.append(resize_case("resize2d_nearest_round_%s" % (r or "default"), (1, 1, 5, 4), "NCHW", [8, 7],
                               "nearest_neighbor", "half_pixel", r))
        out.append(resize_case("resize2d_nearest_align_%s" % (r or "default"), (1, 1, 5, 4), "NCHW", [3, 9],
                               "nearest_neighbor", "align_corners", r))
    out.append(resize_case("resize2d_nearest_asym_intdiv", (1, 2, 3, 4), "NCHW", [6, 12], "nearest_neighbor",
                           "asymmetric", "round"))
    out.append(resize_case("resize2d_linear_nhwc", (2, 4, 5, 3), "NHWC", [6, 3], "linear", "half_pixel"))
    out.append(resize_case("resize2d_cubic_nhwc_alpha", (1, 4, 4, 2), "NHWC", [7, 5], "cubic", "half_pixel",
                           alpha=-0.75))
    out.append(resize_case("resize2d_cubic_exclude", (1, 2, 4, 5), "NCHW", [9, 7], "cubic", "half_pixel", excl=1))
    out.append(resize_case("resize2d_cubic_exclude_align", (1, 1, 5, 4), "NCHW", [3, 6], "cubic", "align_corners",
                           alpha=-0.75, excl=1))
    out.append(resize_case("resize2d_size_one", (1, 2, 4, 5), "NCHW", [1, 1], "linear", "pytorch_half_pixel"))
    for method in ["nearest_neighbor", "linear", "cubic"]:
        out.append(resize_case("resize2d_tf_crop_%s" % method, (1, 2, 5, 6), "NCHW", [4, 7], method,
                               "tf_crop_and_resize", "", roi=[-0.2, 0.1, 0.9, 1.2], extrap=-3.5))
    out.append(resize_case("resize2d_uint8_linear", (1, 1, 4, 4), "NCHW", [6, 5], "linear", "half_pixel",
                           dtype="uint8"))
    out.append(resize_case("resize2d_uint8_to_float", (1, 1, 4, 4), "NCHW", [6, 5], "cubic", "half_pixel",
                           dtype="uint8", out_dtype="float32"))
    out.append(resize_case("resize2d_nchw4c", (1, 2, 3, 4, 4), "NCHW4c", [5, 6], "linear", "align_corners"))
    for method in ["nearest_neighbor", "linear", "cubic"]:
        out.append(resize_case("resize1d_%s" % method, (2, 3, 5), "NCW", [8], method, "half_pixel"))
    out.append(resize_case("resize1d_nwc_asym", (1, 6, 2), "NWC", [4], "linear", "asymmetric"))
    out.append(resize_case("resize1d_cubic_exclude", (1, 2, 5), "NCW", [9], "cubic", "half_pixel", excl=1))
    out.append(resize_case("resize1d_tf_crop", (1, 2, 6), "NCW", [5], "linear", "tf_crop_and_resize",
                           roi=[-0.1, 1.1], extrap=7.0))
    for method in ["nearest_neighbor", "linear", "cubic"]:
        out.append(resize_case("resize3d_%s" % method, (1, 2, 3, 4, 3), "NCDHW", [4, 3, 5], method, "half_pixel"))
    out.append(resize_case("resize3d_ndhwc_align", (1, 3, 3, 4, 2), "NDHWC", [5, 4, 3], "linear", "align_corners"))
    out.append(resize_case("resize3d_cubic_exclude", (1, 1, 3, 4, 5), "NCDHW", [5, 6, 7], "cubic", "half_pixel",
                           excl=1))
    out.append(resize_case("resize3d_tf_crop", (1, 1, 3, 4, 5), "NCDHW", [4, 5, 3], "linear", "tf_crop_and_resize",
                           roi=[-0.2, 0.1, -0.3, 1.1, 0.9, 1.4], extrap=2.5))
    out.append(crop_case("crop_bilinear", (2, 3, 6, 7), "NCHW", (4, 5), "bilinear", 1.5))
    out.append(crop_case("crop_nearest", (2, 2, 6, 7), "NCHW", (3, 4), "nearest_neighbor", -1.0))
    out.append(crop_case("crop_nhwc", (2, 5, 6, 3), "NHWC", (4, 4), "bilinear"))
    out.append(crop_case("crop_single", (2, 1, 5, 5), "NCHW", (1, 3), "bilinear"))
    return out + more_cases()


# --- grid_sample, affine_grid, dilation2d (topi/image/grid_sample.py, dilation2d.py) ---

def affine_ref(theta, th, tw):
    ys = F((2.0 - 1e-07) / (th - 1))
    xs = F((2.0 - 1e-07) / (tw - 1))
    out = np.zeros((theta.shape[0], 2, th, tw), F)
    for n in range(theta.shape[0]):
        for d in range(2):
            for i in range(th):
                for j in range(tw):
                    y, x = F(-1) + F(i) * ys, F(-1) + F(j) * xs
                    out[n, d, i, j] = theta[n, d, 0] * x + theta[n, d, 1] * y + theta[n, d, 2]
    return out


def reflect(x, size, align):
    corner = F(0) if align else F(-0.5)
    span = size - 1 if align else size
    if corner <= x <= F(span) + corner:
        return x
    dist = abs(corner - x)
    times = int(dist) // span if span else 0
    extra = dist - F(times * span)
    return extra + corner if times % 2 == 0 else F(span) - extra + corner


def unnorm(g, size, align):
    return (g + F(1)) * F(size - 1) / F(2) if align else F(-0.5) + (g + F(1)) * F(size) / F(2)


def src(g, size, align, padding):
    v = unnorm(g, size, align)
    if padding == "reflection":
        v = min(max(reflect(v, size, align), F(0)), F(size - 1))
    elif padding == "border":
        v = min(max(v, F(0)), F(size - 1))
    return v


def grid_ref(x, grid, method, padding, align):
    three = x.ndim == 5
    if not three:
        x, grid = x[:, :, None], np.concatenate([grid, np.zeros_like(grid[:, :1])], 1)[:, :, None]
    N, C, D, H, W = x.shape
    OD, OH, OW = grid.shape[2:]
    out = np.zeros((N, C, OD, OH, OW), F)

    def px(img, z, y, xx):
        return img[z, y, xx] if 0 <= z < D and 0 <= y < H and 0 <= xx < W else F(0)

    def c1(t):
        A = F(-0.75)
        return ((A + F(2)) * t - (A + F(3))) * t * t + F(1)

    def c2(t):
        A = F(-0.75)
        return ((A * t - F(5) * A) * t + F(8) * A) * t - F(4) * A

    def ci(p, f):
        return p[0] * c2(f + F(1)) + p[1] * c1(f) + p[2] * c1(F(1) - f) + p[3] * c2(F(2) - f)

    for n in range(N):
        for c in range(C):
            img = x[n, c]
            for o in np.ndindex(OD, OH, OW):
                gx, gy, gz = grid[(n, 0) + o], grid[(n, 1) + o], grid[(n, 2) + o]
                if method == "nearest":
                    z = int(np.rint(src(gz, D, align, padding))) if three else 0
                    v = px(img, z, int(np.rint(src(gy, H, align, padding))), int(np.rint(src(gx, W, align, padding))))
                elif method == "bicubic":
                    yy, xx = unnorm(gy, H, align), unnorm(gx, W, align)
                    y0, x0 = int(np.floor(yy)), int(np.floor(xx))

                    def tap(i, size):
                        if padding == "zeros":
                            return i
                        t = F(i)
                        if padding == "reflection":
                            t = reflect(t, size, align)
                        return int(min(max(t, F(0)), F(size - 1)))
                    rows = [ci([px(img, 0, tap(y0 - 1 + i, H), tap(x0 - 1 + k, W)) for k in range(4)], xx - F(x0))
                            for i in range(4)]
                    v = ci(rows, yy - F(y0))
                elif not three:
                    yy, xx = src(gy, H, align, padding), src(gx, W, align, padding)
                    y0, x0 = int(np.floor(yy)), int(np.floor(xx))
                    dy, dx = yy - F(y0), xx - F(x0)
                    v = (px(img, 0, y0, x0) * (F(1) - dy) * (F(1) - dx) + px(img, 0, y0, x0 + 1) * (F(1) - dy) * dx +
                         px(img, 0, y0 + 1, x0) * dy * (F(1) - dx) + px(img, 0, y0 + 1, x0 + 1) * dy * dx)
                else:
                    zz, yy, xx = src(gz, D, align, padding), src(gy, H, align, padding), src(gx, W, align, padding)
                    z0, y0, x0 = int(np.floor(zz)), int(np.floor(yy)), int(np.floor(xx))
                    dz, dy, dx = zz - F(z0), yy - F(y0), xx - F(x0)
                    v = F(0)
                    for (a, b, cc) in [(0, 0, 0), (0, 0, 1), (1, 1, 0), (1, 1, 1), (0, 1, 0), (1, 0, 1), (1, 0, 0), (0, 1, 1)]:
                        v = v + px(img, z0 + a, y0 + b, x0 + cc) * (dx if cc else F(1) - dx) * (dy if b else F(1) - dy) * \
                            (dz if a else F(1) - dz)
                out[(n, c) + o] = v
    return out if three else out[:, :, 0]


def grid_case(name, shape, gshape, method, padding, align):
    g = rng(name)
    x = g.standard_normal(shape).astype(F)
    grid = g.uniform(-1.3, 1.3, gshape).astype(F)
    y = grid_ref(x, grid, method, padding, align)
    a = "method=\"%s\", layout=\"%s\", padding_mode=\"%s\", align_corners=%s" % (
        method, "NCDHW" if len(shape) == 5 else "NCHW", padding, align)
    return op_case(name, "image.grid_sample", [x, grid], y, a, rtol=1e-4, atol=1e-5)


def dilation_ref(x, w, strides, pad, dil, nhwc):
    if nhwc:
        x, w = x.transpose(0, 3, 1, 2), w.transpose(2, 0, 1)
    N, C, H, W = x.shape
    _, KH, KW = w.shape
    pt, pl, pd, pr = pad
    xp = np.zeros((N, C, H + pt + pd, W + pl + pr), x.dtype)
    xp[:, :, pt:pt + H, pl:pl + W] = x
    kh, kw = (KH - 1) * dil[0] + 1, (KW - 1) * dil[1] + 1
    OH, OW = (H - kh + pt + pd) // strides[0] + 1, (W - kw + pl + pr) // strides[1] + 1
    out = np.full((N, C, OH, OW), -np.inf, x.dtype)
    for ry in range(KH):
        for rx in range(KW):
            win = xp[:, :, ry * dil[0]:ry * dil[0] + (OH - 1) * strides[0] + 1:strides[0],
                     rx * dil[1]:rx * dil[1] + (OW - 1) * strides[1] + 1:strides[1]]
            out = np.maximum(out, win + w[None, :, ry, rx, None, None])
    return out.transpose(0, 2, 3, 1) if nhwc else out


def dilation_case(name, shape, kshape, strides, pad, dil, nhwc=False):
    g = rng(name)
    x = g.standard_normal(shape).astype(F)
    w = g.standard_normal(kshape).astype(F)
    p4 = pad if len(pad) == 4 else [pad[0], pad[1], pad[0], pad[1]]
    y = dilation_ref(x, w, strides, p4, dil, nhwc)
    a = "strides=[%d, %d], padding=[%s], dilations=[%d, %d], data_layout=\"%s\", kernel_layout=\"%s\", out_dtype=\"\"" % (
        strides[0], strides[1], ", ".join(map(str, pad)), dil[0], dil[1], "NHWC" if nhwc else "NCHW", "HWI" if nhwc else "IHW")
    return op_case(name, "image.dilation2d", [x, w], y, a)


def more_cases():
    out = []
    for th, tw in ((3, 4), (5, 2)):
        theta = rng("affine%d" % th).standard_normal((2, 2, 3)).astype(F)
        out.append(op_case("affine_grid_%dx%d" % (th, tw), "image.affine_grid", [theta], affine_ref(theta, th, tw),
                           "target_shape=[%d, %d]" % (th, tw)))
    for method in ["bilinear", "nearest", "bicubic"]:
        for padding in ["zeros", "border", "reflection"]:
            for align in [True, False]:
                out.append(grid_case("grid_%s_%s_%s" % (method, padding, "align" if align else "noalign"),
                                     (1, 2, 4, 5), (1, 2, 3, 6), method, padding, align))
    for method in ["bilinear", "nearest"]:
        for padding in ["zeros", "border", "reflection"]:
            out.append(grid_case("grid3d_%s_%s" % (method, padding), (1, 2, 3, 4, 3), (1, 3, 2, 3, 2), method, padding,
                                 padding != "border"))
    out.append(dilation_case("dilation_basic", (1, 2, 5, 6), (2, 3, 3), (1, 1), (0, 0), (1, 1)))
    out.append(dilation_case("dilation_stride_pad_dil", (2, 3, 7, 6), (3, 2, 3), (2, 1), (1, 2), (2, 1)))
    out.append(dilation_case("dilation_pad4", (1, 2, 5, 5), (2, 2, 2), (1, 2), (1, 0, 2, 1), (1, 1)))
    out.append(dilation_case("dilation_nhwc", (1, 5, 6, 2), (3, 2, 2), (1, 1), (1, 1), (1, 2), nhwc=True))
    return out
