"""Writes the ONNX fuzz seeds (tests/fuzz/onnx_corpus): small models encoded here with the
protobuf wire format (field numbers of onnx.proto), covering initializers, attributes of
each kind, constant shape inputs, several outputs and symbolic dims.

    /usr/bin/python3 tests/fuzz/make_onnx_seeds.py tests/fuzz/onnx_corpus
"""
import os
import struct
import sys


def varint(v):
    out = b""
    v &= (1 << 64) - 1
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def field(num, value):
    if isinstance(value, int):
        return varint(num << 3) + varint(value)
    if isinstance(value, float):
        return varint(num << 3 | 5) + struct.pack("<f", value)
    if isinstance(value, str):
        value = value.encode()
    return varint(num << 3 | 2) + varint(len(value)) + value


def tensor(name, dtype, dims, raw):
    return b"".join(field(1, d) for d in dims) + field(2, dtype) + field(8, name) + field(9, raw)


def value_info(name, dtype, dims):
    shape = b"".join(field(1, field(1, d) if isinstance(d, int) else field(2, d)) for d in dims)
    return field(1, name) + field(2, field(1, field(1, dtype) + field(2, shape)))


def attr_int(name, v):
    return field(1, name) + field(3, v) + field(20, 2)


def attr_ints(name, vs):
    return field(1, name) + b"".join(field(8, v) for v in vs) + field(20, 7)


def attr_float(name, v):
    return field(1, name) + field(2, v) + field(20, 1)


def node(op, inputs, outputs, attrs=()):
    return (b"".join(field(1, i) for i in inputs) + b"".join(field(2, o) for o in outputs) +
            field(4, op) + b"".join(field(5, a) for a in attrs))


def model(nodes, inputs, outputs, inits=(), opset=13):
    graph = (b"".join(field(1, n) for n in nodes) + field(2, "g") + b"".join(field(5, t) for t in inits) +
             b"".join(field(11, v) for v in inputs) + b"".join(field(12, v) for v in outputs))
    return field(1, 8) + field(7, graph) + field(8, field(1, "") + field(2, opset))


def f32(*vals):
    return struct.pack("<%df" % len(vals), *vals)


def i64(*vals):
    return struct.pack("<%dq" % len(vals), *vals)


SEEDS = {
    "relu": model([node("Relu", ["x"], ["y"])], [value_info("x", 1, [1, 4])], [value_info("y", 1, [1, 4])]),
    "conv_bias": model(
        [node("Conv", ["x", "w", "b"], ["y"], [attr_ints("pads", [1, 1, 1, 1]), attr_int("group", 1)])],
        [value_info("x", 1, [1, 2, 4, 4])], [value_info("y", 1, [])],
        [tensor("w", 1, [3, 2, 3, 3], f32(*[0.1] * 54)), tensor("b", 1, [3], f32(1, 2, 3))]),
    "gemm_softmax": model(
        [node("Gemm", ["x", "w"], ["h"], [attr_int("transB", 1), attr_float("alpha", 0.5)]),
         node("Softmax", ["h"], ["y"], [attr_int("axis", -1)])],
        [value_info("x", 1, ["batch", 3])], [value_info("y", 1, [])],
        [tensor("w", 1, [2, 3], f32(1, 2, 3, 4, 5, 6))]),
    "reshape_shape_arith": model(
        [node("Shape", ["x"], ["s"]), node("Gather", ["s", "zero"], ["n"], [attr_int("axis", 0)]),
         node("Unsqueeze", ["n", "axes"], ["n1"]), node("Concat", ["n1", "minus1"], ["shape"], [attr_int("axis", 0)]),
         node("Reshape", ["x", "shape"], ["y"])],
        [value_info("x", 1, [2, 3, 4])], [value_info("y", 1, [])],
        [tensor("zero", 7, [], i64(0)), tensor("axes", 7, [1], i64(0)), tensor("minus1", 7, [1], i64(-1))]),
    "split_two_outputs": model(
        [node("Split", ["x"], ["a", "b"], [attr_int("axis", 1)]), node("Add", ["a", "b"], ["s"])],
        [value_info("x", 1, [2, 6])], [value_info("s", 1, []), value_info("a", 1, [])]),
    "pool_bn": model(
        [node("MaxPool", ["x"], ["p"], [attr_ints("kernel_shape", [2, 2]), attr_ints("strides", [2, 2])]),
         node("BatchNormalization", ["p", "g", "b", "m", "v"], ["y"])],
        [value_info("x", 1, [1, 2, 4, 4])], [value_info("y", 1, [])],
        [tensor(n, 1, [2], f32(1, 0.5)) for n in ("g", "b", "m", "v")]),
}


def main(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(out_dir, name + ".onnx"), "wb") as f:
            f.write(data)
    print("wrote %d seeds to %s" % (len(SEEDS), out_dir))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "onnx_corpus"))
