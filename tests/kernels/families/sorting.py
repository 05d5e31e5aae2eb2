"""Golden data for the §3.6 sorting and search operators.

TVM sorts rows with std::stable_sort on (index, value) pairs in both directions, so
ties keep their original order even when sorting descending (numpy's argsort of the
negated keys with kind="stable" gives the same); topk keeps the first k of that order.
searchsorted is a lower bound (upper bound with right=True) per value.
"""
import numpy as np

from families.common import op_case, rng


def data(name, shape, dtype, ties=False):
    r = rng(name)
    if np.dtype(dtype).kind == "f":
        x = r.uniform(-5, 5, shape)
        if ties:
            x = np.round(x)
        return x.astype(dtype)
    lo = 0 if np.dtype(dtype).kind == "u" else -5
    return r.integers(lo, 6 if ties else 100, shape).astype(dtype)


def stable_order(x, axis, ascend):
    keys = x.astype("float64") if x.dtype.kind != "f" else x.astype("float64")
    if not ascend:
        keys = -keys
    return np.argsort(keys, axis=axis, kind="stable")


# (shape, axis)
LAYOUTS = [((7,), -1), ((3, 6), -1), ((3, 6), 0), ((2, 5, 3), 1), ((2, 3, 4), -3)]


def layout_tag(shape, axis):
    return "x".join(str(d) for d in shape) + "_ax" + str(axis).replace("-", "m")


def cases():
    out = []
    for op in ("sort", "argsort"):
        for shape, axis in LAYOUTS:
            for ascend in (True, False):
                for dt, ties in (("float32", False), ("int32", True), ("float32", True)):
                    name = "%s_%s%s_%s_%s" % (op, dt, "_ties" if ties else "", layout_tag(shape, axis),
                                              "asc" if ascend else "desc")
                    x = data(name, shape, dt, ties)
                    order = stable_order(x, axis, ascend)
                    attrs = "axis=%d, is_ascend=%s" % (axis, ascend)
                    if op == "sort":
                        out.append(op_case(name, op, [x], np.take_along_axis(x, order, axis), attrs=attrs))
                    else:
                        out.append(op_case(name, op, [x], order.astype("int32"), attrs=attrs + ', dtype="int32"'))
        for dt in ("float16", "float64", "uint8", "int64", "int8"):
            name = "%s_%s" % (op, dt)
            x = data(name, (3, 5), dt, ties=True)
            order = stable_order(x, -1, True)
            if op == "sort":
                out.append(op_case(name, op, [x], np.take_along_axis(x, order, -1)))
            else:
                out.append(op_case(name, op, [x], order.astype("int64"), attrs='dtype="int64"'))
        x = np.zeros((0, 4), "float32")
        if op == "sort":
            out.append(op_case(op + "_empty", op, [x], x.copy(), attrs="axis=0"))
        else:
            out.append(op_case(op + "_empty", op, [x], np.zeros((0, 4), "int32"), attrs='axis=0, dtype="int32"'))
    # argsort may return its indices as floats.
    x = data("argsort_f32_idx", (2, 4), "float32")
    out.append(op_case("argsort_float_indices", "argsort", [x], stable_order(x, -1, True).astype("float32"),
                       attrs='dtype="float32"'))

    for shape, axis in LAYOUTS:
        for k in (1, 2, 0):
            for ascend in (False, True):
                for dt, ties in (("float32", False), ("int32", True)):
                    name = "topk_%s_%s_k%d_%s" % (dt, layout_tag(shape, axis), k, "asc" if ascend else "desc")
                    x = data(name, shape, dt, ties)
                    order = stable_order(x, axis, ascend)
                    kk = k if k >= 1 else shape[axis]
                    idx = np.take(order, np.arange(kk), axis=axis)
                    vals = np.take_along_axis(x, idx, axis)
                    attrs = "k=%d, axis=%d, is_ascend=%s, dtype=\"int32\"" % (k, axis, ascend)
                    out.append(op_case(name, "topk", [x], [vals, idx.astype("int32")], attrs=attrs, tuple=True))
    x = data("topk_ret", (4, 6), "float32")
    order = stable_order(x, -1, False)[:, :3]
    out.append(op_case("topk_values", "topk", [x], np.take_along_axis(x, order, -1),
                       attrs='k=3, ret_type="values"'))
    out.append(op_case("topk_indices", "topk", [x], order.astype("int64"),
                       attrs='k=3, ret_type="indices", dtype="int64"'))
    x = data("topk_f16", (3, 5), "float16", ties=True)
    order = stable_order(x, -1, False)[:, :2]
    out.append(op_case("topk_f16", "topk", [x], [np.take_along_axis(x, order, -1), order.astype("int32")],
                       attrs='k=2, dtype="int32"', tuple=True))
    x = np.zeros((0, 5), "float32")
    out.append(op_case("topk_empty", "topk", [x], [np.zeros((0, 2), "float32"), np.zeros((0, 2), "int32")],
                       attrs='k=2, dtype="int32"', tuple=True))

    # searchsorted: a shared 1-D sequence, and one row per leading index.
    for dt in ("float32", "int32", "float64", "int64"):
        for right in (False, True):
            side = "right" if right else "left"
            name = "searchsorted_1d_%s_%s" % (dt, side)
            seq = np.sort(data(name + "s", (9,), dt, ties=True))
            vals = data(name + "v", (3, 4), dt, ties=True)
            vals.flat[0] = seq[0]
            vals.flat[1] = seq[-1]
            exp = np.searchsorted(seq, vals, side=side).astype("int32")
            attrs = "right=%s" % right
            out.append(op_case(name, "searchsorted", [seq, vals], exp, attrs=attrs))
            name = "searchsorted_nd_%s_%s" % (dt, side)
            seq = np.sort(data(name + "s", (2, 3, 6), dt, ties=True), axis=-1)
            vals = data(name + "v", (2, 3, 5), dt, ties=True)
            exp = np.zeros(vals.shape, "int64")
            for i in np.ndindex(vals.shape[:-1]):
                exp[i] = np.searchsorted(seq[i], vals[i], side=side)
            out.append(op_case(name, "searchsorted", [seq, vals], exp.astype("int64"),
                               attrs=attrs + ', dtype="int64"'))
    seq = np.array([1.0, 2.0, 3.0], "float32")
    vals = np.array([0.5, 4.0], "float32")
    out.append(op_case("searchsorted_out_of_range", "searchsorted", [seq, vals], np.array([0, 3], "int32")))
    vals = np.zeros((2, 0), "float32")
    out.append(op_case("searchsorted_empty_values", "searchsorted", [seq, vals], np.zeros((2, 0), "int32")))
    seq = np.zeros((0,), "float32")
    vals = np.array([1.0, -1.0], "float32")
    out.append(op_case("searchsorted_empty_sequence", "searchsorted", [seq, vals], np.zeros((2,), "int32")))
    return out
