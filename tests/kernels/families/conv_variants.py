"""Golden data for the §3.7 convolution variants: Winograd / NNPACK / GEMM weight transforms
and the convolutions taking their output (checked against the plain convolution, as TVM's
results must agree), nn.deformable_conv2d and nn.bitserial_conv2d."""
import numpy as np

from families.common import op_case, rng
from families.conv_std import conv_ref, expand_padding, fmt, from_canonical, to_canonical

# TVM's Cook-Toom interpolation points (topi/nn/winograd_util.py), by degree.
POINTS = {
    3: [0, -1, 1],
    4: [0, -1, 1, 1 / 2],
    5: [0, -1, 1, 1 / 2, -2],
    6: [0, -1, 1, 1 / 2, -2, -1 / 2],
    7: [0, -1, 1, 1 / 2, -1 / 2, 2, -2],
    8: [0, -1, 1, 1 / 2, -1 / 2, 2, -2, -1 / 4],
    9: [0, -1, 1, 1 / 2, -1 / 2, 2, -2, -1 / 4, 4],
}


def winograd_g(tile, r):
    """G of F(tile, r): rows a_i^j / f_i, f_i = prod_{k != i}(a_i - a_k) (f_0 made positive),
    then (0, ..., 0, 1)."""
    alpha = tile + r - 1
    a = np.array(POINTS[alpha - 1], dtype=np.float64)
    G = np.zeros((alpha, r))
    for i in range(alpha - 1):
        f = np.prod([a[i] - a[k] for k in range(alpha - 1) if k != i])
        if i == 0 and f < 0:
            f = -f
        G[i] = a[i] ** np.arange(r) / f
    G[-1, -1] = 1
    return G


def winograd_u2d(w, tile):
    G = winograd_g(tile, w.shape[2])
    return np.einsum("ea,nb,oiab->enoi", G, G, w.astype(np.float64)).astype(w.dtype)


def winograd_u3d(w, tile):
    kd, kh = w.shape[2], w.shape[3]
    G = winograd_g(tile, kh)
    if 2 < kd < 8:
        return np.einsum("ma,eb,nc,oiabc->menoi", G, G, G, w.astype(np.float64)).astype(w.dtype)
    return np.einsum("eb,nc,oidbc->endoi", G, G, w.astype(np.float64)).astype(w.dtype)


NNPACK_G = np.array([[1, 0, 0], [-2 / 9, -2 / 9, -2 / 9], [-2 / 9, 2 / 9, -2 / 9], [1 / 90, 1 / 45, 2 / 45],
                     [1 / 90, -1 / 45, 2 / 45], [32 / 45, 16 / 45, 8 / 45], [32 / 45, -16 / 45, 8 / 45], [0, 0, 1]])


def gemm_transform(w_hwio, tr, tc):
    kh, kw, ic, oc = w_hwio.shape
    K = kh * kw * ic
    flat = w_hwio.reshape(K, oc)
    # TOPI pads N to whole tile_rows but K to a multiple of 4 * tile_cols (its tensorized
    # GEMM takes four column tiles at once), so K_padded / tile_cols is a multiple of 4.
    kp, npad = -(-K // (4 * tc)) * (4 * tc), -(-oc // tr) * tr
    flat = np.pad(flat, [(0, kp - K), (0, npad - oc)])
    # out[x, y, z, w] = flat[y*tc + w, x*tr + z]
    return np.ascontiguousarray(flat.reshape(kp // tc, tc, npad // tr, tr).transpose(2, 0, 3, 1))


def deformable_ref(x, off, w, strides, dilation, pb, pa, dgroups, groups):
    """TOPI's deformable_conv2d_nchw: zero outside [0, H) x [0, W), and each bilinear
    neighbour outside [0, H-1] x [0, W-1] adds zero (tensor_utils.h bilinear_sample_nchw:
    neighbours are masked, not clamped)."""
    N, C, H, W = x.shape
    O, _, kh, kw = w.shape
    oh = (H + pb[0] + pa[0] - (kh - 1) * dilation[0] - 1) // strides[0] + 1
    ow = (W + pb[1] + pa[1] - (kw - 1) * dilation[1] - 1) // strides[1] + 1
    xd = x.astype(np.float64)
    cols = np.zeros((N, C, kh, kw, oh, ow))
    per = C // dgroups
    for n in range(N):
        for c in range(C):
            base = (c // per) * 2 * kh * kw
            for ky in range(kh):
                for kx in range(kw):
                    t = ky * kw + kx
                    for y in range(oh):
                        for xx in range(ow):
                            h = y * strides[0] - pb[0] + ky * dilation[0] + float(off[n, base + 2 * t, y, xx])
                            q = xx * strides[1] - pb[1] + kx * dilation[1] + float(off[n, base + 2 * t + 1, y, xx])
                            if h < 0 or q < 0 or h >= H or q >= W:
                                continue
                            y0, x0 = int(np.floor(h)), int(np.floor(q))
                            ly, lx = h - y0, q - x0

                            def at(yy, xq):
                                return xd[n, c, yy, xq] if yy <= H - 1 and xq <= W - 1 else 0.0
                            cols[n, c, ky, kx, y, xx] = (at(y0, x0) * (1 - ly) * (1 - lx) +
                                                         at(y0, x0 + 1) * (1 - ly) * lx +
                                                         at(y0 + 1, x0) * ly * (1 - lx) + at(y0 + 1, x0 + 1) * ly * lx)
    cg, og = C // groups, O // groups
    y = np.zeros((N, O, oh, ow))
    for g in range(groups):
        y[:, g * og:(g + 1) * og] = np.einsum("nckyx,ock->noyx",
                                             cols[:, g * cg:(g + 1) * cg].reshape(N, cg, kh * kw, oh, ow),
                                             w[g * og:(g + 1) * og].reshape(og, cg, kh * kw).astype(np.float64))
    return y.astype(x.dtype)


def cases():
    out = []
    # Winograd 2-D: the transform, and the convolution on transformed weights == conv2d.
    for name, tile, k, c, o in [("wino2d_t2_k3", 2, 3, 3, 4), ("wino2d_t4_k3", 4, 3, 2, 3),
                                ("wino2d_t2_k5", 2, 5, 2, 2)]:
        r = rng(name)
        w = r.standard_normal((o, c, k, k)).astype("float32")
        out.append(op_case(name + "_transform", "nn.contrib_conv2d_winograd_weight_transform", [w],
                           winograd_u2d(w, tile), "tile_size=%d" % tile, rtol=1e-4, atol=1e-5))
        x = r.standard_normal((1, c, 7, 6)).astype("float32")
        u = winograd_u2d(w, tile)
        y = conv_ref(x, w, [1, 1], [1, 1], [1, 1], [1, 1], 1, "float32")
        out.append(op_case(name + "_conv", "nn.contrib_conv2d_winograd_without_weight_transform", [x, u], y,
                           "tile_size=%d, padding=[1, 1], channels=%d, kernel_size=[%d, %d]" % (tile, o, k, k),
                           rtol=1e-3, atol=1e-3))
    # Winograd 3-D: depth transformed (3x3x3) and not (depth 1).
    for name, tile, kd in [("wino3d_t2_k333", 2, 3), ("wino3d_t2_k133", 2, 1)]:
        r = rng(name)
        w = r.standard_normal((2, 2, kd, 3, 3)).astype("float32")
        u = winograd_u3d(w, tile)
        out.append(op_case(name + "_transform", "nn.contrib_conv3d_winograd_weight_transform", [w], u,
                           "tile_size=%d" % tile, rtol=1e-4, atol=1e-5))
        x = r.standard_normal((1, 2, 4, 5, 5)).astype("float32")
        y = conv_ref(x, w, [1, 1, 1], [1, 1, 1], [0, 1, 1], [0, 1, 1], 1, "float32")
        out.append(op_case(name + "_conv", "nn.contrib_conv3d_winograd_without_weight_transform", [x, u], y,
                           "tile_size=%d, padding=[0, 1, 1], channels=2, kernel_size=[%d, 3, 3]" % (tile, kd),
                           rtol=1e-3, atol=1e-3))
    # NNPACK transform.
    r = rng("nnpack")
    w = r.standard_normal((3, 2, 3, 3)).astype("float32")
    u = np.einsum("ea,nb,oiab->oien", NNPACK_G, NNPACK_G, w.astype(np.float64)).astype("float32")
    out.append(op_case("nnpack_transform", "nn.contrib_conv2d_winograd_nnpack_weight_transform", [w], u,
                       "convolution_algorithm=2", rtol=1e-4, atol=1e-5))
    # GEMM weight transform (with padding of both K and N) and the convolution on it.
    # gemm_exact: K = 8 is a whole number of tile_cols = 4 tiles, yet TOPI still pads it to
    # 16 (4 * tile_cols), so the transform has 4 column blocks, not 2.
    for name, k, c, o, tr, tc, s, p in [("gemm_pad", 3, 3, 5, 4, 8, [1, 1], [1, 1]),
                                        ("gemm_exact", 2, 2, 4, 4, 4, [2, 2], [0, 0])]:
        r = rng(name)
        w = r.standard_normal((k, k, c, o)).astype("float32")
        t = gemm_transform(w, tr, tc)
        out.append(op_case(name + "_transform", "nn.contrib_conv2d_gemm_weight_transform", [w], t,
                           "tile_rows=%d, tile_cols=%d" % (tr, tc)))
        x = r.standard_normal((1, 6, 7, c)).astype("float32")
        pb, pa = expand_padding(p, 2)
        y = conv_ref(to_canonical(x, "NHWC", "NCHW"), to_canonical(w, "HWIO", "OIHW"), s, [1, 1], pb, pa, 1,
                     "float32")
        out.append(op_case(name + "_conv", "nn.contrib_conv2d_gemm_without_weight_transform", [x, t],
                           from_canonical(y, "NCHW", "NHWC"),
                           'strides=%s, padding=%s, channels=%d, kernel_size=[%d, %d], data_layout="NHWC", '
                           'kernel_layout="HWIO"' % (fmt(s), fmt(p), o, k, k), rtol=1e-4, atol=1e-4))
    # Deformable convolution.
    for name, n, c, o, hw, k, s, d, p, dg, groups in [
            ("deform_basic", 1, 2, 3, [5, 5], [3, 3], [1, 1], [1, 1], [1, 1], 1, 1),
            ("deform_stride_dg", 2, 4, 2, [6, 5], [2, 3], [2, 1], [1, 1], [1, 0, 0, 1], 2, 1),
            ("deform_dil_groups", 1, 4, 4, [6, 6], [2, 2], [1, 1], [2, 2], [1, 1], 2, 2)]:
        r = rng(name)
        x = r.standard_normal((n, c) + tuple(hw)).astype("float32")
        w = r.standard_normal((o, c // groups) + tuple(k)).astype("float32")
        pb, pa = expand_padding(p, 2)
        oh = (hw[0] + pb[0] + pa[0] - (k[0] - 1) * d[0] - 1) // s[0] + 1
        ow = (hw[1] + pb[1] + pa[1] - (k[1] - 1) * d[1] - 1) // s[1] + 1
        off = (r.standard_normal((n, 2 * k[0] * k[1] * dg, oh, ow)) * 1.5).astype("float32")
        y = deformable_ref(x, off, w, s, d, pb, pa, dg, groups)
        out.append(op_case(name, "nn.deformable_conv2d", [x, off, w], y,
                           "strides=%s, padding=%s, dilation=%s, deformable_groups=%d, groups=%d, channels=%d, "
                           "kernel_size=%s" % (fmt(s), fmt(p), fmt(d), dg, groups, o, fmt(k)),
                           rtol=1e-4, atol=1e-4))
    # Every offset +0.5: many taps land in (H-1, H) or (W-1, W), where TOPI's masked
    # neighbours fade the sample towards 0 (clamping them would repeat the last row).
    r = rng("deform_edge")
    x = r.standard_normal((1, 2, 4, 4)).astype("float32")
    w = r.standard_normal((2, 2, 3, 3)).astype("float32")
    off = np.full((1, 18, 4, 4), 0.5, dtype="float32")
    y = deformable_ref(x, off, w, [1, 1], [1, 1], [1, 1], [1, 1], 1, 1)
    out.append(op_case("deform_edge", "nn.deformable_conv2d", [x, off, w], y,
                       "padding=[1, 1], channels=2, kernel_size=[3, 3]", rtol=1e-4, atol=1e-4))
    r = rng("deform_nhwc")
    x = r.standard_normal((1, 4, 4, 2)).astype("float32")
    w = r.standard_normal((3, 3, 2, 2)).astype("float32")
    off = r.standard_normal((1, 2, 2, 18)).astype("float32")
    y = deformable_ref(to_canonical(x, "NHWC", "NCHW"), to_canonical(off, "NHWC", "NCHW"),
                       to_canonical(w, "HWIO", "OIHW"), [1, 1], [1, 1], [0, 0], [0, 0], 1, 1)
    out.append(op_case("deform_nhwc", "nn.deformable_conv2d", [x, off, w], from_canonical(y, "NCHW", "NHWC"),
                       'channels=2, kernel_size=[3, 3], data_layout="NHWC", kernel_layout="HWIO"',
                       rtol=1e-4, atol=1e-4))
    # Bitserial convolution: low bits of data and weight; unipolar reads weight bits as +-1.
    for name, ab, wb, unipolar, dtype, layout, p, s in [
            ("bitserial_uni", 2, 1, True, "uint8", "NCHW", [1, 1], [1, 1]),
            ("bitserial_bipolar", 2, 2, False, "uint8", "NCHW", [0, 0], [2, 2]),
            ("bitserial_nhwc", 1, 2, True, "int8", "NHWC", [1, 0, 0, 1], [1, 1])]:
        r = rng(name)
        x = r.integers(0, 8, size=(1, 3, 5, 5)).astype(dtype)
        w = r.integers(0, 4, size=(4, 3, 3, 3)).astype(dtype)
        xa = x.astype(np.int64) & ((1 << ab) - 1)
        wq = w.astype(np.int64) & ((1 << wb) - 1)
        if unipolar:
            wq = 2 * wq - ((1 << wb) - 1)
        pb, pa = expand_padding(p, 2)
        y = conv_ref(xa, wq, s, [1, 1], pb, pa, 1, "int16")
        attrs = ("strides=%s, padding=%s, channels=4, kernel_size=[3, 3], activation_bits=%d, weight_bits=%d, "
                 'out_dtype="int16", unipolar=%s' % (fmt(s), fmt(p), ab, wb, "True" if unipolar else "False"))
        if layout == "NHWC":
            attrs += ', data_layout="NHWC", kernel_layout="HWIO"'
            x, w, y = (from_canonical(x, "NCHW", "NHWC"), from_canonical(w, "OIHW", "HWIO"),
                       from_canonical(y, "NCHW", "NHWC"))
        out.append(op_case(name, "nn.bitserial_conv2d", [x, w], y, attrs))
    return out
