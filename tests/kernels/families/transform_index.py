"""Golden data for §3.5 indexing, sparse, scan and signal operators (the rest of the
transform family is in transform.py). References follow TVM (TOPI) where it differs from
numpy; each such place says why."""
import math

import numpy as np

from families.common import op_case, rng
from families.transform import normal, ints, tuple_case

F32 = "float32"


def scan_attrs(extra):
    return 'attrs_type_key="relay.attrs.ScanopAttrs"' + (", " + extra if extra else "")


def take_ref(data, idx, axis, mode, batch_dims=0):
    if axis is None:
        flat = data.reshape(-1)
        n = flat.size
        idx = np.clip(idx, 0, n - 1) if mode == "clip" else np.mod(idx, n) if mode == "wrap" else idx
        return flat[idx]
    n = data.shape[axis]
    # clip clamps negatives to 0 (TOPI), unlike numpy's negative indexing.
    idx = np.clip(idx, 0, n - 1) if mode == "clip" else np.mod(idx, n) if mode == "wrap" else idx
    if batch_dims == 0:
        return np.take(data, idx, axis=axis)
    return np.stack([np.take(data[b], idx[b], axis=axis - 1) for b in range(data.shape[0])])


def indexing():
    out = []
    d = normal("take", (4, 5))
    i = np.array([[0, 7], [-3, 2]], "int32")
    out.append(op_case("take_flat_clip", "take", [d, i], take_ref(d, i, None, "clip"), 'axis=None, mode="clip"'))
    out.append(op_case("take_flat_wrap", "take", [d, i], take_ref(d, i, None, "wrap"), 'axis=None, mode="wrap"'))
    j = np.array([3, -1, 9, 0], "int64")
    out.append(op_case("take_axis0_clip", "take", [d, j], take_ref(d, j, 0, "clip"), 'axis=0, mode="clip"'))
    out.append(op_case("take_axis_neg_wrap", "take", [d, j], take_ref(d, j, 1, "wrap"), 'axis=-1, mode="wrap"'))
    k = np.array([[4, 0], [1, 1]], "int32")
    out.append(op_case("take_fast", "take", [d, k], take_ref(d, k, 1, "fast"), 'axis=1, mode="fast"'))
    di = ints("take_i8", (3, 4, 2), dtype="int8")
    bi = np.array([[0, 3], [2, 2], [1, 0]], "int64")
    out.append(op_case("take_batch_dims", "take", [di, bi], take_ref(di, bi, 1, "clip", 1), "batch_dims=1, axis=1"))
    out.append(op_case("take_batch_dims_negative", "take", [di, bi], take_ref(di, bi, 1, "clip", 1), "batch_dims=-1, axis=1"))
    out.append(op_case("take_empty_indices", "take", [d, np.zeros((0,), "int32")], np.zeros((0, 5), F32), "axis=0"))
    out.append(op_case("take_scalar_index", "take", [d, np.array(2, "int32")], d[2].copy(), "axis=0"))
    g = normal("gather", (3, 4))
    gi = rng("gather_i").integers(0, 3, (2, 4)).astype("int64")
    out.append(op_case("gather_axis0", "gather", [g, gi], np.take_along_axis(g, gi, 0), "axis=0"))
    gj = rng("gather_j").integers(0, 4, (3, 6)).astype("int32")
    out.append(op_case("gather_axis_neg", "gather", [g, gj], np.take_along_axis(g, gj, 1), "axis=-1"))
    gh = ints("gather_u8", (2, 3, 2), 0, 200, "uint8")
    gk = rng("gather_k").integers(0, 3, (2, 1, 2)).astype("int32")
    out.append(op_case("gather_u8_mid", "gather", [gh, gk], np.take_along_axis(gh, gk, 1), "axis=1"))
    n = normal("gather_nd", (3, 4, 5))
    ni = np.array([[0, 2, 1], [3, 0, 3]], "int64")  # M=2 over 3 positions
    out.append(op_case("gather_nd_m2", "gather_nd", [n, ni], n[ni[0], ni[1]]))
    ni1 = np.array([[[2, 0], [1, 1]]], "int32")  # M=1, positions 2x2
    out.append(op_case("gather_nd_m1_index_rank", "gather_nd", [n, ni1], n[ni1[0]], "index_rank=1"))
    nb = np.array([[1, 3, 0]], "int64")  # batch_dims=1: one index per batch row
    out.append(op_case("gather_nd_batch", "gather_nd", [n, nb], np.stack([n[b, nb[0, b]] for b in range(3)]), "batch_dims=1"))
    nf = np.array([[0, 2], [1, 3], [4, 0]], "int32")
    out.append(op_case("gather_nd_full_i32", "gather_nd", [ints("gnd", (3, 4, 5)), nf], ints("gnd", (3, 4, 5))[nf[0], nf[1], nf[2]]))
    # scatter_elements: duplicates are applied in order (TOPI loops serially per column).
    data = normal("scatter_elements", (3, 4))
    idx = np.array([[1, 0, 2, 1], [1, 2, 2, -3]], "int64")
    upd = normal("scatter_elements_u", (2, 4))
    for red in ["update", "add", "mul", "mean", "min", "max"]:
        want = data.copy()
        for r in range(2):
            for c in range(4):
                t = idx[r, c] % 3
                a, b = want[t, c], upd[r, c]
                want[t, c] = {"update": b, "add": a + b, "mul": a * b, "mean": (a + b) / 2,
                              "min": min(a, b), "max": max(a, b)}[red]
        if red == "update":  # duplicate targets would make "update" order-dependent
            want = data.copy()
            for r in range(2):
                for c in range(4):
                    if not (r == 0 and idx[0, c] % 3 == idx[1, c] % 3):
                        want[idx[r, c] % 3, c] = upd[r, c]
            continue
        out.append(op_case("scatter_elements_" + red, "scatter_elements", [data, idx, upd], want,
                           'attrs_type_key="relay.attrs.ScatterElementsAttrs", axis=0, reduction="%s"' % red))
    di2 = ints("scatter_elements_i", (2, 5), dtype="int32")
    ix2 = np.array([[4, 0], [-1, 2]], "int32")
    up2 = ints("scatter_elements_iu", (2, 2), dtype="int32")
    want = di2.copy()
    for r in range(2):
        for c in range(2):
            want[r, ix2[r, c] % 5] = up2[r, c]
    out.append(op_case("scatter_elements_update_axis_neg", "scatter_elements", [di2, ix2, up2], want,
                       'attrs_type_key="relay.attrs.ScatterElementsAttrs", axis=-1, reduction="update"'))
    sd = normal("scatter_nd", (4, 3))
    si = np.array([[0, 2, 0]], "int64")
    su = normal("scatter_nd_u", (3, 3))
    want = sd.copy()
    for q in range(3):
        want[si[0, q]] += su[q]
    out.append(op_case("scatter_nd_add", "scatter_nd", [sd, si, su], want, 'attrs_type_key="relay.attrs.ScatterNDAttrs", mode="add"'))
    si2 = np.array([[1, 3], [2, 0]], "int32")
    su2 = np.array([10, 20], F32)
    want = sd.copy()
    want[1, 2], want[3, 0] = 10, 20
    out.append(op_case("scatter_nd_update", "scatter_nd", [sd, si2, su2], want, 'attrs_type_key="relay.attrs.ScatterNDAttrs", mode="update"'))
    ad = normal("adv_index", (4, 5, 2))
    a1, a2 = np.array([[0], [3]], "int64"), np.array([1, 4, 2], "int64")
    out.append(tuple_case("adv_index_two", "adv_index", [ad, a1, a2], ad[a1, a2]))
    out.append(tuple_case("adv_index_one", "adv_index", [ad, np.array([3, 3, 0], "int32")], ad[[3, 3, 0]]))
    oh = np.array([[0, 2, 5], [-1, 1, 3]], "int32")
    depth = 4
    hot = (oh[..., None] == np.arange(depth)).astype(F32) * 2 - (oh[..., None] != np.arange(depth)) * 0.5
    out.append(op_case("one_hot_last", "one_hot", [oh, np.array(2, F32), np.array(-0.5, F32)], hot.astype(F32),
                       'depth=4, axis=-1, dtype="float32"'))
    hot0 = np.moveaxis((oh[..., None] == np.arange(3)).astype("int32") * 7, -1, 0)
    out.append(op_case("one_hot_axis0_i32", "one_hot", [oh, np.array(7, "int32"), np.array(0, "int32")], hot0,
                       'depth=3, axis=0, dtype="int32"'))
    hot1 = np.moveaxis((oh[..., None] == np.arange(2)), -1, 1)
    out.append(op_case("one_hot_mid_bool", "one_hot", [oh, np.array(True), np.array(False)], hot1, 'depth=2, axis=-2, dtype="bool"'))
    ui = np.array([0, 5, 11, 7], "int64")
    out.append(op_case("unravel_index_vec", "unravel_index", [ui, np.array([3, 4], "int64")], np.array(np.unravel_index(ui, (3, 4)))))
    out.append(op_case("unravel_index_scalar", "unravel_index", [np.array(17, "int32"), np.array([2, 3, 4], "int32")],
                       np.array(np.unravel_index(17, (2, 3, 4)), "int32")))
    aw = normal("argwhere", (3, 4)) > 0.3
    out.append(op_case("argwhere_bool", "argwhere", [aw], np.argwhere(aw).astype("int32")))
    af = np.array([0, 1.5, 0, -2], F32)
    out.append(op_case("argwhere_f32", "argwhere", [af], np.argwhere(af).astype("int32")))
    out.append(op_case("argwhere_none", "argwhere", [np.zeros((2, 2, 2), "int32")], np.zeros((0, 3), "int32")))
    out.append(op_case("argwhere_empty", "argwhere", [np.zeros((0, 3), bool)], np.zeros((0, 2), "int32")))
    # sequence_mask: positions at or past valid_length[b] on the time axis get mask_value.
    sm = normal("sequence_mask", (4, 3, 2))
    vl = np.array([1, 4, 0], "int32")
    want = sm.copy()
    for b in range(3):
        want[vl[b]:, b] = -1
    out.append(op_case("sequence_mask_axis0", "sequence_mask", [sm, vl], want, "mask_value=-1f, axis=0"))
    sm1 = ints("sequence_mask1", (2, 5), dtype="int64")
    vl1 = np.array([2.5, 7], F32)
    want1 = sm1.copy()
    want1[0, 3:] = 0
    out.append(op_case("sequence_mask_axis1_i64", "sequence_mask", [sm1, vl1], want1, "mask_value=0f, axis=1"))
    # reverse_sequence: TOPI reverses the first len entries; len <= 1 keeps the row and a
    # len past the axis reverses all of it.
    rs = normal("reverse_sequence", (3, 5, 2))
    lens = np.array([3, 1, 9], "int64")
    want = rs.copy()
    for b, n in enumerate(lens):
        n = min(n, 5)
        if n > 1:
            want[b, :n] = rs[b, :n][::-1]
    out.append(op_case("reverse_sequence_seq1", "reverse_sequence", [rs, lens], want, "seq_axis=1, batch_axis=0"))
    rt = ints("reverse_sequence_t", (4, 2), dtype="int32")
    lt = np.array([4, 2], "int32")
    want = rt.copy()
    want[:, 0] = rt[::-1, 0]
    want[:2, 1] = rt[1::-1, 1]
    out.append(op_case("reverse_sequence_seq0", "reverse_sequence", [rt, lt], want, "seq_axis=0, batch_axis=-1"))
    return out


def sparse():
    out = []
    idx = np.array([[0, 1], [1, 3], [2, 0]], "int64")
    val = np.array([1.5, -2, 3], F32)
    want = np.full((3, 4), 0.25, F32)
    want[idx[:, 0], idx[:, 1]] = val
    out.append(op_case("sparse_to_dense_2d", "sparse_to_dense", [idx, val, np.array(0.25, F32)], want, "output_shape=[3, 4]"))
    i1 = np.array([4, 0, 2], "int32")
    want1 = np.zeros(6, "int32")
    want1[i1] = 9
    out.append(op_case("sparse_to_dense_scalar_value", "sparse_to_dense", [i1, np.array(9, "int32"), np.array(0, "int32")],
                       want1, "output_shape=[6]"))
    want0 = np.full(3, -1, "int64")
    want0[1] = 5
    out.append(op_case("sparse_to_dense_scalar_index", "sparse_to_dense", [np.array(1, "int64"), np.array(5, "int64"), np.array(-1, "int64")],
                       want0, "output_shape=[3]"))
    # sparse_fill_empty_rows: TensorFlow's semantics (rows sorted); TVM types all results int64.
    si = np.array([[0, 1], [0, 3], [2, 0], [5, 2]], "int64")
    sv = np.array([10, 11, 12, 13], "int64")
    new_i = np.array([[0, 1], [0, 3], [1, 0], [2, 0], [3, 0], [4, 0], [5, 2], [6, 0]], "int64")
    new_v = np.array([10, 11, -1, 12, -1, -1, 13, -1], "int64")
    ind = np.array([0, 1, 0, 1, 1, 0, 1], "int64")
    out.append(op_case("sparse_fill_empty_rows", "sparse_fill_empty_rows",
                       [si, sv, np.array([7, 4], "int64"), np.array(-1, "int64")], [new_i, new_v, ind], tuple=True))
    out.append(op_case("sparse_fill_empty_rows_none", "sparse_fill_empty_rows",
                       [np.zeros((0, 1), "int64"), np.zeros((0,), "int64"), np.array([2], "int64"), np.array(4, "int64")],
                       [np.array([[0], [1]], "int64"), np.array([4, 4], "int64"), np.array([1, 1], "int64")], tuple=True))
    ri = np.array([[0, 0], [0, 5], [1, 2], [2, 4]], "int64")
    prev, new = np.array([3, 6], "int64"), np.array([9, -1], "int64")
    flat = ri[:, 0] * 6 + ri[:, 1]
    out.append(op_case("sparse_reshape_infer", "sparse_reshape", [ri, prev, new],
                       [np.stack([flat // 2, flat % 2], 1), np.array([9, 2], "int64")], tuple=True))
    new3 = np.array([2, 3, 3], "int32")
    ri32, prev32 = ri.astype("int32"), prev.astype("int32")
    out.append(op_case("sparse_reshape_3d_i32", "sparse_reshape", [ri32, prev32, new3],
                       [np.stack([flat // 9, flat // 3 % 3, flat % 3], 1).astype("int32"), new3], tuple=True))
    return out


def unique_ref(data, is_sorted, counts):
    """TOPI's unique: outputs padded to len(data) (values and counts with 0, first indices
    with len(data)); unsorted order is by first occurrence."""
    uniq, first, inverse, cnt = np.unique(data, return_index=True, return_inverse=True, return_counts=True)
    if not is_sorted:
        order = np.argsort(first, kind="stable")
        rank = np.argsort(order)
        uniq, first, cnt, inverse = uniq[order], first[order], cnt[order], rank[inverse]
    n, u = len(data), len(uniq)
    pad = lambda a, v, dt: np.concatenate([a, np.full(n - u, v)]).astype(dt)
    res = [pad(uniq, 0, data.dtype), pad(first, n, "int32"), inverse.astype("int32"), np.array([u], "int32")]
    if counts:
        res.append(pad(cnt, 0, "int32"))
    return res


def scans_and_signals():
    out = []
    x = ints("cumsum", (3, 4), -5, 5)
    out.append(op_case("cumsum_flat", "cumsum", [x], np.cumsum(x).astype("int32"), scan_attrs("axis=None")))
    out.append(op_case("cumsum_axis1_i64", "cumsum", [x], np.cumsum(x, 1).astype("int64"), scan_attrs('axis=1, dtype="int64"')))
    f = normal("cumsum_f", (2, 3, 4))
    ex = np.cumsum(f, 0) - f  # exclusive: the sum of the previous entries
    out.append(op_case("cumsum_exclusive_axis0", "cumsum", [f], ex, scan_attrs("axis=0, exclusive=True"), atol=1e-5))
    out.append(op_case("cumsum_axis_neg_f32", "cumsum", [f], np.cumsum(f, -1), scan_attrs("axis=-1"), atol=1e-5))
    p = (normal("cumprod", (2, 5)) + 2).astype(F32)
    out.append(op_case("cumprod_axis1", "cumprod", [p], np.cumprod(p, 1), scan_attrs("axis=1")))
    pe = np.concatenate([np.ones((2, 1), F32), np.cumprod(p, 1)[:, :-1]], 1)
    out.append(op_case("cumprod_exclusive", "cumprod", [p], pe, scan_attrs("axis=-1, exclusive=True")))
    pi = ints("cumprod_i", (6,), 1, 4)
    out.append(op_case("cumprod_flat_i32", "cumprod", [pi], np.cumprod(pi).astype("int32"), scan_attrs("")))
    out.append(op_case("cumsum_empty", "cumsum", [np.zeros((0, 2), F32)], np.zeros((0, 2), F32), scan_attrs("axis=0")))
    u = np.array([4, 5, 1, 2, 3, 3, 4, 5], "int32")
    ua = lambda s, c: 'attrs_type_key="relay.attrs.UniqueAttrs", sorted=%s, return_counts=%s' % (s, c)
    out.append(op_case("unique_sorted", "unique", [u], unique_ref(u, True, False), ua("True", "False"), tuple=True))
    out.append(op_case("unique_unsorted_counts", "unique", [u], unique_ref(u, False, True), ua("False", "True"), tuple=True))
    uf = np.array([0.5, -1, 0.5, 2, -1], F32)
    out.append(op_case("unique_sorted_counts_f32", "unique", [uf], unique_ref(uf, True, True), ua("True", "True"), tuple=True))
    us = ints("unique_i64", (9,), 0, 4, "int64")
    out.append(op_case("unique_unsorted_i64", "unique", [us], unique_ref(us, False, False), ua("False", "False"), tuple=True))
    t = normal("trilu", (2, 3, 4))
    ta = lambda up: 'attrs_type_key="relay.attrs.TriluAttrs", upper=%s' % up
    out.append(op_case("trilu_upper", "trilu", [t, np.array(0, "int64")], np.triu(t), ta("True")))
    out.append(op_case("trilu_lower_k1", "trilu", [t, np.array(1, "int64")], np.tril(t, 1), ta("False")))
    ti = ints("trilu_i", (4, 3))
    out.append(op_case("trilu_upper_kneg_i32", "trilu", [ti, np.array(-1, "int32")], np.triu(ti, -1), ta("True")))
    m = normal("matrix_set_diag", (2, 3, 4))
    dg = normal("matrix_set_diag_d", (2, 3))
    want = m.copy()
    for b in range(2):
        for i in range(3):
            want[b, i, i] = dg[b, i]
    out.append(op_case("matrix_set_diag_main", "matrix_set_diag", [m, dg], want))
    m2 = normal("msd2", (3, 4))
    for sup, sub in [(True, False), (False, True), (True, True), (False, False)]:
        band = normal("msd_band", (3, 3))  # k1=-1..k2=1, max_len 3
        want = m2.copy()
        for k in (-1, 0, 1):
            length = min(3 + min(k, 0), 4 - max(k, 0))
            right = sup if k >= 0 else sub
            for i in range(3):
                j = i + k
                if 0 <= j < 4:
                    pos = min(i, j) + ((3 - length) if right else 0)
                    want[i, j] = band[1 - k, pos]
        out.append(op_case("matrix_set_diag_band_%d%d" % (sup, sub), "matrix_set_diag", [m2, band], want,
                           "k1=-1, k2=1, super_diag_right_align=%s, sub_diag_right_align=%s" % (sup, sub)))
    d1 = normal("msd_k1", (3,))
    want = m2.copy()
    for i in range(3):
        want[i, i + 1] = d1[i]
    out.append(op_case("matrix_set_diag_k1", "matrix_set_diag", [m2, d1], want, "k1=1, k2=1"))
    fx = ints("fpm", (2, 3, 4), -2000, 2000)
    mult = np.array([1 << 30, 1500000000, -(1 << 29)], "int32")
    ls, rs = np.array([0, 2, 1], "int32"), np.array([1, 0, 3], "int32")

    def fpm(lshift, rshift):
        res = np.zeros_like(fx)
        for idx in np.ndindex(fx.shape):
            c = idx[1]
            v = int(fx[idx]) << (int(ls[c]) if lshift else 0)
            total = 31 + (int(rs[c]) if rshift else 0)
            res[idx] = (v * int(mult[c]) + (1 << (total - 1))) >> total
        return res
    for l, r in [(True, True), (False, True), (True, False)]:
        out.append(op_case("fixed_point_multiply_per_axis_%d%d" % (l, r), "fixed_point_multiply_per_axis",
                           [fx, mult, ls, rs], fpm(l, r),
                           "is_lshift_required=%s, is_rshift_required=%s, axes=[1]" % (l, r)))
    sw = normal("stft", (2, 16))
    win = np.hanning(8).astype(F32)

    def stft_ref(data, window, n_fft, hop, win_len, normalized, onesided):
        data = data if data.ndim == 2 else data[None]
        rows = n_fft // 2 + 1 if onesided else n_fft
        cols = (data.shape[1] - n_fft) // hop + 1
        res = np.zeros((data.shape[0], rows, cols, 2))
        for b in range(data.shape[0]):
            for r in range(rows):
                for c in range(cols):
                    seg = data[b, c * hop:c * hop + win_len].astype("float64") * window[:win_len]
                    ang = 2 * math.pi * r * np.arange(win_len) / win_len
                    res[b, r, c] = [np.sum(seg * np.cos(ang)), -np.sum(seg * np.sin(ang))]
        if normalized:
            res /= math.sqrt(n_fft)
        return res.astype(data.dtype)
    sa = lambda n, h, w, norm, one: ('attrs_type_key="relay.attrs.StftAttrs", n_fft=%d, hop_length=%d, win_length=%d, '
                                     'normalized=%s, onesided=%s' % (n, h, w, norm, one))
    out.append(op_case("stft_onesided", "stft", [sw, win], stft_ref(sw, win, 8, 4, 8, False, True),
                       sa(8, 4, 8, False, True), atol=1e-5))
    out.append(op_case("stft_twosided_normalized", "stft", [sw, win], stft_ref(sw, win, 8, 3, 8, True, False),
                       sa(8, 3, 8, True, False), atol=1e-5))
    s1 = normal("stft_1d", (12,))
    out.append(op_case("stft_1d", "stft", [s1, np.ones(4, F32)], stft_ref(s1, np.ones(4, F32), 4, 2, 4, False, True)[0],
                       sa(4, 2, 4, False, True), atol=1e-5))
    re, im = normal("dft_re", (3, 5)), normal("dft_im", (3, 5))
    z = np.fft.fft(re + 1j * im, axis=-1)
    da = lambda inv: 'attrs_type_key="relay.attrs.DFTAttrs", inverse=%s' % inv
    out.append(op_case("dft_forward", "dft", [re, im], [z.real.astype(F32), z.imag.astype(F32)], da("False"), tuple=True, atol=1e-5))
    zi = np.fft.ifft(re + 1j * im, axis=-1)
    out.append(op_case("dft_inverse", "dft", [re, im], [zi.real.astype(F32), zi.imag.astype(F32)], da("True"), tuple=True, atol=1e-5))
    r64, i64 = normal("dft64_re", (8,), "float64"), normal("dft64_im", (8,), "float64")
    z64 = np.fft.fft(r64 + 1j * i64)
    out.append(op_case("dft_f64", "dft", [r64, i64], [z64.real, z64.imag], da("False"), tuple=True, atol=1e-9))
    return out


def einsums():
    out = []
    a, b = normal("einsum_a", (3, 4)), normal("einsum_b", (4, 5))
    e = lambda eq: 'equation="%s"' % eq
    out.append(tuple_case("einsum_matmul", "einsum", [a, b], np.einsum("ij,jk->ik", a, b), e("ij,jk->ik"), atol=1e-5))
    out.append(tuple_case("einsum_implicit", "einsum", [a, b], np.einsum("ij,jk", a, b), e("ij,jk"), atol=1e-5))
    ba, bb = normal("einsum_ba", (2, 3, 4)), normal("einsum_bb", (2, 4, 2))
    out.append(tuple_case("einsum_batched", "einsum", [ba, bb], np.einsum("bij,bjk->bik", ba, bb), e("bij,bjk->bik"), atol=1e-5))
    out.append(tuple_case("einsum_ellipsis", "einsum", [ba, bb], np.einsum("...ij,...jk->...ik", ba, bb), e("...ij,...jk->...ik"), atol=1e-5))
    out.append(tuple_case("einsum_transpose", "einsum", [a], np.einsum("ij->ji", a), e("ij->ji")))
    sq = normal("einsum_sq", (4, 4))
    out.append(tuple_case("einsum_trace", "einsum", [sq], np.array(np.einsum("ii", sq), F32), e("ii"), atol=1e-5))
    out.append(tuple_case("einsum_diagonal", "einsum", [sq], np.einsum("ii->i", sq), e("ii->i")))
    u, v = normal("einsum_u", (3,)), normal("einsum_v", (5,))
    out.append(tuple_case("einsum_outer", "einsum", [u, v], np.einsum("i,j->ij", u, v), e("i,j->ij")))
    out.append(tuple_case("einsum_sum_all", "einsum", [a], np.array(a.sum(), F32), e("ij->"), atol=1e-5))
    out.append(tuple_case("einsum_sum_rows", "einsum", [ba], np.einsum("bij->bj", ba), e("bij->bj"), atol=1e-5))
    ia, ib = ints("einsum_ia", (2, 3), -5, 5), ints("einsum_ib", (3,), -5, 5)
    out.append(tuple_case("einsum_matvec_i32", "einsum", [ia, ib], np.einsum("ij,j->i", ia, ib).astype("int32"), e("ij,j->i")))
    c = normal("einsum_c", (5, 2))
    out.append(tuple_case("einsum_three", "einsum", [a, b, c], np.einsum("ij,jk,kl->il", a, b, c), e("ij,jk,kl->il"), atol=1e-5))
    return out


def cases():
    return indexing() + sparse() + scans_and_signals() + einsums()
