#!/usr/bin/env python3
"""Differential fuzzing of the compile path against the reference interpreter.

Generates random well-typed Relay programs (element-wise chains with broadcasting,
reductions, layout operators, dense, batch_matmul, conv2d, pools, batch_norm, softmax,
tuples), runs each with `relay run --jit=off` and with `--jit=eager` (the entry compiled
before it runs, so every fusable group goes through the loop IR and LLVM) on the same
inputs, and compares the results: same shapes and dtypes, same NaN and infinity
positions, integers equal, floats within a tolerance that allows for reassociated sums.

usage: jit_differential.py RELAY [--seeds A:B] [--keep DIR] [--threads N] [--quiet]

A failing case is written to DIR (default: a temporary directory) as case-SEED.relay
with its inputs, and the command that replays it is printed. Exit status 1 when any case
differs or either run fails where the other does not.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

# The program's floating-point dtype, chosen per program (random_program), and the suffix
# of its literals.
FLOAT = "float32"
SUFFIX = {"float16": "f16", "float32": "f", "float64": "f64"}


def lit(value):
    return "%s%s" % (value, SUFFIX[FLOAT])


class Value:
    def __init__(self, name, shape, dtype=None):
        self.name, self.shape, self.dtype = name, tuple(shape), dtype or FLOAT


def tvm_shape(shape):
    if len(shape) == 1:
        return "(%d)" % shape[0]
    return "(" + ", ".join(str(d) for d in shape) + ")"


def tensor_type(v):
    return "Tensor[%s, %s]" % (tvm_shape(v.shape), v.dtype)


def ints(xs):
    return "[" + ", ".join(str(x) for x in xs) + "]"


class Program:
    """A straight-line @main under construction: parameters, lets and a pool of values."""

    def __init__(self, rng, let_style=False):
        self.rng = rng
        self.let_style = let_style  # `let %v0 = e;` rather than TVM's graph form `%0 = e;`
        self.params = []   # (Value, numpy array)
        self.lines = []
        self.pool = []
        self.count = 0
        self.used = set()  # names some let reads

    def param(self, shape, dtype=None, positive=False, low=-2.0, high=2.0):
        dtype = dtype or FLOAT
        v = Value("%%p%d" % len(self.params), shape, dtype)
        if dtype == "uint8":  # the quantized generator's weights: the whole range
            data = np.array(self.rng.integers(0, 256, size=shape), dtype=dtype)
        elif dtype.startswith("int"):
            data = np.array(self.rng.integers(-5, 6, size=shape), dtype=dtype)
        else:
            data = self.rng.uniform(low, high, size=shape).astype(dtype)
            if positive:
                data = np.abs(data) + 0.5
        self.params.append((v, data))
        return v

    def let(self, text, shape, dtype=None):
        v = Value(("%%v%d" if self.let_style else "%%%d") % self.count, shape, dtype)
        self.count += 1
        self.used.update(re.findall(r"%[A-Za-z0-9_]+", text))
        self.lines.append("  %s%s = %s;" % ("let " if self.let_style else "", v.name, text))
        self.pool.append(v)
        return v

    def source(self, result, result_type, tiered=False):
        """@main computing `result`; or, tiered, the computation as a global @f that @main
        calls twice (so --jit=auto compiles it) and whose body it also inlines in one
        branch of an `if` (a tensor region of a function that stays interpreted)."""
        params = ", ".join("%s: %s" % (v.name, tensor_type(v)) for v, _ in self.params)
        body = "\n".join(self.lines)
        header = '#[version = "0.0.5"]\n'
        if not tiered:
            return header + "def @main(%s) {\n%s\n  %s\n}\n" % (params, body, result)
        call = "@f(%s)" % ", ".join(v.name for v, _ in self.params)
        nested = "\n".join("  " + line for line in self.lines)
        first = self.params[0][0]
        return header + (
            "def @f(%s) -> %s {\n%s\n  %s\n}\n\n"
            "def @main(%s) {\n"
            "  let %%r1 = %s;\n"
            "  let %%r2 = %s;\n"
            "  let %%r3 = if (less(sum(%s), %s)) {\n%s\n    %s\n  } else {\n    %s\n  };\n"
            "  (%%r1, %%r2, %%r3)\n}\n") % (params, result_type, body, result, params, call, call, first.name, lit(0),
                                            nested, result, call)


# ---- operator generators: each returns a new Value or None when it does not apply ----

UNARY = ["negative", "abs", "exp", "tanh", "sigmoid", "nn.relu", "sqrt", "log", "floor", "ceil",
         "round", "sin", "cos", "erf", "rsqrt", "trunc", "sign"]


def unary(p, r, x):
    if x.dtype != FLOAT:
        return None
    ops = UNARY + ["clip", "leaky_relu"]
    if FLOAT == "float16" and not x.name.startswith("%p"):
        # float16 batch_norm's last-place difference (see binary) near zero: log and rsqrt
        # turn it into any difference (seed 41307: log of a normalised value near 0)
        ops = [o for o in ops if o not in ("log", "rsqrt")]
    op = r.choice(ops)
    if op == "clip":
        return p.let("clip(%s, a_min=-0.5f, a_max=0.75f)" % x.name, x.shape)
    if op == "leaky_relu":
        return p.let("nn.leaky_relu(%s, alpha=0.1f)" % x.name, x.shape)
    return p.let("%s(%s)" % (op, x.name), x.shape)


def broadcast_partner(p, r, x):
    """Another float value, or a new parameter, whose shape broadcasts with x's."""
    same = [v for v in p.pool if v.dtype == FLOAT and v.shape == x.shape and v is not x]
    if same and r.random() < 0.4:
        return r.choice(same)
    k = r.randint(0, len(x.shape))
    shape = [d if r.random() < 0.6 else 1 for d in x.shape[len(x.shape) - k:]]
    if r.random() < 0.15 and len(x.shape) < 4:
        shape = [r.randint(1, 3)] + list(x.shape)  # the partner has the higher rank
        shape[0] = 1 if r.random() < 0.5 else shape[0]
    return p.param(shape)


def broadcast_shape(a, b):
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    return tuple(max(x, y) for x, y in zip(a, b))


def binary(p, r, x):
    if x.dtype != FLOAT:
        return None
    y = broadcast_partner(p, r, x)
    if r.random() < 0.5:
        x, y = y, x
    ops = ["add", "subtract", "multiply", "divide", "maximum", "minimum", "power", "where"]
    if FLOAT == "float16":
        # float16 batch_norm is decomposed in float16, as TVM does, where its reference
        # kernel rounds once: a unit in the last place apart, which dividing by a value
        # near zero (or a power) turns into any difference at all
        ops = [o for o in ops if o not in ("divide", "power")]
    op = r.choice(ops)
    shape = broadcast_shape(x.shape, y.shape)
    if op == "where":
        cond = p.let("greater(%s, %s)" % (x.name, y.name), shape, "bool")
        return p.let("where(%s, %s, %s)" % (cond.name, x.name, y.name), shape)
    return p.let("%s(%s, %s)" % (op, x.name, y.name), shape)


def reduction(p, r, x):
    if x.dtype != FLOAT or not x.shape:
        return None
    rank = len(x.shape)
    axes = sorted(r.sample(range(rank), r.randint(1, rank)))
    keep = r.random() < 0.4
    op = r.choice(["sum", "mean", "max", "min", "prod", "variance", "argmax", "argmin", "collapse_sum"])
    if op == "collapse_sum":  # to a shape that broadcasts back: leading axes gone, some 1s
        lead = r.randint(0, rank - 1)
        to = [1 if r.random() < 0.5 else d for d in x.shape[lead:]]
        if r.random() < 0.5:
            like = p.param(to)
            return p.let("collapse_sum_like(%s, %s)" % (x.name, like.name), to)
        dims = p.param([len(to)], "int64")
        return p.let("collapse_sum_to(%s, %s, shape=%s)" % (x.name, dims.name, ints(to)), to)
    if op in ("argmax", "argmin"):
        axes = [r.randrange(rank)]
    if op == "variance":  # variance(data, mean) with the mean kept at the data's rank
        m = p.let("mean(%s, axis=%s, keepdims=True)" % (x.name, ints(axes)),
                  [1 if i in axes else d for i, d in enumerate(x.shape)])
        x = Value(x.name + ", " + m.name, x.shape)
    out = [1 if i in axes else d for i, d in enumerate(x.shape)] if keep else \
        [d for i, d in enumerate(x.shape) if i not in axes]
    dtype = "int32" if op in ("argmax", "argmin") else FLOAT
    text = "%s(%s, axis=%s%s)" % (op, x.name, ints(axes), ", keepdims=True" if keep else "")
    v = p.let(text, out, dtype)
    if dtype != FLOAT:  # back to floats so later operators can use it
        v = p.let("cast(%s, dtype=\"%s\")" % (v.name, FLOAT), out)
    return v


def softmax(p, r, x):
    if x.dtype != FLOAT or not x.shape:
        return None
    op = r.choice(["nn.softmax", "nn.log_softmax"])
    return p.let("%s(%s, axis=%d)" % (op, x.name, r.randrange(-len(x.shape), len(x.shape))), x.shape)


def layout(p, r, x):
    rank = len(x.shape)
    if rank == 0:
        return None
    op = r.choice(["transpose", "reshape", "expand_dims", "squeeze", "strided_slice", "concatenate",
                   "reverse", "tile", "pad", "cast"])
    if op == "transpose":
        perm = list(range(rank))
        r.shuffle(perm)
        return p.let("transpose(%s, axes=%s)" % (x.name, ints(perm)), [x.shape[i] for i in perm], x.dtype)
    if op == "reshape":
        total = int(np.prod(x.shape))
        dims = []
        rest = total
        while rest > 1 and len(dims) < 3:
            divisors = [d for d in range(2, rest + 1) if rest % d == 0]
            d = r.choice(divisors)
            dims.append(d)
            rest //= d
        dims.append(rest)
        r.shuffle(dims)
        return p.let("reshape(%s, newshape=%s)" % (x.name, ints(dims)), dims, x.dtype)
    if op == "expand_dims":
        if rank >= 4:
            return None
        axis = r.randint(0, rank)
        shape = list(x.shape)
        shape.insert(axis, 1)
        return p.let("expand_dims(%s, axis=%d)" % (x.name, axis), shape, x.dtype)
    if op == "squeeze":
        ones = [i for i, d in enumerate(x.shape) if d == 1]
        if not ones:
            return None
        return p.let("squeeze(%s, axis=%s)" % (x.name, ints(ones)), [d for d in x.shape if d != 1], x.dtype)
    if op == "strided_slice":
        begin, end, strides, shape = [], [], [], []
        for d in x.shape:
            s = r.choice([1, 1, 2, 3, -1])
            if s > 0:
                b = r.randrange(d)
                e = r.randint(b + 1, d)
                n = (e - b + s - 1) // s
            else:
                b = r.randrange(d)
                e = r.randint(-1, b - 1) if b > 0 else -1
                e = e if e >= 0 else -(d + 1)  # before the start: the whole prefix
                n = b - max(e, -1) if e >= 0 else b + 1
            begin.append(b)
            end.append(e)
            strides.append(s)
            shape.append(n)
        return p.let("strided_slice(%s, begin=%s, end=%s, strides=%s, axes=None)"
                     % (x.name, ints(begin), ints(end), ints(strides)), shape, x.dtype)
    if op == "concatenate":
        axis = r.randrange(rank)
        others = [v for v in p.pool if v.dtype == x.dtype and len(v.shape) == rank and v is not x and
                  all(a == b for i, (a, b) in enumerate(zip(v.shape, x.shape)) if i != axis)]
        y = r.choice(others) if others and r.random() < 0.5 else None
        if y is None:
            shape = list(x.shape)
            shape[axis] = r.randint(1, 4)
            if x.dtype != FLOAT:
                return None
            y = p.param(shape)
        shape = list(x.shape)
        shape[axis] += y.shape[axis]
        return p.let("concatenate((%s, %s), axis=%d)" % (x.name, y.name, axis), shape, x.dtype)
    if op == "reverse":
        return p.let("reverse(%s, axis=%d)" % (x.name, r.randrange(rank)), x.shape, x.dtype)
    if op == "tile":
        reps = [r.randint(1, 2) for _ in x.shape]
        return p.let("tile(%s, reps=%s)" % (x.name, ints(reps)), [a * b for a, b in zip(x.shape, reps)], x.dtype)
    if op == "pad":
        if x.dtype != FLOAT:
            return None
        widths = [(r.randint(0, 2), r.randint(0, 2)) for _ in x.shape]
        text = "[" + ", ".join("[%d, %d]" % w for w in widths) + "]"
        mode = r.choice(["constant", "edge", "reflect"])
        if mode == "reflect" and any(max(w) >= d for w, d in zip(widths, x.shape)):
            mode = "edge"
        return p.let("nn.pad(%s, %s, pad_width=%s, pad_mode=\"%s\")" % (x.name, lit(0.5), text, mode),
                     [d + a + b for d, (a, b) in zip(x.shape, widths)], x.dtype)
    if op == "cast":
        if x.dtype != FLOAT:
            return p.let("cast(%s, dtype=\"%s\")" % (x.name, FLOAT), x.shape)
        other = r.choice([t for t in SUFFIX if t != FLOAT])
        return p.let("cast(cast(%s, dtype=\"%s\"), dtype=\"%s\")" % (x.name, other, FLOAT), x.shape)
    return None


def integer(p, r, x):
    """A detour through int32: casts, wrapping arithmetic, division (which fails on a zero
    divisor in both runs alike), shifts and comparisons, and back."""
    if x.dtype != FLOAT:
        return None
    # A cast to an integer is discontinuous: a computed float one rounding away from the
    # interpreter's (a reduction's order, batch_norm decomposed in float16) may cast to a
    # different integer. Start from a parameter, which both runs read alike.
    if not x.name.startswith("%p"):
        x = p.param(x.shape)
    i = p.let("cast(multiply(%s, %s), dtype=\"int32\")" % (x.name, lit(7)), x.shape, "int32")
    for _ in range(r.randint(1, 3)):
        k = p.param(x.shape[len(x.shape) - r.randint(0, len(x.shape)):], "int32")
        op = r.choice(["add", "subtract", "multiply", "divide", "floor_divide", "mod", "floor_mod",
                       "maximum", "minimum", "right_shift", "bitwise_and", "bitwise_xor"])
        if op in ("divide", "floor_divide", "mod", "floor_mod") and r.random() < 0.8:
            k = p.let("add(abs(%s), 1)" % k.name, k.shape, "int32")  # mostly no zero divisor
        if op == "right_shift":
            k = p.let("bitwise_and(%s, 7)" % k.name, k.shape, "int32")
        a, b = (i, k) if r.random() < 0.7 else (k, i)
        i = p.let("%s(%s, %s)" % (op, a.name, b.name), broadcast_shape(a.shape, b.shape), "int32")
    return p.let("cast(%s, dtype=\"%s\")" % (i.name, FLOAT), i.shape)


def quantized(p, r, x):
    """A detour through the quantized operators (canonicalised into native kernels, or
    oneDNN's int8 kernels): quantize, then requantize, an add or a product of two
    quantized values, a unary operator's table, a leaky ReLU or an integer softmax, a
    quantized dense layer or batch_matmul, and dequantize back to float32."""
    if x.dtype != "float32" or not x.shape:
        return None
    if not x.name.startswith("%p"):  # quantizing is discontinuous: start from a parameter
        x = p.param(x.shape)
    qtype = r.choice(["int8", "uint8"])
    zero = r.randint(-128, 127) if qtype == "int8" else r.randint(0, 255)
    axis = r.randrange(len(x.shape))
    if r.random() < 0.5:  # a scale per channel, a parameter: requantize's multiplier per call
        scale = p.param([x.shape[axis]], positive=True).name
    else:
        scale = lit(r.choice([0.05, 0.01, 0.0078125, 0.3]))
    q = p.let("qnn.quantize(%s, %s, %d, axis=%d, out_dtype=\"%s\")" % (x.name, scale, zero, axis, qtype),
              x.shape, qtype)
    kind = r.choice(["requantize", "add", "dense", "mul", "unary", "batch_matmul"])
    rounding = r.choice(["UPWARD", "TONEAREST"])
    if kind == "dense" and len(x.shape) == 2:
        units = r.randint(1, 9)
        # symmetric int8 weights (oneDNN's kernel), uint8 ones around 128 (flipped to int8),
        # or a zero point split off into row sums
        wtype = r.choice(["int8", "uint8"])
        wzero = 128 + r.choice([0, 0, r.randint(-6, 6)]) if wtype == "uint8" else r.choice([0, 0, r.randint(-5, 5)])
        w = p.param([units, x.shape[1]], wtype)
        acc = p.let("qnn.dense(%s, %s, %d, %d, %s, %s, units=%d, out_dtype=\"int32\")"
                    % (q.name, w.name, zero, wzero, lit(0.05), lit(0.02), units), [x.shape[0], units], "int32")
        q = p.let("qnn.requantize(%s, %s, 0, %s, %d, out_dtype=\"%s\", rounding=\"%s\")"
                  % (acc.name, lit(0.001), lit(0.1), zero, qtype, rounding), acc.shape, qtype)
        scale, axis = lit(0.1), 0
    elif kind == "batch_matmul" and len(x.shape) == 3:
        transpose_b = r.random() < 0.5
        n = r.randint(1, 9)
        batch = r.choice([x.shape[0], 1])
        y = p.param([batch, n, x.shape[2]] if transpose_b else [batch, x.shape[2], n], "int8")
        acc = p.let("qnn.batch_matmul(%s, %s, %d, %d, %s, %s, out_dtype=\"int32\", transpose_a=False, transpose_b=%s)"
                    % (q.name, y.name, zero, r.randint(-5, 5), lit(0.05), lit(0.02), transpose_b),
                    [x.shape[0], x.shape[1], n], "int32")
        q = p.let("qnn.requantize(%s, %s, 0, %s, %d, out_dtype=\"%s\", rounding=\"%s\")"
                  % (acc.name, lit(0.001), lit(0.1), zero, qtype, rounding), acc.shape, qtype)
        scale, axis = lit(0.1), 0
    elif kind == "unary" and not scale.startswith("%"):  # the unary operators take scalars
        op = r.choice(["abs", "erf", "exp", "hardswish", "log", "rsqrt", "sigmoid", "sqrt", "tanh", "leaky_relu"])
        out_zero = r.randint(-128, 127) if qtype == "int8" else r.randint(0, 255)
        if qtype == "int8" and r.random() < 0.2:
            op = "softmax"  # int8 only, the scale a constant in (0, 1]
        attrs = ""
        if op == "leaky_relu":
            attrs = ", alpha=%s" % lit(r.choice([0.1, 0.25, 1.5]))
        elif op == "softmax":
            attrs = ", axis=%d" % r.randrange(len(x.shape))
        q = p.let("qnn.%s(%s, %s, %d, %s, %d%s)" % (op, q.name, scale, zero, lit(0.02), out_zero, attrs), x.shape, qtype)
        scale, zero, axis = lit(0.02), out_zero, 0
    elif kind == "mul":
        other = p.let("qnn.quantize(%s, %s, %d, out_dtype=\"%s\")" % (p.param(x.shape).name, lit(0.02), zero // 2, qtype),
                      x.shape, qtype)
        q = p.let("qnn.mul(%s, %s, %s, %d, %s, %d, %s, %d, lhs_axis=%d)"
                  % (q.name, other.name, scale, zero, lit(0.02), zero // 2, lit(0.004), zero, axis), x.shape, qtype)
        scale, axis = lit(0.004), 0
    elif kind == "add":
        other = p.let("qnn.quantize(%s, %s, %d, out_dtype=\"%s\")" % (p.param(x.shape).name, lit(0.02), zero // 2, qtype),
                      x.shape, qtype)
        q = p.let("qnn.add(%s, %s, %s, %d, %s, %d, %s, %d)" % (q.name, other.name, scale, zero, lit(0.02), zero // 2,
                                                              lit(0.07), zero), x.shape, qtype)
        scale, axis = lit(0.07), 0
    else:
        out = r.choice(["int8", "uint8", "int32"])
        out_zero = r.randint(0, 100)
        compute = r.choice(["", "", ", compute_dtype=\"float32\"", ", compute_dtype=\"float64\""])
        q = p.let("qnn.requantize(%s, %s, %d, %s, %d, axis=%d, out_dtype=\"%s\", rounding=\"%s\"%s)"
                  % (q.name, scale, zero, lit(r.choice([0.5, 0.03, 0.004])), out_zero, axis, out, rounding, compute),
                  x.shape, out)
        scale, zero = lit(0.03), out_zero
        axis = 0
    return p.let("qnn.dequantize(%s, %s, %d, axis=%d, out_dtype=\"float32\")" % (q.name, scale, zero, axis), q.shape)


def take(p, r, x):
    if x.dtype != FLOAT or not x.shape:
        return None
    axis = r.randrange(len(x.shape))
    n = x.shape[axis]
    if r.random() < 0.3:  # gather: indices of the data's rank, inside [0, n)
        shape = list(x.shape)
        shape[axis] = r.randint(1, 4)
        v = Value("%%p%d" % len(p.params), shape, "int64")
        p.params.append((v, np.array(p.rng.integers(0, n, size=shape), dtype="int64")))
        return p.let("gather(%s, %s, axis=%d)" % (x.name, v.name, axis - len(x.shape) * r.randint(0, 1)), shape)
    if r.random() < 0.2:  # gather_nd: M index rows (after batch_dims leading dims), inside range
        nb = r.randint(0, min(1, len(x.shape) - 1))
        m = r.randint(1, len(x.shape) - nb)
        positions = list(x.shape[:nb]) + [r.randint(1, 4) for _ in range(r.randint(0, 2))]
        rows = [p.rng.integers(0, x.shape[nb + k], size=positions) for k in range(m)]
        v = Value("%%p%d" % len(p.params), [m] + positions, "int32")
        p.params.append((v, np.array(rows, dtype="int32").reshape([m] + positions)))
        out = positions + list(x.shape[nb + m:])
        return p.let("gather_nd(%s, %s, batch_dims=%d)" % (x.name, v.name, nb), out)
    shape = [r.randint(1, 4) for _ in range(r.randint(0, 2))]
    mode = r.choice(["clip", "wrap", "fast"])
    lo, hi = (0, n - 1) if mode == "fast" else (-2 * n, 2 * n)
    v = Value("%%p%d" % len(p.params), shape, "int32")
    p.params.append((v, np.array(p.rng.integers(lo, hi + 1, size=shape), dtype="int32")))
    out = list(x.shape[:axis]) + shape + list(x.shape[axis + 1:])
    return p.let("take(%s, %s, axis=%d, mode=\"%s\")" % (x.name, v.name, axis, mode), out)


def repeat_or_broadcast(p, r, x):
    if not x.shape or len(x.shape) > 3:
        return None
    if r.random() < 0.5:
        axis = r.randrange(len(x.shape))
        k = r.randint(1, 3)
        shape = list(x.shape)
        shape[axis] *= k
        return p.let("repeat(%s, repeats=%d, axis=%d)" % (x.name, k, axis), shape, x.dtype)
    shape = [r.randint(1, 3)] + [d if d != 1 else r.randint(1, 4) for d in x.shape]
    return p.let("broadcast_to(%s, shape=%s)" % (x.name, ints(shape)), shape, x.dtype)


def layer_norm(p, r, x):
    if x.dtype != FLOAT or not x.shape:
        return None
    # Not in float16 programs: both divide by a norm, which turns float16 batch_norm's
    # last-place difference (see binary) into any difference when the norm is near eps.
    if FLOAT != "float16" and r.random() < 0.15:  # lrn: a window of squares along one axis
        axis = r.randrange(-len(x.shape), len(x.shape))
        return p.let("nn.lrn(%s, size=%d, axis=%d, bias=%s, alpha=%s, beta=%s)" % (
            x.name, r.randint(1, 7), axis, r.choice(["1f", "2f"]), r.choice(["0.0001f", "0.5f"]),
            r.choice(["0.75f", "0.5f", "1f"])), x.shape)
    if FLOAT != "float16" and r.random() < 0.3:  # l2_normalize over some axes (or none)
        rank = len(x.shape)
        axes = r.sample(range(-rank, rank), r.randint(0, min(2, rank)))
        axes = [a for k, a in enumerate(axes) if (a % rank) not in [b % rank for b in axes[:k]]]
        eps = r.choice(["1e-10f", "1e-05f", "0.5f"])
        return p.let("nn.l2_normalize(%s, eps=%s, axis=%s)" % (x.name, eps, ints(axes)), x.shape)
    axis = r.randrange(-len(x.shape), len(x.shape))
    c = x.shape[axis]
    g, b = p.param([c]), p.param([c])
    return p.let("nn.layer_norm(%s, %s, %s, axis=%d, epsilon=1e-05f)" % (x.name, g.name, b.name, axis), x.shape)


def layout_4d(p, r, x):
    if x.dtype != FLOAT or len(x.shape) != 4:
        return None
    n, c, h, w = x.shape
    op = r.choice(["batch_flatten", "layout", "adaptive", "upsampling", "mirror_pad", "instance_norm", "group_norm"])
    if op == "batch_flatten":
        return p.let("nn.batch_flatten(%s)" % x.name, [n, c * h * w])
    if op == "layout":
        f = r.choice([d for d in (1, 2, 3, 4) if c % d == 0])
        blocked = p.let("layout_transform(%s, src_layout=\"NCHW\", dst_layout=\"NCHW%dc\")" % (x.name, f),
                        [n, c // f, h, w, f])
        return p.let("layout_transform(%s, src_layout=\"NCHW%dc\", dst_layout=\"NCHW\")" % (blocked.name, f),
                     x.shape)
    if op == "adaptive":  # sizes dividing the input's lower as pools, others do not
        divisors = lambda d: [k for k in range(1, d + 1) if d % k == 0]
        oh, ow = (r.choice(divisors(h)), r.choice(divisors(w))) if r.random() < 0.6 else (r.randint(1, h), r.randint(1, w))
        kind = r.choice(["avg", "max"])
        return p.let("nn.adaptive_%s_pool2d(%s, output_size=%s)" % (kind, x.name, ints([oh, ow])), [n, c, oh, ow])
    if op == "upsampling":
        sh, sw = r.choice([1, 2, 3]), r.choice([1, 2])
        layout = r.choice(["NCHW", "NHWC"])
        shape = [n, c, h * sh, w * sw] if layout == "NCHW" else [n, c * sh, h * sw, w]
        return p.let("nn.upsampling(%s, scale_h=%df, scale_w=%df, layout=\"%s\", method=\"nearest_neighbor\")"
                     % (x.name, sh, sw, layout), shape)
    if op == "mirror_pad":
        mode = r.choice(["REFLECT", "SYMMETRIC"])
        most = lambda d: d - 1 if mode == "REFLECT" else d
        widths = [[0, 0], [0, 0]] + [[r.randint(0, most(d)), r.randint(0, most(d))] for d in (h, w)]
        text = "[" + ", ".join("[%d, %d]" % tuple(wd) for wd in widths) + "]"
        return p.let("nn.mirror_pad(%s, pad_width=%s, mode=\"%s\")" % (x.name, text, mode),
                     [n, c, h + sum(widths[2]), w + sum(widths[3])])
    gamma, beta = p.param([c]), p.param([c])
    if op == "instance_norm":
        return p.let("nn.instance_norm(%s, %s, %s, axis=1)" % (x.name, gamma.name, beta.name), x.shape)
    groups = r.choice([g for g in (1, 2, 3, c) if c % g == 0])
    return p.let("nn.group_norm(%s, %s, %s, num_groups=%d, axis=1)" % (x.name, gamma.name, beta.name, groups), x.shape)


def conv2d_transpose(p, r, x):
    if x.dtype != FLOAT or len(x.shape) != 4:
        return None
    n, c, h, w = x.shape
    out_c = r.choice([1, 2, 4])
    k = r.choice([1, 2, 3])
    stride = r.choice([1, 2])
    pad = r.randint(0, k - 1)
    out_pad = r.randint(0, stride - 1)
    oh = (h - 1) * stride - 2 * pad + k + out_pad
    ow = (w - 1) * stride - 2 * pad + k + out_pad
    if oh < 1 or ow < 1:
        return None
    wt = p.param([c, out_c, k, k], low=-0.5, high=0.5)
    return p.let("nn.conv2d_transpose(%s, %s, channels=%d, kernel_size=%s, strides=%s, padding=%s, "
                 "output_padding=%s)" % (x.name, wt.name, out_c, ints([k, k]), ints([stride] * 2),
                                         ints([pad] * 4), ints([out_pad] * 2)), [n, out_c, oh, ow])


def dense(p, r, x):
    if x.dtype != FLOAT or len(x.shape) != 2:
        return None
    units = r.choice([1, 3, 8, 16, 17, 33])
    w = p.param([units, x.shape[1]])
    if r.random() < 0.5:
        return p.let("nn.dense(%s, %s, units=%d)" % (x.name, w.name, units), [x.shape[0], units])
    return p.let("nn.dense(%s, %s, units=None)" % (x.name, w.name), [x.shape[0], units])


def batch_matmul(p, r, x):
    if x.dtype != FLOAT or len(x.shape) != 3:
        return None
    n = r.choice([1, 5, 8, 19])
    transpose_b = r.random() < 0.5
    b = x.shape[0] if r.random() < 0.8 else 1
    w = p.param([b, n, x.shape[2]] if transpose_b else [b, x.shape[2], n])
    return p.let("nn.batch_matmul(%s, %s, transpose_a=False, transpose_b=%s)"
                 % (x.name, w.name, "True" if transpose_b else "False"), [x.shape[0], x.shape[1], n])


def conv_out(size, k, stride, pad_a, pad_b, dilation):
    return (size + pad_a + pad_b - dilation * (k - 1) - 1) // stride + 1


def conv2d(p, r, x):
    if x.dtype != FLOAT or len(x.shape) != 4:
        return None
    n, c, h, w = x.shape
    groups = r.choice([g for g in [1, 1, 2, 3, c] if c % g == 0])
    out_c = groups * r.randint(1, 3) if groups > 1 else r.choice([1, 4, 8, 16])
    kh, kw = r.choice([(1, 1), (3, 3), (3, 3), (5, 5), (1, 3), (3, 1)])
    stride = r.choice([1, 1, 2])
    dilation = r.choice([1, 1, 2])
    pads = [r.randint(0, 2) for _ in range(4)]
    oh = conv_out(h, kh, stride, pads[0], pads[2], dilation)
    ow = conv_out(w, kw, stride, pads[1], pads[3], dilation)
    if oh < 1 or ow < 1:
        return None
    wt = p.param([out_c, c // groups, kh, kw], low=-0.5, high=0.5)
    return p.let("nn.conv2d(%s, %s, strides=%s, padding=%s, dilation=%s, groups=%d, channels=%d, "
                 "kernel_size=%s)" % (x.name, wt.name, ints([stride] * 2), ints(pads), ints([dilation] * 2),
                                      groups, out_c, ints([kh, kw])), [n, out_c, oh, ow])


def pool(p, r, x):
    if x.dtype != FLOAT or len(x.shape) != 4:
        return None
    n, c, h, w = x.shape
    op = r.choice(["nn.max_pool2d", "nn.avg_pool2d", "nn.global_avg_pool2d", "nn.global_max_pool2d"])
    if op.startswith("nn.global"):
        return p.let("%s(%s)" % (op, x.name), [n, c, 1, 1])
    k = r.choice([1, 2, 3])
    stride = r.choice([1, 2])
    pad = r.randint(0, k // 2)
    ceil = r.random() < 0.3
    size = []
    for d in (h, w):
        span = d + 2 * pad - k
        if span < 0:
            return None
        o = (span + (stride - 1 if ceil else 0)) // stride + 1
        size.append(o)
    extra = ", count_include_pad=%s" % r.choice(["True", "False"]) if op == "nn.avg_pool2d" else ""
    return p.let("%s(%s, pool_size=%s, strides=%s, padding=%s, ceil_mode=%s%s)"
                 % (op, x.name, ints([k, k]), ints([stride] * 2), ints([pad] * 4),
                    "True" if ceil else "False", extra), [n, c] + size)


def window_1d(p, r, x):
    """nn.conv1d, nn.max_pool1d or nn.avg_pool1d over a rank-3 value (NCW or NWC), which
    the compiler runs as 2-D windows over a unit height."""
    if x.dtype != FLOAT or len(x.shape) != 3:
        return None
    nwc = r.random() < 0.3
    n, c, w = (x.shape[0], x.shape[2], x.shape[1]) if nwc else x.shape
    layout = ', data_layout="NWC", kernel_layout="WIO"' if nwc else ""
    stride, dilation = r.choice([1, 1, 2]), r.choice([1, 1, 2])
    if r.random() < 0.5:
        groups = r.choice([g for g in [1, 1, 2, c] if c % g == 0])
        out_c = groups * r.randint(1, 3) if groups > 1 else r.choice([1, 4, 8])
        k = r.choice([1, 3, 5])
        pads = [r.randint(0, 2), r.randint(0, 2)]
        o = conv_out(w, k, stride, pads[0], pads[1], dilation)
        if o < 1:
            return None
        wshape = [k, c // groups, out_c] if nwc else [out_c, c // groups, k]
        wt = p.param(wshape, low=-0.5, high=0.5)
        return p.let("nn.conv1d(%s, %s, strides=[%d], padding=%s, dilation=[%d], groups=%d, channels=%d, "
                     "kernel_size=[%d]%s)" % (x.name, wt.name, stride, ints(pads), dilation, groups, out_c, k, layout),
                     [n, o, out_c] if nwc else [n, out_c, o])
    op = r.choice(["nn.max_pool1d", "nn.avg_pool1d"])
    k = r.choice([1, 2, 3])
    pad = r.randint(0, k // 2)
    ceil = r.random() < 0.3
    span = w + 2 * pad - dilation * (k - 1) - 1
    if span < 0:
        return None
    o = (span + (stride - 1 if ceil else 0)) // stride + 1
    extra = ", count_include_pad=%s" % r.choice(["True", "False"]) if op == "nn.avg_pool1d" else ""
    return p.let("%s(%s, pool_size=[%d], strides=[%d], dilation=[%d], padding=[%d], layout=\"%s\", ceil_mode=%s%s)"
                 % (op, x.name, k, stride, dilation, pad, "NWC" if nwc else "NCW", "True" if ceil else "False", extra),
                 [n, o, c] if nwc else [n, c, o])


def batch_norm(p, r, x):
    if x.dtype != FLOAT or len(x.shape) != 4:
        return None
    c = x.shape[1]
    gamma, beta, mean = p.param([c]), p.param([c]), p.param([c])
    var = p.param([c], positive=True)
    t = p.let("nn.batch_norm(%s, %s, %s, %s, %s)" % (x.name, gamma.name, beta.name, mean.name, var.name),
              x.shape, "tuple")
    return p.let("%s.0" % t.name, x.shape)


def bias_add(p, r, x):
    if x.dtype != FLOAT or len(x.shape) < 2:
        return None
    axis = 1 if len(x.shape) == 4 else -1
    b = p.param([x.shape[axis]])
    return p.let("nn.bias_add(%s, %s, axis=%d)" % (x.name, b.name, axis), x.shape)


def resize(p, r, x):
    """image.resize2d (or 1d/3d by the data's rank) with every method and coordinate mode
    the compiler rewrites into takes and weighted sums."""
    if x.dtype != FLOAT or len(x.shape) not in (3, 4, 5):
        return None
    letters = {3: "W", 4: "HW", 5: "DHW"}[len(x.shape)]
    size = [r.randint(1, 2 * d + 1) for d in x.shape[2:]]
    method = r.choice(["nearest_neighbor", "linear", "cubic"])
    mode = r.choice(["half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel", "tf_half_pixel_for_nn"])
    rounding = r.choice(["", "round", "floor", "ceil", "round_prefer_floor"]) if method == "nearest_neighbor" else ""
    roi = "[%s]" % ", ".join([lit(0)] * (2 * len(letters)))
    text = ("image.resize%dd(%s, size=%s, roi=%s, method=\"%s\", coordinate_transformation_mode=\"%s\", "
            "rounding_method=\"%s\", cubic_alpha=%s, cubic_exclude=%d)"
            % (len(letters), x.name, ints(size), roi, method, mode, rounding, lit(r.choice([-0.5, -0.75])),
               r.randint(0, 1) if len(letters) < 3 else 0))
    return p.let(text, list(x.shape[:2]) + size)


GENERATORS = [(unary, 5), (binary, 5), (reduction, 2), (softmax, 1), (layout, 4), (dense, 1),
              (batch_matmul, 1), (conv2d, 2), (pool, 1), (batch_norm, 1), (bias_add, 1), (integer, 2),
              (take, 1), (repeat_or_broadcast, 1), (layer_norm, 1), (layout_4d, 2), (conv2d_transpose, 1),
              (window_1d, 3), (quantized, 2), (resize, 1)]


class Case:
    """A generated program: its text, its parameters' values, whether its result is a
    tuple (saved as .npz), and the --jit mode of the compiled run."""

    def __init__(self, source, params, is_tuple, jit):
        self.source, self.params, self.is_tuple, self.jit = source, params, is_tuple, jit


def tensor_program(seed, r):
    global FLOAT
    FLOAT = r.choices(list(SUFFIX), [1, 6, 2])[0]
    tiered = r.random() < 0.3
    p = Program(np.random.default_rng(seed), let_style=tiered or r.random() < 0.3)
    rank = r.choice([1, 2, 2, 3, 4, 4])
    if rank == 4:
        shape = [r.choice([1, 1, 2]), r.choice([1, 2, 3, 4, 6]), r.randint(1, 12), r.randint(1, 12)]
    else:
        shape = [r.choice([1, 2, 3, 4, 5, 7, 8, 16, 17, 31, 64]) for _ in range(rank)]
    p.pool.append(p.param(shape))
    for _ in range(r.randint(1, 10)):
        floats = [v for v in p.pool if v.dtype == FLOAT]
        x = r.choice(floats[-3:]) if r.random() < 0.7 else r.choice(floats)
        gens, weights = zip(*GENERATORS)
        for _attempt in range(4):
            if r.choices(gens, weights)[0](p, r, x) is not None:
                break
    # Every value nothing reads is a result, so no operator is dead code (the compiler
    # drops dead lets, and with them the run-time errors the interpreter would raise).
    outs = [v for v in p.pool if v.dtype in (FLOAT, "int32") and v.name not in p.used]
    result = outs[0].name if len(outs) == 1 else "(" + ", ".join(v.name for v in outs) + ")"
    types = [tensor_type(v) for v in outs]
    result_type = types[0] if len(outs) == 1 else "(" + ", ".join(types) + ")"
    return Case(p.source(result, result_type, tiered), p.params, len(outs) > 1 or tiered,
                "auto" if tiered else "eager")


# ---- scalar functions: recursion and branches (compiler/llvm/scalar_codegen.h) ----

SCALAR_TYPES = ["int32", "int64", "float32", "float64"]
SCALAR_SUFFIX = {"int32": "", "int64": "i64", "float32": "f", "float64": "f64"}


class ScalarGen:
    def __init__(self, r, variables, helper):
        self.r, self.variables, self.helper = r, variables, helper  # variables: name -> dtype

    def literal(self, t):
        if t.startswith("int"):
            return "%d%s" % (self.r.randint(-4, 9), SCALAR_SUFFIX[t])
        return "%s%s" % (self.r.choice(["0.5", "1.25", "-2.0", "3.0", "0.1"]), SCALAR_SUFFIX[t])

    def expr(self, t, depth):
        r = self.r
        same = [n for n, dt in self.variables.items() if dt == t]
        if depth <= 0 or r.random() < 0.25:
            return r.choice(same) if same and r.random() < 0.7 else self.literal(t)
        k = r.random()
        if k < 0.45:
            ops = ["add", "subtract", "multiply", "maximum", "minimum", "divide"]
            ops += ["floor_mod", "floor_divide", "mod"] if t.startswith("int") else ["power"]
            return "%s(%s, %s)" % (r.choice(ops), self.expr(t, depth - 1), self.expr(t, depth - 1))
        if k < 0.6:
            ops = ["negative", "abs"] + ([] if t.startswith("int") else ["tanh", "exp", "sqrt", "floor", "round"])
            return "%s(%s)" % (r.choice(ops), self.expr(t, depth - 1))
        if k < 0.75:
            src = r.choice(SCALAR_TYPES)
            return "cast(%s, dtype=\"%s\")" % (self.expr(src, depth - 1), t)
        if k < 0.9:
            a = r.choice(SCALAR_TYPES)
            cond = "%s(%s, %s)" % (r.choice(["less", "greater_equal", "equal", "not_equal"]),
                                   self.expr(a, depth - 1), self.expr(a, depth - 1))
            return "if (%s) { %s } else { %s }" % (cond, self.expr(t, depth - 1), self.expr(t, depth - 1))
        if self.helper and self.helper[1] == t:
            name, result, params = self.helper
            return "%s(%s)" % (name, ", ".join(self.expr(pt, depth - 1) for pt in params))
        return self.expr(t, depth - 1)


def scalar_program(seed, r):
    """@g(%n, %a, %b) recursing %n times (sometimes tens of thousands of levels), with a
    non-recursive helper @h, called from @main; the compiled run makes them native code."""
    ta, tb = r.choice(SCALAR_TYPES), r.choice(SCALAR_TYPES)
    result = r.choice([ta, tb])
    helper_params = [r.choice(SCALAR_TYPES) for _ in range(r.randint(1, 2))]
    helper_result = r.choice(SCALAR_TYPES)
    h_vars = {"%%x%d" % i: t for i, t in enumerate(helper_params)}
    h_body = ScalarGen(r, h_vars, None).expr(helper_result, 3)
    helper = ("@h", helper_result, helper_params)
    g = ScalarGen(r, {"%n": "int32", "%a": ta, "%b": tb}, helper)
    base = g.expr(result, 2)
    step_a, step_b = g.expr(ta, 3), g.expr(tb, 3)
    combine = ScalarGen(r, {"%n": "int32", "%a": ta, "%b": tb, "%t": result}, helper).expr(result, 2)
    if "%t" not in combine:  # else the recursion is dead code
        combine = "add(%%t, %s)" % combine
    decl = lambda vs: ", ".join("%s: %s" % (n, t) for n, t in vs.items())
    source = ('#[version = "0.0.5"]\n'
              "def @h(%s) -> %s {\n  %s\n}\n\n" % (decl(h_vars), helper_result, h_body) +
              "def @g(%%n: int32, %%a: %s, %%b: %s) -> %s {\n"
              "  if (less_equal(%%n, 0)) {\n    %s\n  } else {\n"
              "    let %%t = @g(subtract(%%n, 1), %s, %s);\n    %s\n  }\n}\n\n" % (ta, tb, result, base, step_a,
                                                                                   step_b, combine) +
              "def @main(%%n: int32, %%a: %s, %%b: %s) -> %s {\n  @g(%%n, %%a, %%b)\n}\n" % (ta, tb, result))
    rng = np.random.default_rng(seed)
    depth = r.choice([0, 1, 5, 30, 200, 3000]) if r.random() < 0.95 else 150000
    value = lambda t: np.array(rng.integers(-5, 10) if t.startswith("int") else rng.uniform(-2, 2), dtype=t)
    params = [(Value("%n", (), "int32"), np.array(depth, dtype="int32")),
              (Value("%a", (), ta), value(ta)), (Value("%b", (), tb), value(tb))]
    return Case(source, params, False, "eager")


def random_program(seed):
    r = random.Random(seed)
    return scalar_program(seed, r) if r.random() < 0.15 else tensor_program(seed, r)


# ---- running and comparing ----

def run(relay, path, args, out, jit, threads):
    cmd = [relay, "run", path, "--jit=" + jit, "--out", out, "--threads", str(threads)] + args
    if jit == "auto":  # the second call of @f is compiled on the spot and runs native
        cmd += ["--jit-threshold", "2", "--jit-wait"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return proc, cmd


def load(path):
    if path.endswith(".npz"):
        z = np.load(path)
        return [z[k] for k in sorted(z.files)]
    return [np.load(path)]


def compare(a, b):
    """None when b matches the reference a, else a sentence saying how it differs."""
    if len(a) != len(b):
        return "%d results against %d" % (len(a), len(b))
    for i, (x, y) in enumerate(zip(a, b)):
        if x.shape != y.shape or x.dtype != y.dtype:
            return "result %d: %s %s against %s %s" % (i, x.shape, x.dtype, y.shape, y.dtype)
        if x.dtype.kind != "f":
            if not np.array_equal(x, y):
                return "result %d: integers differ at %d places" % (i, int(np.sum(x != y)))
            continue
        if not np.array_equal(np.isnan(x), np.isnan(y)):
            return "result %d: NaN at different places (%d against %d)" % (i, np.isnan(x).sum(), np.isnan(y).sum())
        fx, fy = np.nan_to_num(np.atleast_1d(x), nan=0.0), np.nan_to_num(np.atleast_1d(y), nan=0.0)
        if not np.array_equal(np.isinf(fx), np.isinf(fy)) or not np.array_equal(fx[np.isinf(fx)], fy[np.isinf(fy)]):
            return "result %d: infinities differ" % i
        fx[np.isinf(fx)] = 0
        fy[np.isinf(fy)] = 0
        scale = max(1.0, float(np.max(np.abs(fx))) if fx.size else 1.0)
        # float16 programs: the compiler may keep fused intermediates in float32 where the
        # interpreter rounds after every operator.
        atol, rtol = (1e-2, 1e-2) if x.dtype == np.float16 else (1e-4, 1e-3)
        err = np.abs(fx.astype(np.float64) - fy) / (scale * atol + np.abs(fx.astype(np.float64)) * rtol)
        if err.size and float(err.max()) > 1.0:
            j = np.unravel_index(int(np.argmax(err)), err.shape)
            return "result %d: at %s the interpreter has %r, the JIT %r" % (i, j, fx[j], fy[j])
    return None


def first_line(text):
    return text.strip().splitlines()[0] if text.strip() else ""


def check(relay, seed, workdir, threads):
    """("ok" | "uncomputed" | "FAIL", message) for the program of `seed`."""
    p = random_program(seed)
    case = os.path.join(workdir, "case-%d" % seed)
    os.makedirs(case, exist_ok=True)
    src = os.path.join(case, "case.relay")
    with open(src, "w") as f:
        f.write(p.source)
    args = []
    for v, data in p.params:
        path = os.path.join(case, v.name[1:] + ".npy")
        np.save(path, data)
        args += ["--arg", "%s=%s" % (v.name[1:], path)]
    ext = ".npz" if p.is_tuple else ".npy"
    ref_out, jit_out = os.path.join(case, "interpreted" + ext), os.path.join(case, "compiled" + ext)
    ref, _ = run(relay, src, args, ref_out, "off", threads)
    jit, cmd = run(relay, src, args, jit_out, p.jit, threads)
    replay = "\n  replay: " + " ".join(cmd)
    ref_error, jit_error = first_line(ref.stderr), first_line(jit.stderr)
    runtime_error = ref_error.startswith("error[E0100]")
    if ref.returncode == 1 and jit.returncode == 0 and runtime_error:
        # docs/compiler.md: compiled code raises only for what it computes (an element a
        # slice skips); the interpreter evaluates everything.
        return "uncomputed", "seed %d: only the interpreter fails: %s" % (seed, ref_error)
    if ref.returncode != jit.returncode:
        return "FAIL", "seed %d: exit %d interpreted, %d compiled\n%s%s%s" % (
            seed, ref.returncode, jit.returncode, ref.stderr, jit.stderr, replay)
    if ref.returncode != 0:
        if ref_error != jit_error:
            return "FAIL", "seed %d: different errors:\n%s%s%s" % (seed, ref.stderr, jit.stderr, replay)
        if not runtime_error:  # the program does not type: the generator's bug
            return "FAIL", "seed %d: both runs failed (a generator bug):\n%s%s" % (seed, ref.stderr, replay)
        return "ok", "seed %d: both fail alike: %s" % (seed, ref_error)
    problem = compare(load(ref_out), load(jit_out))
    if problem:
        return "FAIL", "seed %d: %s%s" % (seed, problem, replay)
    return "ok", "seed %d" % seed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("relay")
    ap.add_argument("--seeds", default="0:200")
    ap.add_argument("--keep", default=None, help="write the cases here (default: a temporary directory)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    lo, hi = (int(s) for s in a.seeds.split(":"))
    workdir = a.keep or tempfile.mkdtemp(prefix="relay-jitdiff.")
    counts = {"ok": 0, "uncomputed": 0, "FAIL": 0}
    for seed in range(lo, hi):
        verdict, message = check(a.relay, seed, workdir, a.threads)
        counts[verdict] += 1
        if verdict == "FAIL" or not a.quiet:
            print("%-10s %s" % (verdict, message), flush=True)
        if verdict != "FAIL" and not a.keep:
            shutil.rmtree(os.path.join(workdir, "case-%d" % seed))
    print("%d programs: %d agree, %d fail only interpreted (elements the compiled code does not compute), "
          "%d differ%s" % (hi - lo, counts["ok"], counts["uncomputed"], counts["FAIL"],
                           " (cases under %s)" % workdir if counts["FAIL"] or a.keep else ""))
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
