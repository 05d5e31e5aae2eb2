"""Golden data for the §3.4 reductions.

TVM rules encoded here where numpy differs: max/min start from the dtype's lowest/highest
*finite* value (so an empty max is -FLT_MAX, not an error); integer sums and products
wrap; integer mean is the wrapped sum divided by the count with truncation; argmax/argmin
return the row-major position among the reduced axes (first occurrence on ties, last
with select_last_index); variance is sum((data - mean)^2) / (count or count - 1) with the
mean given as a second input.
"""
import numpy as np

from families.common import op_case, rng

F16 = dict(rtol=2e-3, atol=2e-3)


def data(name, shape, dtype):
    r = rng(name)
    if np.dtype(dtype).kind == "f":
        return r.uniform(-3, 3, shape).astype(dtype)
    if dtype == "bool":
        return r.integers(0, 4, shape) > 0
    lo = 0 if np.dtype(dtype).kind == "u" else -20
    return r.integers(lo, 20, shape).astype(dtype)


def axes_of(ndim, axis, exclude):
    """The reduced axes as TVM's GetReduceAxes computes them."""
    if axis is None or len(axis) == 0:
        return tuple(range(ndim))
    named = sorted(a % ndim for a in axis)
    if exclude:
        return tuple(d for d in range(ndim) if d not in named)
    return tuple(named)


def attrs_text(axis, keepdims, exclude, extra=""):
    parts = []
    if axis is not None:
        parts.append("axis=[%s]" % ", ".join(str(a) for a in axis))
    if keepdims:
        parts.append("keepdims=True")
    if exclude:
        parts.append("exclude=True")
    if extra:
        parts.append(extra)
    return ", ".join(parts)


def seq_reduce(x, axes, keepdims, fn, init):
    """Folds the reduced elements of each output one at a time in row-major order, each
    step rounded to x's dtype: TVM's order and precision (numpy sums pairwise)."""
    kept = [d for d in range(x.ndim) if d not in axes]
    count = int(np.prod([x.shape[d] for d in axes]))
    flat = np.transpose(x, kept + list(axes)).reshape([x.shape[d] for d in kept] + [count])
    acc = np.full(flat.shape[:-1], init, x.dtype)
    for j in range(flat.shape[-1]):
        acc = fn(acc, flat[..., j]).astype(x.dtype)
    if keepdims:
        acc = acc.reshape([1 if d in axes else x.shape[d] for d in range(x.ndim)])
    return acc


def reduce_np(op, x, axes, keepdims):
    if x.dtype.kind == "f" and op in ("sum", "prod", "mean"):
        if op == "prod":
            return seq_reduce(x, axes, keepdims, np.multiply, 1)
        s = seq_reduce(x, axes, keepdims, np.add, 0)
        if op == "sum":
            return s
        count = int(np.prod([x.shape[a] for a in axes])) if axes else 1
        with np.errstate(all="ignore"):
            return (s / x.dtype.type(count)).astype(x.dtype)
    if op in ("max", "min"):
        if x.dtype.kind == "f":
            info = np.finfo(x.dtype)
            init = info.min if op == "max" else info.max
        elif x.dtype == np.bool_:
            init = op == "min"
        else:
            info = np.iinfo(x.dtype)
            init = info.min if op == "max" else info.max
        fn = np.max if op == "max" else np.min
        return fn(x, axis=axes, keepdims=keepdims, initial=init)
    if op == "sum":
        if x.dtype == np.bool_:
            return np.any(x, axis=axes, keepdims=keepdims)
        return np.sum(x, axis=axes, keepdims=keepdims, dtype=x.dtype)
    if op == "prod":
        return np.prod(x, axis=axes, keepdims=keepdims, dtype=x.dtype)
    if op == "all":
        return np.all(x, axis=axes, keepdims=keepdims).astype(x.dtype)
    if op == "any":
        return np.any(x, axis=axes, keepdims=keepdims).astype(x.dtype)
    if op == "mean":
        count = int(np.prod([x.shape[a] for a in axes])) if axes else 1
        if x.dtype.kind in "iu":
            s = np.sum(x, axis=axes, keepdims=keepdims, dtype=x.dtype).astype("int64")
            q = np.abs(s) // count * np.sign(s)
            return q.astype(x.dtype)
        with np.errstate(all="ignore"):
            return (np.sum(x, axis=axes, keepdims=keepdims, dtype=x.dtype) / x.dtype.type(count)).astype(x.dtype)
    raise ValueError(op)


# (shape, axis, keepdims, exclude)
VARIANTS = [
    ((3, 4, 5), None, False, False),
    ((3, 4, 5), [1], False, False),
    ((3, 4, 5), [-1], True, False),
    ((3, 4, 5), [0, 2], False, False),
    ((3, 4, 5), [0], False, True),
    ((3, 4, 5), [2, 0], True, True),
    ((2, 3, 4, 5), [1, 2], True, False),
    ((7,), [0], False, False),
    ((3, 4, 5), [], False, False),
]


def tag(shape, axis, keepdims, exclude):
    t = "x".join(str(d) for d in shape) or "scalar"
    t += "_ax" + ("none" if axis is None else "".join(str(a).replace("-", "m") for a in axis) or "empty")
    if keepdims:
        t += "_keep"
    if exclude:
        t += "_excl"
    return t


def reduce_cases():
    out = []
    for op in ["sum", "max", "min", "mean", "prod", "all", "any"]:
        dtypes = ["bool", "int32"] if op in ("all", "any") else ["float32", "int32"]
        for dt in dtypes:
            for shape, axis, keepdims, exclude in VARIANTS:
                name = "%s_%s_%s" % (op, dt, tag(shape, axis, keepdims, exclude))
                x = data(name, shape, dt)
                if op == "prod" and dt == "float32":
                    x = (x / 3 + np.sign(x) * 0.8).astype(dt)
                axes = axes_of(len(shape), axis, exclude)
                out.append(op_case(name, op, [x], reduce_np(op, x, axes, keepdims),
                                   attrs=attrs_text(axis, keepdims, exclude)))
        extra = {"sum": ["float16", "float64", "int8", "uint8", "int64"], "max": ["float16", "int8", "uint16"],
                 "min": ["float64", "uint8"], "mean": ["float16", "float64", "int64"], "prod": ["int8", "float64"],
                 "all": ["uint8"], "any": ["int64"]}[op]
        for dt in extra:
            name = "%s_%s_ax1" % (op, dt)
            x = data(name, (4, 6), dt)
            tol = F16 if dt == "float16" else {}
            out.append(op_case(name, op, [x], reduce_np(op, x, (1,), False), attrs="axis=[1]", **tol))
        # Empty reductions: the identity (max: lowest finite value; mean: 0/0 = nan).
        x = np.zeros((0, 3), "float32") if op not in ("all", "any") else np.zeros((0, 3), bool)
        with np.errstate(all="ignore"):
            out.append(op_case(op + "_empty_ax0", op, [x], reduce_np(op, x, (0,), False), attrs="axis=[0]"))
        x = np.zeros((2, 0), x.dtype)
        out.append(op_case(op + "_empty_kept", op, [x], reduce_np(op, x, (0,), True), attrs="axis=[0], keepdims=True"))
        x = data(op + "_scalar", (), "float32" if op not in ("all", "any") else "bool")
        out.append(op_case(op + "_scalar", op, [x], reduce_np(op, x, (), False)))
    # Integer sums wrap in the dtype.
    x = np.array([[100, 100, 100], [-128, -1, 0]], "int8")
    out.append(op_case("sum_i8_wrap", "sum", [x], np.sum(x, axis=1, dtype="int8"), attrs="axis=[1]"))
    x = np.array([[7, -8, 3], [-7, -7, 0]], "int32")
    out.append(op_case("mean_i32_trunc", "mean", [x], np.array([0, -4], "int32"), attrs="axis=[1]"))
    return out


def argmax_np(x, axes, keepdims, last, is_max):
    """TOPI's argmax/argmin: position among the reduced axes (row-major), ties by index."""
    ndim = x.ndim
    kept = [d for d in range(ndim) if d not in axes]
    moved = np.transpose(x, kept + list(axes))
    kshape = [x.shape[d] for d in kept]
    flat = moved.reshape(kshape + [int(np.prod([x.shape[d] for d in axes]))])
    if last:
        rev = flat[..., ::-1]
        idx = (np.argmax(rev, axis=-1) if is_max else np.argmin(rev, axis=-1))
        idx = flat.shape[-1] - 1 - idx
    else:
        idx = np.argmax(flat, axis=-1) if is_max else np.argmin(flat, axis=-1)
    idx = idx.astype("int32")
    if keepdims:
        idx = idx.reshape([1 if d in axes else x.shape[d] for d in range(ndim)])
    return idx


def arg_cases():
    out = []
    for op, is_max in [("argmax", True), ("argmin", False)]:
        for shape, axis, keepdims, exclude in VARIANTS[:8]:
            for last in (False, True):
                for dt in ("float32", "int32"):
                    name = "%s_%s_%s%s" % (op, dt, tag(shape, axis, keepdims, exclude), "_last" if last else "")
                    x = data(name, shape, dt)
                    if dt == "int32":
                        x = x % 4  # many ties
                    axes = axes_of(len(shape), axis, exclude)
                    extra = "select_last_index=True" if last else ""
                    out.append(op_case(name, op, [x], argmax_np(x, axes, keepdims, last, is_max),
                                       attrs=attrs_text(axis, keepdims, exclude, extra)))
        for dt in ("float16", "float64", "uint8", "int64"):
            name = "%s_%s" % (op, dt)
            x = data(name, (3, 5), dt)
            out.append(op_case(name, op, [x], argmax_np(x, (1,), False, False, is_max), attrs="axis=[1]"))
        x = np.array([[1.0, np.inf, 2.0], [-np.inf, 0.0, -np.inf]], "float32")
        out.append(op_case(op + "_inf", op, [x], argmax_np(x, (1,), False, False, is_max), attrs="axis=[1]"))
    return out


def variance_cases():
    out = []
    for shape, axis, keepdims, exclude in VARIANTS[:8]:
        for unbiased in (False, True):
            name = "variance_f32_%s%s" % (tag(shape, axis, keepdims, exclude), "_unbiased" if unbiased else "")
            x = data(name, shape, "float32")
            axes = axes_of(len(shape), axis, exclude)
            m = np.mean(x, axis=axes, keepdims=True).astype("float32")
            extra = "unbiased=True" if unbiased else ""
            count = int(np.prod([shape[a] for a in axes])) - (1 if unbiased else 0)
            expected = seq_reduce((x - m) * (x - m), axes, keepdims, np.add, 0) / np.float32(count)
            out.append(op_case(name, "variance", [x, m], expected.astype("float32"),
                               attrs=attrs_text(axis, keepdims, exclude, extra), rtol=1e-5, atol=1e-5))
    x = data("variance_f64", (4, 6), "float64")
    m = np.mean(x, axis=1, keepdims=True)
    out.append(op_case("variance_f64", "variance", [x, m], np.var(x, axis=1), attrs="axis=[1]", rtol=1e-12))
    x = data("variance_f16", (3, 8), "float16")
    m = np.mean(x.astype("float32"), axis=1, keepdims=True).astype("float16")
    exp = seq_reduce((x - m) * (x - m), (1,), False, np.add, 0) / np.float16(8)
    out.append(op_case("variance_f16", "variance", [x, m], exp.astype("float16"), attrs="axis=[1]", **F16))
    # The mean need not be the data's mean: it is whatever the second input holds.
    x = data("variance_given_mean", (2, 5), "float32")
    m = np.array([[0.5], [-1.0]], "float32")
    exp = np.sum((x - m) ** 2, axis=1) / 5
    out.append(op_case("variance_given_mean", "variance", [x, m], exp.astype("float32"), attrs="axis=[1]"))
    # Integer data: squared differences summed in the dtype, truncating division.
    x = np.array([[1, 2, 3, 4], [10, -10, 7, 0]], "int32")
    m = np.array([[2], [1]], "int32")
    s = np.sum((x - m) ** 2, axis=1)
    out.append(op_case("variance_i32", "variance", [x, m], (s // 4).astype("int32"), attrs="axis=[1]"))
    return out


def cases():
    return reduce_cases() + arg_cases() + variance_cases()
