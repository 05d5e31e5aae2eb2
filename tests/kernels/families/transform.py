"""Golden data for §3.5 tensor transforms: casts, constructors, reshaping, joining and
splitting, slicing, layout transforms and broadcasting. Indexing, sparse and signal ops are
in transform_index.py. References follow TVM (TOPI) where it differs from numpy; each such
place says why."""
import numpy as np

from families.common import Case, op_case, program, relay_type, rng

F32 = "float32"


def tuple_case(name, op, inputs, expected, attrs="", n_tuple=None, **kw):
    """`op((%x0, ..., %xk), attrs)`: the first n_tuple inputs (default all) as one tuple."""
    n = len(inputs) if n_tuple is None else n_tuple
    args = "(%s)" % ", ".join("%%x%d" % k for k in range(n))
    if n == 1:
        args = "(%x0,)"
    rest = ["%%x%d" % k for k in range(n, len(inputs))]
    body = "%s(%s)" % (op, ", ".join([args] + rest + ([attrs] if attrs else [])))
    return Case(name, program(inputs, body), list(inputs), expected, **kw)


def nullary_case(name, op, attrs, expected):
    return Case(name, program([], "%s(%s)" % (op, attrs)), [], expected)


def normal(name, shape, dtype=F32):
    return rng(name).standard_normal(shape).astype(dtype)


def ints(name, shape, lo=-50, hi=50, dtype="int32"):
    return rng(name).integers(lo, hi, shape).astype(dtype)


def casts():
    out = []
    x = (normal("cast_f2i", (3, 5)) * 20).astype(F32)
    # TVM's float -> int cast truncates toward zero, like numpy's astype.
    out.append(op_case("cast_f32_i32", "cast", [x], x.astype("int32"), 'dtype="int32"'))
    i = ints("cast_i2h", (2, 7))
    out.append(op_case("cast_i32_f16", "cast", [i], i.astype("float16"), 'dtype="float16"'))
    b = normal("cast_f2b", (4, 3))
    b[0, :] = 0
    out.append(op_case("cast_f32_bool", "cast", [b], b.astype(bool), 'dtype="bool"'))
    w = ints("cast_wrap", (9,), -100000, 100000, "int64")
    # Integer narrowing wraps (two's complement) in TVM as in numpy.
    out.append(op_case("cast_i64_i8_wrap", "cast", [w], w.astype("int8"), 'dtype="int8"'))
    bb = rng("cast_b2f").integers(0, 2, (5,)).astype(bool)
    out.append(op_case("cast_bool_f64", "cast", [bb], bb.astype("float64"), 'dtype="float64"'))
    e = np.zeros((0, 3), F32)
    out.append(op_case("cast_empty", "cast", [e], e.astype("int8"), 'dtype="int8"'))
    r = normal("reinterpret", (2, 3))
    out.append(op_case("reinterpret_f32_i32", "reinterpret", [r], r.view("int32"), 'dtype="int32"'))
    u = ints("reinterpret_u8", (6,), 0, 256, "uint8")
    out.append(op_case("reinterpret_u8_i8", "reinterpret", [u], u.view("int8"), 'dtype="int8"'))
    h = normal("reinterpret_f16", (4,), "float16")
    out.append(op_case("reinterpret_f16_u16", "reinterpret", [h], h.view("uint16"), 'dtype="uint16"'))
    a, like = normal("cast_like", (2, 3)) * 10, np.zeros((1,), "int16")
    out.append(op_case("cast_like_i16", "cast_like", [a, like], a.astype("int16")))
    a2, like2 = ints("cast_like2", (4,)), np.zeros((2, 2), "float64")
    out.append(op_case("cast_like_f64", "cast_like", [a2, like2], a2.astype("float64")))
    return out


def constructors():
    out = []
    f = np.array(2.5, F32)
    out.append(op_case("full_f32", "full", [f], np.full((2, 3), 2.5, F32), 'shape=[2, 3], dtype="float32"'))
    out.append(op_case("full_void_dtype", "full", [f], np.full((4,), 2.5, F32), 'shape=[4], dtype=""'))
    fi = np.array(-7, "int64")
    out.append(op_case("full_i64_to_i8", "full", [fi], np.full((3, 1, 2), -7, "int8"), 'shape=[3, 1, 2], dtype="int8"'))
    out.append(op_case("full_scalar", "full", [f], np.array(2, "int32"), 'shape=[], dtype="int32"'))
    out.append(op_case("full_empty", "full", [f], np.zeros((0, 4), F32), 'shape=[0, 4], dtype="float32"'))
    d = ints("full_like", (2, 5))
    out.append(op_case("full_like_i32", "full_like", [d, np.array(9, "int32")], np.full((2, 5), 9, "int32")))
    dh = normal("full_like_h", (3,), "float16")
    out.append(op_case("full_like_f16", "full_like", [dh, np.array(-1.5, "float16")], np.full((3,), -1.5, "float16")))
    out.append(nullary_case("zeros_f32", "zeros", 'shape=[2, 3], dtype="float32"', np.zeros((2, 3), F32)))
    out.append(nullary_case("zeros_i64_scalar", "zeros", 'shape=[], dtype="int64"', np.zeros((), "int64")))
    out.append(nullary_case("zeros_empty", "zeros", 'shape=[3, 0], dtype="int8"', np.zeros((3, 0), "int8")))
    out.append(nullary_case("ones_f16", "ones", 'shape=[4, 1, 2], dtype="float16"', np.ones((4, 1, 2), "float16")))
    out.append(nullary_case("ones_bool", "ones", 'shape=[3], dtype="bool"', np.ones((3,), bool)))
    out.append(nullary_case("ones_i32", "ones", 'shape=[2, 2], dtype="int32"', np.ones((2, 2), "int32")))
    ar = lambda a, b, s, dt: [np.array(a, dt), np.array(b, dt), np.array(s, dt)]
    out.append(op_case("arange_i32", "arange", ar(0, 10, 3, "int32"), np.arange(0, 10, 3, dtype="int32"),
                       'start=0, stop=10, step=3, dtype="int32"'))
    out.append(op_case("arange_f32", "arange", ar(0.5, 2, 0.5, F32), np.arange(0.5, 2, 0.5, dtype=F32),
                       'start=0.5f, stop=2f, step=0.5f, dtype="float32"'))
    out.append(op_case("arange_f32_negative_step", "arange", ar(5, 0, -1.5, F32),
                       np.array([5, 3.5, 2, 0.5], F32), 'start=5f, stop=0f, step=-1.5f, dtype="float32"'))
    out.append(op_case("arange_i64_negative", "arange", ar(-3, 4, 2, "int64"), np.arange(-3, 4, 2, dtype="int64"),
                       'start=-3, stop=4, step=2, dtype="int64"'))
    return out


def reshapes():
    out = []
    x = normal("reshape", (2, 3, 4))
    for tag, spec, shape in [
            ("flat", "[-1]", (24,)), ("keep0", "[0, -1]", (2, 12)), ("merge", "[-3, 4]", (6, 4)),
            ("split4", "[-4, 1, 2, -2]", (1, 2, 3, 4)), ("split4_infer", "[-4, -1, 1, 3, 4]", (2, 1, 3, 4)),
            ("rest", "[2, -2]", (2, 3, 4)), ("zeros_infer", "[0, 0, -1, 2]", (2, 3, 2, 2)),
            ("plain", "[4, 6]", (4, 6)), ("merge_last", "[0, -3]", (2, 12))]:
        out.append(op_case("reshape_" + tag, "reshape", [x], x.reshape(shape), "newshape=%s" % spec))
    h = normal("reshape_f16", (6,), "float16")
    out.append(op_case("reshape_f16", "reshape", [h], h.reshape(3, 2), "newshape=[3, -1]"))
    e = np.zeros((0, 3), "int32")
    out.append(op_case("reshape_allowzero", "reshape", [e], e.reshape(3, 0), "newshape=[3, 0], allowzero=True"))
    out.append(op_case("reshape_empty_copy0", "reshape", [e], e.reshape(0, 3, 1), "newshape=[0, 0, 1]"))
    i = ints("reshape_i8", (4, 2), dtype="int8")
    out.append(op_case("reshape_to_scalar_like", "reshape", [i[:1, :1].copy()], np.array(i[0, 0]), "newshape=[]"))
    # contrib_reverse_reshape runs the special values right to left.
    r = normal("reverse_reshape", (10, 5, 4))
    out.append(op_case("reverse_reshape_doc", "contrib_reverse_reshape", [r], r.reshape(50, 4), "newshape=[-1, 0]"))
    out.append(op_case("reverse_reshape_keep_last", "contrib_reverse_reshape", [x], x.reshape(3, 8), "newshape=[0, -1]"))
    # Right to left, 0 copies the 5 and -1 takes the rest: (5, 40), where reshape gives (10, 20).
    out.append(op_case("reverse_reshape_middle", "contrib_reverse_reshape", [r], r.reshape(5, 40), "newshape=[0, -1]"))
    like = np.zeros((6, 4), "int8")
    out.append(op_case("reshape_like_all", "reshape_like", [x, like], x.reshape(6, 4)))
    like2 = np.zeros((5, 2, 6), F32)
    out.append(op_case("reshape_like_ranges", "reshape_like", [x, like2], x.reshape(2, 2, 6),
                       "lhs_begin=1, lhs_end=None, rhs_begin=1, rhs_end=None"))
    out.append(op_case("reshape_like_negative", "reshape_like", [x, np.zeros((6, 9), F32)], x.reshape(6, 4),
                       "lhs_begin=0, lhs_end=-1, rhs_begin=0, rhs_end=-1"))
    out.append(op_case("expand_dims_0", "expand_dims", [x], x[None], "axis=0"))
    out.append(op_case("expand_dims_last", "expand_dims", [x], x[..., None], "axis=-1"))
    out.append(op_case("expand_dims_two", "expand_dims", [x], x[:, None, None], "axis=1, num_newaxis=2"))
    out.append(op_case("expand_dims_neg_first", "expand_dims", [x], x[None], "axis=-4"))
    out.append(op_case("expand_dims_zero", "expand_dims", [x], x, "axis=1, num_newaxis=0"))
    out.append(op_case("expand_dims_empty_i8", "expand_dims", [np.zeros((0, 2), "int8")], np.zeros((0, 1, 2), "int8"), "axis=-2"))
    s = normal("squeeze", (1, 3, 1, 2))
    out.append(op_case("squeeze_all", "squeeze", [s], s.reshape(3, 2), "axis=None"))
    out.append(op_case("squeeze_first", "squeeze", [s], s.reshape(3, 1, 2), "axis=[0]"))
    out.append(op_case("squeeze_negative", "squeeze", [s], s.reshape(1, 3, 2), "axis=[-2]"))
    out.append(op_case("squeeze_none_listed", "squeeze", [s], s, "axis=[]"))
    out.append(op_case("squeeze_empty_i64", "squeeze", [np.zeros((0, 1), "int64")], np.zeros((0,), "int64"), "axis=[1]"))
    t = normal("transpose", (2, 3, 4))
    out.append(op_case("transpose_default", "transpose", [t], t.transpose(), "axes=None"))
    out.append(op_case("transpose_102", "transpose", [t], t.transpose(1, 0, 2), "axes=[1, 0, 2]"))
    out.append(op_case("transpose_negative", "transpose", [t], t.transpose(2, 0, 1), "axes=[-1, 0, -2]"))
    ti = ints("transpose_i8", (3, 5), dtype="int8")
    out.append(op_case("transpose_i8", "transpose", [ti], ti.T.copy(), "axes=[1, 0]"))
    te = np.zeros((2, 0, 3), "float16")
    out.append(op_case("transpose_empty", "transpose", [te], te.transpose(2, 1, 0), "axes=[2, 1, 0]"))
    return out


def joins():
    out = []
    a, b, c = normal("cat_a", (2, 3)), normal("cat_b", (1, 3)), normal("cat_c", (4, 3))
    out.append(tuple_case("concatenate_axis0", "concatenate", [a, b, c], np.concatenate([a, b, c]), "axis=0"))
    d, e = ints("cat_d", (2, 3)), ints("cat_e", (2, 5))
    out.append(tuple_case("concatenate_neg_axis_i32", "concatenate", [d, e], np.concatenate([d, e], -1), "axis=-1"))
    z = np.zeros((0, 3), F32)
    out.append(tuple_case("concatenate_with_empty", "concatenate", [a, z, b], np.concatenate([a, z, b]), "axis=0"))
    out.append(tuple_case("concatenate_single", "concatenate", [a], a.copy(), "axis=1"))
    p, q = normal("stack_p", (2, 3), "float16"), normal("stack_q", (2, 3), "float16")
    out.append(tuple_case("stack_axis0", "stack", [p, q], np.stack([p, q]), "axis=0"))
    out.append(tuple_case("stack_axis_last", "stack", [p, q], np.stack([p, q], -1), "axis=-1"))
    out.append(tuple_case("stack_axis1_i32", "stack", [d, d + 1, d + 2], np.stack([d, d + 1, d + 2], 1), "axis=1"))
    x = normal("split", (4, 6))
    out.append(op_case("split_sections", "split", [x], np.split(x, 3, axis=1), "indices_or_sections=3, axis=1", tuple=True))
    out.append(op_case("split_indices_neg_axis", "split", [x], np.split(x, [1, 4], axis=-1),
                       "indices_or_sections=[1, 4], axis=-1", tuple=True))
    out.append(op_case("split_one_index", "split", [x], np.split(x, [3], axis=0), "indices_or_sections=[3]", tuple=True))
    out.append(op_case("split_one_section", "split", [x], [x.copy()], "indices_or_sections=1", tuple=True))
    xi = ints("split_i64", (6,), dtype="int64")
    out.append(op_case("split_i64_three", "split", [xi], np.split(xi, [2, 5]), "indices_or_sections=[2, 5]", tuple=True))
    out.append(op_case("split_empty", "split", [np.zeros((0, 4), F32)], np.split(np.zeros((0, 4), F32), 2, axis=1),
                       "indices_or_sections=2, axis=1", tuple=True))
    u, v = np.arange(3, dtype=F32), np.arange(4, dtype=F32) * 10
    out.append(tuple_case("meshgrid_ij", "meshgrid", [u, v], np.meshgrid(u, v, indexing="ij"), 'indexing="ij"', tuple=True))
    out.append(tuple_case("meshgrid_xy", "meshgrid", [u, v], np.meshgrid(u, v, indexing="xy"), 'indexing="xy"', tuple=True))
    w, s = np.arange(2, dtype="int32"), np.array(7, "int32")
    g = np.meshgrid(w, np.arange(3, dtype="int32"), s, indexing="xy")
    out.append(tuple_case("meshgrid_xy_three_scalar", "meshgrid", [w, np.arange(3, dtype="int32"), s],
                          [a.astype("int32") for a in g], 'indexing="xy"', tuple=True))
    return out


def slices():
    out = []
    x = normal("strided_slice", (4, 5))
    cases = [
        ("first_axis", "begin=[1], end=[3], strides=[1], axes=None", x[1:3]),
        ("negative_stride", "begin=[3], end=[0], strides=[-1], axes=None", x[3:0:-1]),
        ("negative_indices", "begin=[-1], end=[-5], strides=[-1], axes=None", x[-1:-5:-1]),
        ("stride2", "begin=[0, 1], end=[4, 5], strides=[2, 2], axes=None", x[0:4:2, 1:5:2]),
        ("axes", "begin=[1], end=[4], strides=[2], axes=[1]", x[:, 1:4:2]),
        ("axes_negative", "begin=[-2], end=[100], strides=[1], axes=[-1]", x[:, -2:]),
        ("size_mode", 'begin=[1, 0], end=[2, -1], strides=[1, 1], slice_mode="size", axes=None', x[1:3, :]),
        ("size_mode_axes", 'begin=[2], end=[2], strides=[5], slice_mode="size", axes=[1]', x[:, 2:4]),
        ("end_clamped", "begin=[0, -100], end=[100, 3], strides=[1, 1], axes=None", x[:, :3]),
        # With fewer begins than strides, TVM pads a negative-stride axis with begin = the
        # last index and end = 0, so index 0 is not included (unlike numpy's x[:, ::-1]).
        ("padded_negative", "begin=[0], end=[4], strides=[1, -1], axes=None", x[0:4, 4:0:-1]),
        ("empty_result", "begin=[2], end=[2], strides=[1], axes=None", x[2:2]),
    ]
    for tag, attrs, want in cases:
        out.append(op_case("strided_slice_" + tag, "strided_slice", [x], want, attrs))
    y = ints("strided_slice_i8", (3, 4, 5), dtype="int8")
    out.append(op_case("strided_slice_3d_i8", "strided_slice", [y], y[2:0:-1, ::3, 1:4],
                       "begin=[2, 0, 1], end=[0, 4, 4], strides=[-1, 3, 1], axes=None"))
    h = normal("strided_slice_f16", (6,), "float16")
    out.append(op_case("strided_slice_f16", "strided_slice", [h], h[5::-2], "begin=[5], end=[-7], strides=[-2], axes=None"))
    d, v = normal("strided_set", (4, 5)), normal("strided_set_v", (2, 5))
    want = d.copy()
    want[1:3] = v
    i64 = lambda *a: np.array(a, "int64")
    out.append(op_case("strided_set_rows", "strided_set", [d, v, i64(1), i64(3), i64(1)], want))
    v2 = normal("strided_set_v2", (2, 2))
    want2 = d.copy()
    want2[3:0:-2, 0:4:2] = v2
    out.append(op_case("strided_set_strides", "strided_set", [d, v2, i64(3, 0), i64(0, 4), i64(-2, 2)], want2))
    sl = normal("slice_like", (4, 5, 6))
    out.append(op_case("slice_like_default", "slice_like", [sl, np.zeros((2, 3), "int8")], sl[:2, :3], "axes=None"))
    out.append(op_case("slice_like_axes", "slice_like", [sl, np.zeros((1, 1, 4), F32)], sl[:, :, :4], "axes=[-1]"))
    out.append(op_case("slice_like_two_axes", "slice_like", [sl, np.zeros((3, 2, 1), F32)], sl[:3, :, :1], "axes=[0, 2]"))
    sw = np.arange(12, dtype=F32).reshape(2, 6)
    want = np.stack([sw[:, i:i + 3] for i in (0, 2)], 1)
    out.append(op_case("sliding_window_1d", "sliding_window", [sw], want, "axis=1, window_shape=[3], strides=[2]"))
    sw2 = ints("sliding_window2", (5, 4))
    want2 = np.array([[sw2[i:i + 2, j:j + 2] for j in (0, 2)] for i in range(4)])
    out.append(op_case("sliding_window_2d_i32", "sliding_window", [sw2], want2, "axis=0, window_shape=[2, 2], strides=[1, 2]"))
    sw3 = normal("sliding_window3", (2, 3, 4))
    # Windows along both dims: (3-2)+1 = 2 and (4-4)+1 = 1 of them.
    want3 = np.array([[sw3[b, i:i + 2] for i in range(2)] for b in range(2)])[:, :, None]
    out.append(op_case("sliding_window_batch", "sliding_window", [sw3], want3, "axis=1, window_shape=[2, 4], strides=[1, 1]"))
    return out


def layouts():
    out = []
    x = normal("layout", (1, 8, 2, 3))
    out.append(op_case("layout_nchw_nhwc", "layout_transform", [x], x.transpose(0, 2, 3, 1),
                       'src_layout="NCHW", dst_layout="NHWC"'))
    nchw4c = x.reshape(1, 2, 4, 2, 3).transpose(0, 1, 3, 4, 2)
    out.append(op_case("layout_nchw_nchw4c", "layout_transform", [x], nchw4c, 'src_layout="NCHW", dst_layout="NCHW4c"'))
    out.append(op_case("layout_nchw4c_nchw", "layout_transform", [nchw4c.copy()], x, 'src_layout="NCHW4c", dst_layout="NCHW"'))
    nhwc = x.transpose(0, 2, 3, 1)
    to_nchw2c = nhwc.reshape(1, 2, 3, 4, 2).transpose(0, 3, 1, 2, 4)
    out.append(op_case("layout_nhwc_nchw2c", "layout_transform", [nhwc.copy()], to_nchw2c,
                       'src_layout="NHWC", dst_layout="NCHW2c"'))
    out.append(op_case("layout_nchw4c_nchw2c", "layout_transform", [nchw4c.copy()],
                       x.reshape(1, 4, 2, 2, 3).transpose(0, 1, 3, 4, 2), 'src_layout="NCHW4c", dst_layout="NCHW2c"'))
    xi = ints("layout_i8", (2, 6, 1), dtype="int8")
    # C=6 into blocks of 4: TVM's shape is floor(6/4)=1 block, so channels 4 and 5 are dropped.
    out.append(op_case("layout_nonmultiple_i8", "layout_transform", [xi], xi[:, :4].reshape(2, 1, 4, 1).transpose(0, 1, 3, 2),
                       'src_layout="NCW", dst_layout="NCW4c"'))
    a = normal("auto_layout", (4, 6))
    # Source axis n is the mixed-radix number of the destination's n axes (2 x 2).
    out.append(op_case("auto_scheduler_layout", "auto_scheduler_layout_transform", [a],
                       a.reshape(2, 2, 6).transpose(0, 2, 1), 'src_layout="4n6c", dst_layout="2n6c2n"'))
    out.append(op_case("auto_scheduler_layout_split_both", "auto_scheduler_layout_transform", [a],
                       a.reshape(2, 2, 3, 2).transpose(2, 0, 3, 1), 'src_layout="4n6c", dst_layout="3c2n2c2n"'))
    return out


def broadcasts():
    out = []
    x = normal("broadcast_to", (3, 1))
    out.append(op_case("broadcast_to_2d", "broadcast_to", [x], np.broadcast_to(x, (2, 3, 4)).copy(), "shape=[2, 3, 4]"))
    xi = ints("broadcast_to_i", (4,), dtype="int64")
    out.append(op_case("broadcast_to_i64", "broadcast_to", [xi], np.broadcast_to(xi, (3, 4)).copy(), "shape=[3, 4]"))
    out.append(op_case("broadcast_to_empty", "broadcast_to", [x], np.zeros((0, 3, 5), F32), "shape=[0, 3, 5]"))
    out.append(op_case("broadcast_to_like", "broadcast_to_like", [x, np.zeros((3, 6), F32)], np.broadcast_to(x, (3, 6)).copy()))
    s = normal("collapse_sum", (2, 3, 4))
    out.append(op_case("collapse_sum_like", "collapse_sum_like", [s, np.zeros((3, 1), F32)], s.sum(0).sum(-1, keepdims=True)))
    out.append(op_case("collapse_sum_like_leading", "collapse_sum_like", [s, np.zeros((4,), F32)], s.sum((0, 1)), rtol=1e-5, atol=1e-5))
    si = ints("collapse_sum_i", (5, 2), dtype="int32")
    out.append(op_case("collapse_sum_like_i32", "collapse_sum_like", [si, np.zeros((1, 2), "int32")], si.sum(0, keepdims=True).astype("int32")))
    out.append(op_case("collapse_sum_to", "collapse_sum_to", [s, np.array([1, 4], "int64")], s.sum((0, 1)).reshape(1, 4),
                       'attrs_type_key="relay.attrs.InitOpAttrs", shape=[1, 4]', atol=1e-5))
    out.append(op_case("collapse_sum_to_scalar", "collapse_sum_to", [s, np.zeros((0,), "int64")], np.array(s.sum(), F32),
                       'attrs_type_key="relay.attrs.InitOpAttrs", shape=[]', atol=1e-4))
    t = normal("tile", (2, 3))
    out.append(op_case("tile_same_rank", "tile", [t], np.tile(t, (2, 3)), "reps=[2, 3]"))
    out.append(op_case("tile_longer_reps", "tile", [t], np.tile(t, (2, 1, 2)), "reps=[2, 1, 2]"))
    ti = ints("tile_i", (2, 1, 3), dtype="int16")
    out.append(op_case("tile_shorter_reps_i16", "tile", [ti], np.tile(ti, (3,)), "reps=[3]"))
    out.append(op_case("tile_empty", "tile", [np.zeros((0, 3), F32)], np.zeros((0, 6), F32), "reps=[2, 2]"))
    r = normal("repeat", (2, 3))
    out.append(op_case("repeat_axis0", "repeat", [r], np.repeat(r, 2, 0), "repeats=2, axis=0"))
    out.append(op_case("repeat_axis_neg", "repeat", [r], np.repeat(r, 3, -1), "repeats=3, axis=-1"))
    ri = ints("repeat_i", (3,), dtype="uint8", lo=0, hi=200)
    out.append(op_case("repeat_u8_once", "repeat", [ri], ri.copy(), "repeats=1, axis=0"))
    out.append(op_case("repeat_empty", "repeat", [np.zeros((0, 2), F32)], np.zeros((0, 2), F32), "repeats=2, axis=0"))
    v = normal("reverse", (3, 4))
    out.append(op_case("reverse_axis0", "reverse", [v], v[::-1].copy(), "axis=0"))
    out.append(op_case("reverse_axis_neg", "reverse", [v], v[:, ::-1].copy(), "axis=-1"))
    vi = ints("reverse_i", (2, 2, 3), dtype="int64")
    out.append(op_case("reverse_i64_mid", "reverse", [vi], vi[:, ::-1].copy(), "axis=1"))
    c = normal("where_c", (3, 1)) > 0
    wx, wy = normal("where_x", (1, 4)), normal("where_y", (3, 4))
    out.append(op_case("where_broadcast", "where", [c, wx, wy], np.where(c, wx, wy)))
    ci = ints("where_ci", (5,), 0, 2)
    ix, iy = ints("where_ix", (5,)), ints("where_iy", ())
    out.append(op_case("where_int_cond", "where", [ci, ix, iy], np.where(ci != 0, ix, iy).astype("int32")))
    hx = normal("where_h", (2, 3), "float16")
    out.append(op_case("where_scalar_cond_f16", "where", [np.array(False), hx, hx * 2], (hx * 2).astype("float16")))
    return out


def cases():
    return casts() + constructors() + reshapes() + joins() + slices() + layouts() + broadcasts()
