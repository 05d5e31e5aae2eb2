"""`relay import` from the command line: the text it writes for a small model (checked
against a reviewed golden file and run against numpy), its options, and its errors.

    /usr/bin/python3 tests/import/cli_test.py RELAY
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fuzz"))
import make_onnx_seeds as onnx  # noqa: E402  (the seed writer's protobuf encoder)

failures = []
passed = 0


def check(cond, what):
    global passed
    if cond:
        passed += 1
    else:
        failures.append(what)
        print("FAIL:", what)


def relay(*args):
    return subprocess.run([RELAY] + list(args), capture_output=True, text=True, timeout=120)


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)
    return path


def conv2d_reference(x, w, b, pad):
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    out = np.zeros((n, o, h + 2 * pad - kh + 1, wd + 2 * pad - kw + 1), np.float64)
    for i in range(out.shape[2]):
        for j in range(out.shape[3]):
            patch = xp[:, :, i:i + kh, j:j + kw].astype(np.float64)
            out[:, :, i, j] = np.tensordot(patch, w.astype(np.float64), axes=([1, 2, 3], [1, 2, 3]))
    return out + b.reshape(1, -1, 1, 1)


def main(tmp):
    # 1. A convolution with its weights: the golden text, then the numbers.
    model = write(os.path.join(tmp, "conv.onnx"), onnx.SEEDS["conv_bias"])
    out = os.path.join(tmp, "conv.relay")
    r = relay("import", model, "-o", out)
    check(r.returncode == 0, "conv imports: " + r.stderr)
    with open(out) as f:
        text = f.read()
    with open(os.path.join(HERE, "conv_bias.expected.relay")) as f:
        check(text == f.read(), "conv's text matches tests/import/conv_bias.expected.relay")
    x = np.random.default_rng(0).uniform(-1, 1, (1, 2, 4, 4)).astype(np.float32)
    np.save(os.path.join(tmp, "x.npy"), x)
    r = relay("run", out, "--arg", "x=" + os.path.join(tmp, "x.npy"), "--out", os.path.join(tmp, "y.npy"))
    check(r.returncode == 0, "the imported conv runs: " + r.stderr)
    if r.returncode == 0:
        want = conv2d_reference(x, np.full((3, 2, 3, 3), 0.1, np.float32), np.array([1, 2, 3], np.float32), 1)
        got = np.load(os.path.join(tmp, "y.npy"))
        check(got.shape == want.shape and np.allclose(got, want, rtol=1e-5, atol=1e-5), "conv's values match numpy")

    # 2. Symbolic dims: `?` without --shape, sizes with it.
    model = write(os.path.join(tmp, "gemm.onnx"), onnx.SEEDS["gemm_softmax"])
    r = relay("import", model)
    check(r.returncode == 0 and "%x: Tensor[(?, 3), float32]" in r.stdout, "a symbolic dim is `?`")
    r = relay("import", model, "--shape", "x=4,3")
    check(r.returncode == 0 and "%x: Tensor[(4, 3), float32]" in r.stdout, "--shape sizes a symbolic dim")
    r = relay("import", model, "--shape", "x=4,3,2")
    check(r.returncode == 1 and "--shape gives 3 dims for `x`, which has rank 2" in r.stderr, "--shape of the wrong rank")
    r = relay("import", model, "--shape", "x4")
    check(r.returncode == 2, "a malformed --shape is a usage error")

    # Input names that sanitise alike stay distinct parameters.
    twins = onnx.model([onnx.node("Add", ["a.b", "a_b"], ["y"])],
                       [onnx.value_info("a.b", 1, [2]), onnx.value_info("a_b", 1, [2])], [onnx.value_info("y", 1, [])])
    r = relay("import", write(os.path.join(tmp, "twins.onnx"), twins))
    check(r.returncode == 0 and "def @main(%a_b: Tensor[(2), float32], %a_b_1: Tensor[(2), float32])" in r.stdout
          and "add(%a_b, %a_b_1)" in r.stdout, "names that sanitise alike:\n" + r.stdout + r.stderr)

    # 3. An unsupported operator and a node that needs it: one error, on the node's line of
    #    the listing, with a help; the dependent node is not reported.
    bad = onnx.model([onnx.node("Frobnicate", ["x"], ["f"]), onnx.node("Relu", ["f"], ["y"]),
                      onnx.node("Einsum", ["x", "x"], ["z"])],
                     [onnx.value_info("x", 1, [2, 2])], [onnx.value_info("y", 1, []), onnx.value_info("z", 1, [])])
    r = relay("import", write(os.path.join(tmp, "bad.onnx"), bad))
    check(r.returncode == 1, "an unsupported operator exits 1")
    check(r.stderr.count("error[E0121]") == 2, "each unsupported node is one error:\n" + r.stderr)
    check("the operator `Frobnicate` is not supported" in r.stderr and "node 0: Frobnicate(x) -> f" in r.stderr,
          "the error names the operator and shows its node")
    check("node 2: Einsum(x, x) -> z" in r.stderr, "every failing node is reported")
    check("relay import --list-ops" in r.stderr, "the error points at --list-ops")
    check("Relu" not in r.stderr.split("node 2")[0].split("node 0")[1] if "node 2" in r.stderr else False,
          "the node depending on a failed one is not reported")
    r = relay("import", write(os.path.join(tmp, "bad.onnx"), bad), "--error-format=json")
    check(r.returncode == 1 and '"code":"E0121"' in r.stderr.replace(" ", ""), "E0121 in JSON")

    # 4. Not a model; a missing file.
    r = relay("import", write(os.path.join(tmp, "junk.onnx"), b"\xff\xff\xff garbage"))
    check(r.returncode == 1 and "not a protobuf-encoded ONNX model" in r.stderr, "garbage is E0121, not a crash")
    r = relay("import", os.path.join(tmp, "missing.onnx"))
    check(r.returncode == 1 and "cannot read" in r.stderr, "a missing file")

    # 5. A shape given as a graph input: dyn.reshape, or a constant with --bind.
    reshape = onnx.model([onnx.node("Reshape", ["x", "shape"], ["y"])],
                         [onnx.value_info("x", 1, [2, 3, 4]), onnx.value_info("shape", 7, [2])],
                         [onnx.value_info("y", 1, [])])
    path = write(os.path.join(tmp, "reshape.onnx"), reshape)
    r = relay("import", path)
    check(r.returncode == 0 and "dyn.reshape(%x, %shape, newshape=[])" in r.stdout and "Tensor[(?, ?), float32]" in r.stdout,
          "a run-time Reshape shape is dyn.reshape:\n" + r.stdout + r.stderr)
    slice_model = onnx.model([onnx.node("Slice", ["x", "starts", "ends"], ["y"])],
                             [onnx.value_info("x", 1, [4]), onnx.value_info("starts", 7, [1]), onnx.value_info("ends", 7, [1])],
                             [onnx.value_info("y", 1, [])])
    r = relay("import", write(os.path.join(tmp, "slice.onnx"), slice_model))
    check(r.returncode == 1 and "Slice's starts (input 2, `starts`) must be known when importing" in r.stderr
          and "--bind NAME=FILE.npy" in r.stderr, "a run-time Slice bound is refused with a hint:\n" + r.stderr)
    np.save(os.path.join(tmp, "shape.npy"), np.array([4, -1], np.int64))
    r = relay("import", path, "--bind", "shape=" + os.path.join(tmp, "shape.npy"))
    check(r.returncode == 0 and "reshape(%x, newshape=[4, -1])" in r.stdout and "%shape" not in r.stdout,
          "--bind folds the shape:\n" + r.stdout + r.stderr)

    # 6. --tensor: a TensorProto to .npy (int64 with negative values, float32).
    pb = write(os.path.join(tmp, "t.pb"), onnx.tensor("t", 7, [2, 2], onnx.i64(-1, 2, -3, 4)))
    r = relay("import", "--tensor", pb, "-o", os.path.join(tmp, "t.npy"))
    check(r.returncode == 0 and np.array_equal(np.load(os.path.join(tmp, "t.npy")), np.array([[-1, 2], [-3, 4]])),
          "--tensor converts int64")
    r = relay("import", "--tensor", pb)
    check(r.returncode == 2, "--tensor without -o is a usage error")

    # 7. --list-ops.
    r = relay("import", "--list-ops")
    ops = r.stdout.split()
    check(r.returncode == 0 and "Conv" in ops and "Resize" in ops and len(ops) >= 120, "--list-ops")


if __name__ == "__main__":
    RELAY = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        main(d)
    print("%d passed, %d failed" % (passed, len(failures)))
    sys.exit(1 if failures else 0)
