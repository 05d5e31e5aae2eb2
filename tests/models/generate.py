#!/usr/bin/python3
"""Generates standard models as Relay text, exactly as TVM 0.14 prints them.

Each model is rebuilt the way TVM 0.14's `tvm.relay.testing` builders build it (batch 1,
weights as `@main` parameters with the builders' names), then printed the way
`mod.astext(show_meta_data=False)` prints it after `InferType` (graph normal form, a
`/* ty=... */` comment on every binding and parameter, attributes only where they differ
from the declared default). The types in those comments, and the expected `@main`
signature written to NAME.types.txt, come from this file's own implementation of the
shape rules of the few operators involved, so they are independent of the C++ checker.

Sources (TVM v0.14.0, read for this file; see README.md):
  python/tvm/relay/testing/{mlp,resnet,mobilenet,squeezenet,vgg,densenet,inception_v3,
      dcgan,dqn,lstm,layers}.py           the model builders (structure, names, attributes)
  python/tvm/relay/op/nn/nn.py, op/tensor.py, op/transform.py
                                          the op wrappers (e.g. padding widened to 4 values)
  include/tvm/relay/attrs/nn.h            attribute declaration order and defaults
  src/relay/printer/relay_text_printer.cc the printer (binding order, naming, inlining)
  src/relay/analysis/util.cc (VarVisitor) free_vars, which orders the @main parameters

Usage:
  generate.py [--out DIR] [MODEL...]   write MODEL.relay and MODEL.types.txt (default: all
                                       models, into this script's directory)
  generate.py --check DIR              regenerate every model in memory and compare with the
                                       files in DIR byte for byte (exit 1 on any difference)
  generate.py --print MODEL            write one model's text to stdout
  generate.py --compare-tvm DIR        compare the models that TVM's corpus also has (mlp,
                                       resnet18, lstm, dqn) with TVM's own printouts in DIR
  generate.py --list                   list the model names
"""

import argparse
import difflib
import os
import sys

# ----------------------------------------------------------------------------------------
# Types
# ----------------------------------------------------------------------------------------


class TensorType:
    def __init__(self, shape, dtype="float32"):
        self.shape = tuple(int(d) for d in shape)
        self.dtype = dtype

    def __eq__(self, other):
        return (isinstance(other, TensorType) and self.shape == other.shape
                and self.dtype == other.dtype)

    def __str__(self):
        if not self.shape:  # rank 0 prints as the bare dtype
            return self.dtype
        # a one-dimensional shape prints as `(64)`, without a trailing comma
        return "Tensor[(%s), %s]" % (", ".join(str(d) for d in self.shape), self.dtype)


class TupleType:
    def __init__(self, fields):
        self.fields = list(fields)

    def __eq__(self, other):
        return isinstance(other, TupleType) and self.fields == other.fields

    def __str__(self):
        inner = ", ".join(str(f) for f in self.fields)
        return "(%s,)" % inner if len(self.fields) == 1 else "(%s)" % inner


class FuncType:
    def __init__(self, params, ret):
        self.params = list(params)
        self.ret = ret

    def __eq__(self, other):
        return (isinstance(other, FuncType) and self.params == other.params
                and self.ret == other.ret)

    def __str__(self):
        return "fn (%s) -> %s" % (", ".join(str(p) for p in self.params), self.ret)


def tensor(expr):
    """The TensorType of an expression (every operator input here must be a tensor)."""
    if not isinstance(expr.type, TensorType):
        raise TypeError("expected a tensor, got %s" % expr.type)
    return expr.type


def assign(expr, ty):
    """What TVM's relations do with `reporter->Assign(input, T)`: an input whose type is
    still unknown (a weight created without a shape) gets T; a known type must equal T."""
    if expr.type is None and isinstance(expr, Var):
        expr.type = ty
    elif expr.type != ty:
        raise TypeError("type mismatch: %s vs %s" % (expr.type, ty))


# ----------------------------------------------------------------------------------------
# Expressions (only the node kinds the builders create)
# ----------------------------------------------------------------------------------------


class Expr:
    type = None


class Var(Expr):
    """`relay.var(name)`; a weight's type is unknown until an operator relation fixes it.
    After InferType every variable carries its type as annotation, so the printer always
    writes `%name: T`."""

    def __init__(self, name, ty=None):
        self.name = name
        self.type = ty


class Call(Expr):
    """A call of a primitive operator (`op` is its name) or of a Function. `attrs` holds the
    attribute struct's fields as the Python wrapper set them; see OP_ATTRS."""

    def __init__(self, op, args, attrs, ty):
        self.op = op
        self.args = list(args)
        self.attrs = attrs
        self.type = ty


class Tuple(Expr):
    def __init__(self, fields):
        self.fields = list(fields)
        self.type = TupleType(f.type for f in self.fields)


class TupleGetItem(Expr):
    def __init__(self, tup, index):
        self.tuple = tup
        self.index = index
        self.type = tup.type.fields[index]


class Let(Expr):
    def __init__(self, var, value, body):
        assign(var, value.type)
        self.var = var
        self.value = value
        self.body = body
        self.type = body.type


class Function(Expr):
    def __init__(self, params, body, ret_type=None):
        if ret_type is not None and ret_type != body.type:
            raise TypeError("function body has type %s, declared %s" % (body.type, ret_type))
        self.params = list(params)
        self.body = body
        self.ret_type = body.type  # InferType fills in a missing return type
        self.type = FuncType([p.type for p in self.params], body.type)


class Constant(Expr):
    """A scalar constant (`relay.const(0.05, "float32")`); the printer inlines it as TVM
    does: `0.05f` for float32, `3` for int32, each with its `/* ty=... */`."""

    def __init__(self, value, dtype):
        self.value = value
        self.type = TensorType((), dtype)

    def text(self):
        if self.type.dtype == "float32":
            return "%gf" % self.value
        return "%d" % self.value


def var(name, shape=None, dtype="float32"):
    return Var(name, TensorType(shape, dtype) if shape is not None else None)


class ScopeBuilder:
    """relay.ScopeBuilder: `let` returns a fresh annotated Var, `get` nests the lets."""

    def __init__(self):
        self.bindings = []
        self.ret_value = None

    def let(self, name, ty, value):
        v = Var(name, ty)
        self.bindings.append((v, value))
        return v

    def ret(self, value):
        self.ret_value = value

    def get(self):
        body = self.ret_value
        for v, value in reversed(self.bindings):
            body = Let(v, value, body)
        return body


# ----------------------------------------------------------------------------------------
# Attributes: declaration order and defaults (include/tvm/relay/attrs/*.h)
# ----------------------------------------------------------------------------------------


class DType:
    """A `DataType` attribute field; prints quoted, "" is void."""

    def __init__(self, name):
        self.name = name

    def __eq__(self, other):
        return isinstance(other, DType) and self.name == other.name


REQUIRED = object()  # a field declared without a default: always printed
VOID = DType("")

# op name -> [(field, default)] in declaration order (= print order); ops without an attrs
# struct (nn.relu, add, ...) are absent.
OP_ATTRS = {
    "nn.conv2d": [("strides", [1, 1]), ("padding", [0, 0]), ("dilation", [1, 1]),
                  ("groups", 1), ("channels", None), ("kernel_size", None),
                  ("data_layout", "NCHW"), ("kernel_layout", "OIHW"), ("out_layout", ""),
                  ("out_dtype", VOID)],
    "nn.conv2d_transpose": [("channels", None), ("kernel_size", None), ("strides", [1, 1]),
                            ("output_padding", [0, 0]), ("padding", [0, 0]),
                            ("dilation", [1, 1]), ("groups", 1), ("data_layout", "NCHW"),
                            ("kernel_layout", "IOHW"), ("out_layout", ""),
                            ("out_dtype", VOID)],
    "nn.max_pool2d": [("pool_size", REQUIRED), ("strides", [1, 1]), ("dilation", [1, 1]),
                      ("padding", [0, 0]), ("layout", "NCHW"), ("out_layout", ""),
                      ("ceil_mode", False)],
    "nn.avg_pool2d": [("pool_size", REQUIRED), ("strides", [1, 1]), ("dilation", [1, 1]),
                      ("padding", [0, 0]), ("layout", "NCHW"), ("out_layout", ""),
                      ("ceil_mode", False), ("count_include_pad", False)],
    "nn.global_avg_pool2d": [("layout", "NCHW"), ("out_layout", "")],
    "nn.batch_norm": [("axis", 1), ("epsilon", 1e-5), ("center", True), ("scale", True)],
    "nn.bias_add": [("axis", 1)],
    "nn.dense": [("units", REQUIRED), ("out_dtype", VOID)],
    "nn.softmax": [("axis", -1)],
    "nn.dropout": [("rate", 0.5)],
    "concatenate": [("axis", 0)],
    "split": [("indices_or_sections", REQUIRED), ("axis", 0)],
    "reshape": [("newshape", REQUIRED), ("allowzero", False)],
    "zeros": [("shape", REQUIRED), ("dtype", VOID)],
    # include/tvm/relay/qnn/attrs.h; qnn.conv2d / qnn.dense take nn's Conv2DAttrs / DenseAttrs
    "qnn.quantize": [("out_dtype", REQUIRED), ("axis", -1)],
    "qnn.dequantize": [("out_dtype", REQUIRED), ("axis", -1)],
    "qnn.requantize": [("axis", -1), ("rounding", "None"), ("compute_dtype", "None"),
                       ("out_dtype", VOID)],
    "qnn.add": [("lhs_axis", -1), ("rhs_axis", -1)],
    "clip": [("a_min", REQUIRED), ("a_max", REQUIRED)],
}
OP_ATTRS["qnn.conv2d"] = OP_ATTRS["nn.conv2d"]
OP_ATTRS["qnn.dense"] = OP_ATTRS["nn.dense"]


def attr_equal(a, b):
    """tvm::StructuralEqual as used by VisitNonDefaultAttrs. Doubles compare with an
    absolute tolerance of 1e-9 (BaseValueEqual), which matters for DCGAN's epsilon."""
    if isinstance(a, float) or isinstance(b, float):
        return (isinstance(a, (int, float)) and isinstance(b, (int, float))
                and not isinstance(a, bool) and not isinstance(b, bool)
                and abs(a - b) < 1e-9)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(attr_equal(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def attr_value_text(v):
    if v is None:
        return "None"
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return "%gf" % v  # C++ ostream default: 6 significant digits, e.g. 2e-05f
    if isinstance(v, DType):
        return '"%s"' % v.name
    if isinstance(v, str):
        return '"%s"' % v
    if isinstance(v, list):
        return "[%s]" % ", ".join(attr_value_text(x) for x in v)
    raise TypeError("unprintable attribute value %r" % (v,))


def non_default_attrs(op, attrs):
    """`key=value` texts of the fields that differ from their declared default."""
    out = []
    for field, default in OP_ATTRS.get(op, []):
        value = attrs[field]
        if default is REQUIRED or not attr_equal(value, default):
            out.append("%s=%s" % (field, attr_value_text(value)))
    return out


def call_op(op, args, ty, **attrs):
    if op in OP_ATTRS:
        names = [f for f, _ in OP_ATTRS[op]]
        if sorted(names) != sorted(attrs):
            raise ValueError("%s: attributes %s, expected %s" % (op, sorted(attrs), names))
    elif attrs:
        raise ValueError("%s takes no attributes" % op)
    return Call(op, args, attrs if op in OP_ATTRS else None, ty)


# ----------------------------------------------------------------------------------------
# Operators: TVM's Python wrappers (argument defaults, conversions) plus this file's own
# implementation of each operator's type relation (reference §3.0, §3.7). NCHW/OIHW only.
# ----------------------------------------------------------------------------------------


def get_pad_tuple2d(padding):
    """relay.nn utils: 1 or 2 values are widened to (top, left, bottom, right)."""
    if isinstance(padding, int):
        padding = (padding, padding)
    if len(padding) == 4:
        return list(padding)
    pad_h, pad_w = padding[0] * 2, padding[1] * 2
    top, left = (pad_h + 1) // 2, (pad_w + 1) // 2
    return [top, left, pad_h - top, pad_w - left]


def window_out(size, pad_total, k, stride, dilation, ceil_mode=False):
    """Output extent of a convolution or pooling window (reference §3.0.6, §3.0.7)."""
    dilated = (k - 1) * dilation + 1
    extra = stride - 1 if ceil_mode else 0
    num = size + pad_total - dilated + extra
    if num < 0:
        raise ValueError("window larger than the padded input")
    return num // stride + 1


def conv2d(data, weight, strides=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1,
           channels=None, kernel_size=None, data_layout="NCHW", kernel_layout="OIHW",
           out_layout="", out_dtype=""):
    assert (data_layout, kernel_layout, out_layout, out_dtype) == ("NCHW", "OIHW", "", "")
    assert channels is not None and kernel_size is not None
    padding = get_pad_tuple2d(padding)
    n, c, h, w = tensor(data).shape
    kh, kw = kernel_size
    # channels and kernel_size given: the weight type is forced to
    # (channels, C_in / groups, kh, kw); for a depthwise convolution (groups == C_in ==
    # channels) this equals TVM's depthwise form (C_in, channels / C_in, kh, kw).
    assert c % groups == 0 and channels % groups == 0
    assign(weight, TensorType((channels, c // groups, kh, kw), data.type.dtype))
    oh = window_out(h, padding[0] + padding[2], kh, strides[0], dilation[0])
    ow = window_out(w, padding[1] + padding[3], kw, strides[1], dilation[1])
    return call_op("nn.conv2d", [data, weight], TensorType((n, channels, oh, ow)),
                   strides=list(strides), padding=padding, dilation=list(dilation),
                   groups=groups, channels=channels, kernel_size=list(kernel_size),
                   data_layout=data_layout, kernel_layout=kernel_layout,
                   out_layout=out_layout, out_dtype=DType(out_dtype))


def conv2d_transpose(data, weight, strides=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1,
                     channels=None, kernel_size=None, data_layout="NCHW",
                     kernel_layout="IOHW", out_layout="", output_padding=(0, 0),
                     out_dtype=""):
    assert (data_layout, kernel_layout, out_layout, out_dtype) == ("NCHW", "IOHW", "", "")
    assert channels is not None and kernel_size is not None and groups == 1
    padding = get_pad_tuple2d(padding)
    n, c, h, w = tensor(data).shape
    kh, kw = kernel_size
    # weight forced to (C_in, channels / groups, kh, kw) in IOHW
    assign(weight, TensorType((c, channels // groups, kh, kw), data.type.dtype))
    # out = stride * (in - 1) + dilated kernel - total padding + output_padding
    oh = strides[0] * (h - 1) + (kh - 1) * dilation[0] + 1 - padding[0] - padding[2] \
        + output_padding[0]
    ow = strides[1] * (w - 1) + (kw - 1) * dilation[1] + 1 - padding[1] - padding[3] \
        + output_padding[1]
    return call_op("nn.conv2d_transpose", [data, weight], TensorType((n, channels, oh, ow)),
                   channels=channels, kernel_size=list(kernel_size), strides=list(strides),
                   output_padding=list(output_padding), padding=padding,
                   dilation=list(dilation), groups=groups, data_layout=data_layout,
                   kernel_layout=kernel_layout, out_layout=out_layout,
                   out_dtype=DType(out_dtype))


def _pool2d(op, data, pool_size, strides, dilation, padding, layout, out_layout, ceil_mode,
            **extra):
    assert (layout, out_layout) == ("NCHW", "")
    padding = get_pad_tuple2d(padding)
    n, c, h, w = tensor(data).shape
    oh = window_out(h, padding[0] + padding[2], pool_size[0], strides[0], dilation[0],
                    ceil_mode)
    ow = window_out(w, padding[1] + padding[3], pool_size[1], strides[1], dilation[1],
                    ceil_mode)
    return call_op(op, [data], TensorType((n, c, oh, ow), data.type.dtype),
                   pool_size=list(pool_size), strides=list(strides), dilation=list(dilation),
                   padding=padding, layout=layout, out_layout=out_layout,
                   ceil_mode=ceil_mode, **extra)


def max_pool2d(data, pool_size=(1, 1), strides=(1, 1), dilation=(1, 1), padding=(0, 0),
               layout="NCHW", out_layout="", ceil_mode=False):
    return _pool2d("nn.max_pool2d", data, pool_size, strides, dilation, padding, layout,
                   out_layout, ceil_mode)


def avg_pool2d(data, pool_size=(1, 1), strides=(1, 1), dilation=(1, 1), padding=(0, 0),
               layout="NCHW", out_layout="", ceil_mode=False, count_include_pad=False):
    return _pool2d("nn.avg_pool2d", data, pool_size, strides, dilation, padding, layout,
                   out_layout, ceil_mode, count_include_pad=count_include_pad)


def global_avg_pool2d(data, layout="NCHW", out_layout=""):
    n, c, _, _ = tensor(data).shape
    return call_op("nn.global_avg_pool2d", [data], TensorType((n, c, 1, 1), data.type.dtype),
                   layout=layout, out_layout=out_layout)


def batch_norm(data, gamma, beta, moving_mean, moving_var, axis=1, epsilon=1e-5, center=True,
               scale=True):
    """Returns the call; TVM's wrapper returns a TupleWrapper, indexed by the caller."""
    shape = tensor(data).shape
    vec = TensorType((shape[axis],), data.type.dtype)
    for param in (gamma, beta, moving_mean, moving_var):
        assign(param, vec)  # forced to (C) with C = data.shape[axis]
    return call_op("nn.batch_norm", [data, gamma, beta, moving_mean, moving_var],
                   TupleType([data.type, vec, vec]),
                   axis=axis, epsilon=float(epsilon), center=center, scale=scale)


def bias_add(data, bias, axis=1):
    shape = tensor(data).shape
    assign(bias, TensorType((shape[axis],), data.type.dtype))
    return call_op("nn.bias_add", [data, bias], data.type, axis=axis)


def dense(data, weight, units=None, out_dtype=""):
    shape = tensor(data).shape
    assign(weight, TensorType((units, shape[-1]), data.type.dtype))  # forced to (units, K)
    return call_op("nn.dense", [data, weight], TensorType(shape[:-1] + (units,)),
                   units=units, out_dtype=DType(out_dtype))


def batch_flatten(data):
    shape = tensor(data).shape
    flat = 1
    for d in shape[1:]:
        flat *= d
    return call_op("nn.batch_flatten", [data], TensorType((shape[0], flat), data.type.dtype))


def softmax(data, axis=-1):
    return call_op("nn.softmax", [data], tensor(data), axis=axis)


def dropout(data, rate=0.5):
    """relay.nn.dropout = TupleWrapper(nn.dropout(...), 2)[0]; the op returns
    (result, mask), both of the input's type."""
    call = call_op("nn.dropout", [data], TupleType([tensor(data), data.type]), rate=float(rate))
    return TupleGetItem(call, 0)


def _unary(op):
    return lambda data: call_op(op, [data], tensor(data))


relu = _unary("nn.relu")
sigmoid = _unary("sigmoid")
tanh = _unary("tanh")


def broadcast_shape(a, b):
    """Reference §3.0.1 for constant dimensions."""
    out = []
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else None
        y = b[-i] if i <= len(b) else None
        if x is None or x == 1:
            out.append(y if y is not None else x)
        elif y is None or y == 1 or x == y:
            out.append(x)
        else:
            raise TypeError("incompatible broadcast %s and %s" % (a, b))
    return tuple(reversed(out))


def _binary(op):
    def make(lhs, rhs):
        if tensor(lhs).dtype != tensor(rhs).dtype:
            raise TypeError("dtype mismatch in %s" % op)
        ty = TensorType(broadcast_shape(lhs.type.shape, rhs.type.shape), lhs.type.dtype)
        return call_op(op, [lhs, rhs], ty)
    return make


add = _binary("add")
multiply = _binary("multiply")


def concatenate(data, axis):
    """relay.concatenate wraps the list in a new Tuple."""
    tup = Tuple(data)
    first = tensor(tup.fields[0]).shape
    axis = axis + len(first) if axis < 0 else axis
    total = 0
    for f in tup.fields:
        s = tensor(f).shape
        if len(s) != len(first) or any(s[i] != first[i] for i in range(len(s)) if i != axis):
            raise TypeError("concatenate: incompatible shapes")
        total += s[axis]
    shape = first[:axis] + (total,) + first[axis + 1:]
    return call_op("concatenate", [tup], TensorType(shape, tup.fields[0].type.dtype), axis=axis)


def split(data, indices_or_sections, axis=0):
    """Only the `sections` form; returns the call (what `.astuple()` gives)."""
    shape = tensor(data).shape
    if shape[axis] % indices_or_sections != 0:
        raise TypeError("split: %d not divisible by %d" % (shape[axis], indices_or_sections))
    part = shape[:axis] + (shape[axis] // indices_or_sections,) + shape[axis + 1:]
    ty = TupleType([TensorType(part, data.type.dtype)] * indices_or_sections)
    return call_op("split", [data], ty, indices_or_sections=indices_or_sections, axis=axis)


def reshape(data, newshape):
    """InferNewShape for the special values used here: positive sizes, 0 (copy) and one -1."""
    ishape = tensor(data).shape
    out, infer_at, used_in, used_out = [], None, set(), set()
    for i, v in enumerate(newshape):
        if v > 0:
            out.append(v)
        elif v == 0:
            used_in.add(i)
            used_out.add(len(out))
            out.append(ishape[i])
        elif v == -1:
            assert infer_at is None, "only one -1"
            infer_at = len(out)
            out.append(1)
        else:
            raise ValueError("special value %d not implemented" % v)
    if infer_at is not None:
        known_in = 1
        for i, d in enumerate(ishape):
            if i not in used_in:
                known_in *= d
        known_out = 1
        for i, d in enumerate(out):
            if i not in used_out and i != infer_at:
                known_out *= d
        out[infer_at] = known_in // known_out
    total_in, total_out = 1, 1
    for d in ishape:
        total_in *= d
    for d in out:
        total_out *= d
    assert total_in == total_out, "reshape changes the element count"
    return call_op("reshape", [data], TensorType(out, data.type.dtype),
                   newshape=list(newshape), allowzero=False)


def zeros(shape, dtype):
    return call_op("zeros", [], TensorType(shape, dtype), shape=list(shape), dtype=DType(dtype))


def call_function(fn, args):
    """relay.Call(fn, args): arguments must have the parameter types."""
    if len(args) != len(fn.params):
        raise TypeError("arity mismatch")
    for a, p in zip(args, fn.params):
        assign(a, p.type)
    return Call(fn, args, None, fn.type.ret)


# ----------------------------------------------------------------------------------------
# Layer helpers (python/tvm/relay/testing/layers.py): they create the weight variables
# named after the layer.
# ----------------------------------------------------------------------------------------


def batch_norm_infer(data, name, **kwargs):
    """layers.batch_norm_infer: vars NAME_gamma, NAME_beta, NAME_moving_mean,
    NAME_moving_var; the result is element 0 of the batch_norm tuple."""
    bn = batch_norm(data, var(name + "_gamma"), var(name + "_beta"),
                    var(name + "_moving_mean"), var(name + "_moving_var"), **kwargs)
    return TupleGetItem(bn, 0)


def conv2d_layer(data, name, weight=None, **kwargs):
    """layers.conv2d: weight NAME_weight unless one is given."""
    return conv2d(data, weight if weight is not None else var(name + "_weight"), **kwargs)


def conv2d_transpose_layer(data, name, **kwargs):
    """layers.conv2d_transpose: weight NAME_weight."""
    return conv2d_transpose(data, var(name + "_weight"), **kwargs)


def dense_add_bias(data, name, units, weight=None, bias=None):
    """layers.dense_add_bias: nn.dense then nn.bias_add(axis=-1); NAME_weight, NAME_bias."""
    weight = weight if weight is not None else var(name + "_weight")
    bias = bias if bias is not None else var(name + "_bias")
    return bias_add(dense(data, weight, units), bias, axis=-1)


# ----------------------------------------------------------------------------------------
# Models. Each mirrors the named TVM 0.14 builder at batch 1 with its default arguments.
# ----------------------------------------------------------------------------------------


def model_mlp():
    """testing/mlp.py get_net(1): 784-128-64-10 perceptron on a 1x1x28x28 image."""
    data = var("data", (1, 1, 28, 28))
    net = batch_flatten(data)
    net = bias_add(dense(net, var("fc1_weight"), units=128), var("fc1_bias"), axis=-1)
    net = relu(net)
    net = bias_add(dense(net, var("fc2_weight"), units=64), var("fc2_bias"), axis=-1)
    net = relu(net)
    net = bias_add(dense(net, var("fc3_weight"), units=10), var("fc3_bias"), axis=-1)
    return softmax(net)


def resnet_residual_unit(data, num_filter, stride, dim_match, name, bottle_neck):
    """testing/resnet.py residual_unit: pre-activation units (BN-ReLU-conv, the MXNet
    tornadomeet/ResNet variant); bottleneck units reduce to num_filter/4 channels with a 1x1
    conv, apply the 3x3 conv, expand with a 1x1 conv. The projection shortcut NAME_sc (1x1,
    same stride) reads the first activation; an identity shortcut reads the unit input."""
    act1 = relu(batch_norm_infer(data, name + "_bn1", epsilon=2e-5, axis=1))
    if bottle_neck:
        inner = int(num_filter * 0.25)
        conv1 = conv2d_layer(act1, name + "_conv1", channels=inner, kernel_size=(1, 1),
                             strides=stride, padding=(0, 0))
        act2 = relu(batch_norm_infer(conv1, name + "_bn2", epsilon=2e-5, axis=1))
        conv2 = conv2d_layer(act2, name + "_conv2", channels=inner, kernel_size=(3, 3),
                             strides=(1, 1), padding=(1, 1))
        act3 = relu(batch_norm_infer(conv2, name + "_bn3", epsilon=2e-5, axis=1))
        last = conv2d_layer(act3, name + "_conv3", channels=num_filter, kernel_size=(1, 1),
                            strides=(1, 1), padding=(0, 0))
    else:
        conv1 = conv2d_layer(act1, name + "_conv1", channels=num_filter, kernel_size=(3, 3),
                             strides=stride, padding=(1, 1))
        act2 = relu(batch_norm_infer(conv1, name + "_bn2", epsilon=2e-5, axis=1))
        last = conv2d_layer(act2, name + "_conv2", channels=num_filter, kernel_size=(3, 3),
                            strides=(1, 1), padding=(1, 1))
    if dim_match:
        shortcut = data
    else:
        # no padding argument: the wrapper's default (0, 0) still prints as [0, 0, 0, 0]
        shortcut = conv2d_layer(act1, name + "_sc", channels=num_filter, kernel_size=(1, 1),
                                strides=stride)
    return add(last, shortcut)


def resnet(num_layers):
    """testing/resnet.py get_net(1, 1000, num_layers, (3, 224, 224)), ImageNet branch:
    4 stages; 18 layers: units [2, 2, 2, 2], filters [64, 64, 128, 256, 512], basic units;
    50 layers: units [3, 4, 6, 3], filters [64, 256, 512, 1024, 2048], bottleneck units.
    Input BN without scale (bn_data), 7x7/2 conv0 + BN + ReLU + 3x3/2 max pool; stage i>1
    starts with stride 2; final BN + ReLU, global average pool, fc1 (1000), softmax."""
    units, filters, bottle_neck = {
        18: ([2, 2, 2, 2], [64, 64, 128, 256, 512], False),
        34: ([3, 4, 6, 3], [64, 64, 128, 256, 512], False),
        50: ([3, 4, 6, 3], [64, 256, 512, 1024, 2048], True),
        101: ([3, 4, 23, 3], [64, 256, 512, 1024, 2048], True),
    }[num_layers]
    data = var("data", (1, 3, 224, 224))
    body = batch_norm_infer(data, "bn_data", epsilon=2e-5, axis=1, scale=False)
    body = conv2d_layer(body, "conv0", channels=filters[0], kernel_size=(7, 7),
                        strides=(2, 2), padding=(3, 3))
    body = relu(batch_norm_infer(body, "bn0", epsilon=2e-5, axis=1))
    body = max_pool2d(body, pool_size=(3, 3), strides=(2, 2), padding=(1, 1))
    for i, count in enumerate(units):
        stride = (1, 1) if i == 0 else (2, 2)
        body = resnet_residual_unit(body, filters[i + 1], stride, False,
                                    "stage%d_unit1" % (i + 1), bottle_neck)
        for j in range(count - 1):
            body = resnet_residual_unit(body, filters[i + 1], (1, 1), True,
                                        "stage%d_unit%d" % (i + 1, j + 2), bottle_neck)
    body = relu(batch_norm_infer(body, "bn1", epsilon=2e-5, axis=1))
    body = batch_flatten(global_avg_pool2d(body))
    return softmax(dense_add_bias(body, "fc1", units=1000))


def model_resnet18():
    return resnet(18)


def model_resnet50():
    return resnet(50)


def mobilenet_conv_block(data, name, channels, strides=(1, 1)):
    """testing/mobilenet.py conv_block: 3x3 conv (pad 1) + BN + ReLU."""
    conv = conv2d_layer(data, name + "_conv", channels=channels, kernel_size=(3, 3),
                        strides=strides, padding=(1, 1))
    return relu(batch_norm_infer(conv, name + "_bn", epsilon=1e-5))


def mobilenet_separable_block(data, name, depthwise_channels, pointwise_channels,
                              downsample=False):
    """testing/mobilenet.py separable_conv_block: depthwise 3x3 conv (groups = channels,
    stride 2 when downsampling; its weight NAME_weight is created with its shape
    (C, 1, 3, 3)) + BN + ReLU, then pointwise 1x1 conv + BN + ReLU."""
    strides = (2, 2) if downsample else (1, 1)
    weight = var(name + "_weight", (depthwise_channels, 1, 3, 3))
    conv1 = conv2d_layer(data, name + "_depthwise_conv1", weight=weight,
                         channels=depthwise_channels, groups=depthwise_channels,
                         kernel_size=(3, 3), strides=strides, padding=(1, 1))
    act1 = relu(batch_norm_infer(conv1, name + "_bn1", epsilon=1e-5, axis=1))
    conv2 = conv2d_layer(act1, name + "_conv2", channels=pointwise_channels,
                         kernel_size=(1, 1), strides=(1, 1), padding=(0, 0))
    return relu(batch_norm_infer(conv2, name + "_bn2", epsilon=1e-5, axis=1))


def model_mobilenet():
    """testing/mobilenet.py mobile_net (v1, alpha 1.0, not shallow), 3x224x224: a strided
    3x3 conv to 32 channels, 13 depthwise-separable blocks (64, 128/2, 128, 256/2, 256,
    512/2, 5 x 512, 1024/2, 1024), global average pool, fc (1000) + bias, softmax."""
    data = var("data", (1, 3, 224, 224))
    body = mobilenet_conv_block(data, "conv_block_1", 32, strides=(2, 2))
    blocks = [(32, 64, False), (64, 128, True), (128, 128, False), (128, 256, True),
              (256, 256, False), (256, 512, True)]
    blocks += [(512, 512, False)] * 5 + [(512, 1024, True), (1024, 1024, False)]
    for i, (dw, pw, down) in enumerate(blocks):
        body = mobilenet_separable_block(body, "separable_conv_block_%d" % (i + 1), dw, pw,
                                         downsample=down)
    body = batch_flatten(global_avg_pool2d(body))
    fc = dense(body, var("fc_weight"), units=1000)
    return softmax(bias_add(fc, var("fc_bias")))


def squeezenet_fire_conv(net, channels, kernel_size, padding, prefix):
    """testing/squeezenet.py _make_fire_conv: conv PREFIX_conv + bias + ReLU."""
    net = conv2d_layer(net, prefix + "_conv", channels=channels,
                       kernel_size=(kernel_size, kernel_size), padding=(padding, padding))
    return relu(bias_add(net, var(prefix + "_conv_bias")))


def squeezenet_fire(net, squeeze, expand1x1, expand3x3, prefix):
    """testing/squeezenet.py _make_fire: 1x1 squeeze, then 1x1 and 3x3 expands
    concatenated on the channel axis."""
    net = squeezenet_fire_conv(net, squeeze, 1, 0, prefix + "_input")
    left = squeezenet_fire_conv(net, expand1x1, 1, 0, prefix + "_left")
    right = squeezenet_fire_conv(net, expand3x3, 3, 1, prefix + "_right")
    return concatenate([left, right], axis=1)


def squeezenet(version):
    """testing/squeezenet.py get_net(1, (3, 224, 224), 1000, version). 1.0: 7x7/2 conv to
    96 (pad 3), max pools (3x3/2, no padding, floor mode) after conv1, fire3 and fire7;
    1.1: 3x3/2 conv to 64 (pad 1), max pools after conv1, fire2, fire4. Then dropout,
    1x1 conv_final to 1000 classes + bias + ReLU, global average pool, softmax."""
    net = var("data", (1, 3, 224, 224))
    fires = [(16, 64), (16, 64), (32, 128), (32, 128), (48, 192), (48, 192), (64, 256),
             (64, 256)]
    if version == "1.0":
        net = conv2d_layer(net, "conv1", channels=96, kernel_size=(7, 7), strides=(2, 2),
                           padding=(3, 3))
        pool_after = {0, 3, 7}  # before fire1, fire4 and fire8
    else:
        net = conv2d_layer(net, "conv1", channels=64, kernel_size=(3, 3), strides=(2, 2),
                           padding=(1, 1))
        pool_after = {0, 2, 4}  # before fire1, fire3 and fire5
    net = relu(bias_add(net, var("conv1_bias")))
    for i, (squeeze, expand) in enumerate(fires):
        if i in pool_after:
            net = max_pool2d(net, pool_size=(3, 3), strides=(2, 2))
        net = squeezenet_fire(net, squeeze, expand, expand, "fire%d" % (i + 1))
    net = dropout(net, rate=0.5)
    net = conv2d_layer(net, "conv_final", channels=1000, kernel_size=(1, 1))
    net = relu(bias_add(net, var("conv_final_bias")))
    net = batch_flatten(global_avg_pool2d(net))
    return softmax(net)


def model_squeezenet1_0():
    return squeezenet("1.0")


def model_squeezenet1_1():
    return squeezenet("1.1")


def model_vgg11():
    """testing/vgg.py get_net(1, (3, 224, 224), 1000, num_layers=11, batch_norm=False):
    conv layers per stage [1, 1, 2, 2, 2] with filters [64, 128, 256, 512, 512], each
    3x3/pad 1 conv + bias + ReLU, a 2x2/2 max pool after each stage; classifier fc6 (4096)
    + ReLU + dropout, fc7 (4096) + ReLU + dropout, fc8 (1000), softmax."""
    net = var("data", (1, 3, 224, 224))
    for i, (count, filters) in enumerate(zip([1, 1, 2, 2, 2], [64, 128, 256, 512, 512])):
        for j in range(count):
            name = "conv%d_%d" % (i + 1, j + 1)
            net = conv2d_layer(net, name, kernel_size=(3, 3), padding=(1, 1), channels=filters)
            net = relu(bias_add(net, var(name + "_bias")))
        net = max_pool2d(net, pool_size=(2, 2), strides=(2, 2))
    net = batch_flatten(net)
    net = dropout(relu(dense_add_bias(net, "fc6", units=4096)), rate=0.5)
    net = dropout(relu(dense_add_bias(net, "fc7", units=4096)), rate=0.5)
    return softmax(dense_add_bias(net, "fc8", units=1000))


def densenet_layer(data, growth_rate, bn_size, index):
    """testing/densenet.py _make_dense_layer: BN-ReLU-1x1 conv (bn_size * growth) and
    BN-ReLU-3x3 conv (growth, pad 1)."""
    net = relu(batch_norm_infer(data, "batch_1_" + index))
    net = conv2d_layer(net, "conv2d_1_" + index, channels=bn_size * growth_rate,
                       kernel_size=(1, 1))
    net = relu(batch_norm_infer(net, "batch_2_" + index))
    return conv2d_layer(net, "conv2d_2_" + index, channels=growth_rate, kernel_size=(3, 3),
                        padding=(1, 1))


def model_densenet121():
    """testing/densenet.py get_workload(121, 1000, batch 1): 64 initial features, growth 32,
    blocks [6, 12, 24, 16], bn_size 4. Conv 7x7/2 + BN + ReLU + max pool 3x3/2 pad 1; each
    block concatenates its layers' outputs (TVM's builder feeds every layer only the
    previous layer's output, so a block's output has num_layers * 32 channels); each
    transition is BN-ReLU-1x1 conv to num_features // 2 (the builder's running count
    num_features += num_layers * 32) and a 2x2/2 average pool; then BN + ReLU, a 7x7
    average pool, flatten and a dense layer (1000) + bias. No softmax."""
    growth_rate, bn_size, block_config = 32, 4, [6, 12, 24, 16]
    num_features = 64
    data = var("data", (1, 3, 224, 224))
    net = conv2d_layer(data, "conv1", channels=num_features, kernel_size=(7, 7),
                       strides=(2, 2), padding=(3, 3))
    net = relu(batch_norm_infer(net, "batch1"))
    net = max_pool2d(net, pool_size=(3, 3), strides=(2, 2), padding=(1, 1))
    for i, num_layers in enumerate(block_config):
        outputs = []
        for j in range(num_layers):
            net = densenet_layer(net, growth_rate, bn_size, "%d_%d" % (i, j))
            outputs.append(net)
        net = concatenate(outputs, 1)
        num_features += num_layers * growth_rate
        if i != len(block_config) - 1:
            net = relu(batch_norm_infer(net, "batch_t_%d" % i))
            net = conv2d_layer(net, "conv_t_%d" % i, channels=num_features // 2,
                               kernel_size=(1, 1))
            net = avg_pool2d(net, pool_size=(2, 2), strides=(2, 2))
            num_features //= 2
    net = relu(batch_norm_infer(net, "batch2"))
    net = batch_flatten(avg_pool2d(net, pool_size=(7, 7)))
    return dense_add_bias(net, "dense", units=1000)


def inception_conv(data, num_filter, kernel=(1, 1), stride=(1, 1), pad=(0, 0), name=None,
                   suffix=""):
    """testing/inception_v3.py Conv: conv NAME{suffix}_conv1 + BN (eps 2e-5, no scale)
    NAME{suffix}_bn + ReLU."""
    net = conv2d_layer(data, "%s%s_conv1" % (name, suffix), channels=int(num_filter),
                       kernel_size=kernel, strides=stride, padding=pad)
    net = batch_norm_infer(net, "%s%s_bn" % (name, suffix), epsilon=2e-5, scale=False)
    return relu(net)


def inception_pool(data, kernel, stride, pad, pool_type):
    """testing/inception_v3.py Pooling: average pools count the padding."""
    if pool_type == "max":
        return max_pool2d(data, pool_size=kernel, strides=stride, padding=pad)
    return avg_pool2d(data, pool_size=kernel, strides=stride, padding=pad,
                      count_include_pad=True)


def inception_7a(data, n1x1, n3x3_red, n3x3_1, n3x3_2, n5x5_red, n5x5, pool, proj, name):
    t1 = inception_conv(data, n1x1, name=name + "_conv")
    t5 = inception_conv(data, n5x5_red, name=name + "_tower", suffix="_conv")
    t5 = inception_conv(t5, n5x5, kernel=(5, 5), pad=(2, 2), name=name + "_tower",
                        suffix="_conv_1")
    t3 = inception_conv(data, n3x3_red, name=name + "_tower_1", suffix="_conv")
    t3 = inception_conv(t3, n3x3_1, kernel=(3, 3), pad=(1, 1), name=name + "_tower_1",
                        suffix="_conv_1")
    t3 = inception_conv(t3, n3x3_2, kernel=(3, 3), pad=(1, 1), name=name + "_tower_1",
                        suffix="_conv_2")
    pooling = inception_pool(data, (3, 3), (1, 1), (1, 1), pool)
    cproj = inception_conv(pooling, proj, name=name + "_tower_2", suffix="_conv")
    return concatenate([t1, t5, t3, cproj], axis=1)


def inception_7b(data, n3x3, nd3x3_red, nd3x3_1, nd3x3_2, pool, name):
    t3 = inception_conv(data, n3x3, kernel=(3, 3), pad=(0, 0), stride=(2, 2),
                        name=name + "_conv")
    td = inception_conv(data, nd3x3_red, name=name + "_tower", suffix="_conv")
    td = inception_conv(td, nd3x3_1, kernel=(3, 3), pad=(1, 1), stride=(1, 1),
                        name=name + "_tower", suffix="_conv_1")
    td = inception_conv(td, nd3x3_2, kernel=(3, 3), pad=(0, 0), stride=(2, 2),
                        name=name + "_tower", suffix="_conv_2")
    pooling = inception_pool(data, (3, 3), (2, 2), (0, 0), "max")
    return concatenate([t3, td, pooling], axis=1)


def inception_7c(data, n1x1, nd7_red, nd7_1, nd7_2, nq7_red, nq7_1, nq7_2, nq7_3, nq7_4,
                 pool, proj, name):
    t1 = inception_conv(data, n1x1, kernel=(1, 1), name=name + "_conv")
    td = inception_conv(data, nd7_red, name=name + "_tower", suffix="_conv")
    td = inception_conv(td, nd7_1, kernel=(1, 7), pad=(0, 3), name=name + "_tower",
                        suffix="_conv_1")
    td = inception_conv(td, nd7_2, kernel=(7, 1), pad=(3, 0), name=name + "_tower",
                        suffix="_conv_2")
    tq = inception_conv(data, nq7_red, name=name + "_tower_1", suffix="_conv")
    tq = inception_conv(tq, nq7_1, kernel=(7, 1), pad=(3, 0), name=name + "_tower_1",
                        suffix="_conv_1")
    tq = inception_conv(tq, nq7_2, kernel=(1, 7), pad=(0, 3), name=name + "_tower_1",
                        suffix="_conv_2")
    tq = inception_conv(tq, nq7_3, kernel=(7, 1), pad=(3, 0), name=name + "_tower_1",
                        suffix="_conv_3")
    tq = inception_conv(tq, nq7_4, kernel=(1, 7), pad=(0, 3), name=name + "_tower_1",
                        suffix="_conv_4")
    pooling = inception_pool(data, (3, 3), (1, 1), (1, 1), pool)
    cproj = inception_conv(pooling, proj, kernel=(1, 1), name=name + "_tower_2",
                           suffix="_conv")
    return concatenate([t1, td, tq, cproj], axis=1)


def inception_7d(data, n3x3_red, n3x3, nd7_3x3_red, nd7_1, nd7_2, nd7_3x3, pool, name):
    t3 = inception_conv(data, n3x3_red, name=name + "_tower", suffix="_conv")
    t3 = inception_conv(t3, n3x3, kernel=(3, 3), pad=(0, 0), stride=(2, 2),
                        name=name + "_tower", suffix="_conv_1")
    td = inception_conv(data, nd7_3x3_red, name=name + "_tower_1", suffix="_conv")
    td = inception_conv(td, nd7_1, kernel=(1, 7), pad=(0, 3), name=name + "_tower_1",
                        suffix="_conv_1")
    td = inception_conv(td, nd7_2, kernel=(7, 1), pad=(3, 0), name=name + "_tower_1",
                        suffix="_conv_2")
    td = inception_conv(td, nd7_3x3, kernel=(3, 3), stride=(2, 2), name=name + "_tower_1",
                        suffix="_conv_3")
    pooling = inception_pool(data, (3, 3), (2, 2), (0, 0), pool)
    return concatenate([t3, td, pooling], axis=1)


def inception_7e(data, n1x1, nd3_red, nd3_1, nd3_2, n3x3_d3_red, n3x3, n3x3_d3_1,
                 n3x3_d3_2, pool, proj, name):
    t1 = inception_conv(data, n1x1, kernel=(1, 1), name=name + "_conv")
    td3 = inception_conv(data, nd3_red, name=name + "_tower", suffix="_conv")
    td3_a = inception_conv(td3, nd3_1, kernel=(1, 3), pad=(0, 1), name=name + "_tower",
                           suffix="_mixed_conv")
    td3_b = inception_conv(td3, nd3_2, kernel=(3, 1), pad=(1, 0), name=name + "_tower",
                           suffix="_mixed_conv_1")
    t33 = inception_conv(data, n3x3_d3_red, name=name + "_tower_1", suffix="_conv")
    t33 = inception_conv(t33, n3x3, kernel=(3, 3), pad=(1, 1), name=name + "_tower_1",
                         suffix="_conv_1")
    t33_a = inception_conv(t33, n3x3_d3_1, kernel=(1, 3), pad=(0, 1), name=name + "_tower_1",
                           suffix="_mixed_conv")
    t33_b = inception_conv(t33, n3x3_d3_2, kernel=(3, 1), pad=(1, 0), name=name + "_tower_1",
                           suffix="_mixed_conv_1")
    pooling = inception_pool(data, (3, 3), (1, 1), (1, 1), pool)
    cproj = inception_conv(pooling, proj, kernel=(1, 1), name=name + "_tower_2",
                           suffix="_conv")
    return concatenate([t1, td3_a, td3_b, t33_a, t33_b, cproj], axis=1)


def model_inception_v3():
    """testing/inception_v3.py get_net(1, 1000, (3, 299, 299)): stem (3x3/2 conv 32,
    3x3 conv 32, 3x3/pad 1 conv 64, 3x3/2 max pool, 1x1 conv 80, 3x3 conv 192, 3x3/2 max
    pool), three 7A blocks (35x35), 7B (to 17x17), four 7C blocks (factorised 1x7/7x1),
    7D (to 8x8), two 7E blocks (the second with a max pool tower), an 8x8 average pool
    (count_include_pad), dense with weight fc1_weight and bias fc2_bias (the builder's
    names), softmax. Every conv is followed by BN (eps 2e-5, no scale) and ReLU."""
    data = var("data", (1, 3, 299, 299))
    net = inception_conv(data, 32, kernel=(3, 3), stride=(2, 2), name="conv")
    net = inception_conv(net, 32, kernel=(3, 3), name="conv_1")
    net = inception_conv(net, 64, kernel=(3, 3), pad=(1, 1), name="conv_2")
    net = inception_pool(net, (3, 3), (2, 2), (0, 0), "max")
    net = inception_conv(net, 80, kernel=(1, 1), name="conv_3")
    net = inception_conv(net, 192, kernel=(3, 3), name="conv_4")
    net = inception_pool(net, (3, 3), (2, 2), (0, 0), "max")
    net = inception_7a(net, 64, 64, 96, 96, 48, 64, "avg", 32, "mixed")
    net = inception_7a(net, 64, 64, 96, 96, 48, 64, "avg", 64, "mixed_1")
    net = inception_7a(net, 64, 64, 96, 96, 48, 64, "avg", 64, "mixed_2")
    net = inception_7b(net, 384, 64, 96, 96, "max", "mixed_3")
    net = inception_7c(net, 192, 128, 128, 192, 128, 128, 128, 128, 192, "avg", 192,
                       "mixed_4")
    net = inception_7c(net, 192, 160, 160, 192, 160, 160, 160, 160, 192, "avg", 192,
                       "mixed_5")
    net = inception_7c(net, 192, 160, 160, 192, 160, 160, 160, 160, 192, "avg", 192,
                       "mixed_6")
    net = inception_7c(net, 192, 192, 192, 192, 192, 192, 192, 192, 192, "avg", 192,
                       "mixed_7")
    net = inception_7d(net, 192, 320, 192, 192, 192, 192, "max", "mixed_8")
    net = inception_7e(net, 320, 384, 384, 384, 448, 384, 384, 384, "avg", 192, "mixed_9")
    net = inception_7e(net, 320, 384, 384, 384, 448, 384, 384, 384, "max", 192, "mixed_10")
    net = inception_pool(net, (8, 8), (1, 1), (0, 0), "avg")
    net = batch_flatten(net)
    net = dense(net, var("fc1_weight"), units=1000)
    net = bias_add(net, var("fc2_bias"), axis=-1)
    return softmax(net)


def dcgan_deconv2d(data, oshape, kshape, name, stride=(2, 2)):
    """testing/dcgan.py deconv2d: transposed conv to oshape with padding (k-1)//2 and the
    output padding that makes the size exact (0 for these sizes)."""
    pad_y, pad_x = (kshape[0] - 1) // 2, (kshape[1] - 1) // 2
    adj_y = (oshape[-2] + 2 * pad_y - kshape[0]) % stride[0]
    adj_x = (oshape[-1] + 2 * pad_x - kshape[1]) % stride[1]
    return conv2d_transpose_layer(data, name, kernel_size=kshape, strides=stride,
                                  channels=oshape[0], padding=(pad_y, pad_x),
                                  output_padding=(adj_y, adj_x))


def dcgan_deconv2d_bn_relu(data, prefix, oshape, kshape):
    """testing/dcgan.py deconv2d_bn_relu. The builder's epsilon 1e-5 + 1e-12 is within
    TVM's 1e-9 attribute tolerance of the default, so it is not printed."""
    net = dcgan_deconv2d(data, oshape, kshape, prefix + "_deconv")
    net = batch_norm_infer(net, prefix + "_batch_norm", epsilon=1e-5 + 1e-12, scale=False,
                           axis=1)
    return relu(net)


def model_dcgan():
    """testing/dcgan.py get_net(1): the generator, random_len 100, ngf 128, 3x64x64 out:
    dense to 4*4*1024 + ReLU, reshape to (-1, 1024, 4, 4), three 4x4/2 transposed convs
    (512, 256, 128 channels) each with BN (no scale) + ReLU, a last 4x4/2 transposed conv
    to 3 channels, tanh."""
    ngf = 128
    code = var("data", (1, 100))
    net = relu(dense(code, var("dense_weight"), units=4 * 4 * ngf * 8))
    net = reshape(net, newshape=(-1, ngf * 8, 4, 4))
    net = dcgan_deconv2d_bn_relu(net, "g2", (ngf * 4, 8, 8), (4, 4))
    net = dcgan_deconv2d_bn_relu(net, "g3", (ngf * 2, 16, 16), (4, 4))
    net = dcgan_deconv2d_bn_relu(net, "g4", (ngf, 32, 32), (4, 4))
    net = dcgan_deconv2d(net, (3, 64, 64), (4, 4), "g5_deconv")
    return tanh(net)


def model_dqn():
    """testing/dqn.py get_net(1): the Nature DQN on 4x84x84 frames: conv 8x8/4 to 32,
    4x4/2 to 64, 3x3/1 to 64 (no padding, each + bias + ReLU), dense1 (512) + ReLU,
    dense2 (18 actions). The conv bias_add uses axis 1 (the default, not printed)."""
    data = var("data", (1, 4, 84, 84))
    net = data
    for name, kernel, stride, channels in [("conv1", 8, 4, 32), ("conv2", 4, 2, 64),
                                           ("conv3", 3, 1, 64)]:
        bias = var(name + "_bias")
        net = conv2d_layer(net, name, kernel_size=(kernel, kernel), strides=(stride, stride),
                           padding=(0, 0), channels=channels)
        net = relu(bias_add(net, bias, 1))
    net = batch_flatten(net)
    net = relu(dense_add_bias(net, "dense1", units=512))
    return dense_add_bias(net, "dense2", units=18)


def lstm_cell(num_hidden, batch_size=1, dtype="float32"):
    """testing/lstm.py lstm_cell: fn (inputs, states, i2h_weight, i2h_bias, h2h_weight,
    h2h_bias) with annotated parameters; gates = i2h + h2h split in 4 (in, forget,
    transform, out); returns (next_h, (next_h, next_c)). Built with `let` bindings."""
    input_type = TensorType((batch_size, num_hidden), dtype)
    weight_type = TensorType((4 * num_hidden, num_hidden), dtype)
    bias_type = TensorType((4 * num_hidden,), dtype)
    dense_type = TensorType((batch_size, 4 * num_hidden), dtype)
    state_type = TupleType([input_type, input_type])
    slice_type = TupleType([input_type] * 4)
    ret_type = TupleType([input_type, state_type])

    inputs = Var("inputs", input_type)
    states = Var("states", state_type)
    i2h_weight, i2h_bias = Var("i2h_weight", weight_type), Var("i2h_bias", bias_type)
    h2h_weight, h2h_bias = Var("h2h_weight", weight_type), Var("h2h_bias", bias_type)

    b = ScopeBuilder()
    i2h = b.let("i2h", dense_type, dense_add_bias(inputs, "", units=num_hidden * 4,
                                                  weight=i2h_weight, bias=i2h_bias))
    h2h = b.let("h2h", dense_type, dense_add_bias(TupleGetItem(states, 0), "",
                                                  units=num_hidden * 4, weight=h2h_weight,
                                                  bias=h2h_bias))
    gates = b.let("gates", dense_type, add(i2h, h2h))
    slice_gates = b.let("slice_gates", slice_type, split(gates, indices_or_sections=4, axis=1))
    in_gate = b.let("in_gate", input_type, sigmoid(TupleGetItem(slice_gates, 0)))
    forget_gate = b.let("forget_gate", input_type, sigmoid(TupleGetItem(slice_gates, 1)))
    in_transform = b.let("in_transform", input_type, tanh(TupleGetItem(slice_gates, 2)))
    out_gate = b.let("out_gate", input_type, sigmoid(TupleGetItem(slice_gates, 3)))
    next_c = b.let("next_c", input_type,
                   add(multiply(forget_gate, TupleGetItem(states, 1)),
                       multiply(in_gate, in_transform)))
    next_h = b.let("next_h", input_type, multiply(out_gate, tanh(next_c)))
    ret = b.let("ret", ret_type, Tuple([next_h, Tuple([next_h, next_c])]))
    b.ret(ret)
    return Function([inputs, states, i2h_weight, i2h_bias, h2h_weight, h2h_bias], b.get(),
                    ret_type)


def model_lstm(iterations=4, num_hidden=16):
    """testing/lstm.py get_net(iterations=4, num_hidden=16, batch 1): zero initial states;
    each step calls a fresh lstm_cell function on a fresh input `data` and its own weights
    i2h_I_weight/bias, h2h_I_weight/bias; the result is the last step's output. (Other
    sizes for bench/compiler/bench_models.py.)"""
    batch_size, dtype = 1, "float32"
    input_type = TensorType((batch_size, num_hidden), dtype)
    weight_type = TensorType((4 * num_hidden, num_hidden), dtype)
    bias_type = TensorType((4 * num_hidden,), dtype)
    state_type = TupleType([input_type, input_type])
    cell_type = TupleType([input_type, state_type])

    b = ScopeBuilder()
    zero = b.let("zeros", input_type, zeros((batch_size, num_hidden), dtype))
    states = b.let("init_states", state_type, Tuple([zero, zero]))
    out = None
    for i in range(iterations):
        args = [Var("data", input_type), states,
                Var("i2h_%d_weight" % i, weight_type), Var("i2h_%d_bias" % i, bias_type),
                Var("h2h_%d_weight" % i, weight_type), Var("h2h_%d_bias" % i, bias_type)]
        call = b.let("call_%d" % i, cell_type,
                     call_function(lstm_cell(num_hidden, batch_size, dtype), args))
        out = b.let("out_%d" % i, input_type, TupleGetItem(call, 0))
        states = b.let("states_%d" % i, state_type, TupleGetItem(call, 1))
    b.ret(out)
    return b.get(), input_type


# name -> builder; a builder returns the body of @main (and optionally its declared
# return type), @main's parameters being the body's free variables as in every builder.
# ----------------------------------------------------------------------------------------
# A quantized CNN (issue 17 §4), as TVM's TFLite frontend prints a pre-quantized int8 model
# after InferType: qnn ops with scalar scales and zero points as inline constants, the
# per-channel weight scales and int32 biases as @main parameters. tests/models/
# quantized_cnn_check.py runs it and compares with numpy, bit for bit.
# ----------------------------------------------------------------------------------------


def f32c(v):
    return Constant(v, "float32")


def i32c(v):
    return Constant(v, "int32")


def qnn_quantize(data, scale, zp, out_dtype):
    return call_op("qnn.quantize", [data, f32c(scale), i32c(zp)],
                   TensorType(tensor(data).shape, out_dtype), out_dtype=DType(out_dtype), axis=-1)


def qnn_dequantize(data, scale, zp):
    return call_op("qnn.dequantize", [data, f32c(scale), i32c(zp)],
                   TensorType(tensor(data).shape, "float32"), out_dtype=DType("float32"), axis=-1)


def qnn_requantize(data, in_scale, in_zp, out_scale, out_zp, axis=-1, out_dtype="int8"):
    return call_op("qnn.requantize", [data, in_scale, i32c(in_zp), f32c(out_scale), i32c(out_zp)],
                   TensorType(tensor(data).shape, out_dtype), axis=axis, rounding="None",
                   compute_dtype="None", out_dtype=DType(out_dtype))


def qnn_conv2d(data, weight, in_zp, in_scale, kernel_scale, channels, kernel_size, strides=(1, 1),
               padding=(0, 0)):
    """qnn.conv2d: the nn.conv2d shape rule on (data, weight), int32 accumulation."""
    padding = get_pad_tuple2d(padding)
    n, c, h, w = tensor(data).shape
    kh, kw = kernel_size
    assign(weight, TensorType((channels, c, kh, kw), "int8"))
    oh = window_out(h, padding[0] + padding[2], kh, strides[0], 1)
    ow = window_out(w, padding[1] + padding[3], kw, strides[1], 1)
    return call_op("qnn.conv2d", [data, weight, i32c(in_zp), i32c(0), f32c(in_scale), kernel_scale],
                   TensorType((n, channels, oh, ow), "int32"), strides=list(strides), padding=padding,
                   dilation=[1, 1], groups=1, channels=channels, kernel_size=list(kernel_size),
                   data_layout="NCHW", kernel_layout="OIHW", out_layout="", out_dtype=DType("int32"))


def qnn_dense(data, weight, in_zp, in_scale, kernel_scale, units):
    shape = tensor(data).shape
    assign(weight, TensorType((units, shape[-1]), "int8"))
    return call_op("qnn.dense", [data, weight, i32c(in_zp), i32c(0), f32c(in_scale), kernel_scale],
                   TensorType(shape[:-1] + (units,), "int32"), units=units, out_dtype=DType("int32"))


def int8_relu(data, zp):
    """A fused ReLU in the quantized domain: clip at the output zero point."""
    return call_op("clip", [data], tensor(data), a_min=float(zp), a_max=127.0)


# The quantization parameters: activation scale and zero point after each stage.
QCNN_INPUT = (0.0078125, 0)            # data in [-1, 1)
QCNN_BLOCKS = [("conv1", 8, 1, (0.05, -128)), ("conv2", 16, 2, (0.05, -128)),
               ("conv3", 16, 1, (0.05, -128))]
QCNN_ADD = (0.08, -128)                # conv2 + conv3 (residual)
QCNN_FC = (0.1, 3)                     # the logits


def model_quantized_cnn():
    """int8 image classifier in the TFLite-import shape: quantize (1, 3, 32, 32) float32;
    three conv blocks (3x3 conv, per-channel weight scales, int32 bias, requantize with the
    per-channel scale input_scale * weight_scale, ReLU as a clip at the zero point; the
    second with stride 2, the third added back to the second by qnn.add); flatten; a
    quantized dense head (10 units, per-channel scales) + bias, requantized; dequantize."""
    data = var("data", (1, 3, 32, 32))
    net = qnn_quantize(data, QCNN_INPUT[0], QCNN_INPUT[1], "int8")
    scale, zp = QCNN_INPUT
    outs = {}
    for name, channels, stride, (out_scale, out_zp) in QCNN_BLOCKS:
        w_scale = var(name + "_weight_scale", (channels,))
        acc = qnn_conv2d(net, var(name + "_weight"), zp, scale, w_scale, channels, (3, 3),
                         strides=(stride, stride), padding=(1, 1))
        acc = bias_add(acc, var(name + "_bias"), 1)
        rq_scale = multiply(w_scale, f32c(scale))
        net = int8_relu(qnn_requantize(acc, rq_scale, 0, out_scale, out_zp, axis=1), out_zp)
        outs[name] = net
        scale, zp = out_scale, out_zp
    a_scale, a_zp = QCNN_ADD
    net = call_op("qnn.add", [outs["conv2"], outs["conv3"], f32c(QCNN_BLOCKS[1][3][0]), i32c(QCNN_BLOCKS[1][3][1]),
                              f32c(scale), i32c(zp), f32c(a_scale), i32c(a_zp)],
                  tensor(outs["conv3"]), lhs_axis=-1, rhs_axis=-1)
    net = reshape(net, [1, -1])
    fc_scale = var("fc_weight_scale", (10,))
    acc = bias_add(qnn_dense(net, var("fc_weight"), a_zp, a_scale, fc_scale, 10), var("fc_bias"), 1)
    net = qnn_requantize(acc, multiply(fc_scale, f32c(a_scale)), 0, QCNN_FC[0], QCNN_FC[1], axis=1)
    return qnn_dequantize(net, QCNN_FC[0], QCNN_FC[1])


# ----------------------------------------------------------------------------------------
# An SSD detection head (issue 17 §4), as TVM's MXNet importer builds SSD's
# multibox_detection: anchors from vision.multibox_prior on the feature map, class and box
# predictions from 3x3 convolutions (NHWC-flattened as SSD does), softmax over the classes,
# vision.multibox_transform_loc, then vision.non_max_suppression with valid_count also
# passed as `indices` and return_indices=False. detection_head_check.py runs it against numpy.
# ----------------------------------------------------------------------------------------

OP_ATTRS.update({
    "transpose": [("axes", REQUIRED)],
    # include/tvm/relay/attrs/vision.h
    "vision.multibox_prior": [("sizes", [1.0]), ("ratios", [1.0]), ("steps", [-1.0, -1.0]),
                              ("offsets", [0.5, 0.5]), ("clip", False)],
    "vision.multibox_transform_loc": [("clip", True), ("threshold", 0.01),
                                      ("variances", [0.1, 0.1, 0.2, 0.2]),
                                      ("keep_background", False)],
    "vision.non_max_suppression": [("force_suppress", False), ("top_k", -1), ("coord_start", 2),
                                   ("score_index", 1), ("id_index", 0), ("return_indices", True),
                                   ("invalid_to_bottom", False)],
})

# The head's sizes: a 16x16 RGB image, an 8x8x8 feature map, 4 anchors per cell
# (2 sizes + 3 ratios - 1) and 3 classes including the background.
DET_SIZES, DET_RATIOS = [0.4, 0.25], [1.0, 2.0, 0.5]
DET_CLASSES = 3
DET_NMS = {"iou_threshold": 0.45, "top_k": 40}


def transpose(data, axes):
    shape = tensor(data).shape
    return call_op("transpose", [data], TensorType([shape[a] for a in axes], tensor(data).dtype),
                   axes=list(axes))


def multibox_prior(data, sizes, ratios):
    n, c, h, w = tensor(data).shape
    boxes = h * w * (len(sizes) + len(ratios) - 1)
    return call_op("vision.multibox_prior", [data], TensorType((1, boxes, 4), tensor(data).dtype),
                   sizes=list(sizes), ratios=list(ratios), steps=[-1.0, -1.0], offsets=[0.5, 0.5],
                   clip=False)


def multibox_transform_loc(cls_prob, loc_pred, anchor):
    b, _, anchors = tensor(cls_prob).shape
    ty = TupleType([TensorType((b, anchors, 6), tensor(cls_prob).dtype), TensorType((b,), "int32")])
    return call_op("vision.multibox_transform_loc", [cls_prob, loc_pred, anchor], ty, clip=True,
                   threshold=0.01, variances=[0.1, 0.1, 0.2, 0.2], keep_background=False)


def model_detection_head():
    """SSD head: conv 3x3/2 + bias + relu to an 8x8 feature map; anchors; class scores
    (conv -> NHWC -> (1, A, 3) -> (1, 3, A) -> softmax over classes) and box offsets (conv ->
    NHWC -> (1, A*4)); decoded boxes; per-class NMS keeping the 40 best. Output (1, A, 6):
    [class, score, xmin, ymin, xmax, ymax], suppressed rows -1."""
    data = var("data", (1, 3, 16, 16))
    feat = relu(bias_add(conv2d(data, var("conv_weight"), strides=(2, 2), padding=(1, 1), channels=8,
                                kernel_size=(3, 3)), var("conv_bias")))
    anchors = multibox_prior(feat, DET_SIZES, DET_RATIOS)
    per_cell = len(DET_SIZES) + len(DET_RATIOS) - 1
    cls = bias_add(conv2d(feat, var("cls_weight"), padding=(1, 1), channels=per_cell * DET_CLASSES,
                          kernel_size=(3, 3)), var("cls_bias"))
    cls = reshape(transpose(cls, [0, 2, 3, 1]), [0, -1, DET_CLASSES])
    cls_prob = softmax(transpose(cls, [0, 2, 1]), axis=1)
    loc = bias_add(conv2d(feat, var("loc_weight"), padding=(1, 1), channels=per_cell * 4,
                          kernel_size=(3, 3)), var("loc_bias"))
    loc_pred = reshape(transpose(loc, [0, 2, 3, 1]), [0, -1])
    decoded = multibox_transform_loc(cls_prob, loc_pred, anchors)
    boxes, valid = TupleGetItem(decoded, 0), TupleGetItem(decoded, 1)
    return call_op("vision.non_max_suppression",
                   [boxes, valid, valid, Constant(-1, "int32"), Constant(DET_NMS["iou_threshold"], "float32")],
                   tensor(boxes), force_suppress=False, top_k=DET_NMS["top_k"], coord_start=2,
                   score_index=1, id_index=0, return_indices=False, invalid_to_bottom=False)


# ----------------------------------------------------------------------------------------
# A quantized self-attention block, shaped as TVM's PyTorch frontend prints a quantized
# BERT layer: qnn.dense projections (per-channel weight scales, int32 biases), the heads
# split by reshape and transpose, qnn.batch_matmul for the scores and the context, softmax
# in float32 between a dequantize and a quantize (as the frontend lowers a quantized
# softmax), an output projection, a qnn.add residual and a quantized SiLU (qnn.sigmoid,
# qnn.mul). Scales and zero points print inline.
# ----------------------------------------------------------------------------------------

OP_ATTRS.update({
    "qnn.batch_matmul": [("out_dtype", VOID), ("transpose_a", False), ("transpose_b", False)],
    "qnn.mul": [("lhs_axis", -1), ("rhs_axis", -1)],
})

ATT_SEQ, ATT_HIDDEN, ATT_HEADS = 32, 64, 2
# (scale, zero point) of each stage's int8 values
ATT_INPUT = (0.0078125, 0)   # data in [-1, 1)
ATT_PROJ = (0.05, 0)         # q, k, v, the context and the output projection
ATT_SCORES = (0.1, 0)        # q . k^T
ATT_PROBS = (0.00390625, -128)  # softmax's [0, 1) in 256 steps
ATT_RESIDUAL = (0.06, 0)
ATT_GATE = (0.00390625, -128)   # sigmoid's [0, 1)
ATT_SILU = (0.05, 0)


def qnn_batch_matmul(x, y, x_q, y_q, transpose_b):
    """qnn.batch_matmul: the nn.batch_matmul shape rule (transpose_a False), int32."""
    b, m, k = tensor(x).shape
    yb, y1, y2 = tensor(y).shape
    n, yk = (y1, y2) if transpose_b else (y2, y1)
    assert yk == k and yb in (1, b), "batch_matmul shapes"
    return call_op("qnn.batch_matmul", [x, y, i32c(x_q[1]), i32c(y_q[1]), f32c(x_q[0]), f32c(y_q[0])],
                   TensorType((b, m, n), "int32"), out_dtype=DType("int32"), transpose_a=False,
                   transpose_b=transpose_b)


def quantized_projection(data, name, in_q, out_q):
    """qnn.dense (ATT_HIDDEN units, per-channel weight scales) + int32 bias, requantized."""
    w_scale = var(name + "_weight_scale", (ATT_HIDDEN,))
    acc = bias_add(qnn_dense(data, var(name + "_weight"), in_q[1], in_q[0], w_scale, ATT_HIDDEN),
                   var(name + "_bias"), 1)
    return qnn_requantize(acc, multiply(w_scale, f32c(in_q[0])), 0, out_q[0], out_q[1], axis=1)


def model_quantized_attention():
    """int8 self-attention over (32, 64) float32 tokens, 2 heads of 32: quantize; q, k, v
    projections; per head scores = q k^T (qnn.batch_matmul, transpose_b) requantized,
    softmax in float32, context = probs v (qnn.batch_matmul) requantized; heads merged; the
    output projection; + the input (qnn.add); SiLU as qnn.mul(x, qnn.sigmoid(x));
    dequantize."""
    data = var("data", (ATT_SEQ, ATT_HIDDEN))
    x = qnn_quantize(data, ATT_INPUT[0], ATT_INPUT[1], "int8")

    def heads(t):  # (seq, hidden) -> (heads, seq, hidden / heads)
        return transpose(reshape(t, [ATT_SEQ, ATT_HEADS, -1]), [1, 0, 2])

    q, k, v = (heads(quantized_projection(x, n, ATT_INPUT, ATT_PROJ)) for n in ("query", "key", "value"))
    scores = qnn_batch_matmul(q, k, ATT_PROJ, ATT_PROJ, True)
    scores = qnn_requantize(scores, f32c(ATT_PROJ[0] * ATT_PROJ[0]), 0, ATT_SCORES[0], ATT_SCORES[1])
    probs = softmax(qnn_dequantize(scores, ATT_SCORES[0], ATT_SCORES[1]), axis=-1)
    probs = qnn_quantize(probs, ATT_PROBS[0], ATT_PROBS[1], "int8")
    context = qnn_batch_matmul(probs, v, ATT_PROBS, ATT_PROJ, False)
    context = qnn_requantize(context, f32c(ATT_PROBS[0] * ATT_PROJ[0]), 0, ATT_PROJ[0], ATT_PROJ[1])
    merged = reshape(transpose(context, [1, 0, 2]), [ATT_SEQ, ATT_HIDDEN])
    out = quantized_projection(merged, "output", ATT_PROJ, ATT_PROJ)
    res = call_op("qnn.add", [out, x, f32c(ATT_PROJ[0]), i32c(ATT_PROJ[1]), f32c(ATT_INPUT[0]),
                              i32c(ATT_INPUT[1]), f32c(ATT_RESIDUAL[0]), i32c(ATT_RESIDUAL[1])],
                  tensor(out), lhs_axis=-1, rhs_axis=-1)
    gate = call_op("qnn.sigmoid", [res, f32c(ATT_RESIDUAL[0]), i32c(ATT_RESIDUAL[1]), f32c(ATT_GATE[0]),
                                   i32c(ATT_GATE[1])], tensor(res))
    silu = call_op("qnn.mul", [res, gate, f32c(ATT_RESIDUAL[0]), i32c(ATT_RESIDUAL[1]), f32c(ATT_GATE[0]),
                               i32c(ATT_GATE[1]), f32c(ATT_SILU[0]), i32c(ATT_SILU[1])],
                   tensor(res), lhs_axis=-1, rhs_axis=-1)
    return qnn_dequantize(silu, ATT_SILU[0], ATT_SILU[1])


MODELS = {
    "mlp": model_mlp,
    "resnet18": model_resnet18,
    "resnet50": model_resnet50,
    "mobilenet": model_mobilenet,
    "squeezenet1_0": model_squeezenet1_0,
    "squeezenet1_1": model_squeezenet1_1,
    "vgg11": model_vgg11,
    "densenet121": model_densenet121,
    "inception_v3": model_inception_v3,
    "dcgan": model_dcgan,
    "dqn": model_dqn,
    "lstm": model_lstm,
    "quantized_cnn": model_quantized_cnn,
    "quantized_attention": model_quantized_attention,
    "detection_head": model_detection_head,
}

# models that TVM's own printouts (the reference corpus) also contain, by corpus file name
TVM_CORPUS_NAMES = {"mlp": "mlp", "resnet18": "resnet18_224", "lstm": "lstm", "dqn": "dqn"}


# ----------------------------------------------------------------------------------------
# Traversals, as TVM does them
# ----------------------------------------------------------------------------------------


def dataflow_children(expr):
    """ExpandDataflow's expansion (include/tvm/relay/expr_functor.h): a call's callee (when
    it is an expression) comes first, then its arguments; tuple fields; a projection's
    tuple. Let and Function are leaves."""
    if isinstance(expr, Call):
        return ([expr.op] if isinstance(expr.op, Expr) else []) + expr.args
    if isinstance(expr, Tuple):
        return expr.fields
    if isinstance(expr, TupleGetItem):
        return [expr.tuple]
    return []


def expand_dataflow(root, visited, visit_leaf):
    """Post-order walk over dataflow nodes with an explicit stack, left to right."""
    if visited(root):
        return
    stack = [[root, False]]
    while stack:
        top = stack[-1]
        if visited(top[0]):
            stack.pop()
        elif top[1]:
            visit_leaf(top[0])
            stack.pop()
        else:
            top[1] = True
            for child in reversed(dataflow_children(top[0])):
                if not visited(child):
                    stack.append([child, False])


def free_vars(expr):
    """relay.analysis.free_vars (VarVisitor): variables in first-visit order of the
    post-order walk, minus those bound by functions and lets. This is the order of @main's
    parameters in every builder."""
    order, seen, bound, visited = [], set(), set(), set()

    def insert(v):
        if id(v) not in seen:
            seen.add(id(v))
            order.append(v)

    def visit(e):
        expand_dataflow(e, lambda n: id(n) in visited, leaf)

    def leaf(e):
        if isinstance(e, Var):
            insert(e)
        elif isinstance(e, Function):
            for p in e.params:
                bound.add(id(p))
                insert(p)
            visit(e.body)
        elif isinstance(e, Let):
            while isinstance(e, Let):
                bound.add(id(e.var))
                insert(e.var)
                visit(e.value)
                e = e.body
            visit(e)
        visited.add(id(e))

    visit(expr)
    return [v for v in order if id(v) not in bound]


def parent_counts(root):
    """DependencyGraph (src/relay/analysis/dependency_graph.cc) reduced to what the printer
    asks of it: how many parent edges each node has."""
    counts, seen, stack = {}, set(), [root]
    while stack:
        e = stack.pop()
        if id(e) in seen:
            continue
        seen.add(id(e))
        if isinstance(e, Let):
            children = [e.var, e.value, e.body]
        elif isinstance(e, Function):
            children = e.params + [e.body]
        else:
            children = dataflow_children(e)
        for c in children:
            counts[id(c)] = counts.get(id(c), 0) + 1
            stack.append(c)
    return counts


# ----------------------------------------------------------------------------------------
# The printer (a port of the parts of src/relay/printer/relay_text_printer.cc in use)
# ----------------------------------------------------------------------------------------


class Doc:
    """TVM's Doc: text pieces and line breaks that carry an indentation."""

    def __init__(self, *parts):
        self.items = []
        for p in parts:
            self.add(p)

    def add(self, part):
        if isinstance(part, Doc):
            self.items.extend(part.items)
        elif isinstance(part, int):  # a line break followed by `part` spaces
            self.items.append(part)
        else:
            self.items.append(str(part))
        return self

    def copy(self):
        return Doc(self)

    def indent(self, n):
        out = Doc()
        out.items = [i + n if isinstance(i, int) else i for i in self.items]
        return out

    def render(self):
        return "".join("\n" + " " * i if isinstance(i, int) else i for i in self.items)


NL = 0  # a line break at the current indentation


class Printer:
    def __init__(self):
        self.memo = {}          # id(expr) -> Doc: its text, or its %N once bound
        self.result_memo = {}
        self.var_memo = set()   # expressions already bound to a %N (and vars seen)
        self.opt_info_memo = set()
        self.name_alloc = {}
        self.temp_counter = 0
        self.doc_stack = []
        self.parents = {}

    # -- names ---------------------------------------------------------------------------
    def unique_name(self, prefix):
        name = prefix
        if prefix in self.name_alloc:
            while True:
                self.name_alloc[prefix] += 1
                candidate = "%s%d" % (prefix, self.name_alloc[prefix])
                if candidate not in self.name_alloc:
                    name = candidate
                    break
        self.name_alloc[name] = 0
        return name

    def alloc_var(self, v):
        name = v.name
        if not name or not name[0].isalpha():
            name = "v" + name
        name = self.unique_name("%" + name)
        self.memo[id(v)] = Doc(name)
        # after InferType every variable is annotated with its type
        return Doc(name, ": ", str(v.type), self.optional_info(v))

    # -- expressions ---------------------------------------------------------------------
    def optional_info(self, expr):
        if id(expr) in self.opt_info_memo:
            return Doc()
        self.opt_info_memo.add(id(expr))
        if isinstance(expr, (Var, Constant, Call, Tuple, TupleGetItem, Function)) and expr.type:
            return Doc(" /* ty=", str(expr.type), " */")
        return Doc()

    def visited(self, expr):
        return id(expr) in self.memo

    def visit_leaf(self, expr):
        if not self.visited(expr):
            result = self.dispatch(expr)
            if not self.visited(expr):
                self.memo[id(expr)] = result
            else:
                self.result_memo[id(expr)] = result
            return result
        return self.memo[id(expr)]

    def visit_expr(self, expr):
        if not self.visited(expr):
            expand_dataflow(expr, self.visited, self.visit_leaf)
        return self.memo[id(expr)]

    def print_expr(self, expr, try_inline=False):
        """PrintExpr: the first use of a non-inlined expression binds it to `%N = ...;` in
        the current scope; later uses print %N."""
        inline = isinstance(expr, (Var, Constant))  # AlwaysInline (no globals/ops here)
        if try_inline:
            inline = inline or self.parents.get(id(expr), 0) <= 1
        if not inline and isinstance(expr, Let):
            printed = Doc("(", Doc(NL, self.visit_expr(expr)).indent(2), NL, ")")
        else:
            printed = self.visit_expr(expr).copy()
        printed.add(self.optional_info(expr))
        if isinstance(expr, Var):
            if id(expr) not in self.var_memo:
                self.var_memo.add(id(expr))
                if id(expr) in self.result_memo:
                    raise ValueError("free variable %s" % expr.name)
            return self.memo[id(expr)]
        if inline:
            self.memo[id(expr)] = printed
            return printed
        if id(expr) in self.var_memo:
            return self.memo[id(expr)]
        self.var_memo.add(id(expr))
        temp = Doc("%%%d" % self.temp_counter)
        self.temp_counter += 1
        self.memo[id(expr)] = temp
        self.doc_stack[-1].add(Doc(temp, " = ", printed, ";", NL))
        return temp

    def dispatch(self, expr):
        if isinstance(expr, Var):
            return self.alloc_var(expr)
        if isinstance(expr, Constant):
            return Doc(expr.text())
        if isinstance(expr, Call):
            args = [self.print_expr(a) for a in expr.args]  # arguments first
            if expr.attrs is not None:
                args += [Doc(t) for t in non_default_attrs(expr.op, expr.attrs)]
            callee = expr.op if isinstance(expr.op, str) else self.print_expr(expr.op)
            return Doc(callee, "(", join(args), ")")
        if isinstance(expr, Tuple):
            fields = [self.print_expr(f) for f in expr.fields]
            return Doc("(", join(fields), "," if len(fields) == 1 else "", ")")
        if isinstance(expr, TupleGetItem):
            return Doc(self.print_expr(expr.tuple), ".%d" % expr.index)
        if isinstance(expr, Let):
            return self.print_let(expr)
        if isinstance(expr, Function):
            return self.print_func("fn ", expr)
        raise TypeError(expr)

    def print_let(self, expr):
        base, n = len(self.doc_stack), 0
        while isinstance(expr, Let):
            line = Doc("let ", self.alloc_var(expr.var), " = ")
            line.add(self.print_expr(expr.value, try_inline=True)).add(";").add(NL)
            self.doc_stack.append(line)
            expr = expr.body
            n += 1
        body = self.print_scope(expr)
        out = Doc()
        for i in range(n):
            out.add(self.doc_stack[base + i])
        out.add(body)
        del self.doc_stack[base:]
        return out

    def print_scope(self, expr):
        self.doc_stack.append(Doc())
        doc = self.print_expr(expr, try_inline=True)
        doc = Doc(self.doc_stack[-1], doc)
        self.doc_stack.pop()
        return doc

    def print_body(self, expr):
        return Doc("{", Doc(NL, self.print_scope(expr)).indent(2), NL, "}")

    def print_func(self, prefix, fn):
        params = [self.alloc_var(p) for p in fn.params]
        return Doc(prefix, "(", join(params), ") -> ", str(fn.ret_type), " ",
                   self.print_body(fn.body))

    def print_module(self, main):
        """`#[version]`, then `def @main...`; astext of a one-function module."""
        self.parents = parent_counts(main)
        self.doc_stack.append(Doc())
        doc = Doc('#[version = "0.0.5"]', NL, self.print_func("def @main", main), NL)
        self.doc_stack.pop()
        return doc.render()


def join(docs):
    out = Doc()
    for i, d in enumerate(docs):
        if i:
            out.add(", ")
        out.add(d)
    return out


# ----------------------------------------------------------------------------------------
# Driver
# ----------------------------------------------------------------------------------------


def build(name):
    """Returns (relay_text, types_text) for a model."""
    result = MODELS[name]()
    body, ret_type = result if isinstance(result, tuple) else (result, None)
    main = Function(free_vars(body), body, ret_type)
    for p in main.params:
        if p.type is None:
            raise TypeError("%s: parameter %%%s has no inferred type" % (name, p.name))
    return Printer().print_module(main), "@main: %s\n" % main.type


def outputs(names):
    """{file name: text} for the given models."""
    files = {}
    for name in names:
        relay_text, types_text = build(name)
        files[name + ".relay"] = relay_text
        files[name + ".types.txt"] = types_text
    return files


def read_text(path):
    try:
        with open(path, "r", encoding="utf-8", newline="") as f:
            return f.read()
    except FileNotFoundError:
        return None


def show_diff(expected, actual, expected_name, actual_name, limit=40):
    lines = list(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                      expected_name, actual_name))
    for line in lines[:limit]:
        sys.stdout.write(line if len(line) <= 400 else line[:400] + "...\n")
    if len(lines) > limit:
        print("... (%d more diff lines)" % (len(lines) - limit))


def check(directory):
    """Every generated file must exist in DIRECTORY with identical bytes, and DIRECTORY
    must hold no other NAME.relay / NAME.types.txt (a model removed from MODELS)."""
    failures = 0
    expected = outputs(MODELS)
    for fname, text in sorted(expected.items()):
        path = os.path.join(directory, fname)
        on_disk = read_text(path)
        if on_disk is None:
            print("missing: %s" % path)
            failures += 1
        elif on_disk != text:
            print("differs: %s (regenerate with generate.py)" % path)
            show_diff(on_disk, text, path, "generated")
            failures += 1
    for fname in sorted(os.listdir(directory)):
        if fname.endswith((".relay", ".types.txt")) and fname not in expected:
            print("not generated by generate.py: %s" % os.path.join(directory, fname))
            failures += 1
    print("%d files checked, %d problems" % (len(expected), failures))
    return 1 if failures else 0


def compare_tvm(directory):
    """Compare with TVM 0.14's own printouts of the same models."""
    failures = 0
    for name, corpus_name in sorted(TVM_CORPUS_NAMES.items()):
        relay_text, types_text = build(name)
        for ext, text in ((".relay", relay_text), (".types.txt", types_text)):
            path = os.path.join(directory, corpus_name + ext)
            theirs = read_text(path)
            if theirs is None:
                print("missing: %s" % path)
                failures += 1
            elif theirs != text:
                print("differs from TVM: %s" % path)
                show_diff(theirs, text, path, name + ext)
                failures += 1
            else:
                print("identical: %s%s = %s" % (name, ext, path))
    return 1 if failures else 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="*", help="models to write (default: all)")
    parser.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)),
                        help="directory to write into (default: this script's directory)")
    parser.add_argument("--check", metavar="DIR", help="compare DIR's files with the output")
    parser.add_argument("--print", metavar="MODEL", dest="print_model",
                        help="write MODEL's Relay text to stdout")
    parser.add_argument("--compare-tvm", metavar="DIR",
                        help="compare with TVM's printouts (e.g. the tvm-0.14 corpus)")
    parser.add_argument("--list", action="store_true", help="list the model names")
    args = parser.parse_args(argv)

    unknown = [m for m in args.models + ([args.print_model] if args.print_model else [])
               if m not in MODELS]
    if unknown:
        parser.error("unknown model(s): %s (known: %s)" % (", ".join(unknown),
                                                           ", ".join(MODELS)))
    if args.list:
        print("\n".join(MODELS))
        return 0
    if args.check:
        return check(args.check)
    if args.compare_tvm:
        return compare_tvm(args.compare_tvm)
    if args.print_model:
        sys.stdout.write(build(args.print_model)[0])
        return 0
    os.makedirs(args.out, exist_ok=True)
    for fname, text in sorted(outputs(args.models or list(MODELS)).items()):
        with open(os.path.join(args.out, fname), "w", encoding="utf-8", newline="") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
