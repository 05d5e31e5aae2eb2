"""Golden data for the dyn.* operators (reference §3.9): the static operator's numpy
definition, with the attributes that the dyn form takes as tensors passed as int64 (or
float) inputs. Programs are written the way TVM prints these calls: the attribute a tensor
replaces is printed `None` (or `0f` for a double, its zero-initialised value)."""
import numpy as np

from families.common import Case, op_case, relay_type, rng


def f32(name, shape):
    return rng(name).uniform(-3, 3, shape).astype("float32")


def i64(v):
    return np.array(v, dtype="int64")


def case(name, op, inputs, expected, attrs="", **kw):
    return op_case(name, op, inputs, expected, attrs=attrs, **kw)


def nearest_repeat(x, axes_scales):
    for axis, s in axes_scales:
        x = np.repeat(x, s, axis=axis)
    return x


def cases():
    out = []
    x = f32("reshape", (2, 3, 4))
    out.append(case("reshape_infer", "dyn.reshape", [x, i64([4, -1])], x.reshape(4, 6), "newshape=None"))
    out.append(case("reshape_copy_dim", "dyn.reshape", [x, i64([0, -1])], x.reshape(2, 12), "newshape=None"))
    out.append(case("reshape_flat", "dyn.reshape", [x, i64([24])], x.reshape(24), "newshape=None"))
    b = f32("broadcast", (3, 1))
    out.append(case("broadcast_to", "dyn.broadcast_to", [b, i64([2, 3, 4])], np.broadcast_to(b, (2, 3, 4)),
                    "shape=None"))
    out.append(case("zeros", "dyn.zeros", [i64([2, 3])], np.zeros((2, 3), "float32"), 'shape=None, dtype="float32"'))
    out.append(case("ones_int32", "dyn.ones", [i64([4])], np.ones((4,), "int32"), 'shape=None, dtype="int32"'))
    out.append(case("zeros_empty", "dyn.zeros", [i64([0, 3])], np.zeros((0, 3), "float32"),
                    'shape=None, dtype="float32"'))
    fill = np.array(2.5, "float32")
    out.append(case("full", "dyn.full", [fill, i64([3, 2])], np.full((3, 2), 2.5, "float32"),
                    'shape=None, dtype="float32"'))
    e = f32("expand", (2, 3))
    out.append(case("expand_dims", "dyn.expand_dims", [e, i64(1)], e.reshape(2, 1, 3)))
    out.append(case("expand_dims_neg", "dyn.expand_dims", [e, i64(-1)], e.reshape(2, 3, 1)))
    s = f32("squeeze", (1, 3, 1, 2))
    out.append(case("squeeze", "dyn.squeeze", [s, i64([0, 2])], s.reshape(3, 2), "axis=None"))
    t = f32("tile", (2, 3))
    out.append(case("tile", "dyn.tile", [t, i64([2, 1, 2])], np.tile(t, (2, 1, 2)), "reps=None"))
    out.append(case("tile_short", "dyn.tile", [t, i64([3])], np.tile(t, (3,)), "reps=None"))
    v = f32("slice", (4, 5, 6))
    out.append(case("strided_slice", "dyn.strided_slice", [v, i64([1, 0]), i64([4, 5]), i64([2, 2])],
                    v[1:4:2, 0:5:2], "begin=None, end=None, strides=None, axes=None"))
    out.append(case("strided_slice_reverse", "dyn.strided_slice", [v, i64([3]), i64([0]), i64([-1])], v[3:0:-1],
                    "begin=None, end=None, strides=None, axes=None"))
    idx = np.array([[0, 2, 3], [1, -1, 4]], "int32")
    depth = 4
    oh = np.zeros((2, 3, depth), "float32")
    for i in range(2):
        for j in range(3):
            if 0 <= idx[i, j] < depth:
                oh[i, j, idx[i, j]] = 1.0
    out.append(case("one_hot", "dyn.one_hot", [idx, np.array(1.0, "float32"), np.array(0.0, "float32"), i64(depth)],
                    oh, 'depth=1, axis=-1, dtype="float32"'))
    out.append(case("one_hot_axis0", "dyn.one_hot", [idx, np.array(1.0, "float32"), np.array(0.0, "float32"),
                                                      i64(depth)], np.moveaxis(oh, -1, 0), 'depth=1, axis=0, dtype="float32"'))
    k = f32("topk", (3, 6))
    order = np.argsort(-k, axis=-1, kind="stable")[:, :2]
    out.append(case("topk_both", "dyn.topk", [k, i64([2])],
                    [np.take_along_axis(k, order, -1), order.astype("int32")],
                    'k=None, axis=-1, ret_type="both", is_ascend=False, dtype="int32"', tuple=True))
    out.append(case("topk_values_scalar_k", "dyn.topk", [k, i64(3)],
                    np.take_along_axis(k, np.argsort(-k, axis=-1, kind="stable")[:, :3], -1),
                    'k=None, axis=-1, ret_type="values", is_ascend=False, dtype="int32"'))
    p = f32("pad", (2, 3))
    out.append(case("pad", "dyn.nn.pad", [p, i64([[1, 0], [2, 1]]), np.array(0.5, "float32")],
                    np.pad(p, ((1, 0), (2, 1)), constant_values=0.5), "pad_width=None"))
    u = f32("upsampling", (1, 2, 3, 4))
    out.append(case("upsampling_nearest", "dyn.nn.upsampling", [u, np.array(2.0, "float64"), np.array(3.0, "float64")],
                    nearest_repeat(u, [(2, 2), (3, 3)]),
                    'scale_h=0f, scale_w=0f, layout="NCHW", method="nearest_neighbor", align_corners=False'))
    u3 = f32("upsampling3d", (1, 1, 2, 2, 3))
    out.append(case("upsampling3d_nearest", "dyn.nn.upsampling3d",
                    [u3, np.array(2.0, "float64"), np.array(1.0, "float64"), np.array(2.0, "float64")],
                    nearest_repeat(u3, [(2, 2), (4, 2)]),
                    'scale_d=0f, scale_h=0f, scale_w=0f, layout="NCDHW", method="nearest_neighbor", '
                    'coordinate_transformation_mode="asymmetric"'))
    si = np.array([[0, 1], [2, 3], [1, 0]], "int32")
    sv = np.array([1.5, -2.0, 3.0], "float32")
    dense = np.full((3, 4), 0.25, "float32")
    for (r, c), val in zip(si, sv):
        dense[r, c] = val
    out.append(case("sparse_to_dense", "dyn.sparse_to_dense", [si, sv, np.array(0.25, "float32"), i64([3, 4])], dense))
    img = f32("resize", (1, 1, 2, 3))
    out.append(case("resize2d_nearest", "dyn.image.resize2d", [img, i64([4, 6]), np.zeros(4, "float32")],
                    nearest_repeat(img, [(2, 2), (3, 2)]),
                    'size=None, roi=None, layout="NCHW", method="nearest_neighbor", '
                    'coordinate_transformation_mode="asymmetric", rounding_method="floor", cubic_alpha=-0.5f, '
                    'cubic_exclude=0, extrapolation_value=0f, out_dtype=""'))
    return out
