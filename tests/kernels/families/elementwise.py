"""Golden data for §3.2 elementwise and §3.3 broadcast operators.

Where TVM 0.14 differs from numpy the expected values are computed with TVM's rule
(reference §8 and the TOPI computes): `round` rounds halves away from zero; `maximum` /
`minimum` are selects (a > b ? a : b), so NaN only wins as the second operand;
`not_equal` is ordered (False when either side is NaN); `sign(nan)` is 0; integer
`divide`/`mod` truncate toward zero; float floor/trunc division and modulo are
a - floor(a / b) * b evaluated step by step in the dtype.
"""
import numpy as np

from families.common import op_case, rng

F16 = dict(rtol=2e-3, atol=2e-3)


def uniform(name, shape, lo, hi, dtype):
    return rng(name).uniform(lo, hi, shape).astype(dtype)


def ints(name, shape, lo, hi, dtype="int32"):
    return rng(name).integers(lo, hi, shape).astype(dtype)


def f32(name, shape):
    return rng(name).standard_normal(shape).astype("float32")


def round_half_away(x):
    w = x.astype("float64")
    return np.where(w >= 0, np.floor(w + 0.5), np.ceil(w - 0.5)).astype(x.dtype)


def sign_tvm(x):
    one = np.ones_like(x)
    return np.where(x > 0, one, np.where(x < 0, -one, np.zeros_like(x))).astype(x.dtype)


# name -> (numpy function, input range)
FLOAT_UNARY = {
    "acos": (np.arccos, (-0.95, 0.95)),
    "acosh": (np.arccosh, (1.05, 5.0)),
    "asin": (np.arcsin, (-0.95, 0.95)),
    "asinh": (np.arcsinh, (-3.0, 3.0)),
    "atan": (np.arctan, (-4.0, 4.0)),
    "atanh": (np.arctanh, (-0.9, 0.9)),
    "cos": (np.cos, (-4.0, 4.0)),
    "cosh": (np.cosh, (-4.0, 4.0)),
    "erf": (None, (-3.0, 3.0)),
    "exp": (np.exp, (-5.0, 5.0)),
    "log": (np.log, (0.05, 10.0)),
    "log10": (np.log10, (0.05, 10.0)),
    "log2": (np.log2, (0.05, 10.0)),
    "rsqrt": (lambda x: 1 / np.sqrt(x), (0.05, 10.0)),
    "sigmoid": (lambda x: 1 / (1 + np.exp(-x)), (-6.0, 6.0)),
    "sin": (np.sin, (-4.0, 4.0)),
    "sinh": (np.sinh, (-4.0, 4.0)),
    "sqrt": (np.sqrt, (0.0, 10.0)),
    "tan": (np.tan, (-1.4, 1.4)),
    "tanh": (np.tanh, (-4.0, 4.0)),
}


def erf(x):
    # numpy has no erf: math.erf per element, in float64.
    import math
    return np.vectorize(math.erf, otypes=["float64"])(x.astype("float64")) if x.size else x.astype("float64")


def float_unary(op, fn, x):
    if fn is None:
        fn = erf
    return fn(x.astype("float64")).astype(x.dtype)


def unary_cases():
    out = []
    for op, (fn, (lo, hi)) in FLOAT_UNARY.items():
        x = uniform(op + "_f32", (3, 5), lo, hi, "float32")
        out.append(op_case(op + "_f32", op, [x], float_unary(op, fn, x)))
        x = uniform(op + "_f64", (7,), lo, hi, "float64")
        out.append(op_case(op + "_f64", op, [x], float_unary(op, fn, x), rtol=1e-12, atol=1e-12))
        x = uniform(op + "_f16", (2, 3), lo, hi, "float16")
        out.append(op_case(op + "_f16", op, [x], float_unary(op, fn, x), **F16))
    for op in ["exp", "sqrt", "tanh"]:
        x = np.zeros((0, 4), "float32")
        out.append(op_case(op + "_empty", op, [x], x.copy()))
    x = np.float32(0.75).reshape(())
    out.append(op_case("exp_scalar", "exp", [x], np.exp(x)))
    # TVM's fast_* approximations agree with the exact functions to float32 precision.
    for op, fn in [("fast_exp", np.exp), ("fast_tanh", np.tanh), ("fast_erf", None)]:
        x = uniform(op, (4, 6), -4.0, 4.0, "float32")
        out.append(op_case(op + "_f32", op, [x], float_unary(op, fn, x), rtol=1e-5, atol=1e-6))

    halves = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -0.49, 0.51, 3.7, -3.7, 0.0, 7.5], "float32")
    for op, fn in [("ceil", np.ceil), ("floor", np.floor), ("trunc", np.trunc), ("round", round_half_away)]:
        out.append(op_case(op + "_halves", op, [halves], fn(halves)))
        x = uniform(op + "_f64", (2, 5), -10, 10, "float64")
        out.append(op_case(op + "_f64", op, [x], fn(x)))
        x = uniform(op + "_f16", (3, 3), -10, 10, "float16")
        out.append(op_case(op + "_f16", op, [x], fn(x), **F16))
        x = ints(op + "_i32", (4,), -50, 50)
        out.append(op_case(op + "_i32", op, [x], x.copy()))

    for op, fn in [("abs", np.abs), ("negative", np.negative), ("sign", sign_tvm)]:
        x = f32(op + "_f32", (3, 4))
        x[0, 0] = 0
        out.append(op_case(op + "_f32", op, [x], fn(x)))
        x = ints(op + "_i32", (2, 3, 2), -20, 20)
        x[0, 0, 0] = 0
        out.append(op_case(op + "_i32", op, [x], fn(x)))
        x = ints(op + "_i8", (5,), -100, 100, "int8")
        out.append(op_case(op + "_i8", op, [x], fn(x)))
        x = uniform(op + "_f16", (4,), -3, 3, "float16")
        out.append(op_case(op + "_f16", op, [x], fn(x), **F16))
    x = np.array([np.nan, -np.inf, np.inf, -0.0, 2.0], "float32")
    out.append(op_case("sign_nan_inf", "sign", [x], np.array([0, -1, 1, 0, 1], "float32")))
    x = ints("abs_u8", (6,), 0, 255, "uint8")
    out.append(op_case("abs_u8", "abs", [x], x.copy()))
    x = np.array([-2147483648, 5], "int32")  # abs(INT_MIN) wraps, as in TVM's LLVM code
    out.append(op_case("abs_i32_min", "abs", [x], np.array([-2147483648, 5], "int32")))

    x = ints("bitwise_not_i32", (3, 4), -1000, 1000)
    out.append(op_case("bitwise_not_i32", "bitwise_not", [x], np.invert(x)))
    x = ints("bitwise_not_u8", (7,), 0, 256, "uint8")
    out.append(op_case("bitwise_not_u8", "bitwise_not", [x], np.invert(x)))
    x = rng("bitwise_not_bool").integers(0, 2, (2, 3)).astype(bool)
    out.append(op_case("bitwise_not_bool", "bitwise_not", [x], np.invert(x)))

    x = rng("logical_not_bool").integers(0, 2, (3, 5)).astype(bool)
    out.append(op_case("logical_not_bool", "logical_not", [x], np.logical_not(x)))
    x = ints("logical_not_i32", (6,), -2, 3)
    out.append(op_case("logical_not_i32", "logical_not", [x], np.logical_not(x).astype("int32")))
    x = np.zeros((0,), bool)
    out.append(op_case("logical_not_empty", "logical_not", [x], x.copy()))

    special = np.array([[0.0, np.nan, np.inf], [-np.inf, 1e30, -2.5]], "float32")
    for op, fn in [("isfinite", np.isfinite), ("isinf", np.isinf), ("isnan", np.isnan)]:
        out.append(op_case(op + "_f32", op, [special], fn(special)))
        with np.errstate(over="ignore"):
            s16 = special.astype("float16")  # 1e30 overflows to inf in float16
        out.append(op_case(op + "_f16", op, [s16], fn(s16)))
        x = ints(op + "_i32", (2, 2), -5, 5)
        out.append(op_case(op + "_i32", op, [x], fn(x)))
    return out


def misc_cases():
    out = []
    for name, x in [("copy_f32", f32("copy_f32", (2, 3))), ("copy_i64", ints("copy_i64", (5,), -9, 9, "int64")),
                    ("copy_bool", rng("copy_bool").integers(0, 2, (3, 1)).astype(bool)),
                    ("copy_empty", np.zeros((2, 0), "float32")), ("copy_scalar", np.float64(3.5).reshape(()))]:
        out.append(op_case(name, "copy", [x], x.copy()))
    for op, fn in [("ones_like", np.ones_like), ("zeros_like", np.zeros_like)]:
        for dt in ["float32", "float16", "int32", "uint8", "bool"]:
            x = rng(op + dt).integers(0, 2, (2, 3)).astype(dt)
            out.append(op_case("%s_%s" % (op, dt), op, [x], fn(x)))
        x = np.zeros((0, 3), "float64")
        out.append(op_case(op + "_empty", op, [x], fn(x)))

    for dt, n in [("int32", 7), ("int64", 1), ("int32", 0), ("int8", 12)]:
        p = rng("perm%s%d" % (dt, n)).permutation(n).astype(dt)
        inv = np.empty_like(p)
        inv[p] = np.arange(n, dtype=dt)
        out.append(op_case("invert_permutation_%s_%d" % (dt, n), "invert_permutation", [p], inv))

    x = f32("clip_f32", (4, 5)) * 2
    out.append(op_case("clip_f32", "clip", [x], np.clip(x, -0.5, 1.25), attrs="a_min=-0.5f, a_max=1.25f"))
    x = np.array([1.0, -7.0, np.inf, -np.inf, 0.3], "float64")
    out.append(op_case("clip_f64_inf", "clip", [x], np.clip(x, -1.0, 6.0), attrs="a_min=-1f, a_max=6f"))
    x = ints("clip_i32", (3, 4), -10, 10)
    # The bounds are converted to the dtype (truncated) first: [-2.7, 3.9] -> [-2, 3].
    out.append(op_case("clip_i32", "clip", [x], np.clip(x, -2, 3), attrs="a_min=-2.7f, a_max=3.9f"))
    x = uniform("clip_f16", (6,), -3, 3, "float16")
    out.append(op_case("clip_f16", "clip", [x], np.clip(x, np.float16(-1), np.float16(1)),
                       attrs="a_min=-1f, a_max=1f"))
    x = np.zeros((0, 2), "float32")
    out.append(op_case("clip_empty", "clip", [x], x.copy(), attrs="a_min=0f, a_max=1f"))

    def fpm(x, multiplier, shift):
        left = max(shift, 0)
        right = max(-shift, 0) + 31
        res = []
        for v in x.reshape(-1).tolist():
            w = (v << left) * multiplier + (1 << (right - 1))
            res.append(w >> right)
        return np.array(res, "int64").astype("int32").reshape(x.shape)

    x = ints("fpm", (3, 5), -100000, 100000)
    for mult, shift in [(1395864371, -1), (1395864371, 2), (1073741824, 0), (2147483647, -5)]:
        name = "fixed_point_multiply_%d_%d" % (mult % 1000, shift)
        name = name.replace("-", "m")
        out.append(op_case(name, "fixed_point_multiply", [x], fpm(x, mult, shift),
                           attrs="multiplier=%d, shift=%d" % (mult, shift)))

    x = f32("shape_of", (2, 3, 4))
    out.append(op_case("shape_of_i32", "shape_of", [x], np.array([2, 3, 4], "int32"), attrs='dtype="int32"'))
    out.append(op_case("shape_of_i64", "shape_of", [x], np.array([2, 3, 4], "int64"), attrs='dtype="int64"'))
    x = np.zeros((0, 5), "int8")
    out.append(op_case("shape_of_empty", "shape_of", [x], np.array([0, 5], "int32"), attrs='dtype="int32"'))
    x = f32("ndarray_size", (2, 3, 4))
    out.append(op_case("ndarray_size_i32", "ndarray_size", [x], np.array(24, "int32"), attrs='dtype="int32"'))
    out.append(op_case("ndarray_size_i64", "ndarray_size", [x], np.array(24, "int64"), attrs='dtype="int64"'))
    x = np.zeros((3, 0), "float32")
    out.append(op_case("ndarray_size_empty", "ndarray_size", [x], np.array(0, "int32"), attrs='dtype="int32"'))
    x = np.float32(1).reshape(())
    out.append(op_case("ndarray_size_scalar", "ndarray_size", [x], np.array(1, "int32"), attrs='dtype="int32"'))
    return out


# ---------------------------------------------------------------------------------------
# §3.3

def trunc_div_int(a, b):
    a64, b64 = a.astype("int64"), b.astype("int64")
    q = np.abs(a64) // np.abs(b64) * np.sign(a64) * np.sign(b64)
    return q


def int_ops():
    """name -> f(a, b) on integer arrays (b has no zeros)."""
    def cast(f):
        return lambda a, b: f(a, b).astype(np.result_type(a, b))
    return {
        "divide": cast(trunc_div_int),
        "trunc_divide": cast(trunc_div_int),
        "floor_divide": cast(lambda a, b: np.floor_divide(a.astype("int64"), b.astype("int64"))),
        "mod": cast(lambda a, b: a.astype("int64") - trunc_div_int(a, b) * b.astype("int64")),
        "trunc_mod": cast(lambda a, b: a.astype("int64") - trunc_div_int(a, b) * b.astype("int64")),
        "floor_mod": cast(lambda a, b: np.mod(a.astype("int64"), b.astype("int64"))),
    }


def float_ops():
    """name -> f(a, b) on float arrays, each step in the arrays' dtype as TVM computes."""
    return {
        "add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide,
        "floor_divide": lambda a, b: np.floor(a / b),
        "trunc_divide": lambda a, b: np.trunc(a / b),
        "mod": np.fmod,
        "floor_mod": lambda a, b: a - np.floor(a / b) * b,
        "trunc_mod": lambda a, b: a - np.trunc(a / b) * b,
        "power": np.power,
        "maximum": lambda a, b: np.where(a > b, a, b),
        "minimum": lambda a, b: np.where(a < b, a, b),
    }


COMPARE = {
    "equal": lambda a, b: a == b,
    "not_equal": lambda a, b: (a < b) | (a > b) if a.dtype.kind == "f" else a != b,
    "less": np.less, "less_equal": np.less_equal, "greater": np.greater, "greater_equal": np.greater_equal,
}

# (lhs shape, rhs shape, tag): same shape, general broadcasts, scalar on each side.
SHAPES = [((3, 5), (3, 5), "same"), ((2, 3, 4), (3, 1), "bcast"), ((4, 1), (1, 5), "outer"),
          ((2, 3), (), "rscalar"), ((), (4, 2), "lscalar"), ((2, 3, 2, 5), (3, 1, 1), "bias")]


def operands(name, ls, rs, dtype, lo=-4.0, hi=4.0, nonzero=False, positive_lhs=False):
    r = rng(name)
    if np.dtype(dtype).kind == "f":
        a = r.uniform(0.1 if positive_lhs else lo, hi, ls).astype(dtype)
        b = r.uniform(lo, hi, rs).astype(dtype)
        if nonzero:
            b = np.where(np.abs(b) < 0.25, np.asarray(0.5, dtype), b).astype(dtype)
    else:
        a = r.integers(1 if positive_lhs else int(lo), int(hi) + 1, ls).astype(dtype)
        b = r.integers(int(lo), int(hi) + 1, rs).astype(dtype)
        if nonzero:
            b = np.where(b == 0, np.asarray(3, dtype), b).astype(dtype)
    return np.asarray(a), np.asarray(b)


def binary_cases():
    out = []
    fops = float_ops()
    for op, fn in fops.items():
        divides = op in ("divide", "floor_divide", "trunc_divide", "mod", "floor_mod", "trunc_mod")
        for ls, rs, tag in SHAPES:
            name = "%s_f32_%s" % (op, tag)
            if op == "power":
                a, b = operands(name, ls, rs, "float32", lo=-2.0, hi=3.0, positive_lhs=True)
            else:
                a, b = operands(name, ls, rs, "float32", lo=-6.0, hi=6.0, nonzero=divides)
            with np.errstate(all="ignore"):
                out.append(op_case(name, op, [a, b], fn(a, b), rtol=1e-5, atol=1e-5))
        for dt, tol in [("float64", dict(rtol=1e-12, atol=1e-12)), ("float16", F16)]:
            name = "%s_%s" % (op, dt)
            if op == "power":
                a, b = operands(name, (2, 5), (5,), dt, lo=-2.0, hi=2.0, positive_lhs=True)
            else:
                a, b = operands(name, (2, 5), (5,), dt, lo=-6.0, hi=6.0, nonzero=divides)
            with np.errstate(all="ignore"):
                out.append(op_case(name, op, [a, b], fn(a, b), **tol))
        a, b = np.zeros((0, 3), "float32"), np.ones((3,), "float32")
        out.append(op_case(op + "_empty", op, [a, b], fn(a, b)))

    # Integer arithmetic: wrapping, truncating division, floor variants.
    iops = int_ops()
    for op in ["add", "subtract", "multiply", "maximum", "minimum", "power"] + list(iops):
        for ls, rs, tag in SHAPES[:4]:
            for dt in (["int32", "int64", "int8", "uint8"] if tag == "same" else ["int32"]):
                name = "%s_%s_%s" % (op, dt, tag)
                signed = np.dtype(dt).kind == "i"
                if op == "power":
                    a, b = operands(name, ls, rs, dt, lo=-5 if signed else 0, hi=5)
                    b = np.asarray(np.abs(b) % 5).astype(dt)
                    expected = np.power(a.astype("int64"), b.astype("int64")).astype(dt)
                elif op in iops:
                    a, b = operands(name, ls, rs, dt, lo=-40 if signed else 0, hi=40, nonzero=True)
                    expected = iops[op](a, b)
                elif op in ("maximum", "minimum"):
                    a, b = operands(name, ls, rs, dt, lo=-100 if signed else 0, hi=100)
                    expected = fops[op](a, b)
                else:
                    a, b = operands(name, ls, rs, dt, lo=-100 if signed else 0, hi=100)
                    with np.errstate(all="ignore"):
                        expected = getattr(np, op)(a, b)
                out.append(op_case(name, op, [a, b], np.asarray(expected).astype(dt)))
    # Overflow wraps; INT_MIN / -1 wraps to INT_MIN.
    a = np.array([2147483647, -2147483648, 123456789, -2147483648], "int32")
    b = np.array([1, -1, 100, -1], "int32")
    out.append(op_case("add_i32_wrap", "add", [a, b], np.array([-2147483648, 2147483647, 123456889, 2147483647], "int32")))
    out.append(op_case("multiply_i32_wrap", "multiply", [a, b],
                       (a.astype("int64") * b.astype("int64")).astype("int32")))
    out.append(op_case("divide_i32_min", "divide", [a, b], np.array([2147483647, -2147483648, 1234567, -2147483648], "int32")))
    out.append(op_case("floor_mod_i32_min", "floor_mod", [a, b], np.array([0, 0, 89, 0], "int32")))
    # Mixed signs for every division rounding.
    a = np.array([7, -7, 7, -7, 6, -6, 0], "int64")
    b = np.array([2, 2, -2, -2, 3, -3, -5], "int64")
    for op, fn in iops.items():
        out.append(op_case(op + "_i64_signs", op, [a, b], fn(a, b)))
    af = a.astype("float32")
    bf = b.astype("float32")
    for op in ("floor_divide", "trunc_divide", "mod", "floor_mod", "trunc_mod"):
        out.append(op_case(op + "_f32_signs", op, [af, bf], fops[op](af, bf)))
    # Float division by zero is IEEE (inf / nan), not an error.
    a = np.array([1.0, -1.0, 0.0], "float32")
    b = np.zeros((3,), "float32")
    with np.errstate(all="ignore"):
        out.append(op_case("divide_f32_by_zero", "divide", [a, b], a / b))
    # NaN in maximum/minimum: the select keeps the first operand only when its comparison
    # holds, so a NaN lhs yields the rhs and a NaN rhs yields NaN.
    a = np.array([np.nan, 1.0, np.nan, 2.0], "float32")
    b = np.array([1.0, np.nan, np.nan, 3.0], "float32")
    for op in ("maximum", "minimum"):
        out.append(op_case(op + "_nan", op, [a, b], fops[op](a, b)))

    # Logical ops on bool (and int, where they give 0/1 in the int dtype).
    for op in ["logical_and", "logical_or", "logical_xor"]:
        fn = getattr(np, op)
        for ls, rs, tag in SHAPES[:3]:
            r = rng(op + tag)
            a = r.integers(0, 2, ls).astype(bool)
            b = r.integers(0, 2, rs).astype(bool)
            out.append(op_case("%s_bool_%s" % (op, tag), op, [a, b], fn(a, b)))
        a, b = operands(op + "_i32", (6,), (6,), "int32", lo=-2, hi=2)
        out.append(op_case(op + "_i32", op, [a, b], fn(a, b).astype("int32")))
        a, b = np.zeros((0,), bool), np.zeros((1,), bool)
        out.append(op_case(op + "_empty", op, [a, b], fn(a, b)))

    for op in ["bitwise_and", "bitwise_or", "bitwise_xor"]:
        fn = getattr(np, op)
        for ls, rs, tag in SHAPES[:4]:
            a, b = operands(op + tag, ls, rs, "int32", lo=-1000, hi=1000)
            out.append(op_case("%s_i32_%s" % (op, tag), op, [a, b], fn(a, b)))
        a, b = operands(op + "u8", (7,), (7,), "uint8", lo=0, hi=255)
        out.append(op_case(op + "_u8", op, [a, b], fn(a, b)))
        a, b = operands(op + "i64", (3,), (1,), "int64", lo=-10 ** 12, hi=10 ** 12)
        out.append(op_case(op + "_i64", op, [a, b], fn(a, b)))
        r = rng(op + "bool")
        a, b = r.integers(0, 2, (4,)).astype(bool), r.integers(0, 2, (4,)).astype(bool)
        out.append(op_case(op + "_bool", op, [a, b], fn(a, b)))

    # Shifts; counts outside [0, bits) shift everything out (numpy's rule too).
    a = ints("shift_a", (3, 4), -1000, 1000)
    b = ints("shift_b", (3, 4), 0, 31)
    b[0, :] = [0, 31, 32, 40]
    b[1, 0] = -1
    def shl(a, b):
        return np.where((b >= 0) & (b < 32), (a.astype("int64") << np.clip(b, 0, 31)) & 0xFFFFFFFF, 0) \
            .astype("uint32").astype("int32")
    def shr(a, b):
        return np.where((b >= 0) & (b < 32), a >> np.clip(b, 0, 31), np.where(a < 0, -1, 0)).astype("int32")
    out.append(op_case("left_shift_i32", "left_shift", [a, b], shl(a, b)))
    out.append(op_case("right_shift_i32", "right_shift", [a, b], shr(a, b)))
    a, b = ints("shift_u8a", (2, 4), 0, 256, "uint8"), ints("shift_u8b", (4,), 0, 8, "uint8")
    out.append(op_case("left_shift_u8_bcast", "left_shift", [a, b], np.left_shift(a, b)))
    out.append(op_case("right_shift_u8_bcast", "right_shift", [a, b], np.right_shift(a, b)))
    a, b = ints("shift_i64a", (5,), -10 ** 9, 10 ** 9, "int64"), np.array(3, "int64")
    out.append(op_case("left_shift_i64_scalar", "left_shift", [a, b], np.left_shift(a, b)))
    out.append(op_case("right_shift_i64_scalar", "right_shift", [a, b], np.right_shift(a, b)))

    for op, fn in COMPARE.items():
        for ls, rs, tag in SHAPES:
            a, b = operands("%s_%s" % (op, tag), ls, rs, "float32", lo=-2, hi=2)
            a = np.round(a)  # ties, so equality is exercised
            b = np.round(b)
            out.append(op_case("%s_f32_%s" % (op, tag), op, [a, b], fn(a, b)))
        a, b = operands(op + "_i32", (3, 4), (4,), "int32", lo=-3, hi=3)
        out.append(op_case(op + "_i32", op, [a, b], fn(a, b)))
        a, b = operands(op + "_u8", (5,), (5,), "uint8", lo=0, hi=4)
        out.append(op_case(op + "_u8", op, [a, b], fn(a, b)))
        a, b = operands(op + "_f16", (2, 3), (3,), "float16", lo=-2, hi=2)
        a, b = np.round(a), np.round(b)
        out.append(op_case(op + "_f16", op, [a, b], fn(a, b)))
        a = np.array([np.nan, 1.0, np.nan, np.inf], "float64")
        b = np.array([np.nan, np.nan, 1.0, np.inf], "float64")
        out.append(op_case(op + "_nan", op, [a, b], fn(a, b)))
        a = rng(op + "bool").integers(0, 2, (4,)).astype(bool)
        b = rng(op + "bool2").integers(0, 2, (4,)).astype(bool)
        out.append(op_case(op + "_bool", op, [a, b], fn(a, b)))
        a, b = np.zeros((2, 0), "int32"), np.zeros((1, 1), "int32")
        out.append(op_case(op + "_empty", op, [a, b], fn(a, b)))
    return out


def cases():
    out = []
    r = rng("relu")
    x = r.standard_normal((3, 4)).astype("float32")
    out.append(op_case("relu_2d", "nn.relu", [x], np.maximum(x, 0)))
    r = rng("add_broadcast")
    a = r.standard_normal((2, 3)).astype("float32")
    b = r.standard_normal((3,)).astype("float32")
    out.append(op_case("add_broadcast", "add", [a, b], a + b))
    out += unary_cases()
    out += misc_cases()
    out += binary_cases()
    return out
