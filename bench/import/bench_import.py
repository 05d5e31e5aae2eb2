"""How long `relay import` takes on deep models, and how it grows with depth.

Writes synthetic ONNX models (tests/fuzz/make_onnx_seeds.py's encoder) of N residual
blocks, Conv(3x3, auto_pad=SAME_UPPER) -> Clip -> Add, with 16-channel float32 weights:
every block asks the type checker for shapes twice (auto_pad needs the input's size, Clip
its dtype), the importer's worst case. Prints the time per depth and the growth from the
smallest to the largest depth (1.0x per doubling would be linear... 2.0x per doubling
linear, 4.0x quadratic).

    /usr/bin/python3 bench/import/bench_import.py build/release/relay [--depths 50,100,200,400]
"""
import argparse
import os
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "fuzz"))
import make_onnx_seeds as onnx  # noqa: E402


def residual_model(blocks, channels=16, size=32):
    nodes, inits = [], []
    x = "input"
    w = struct.pack("<%df" % (channels * channels * 9), *([0.01] * (channels * channels * 9)))
    for i in range(blocks):
        inits.append(onnx.tensor("w%d" % i, 1, [channels, channels, 3, 3], w))
        nodes.append(onnx.node("Conv", [x, "w%d" % i], ["c%d" % i],
                               [onnx.field(1, "auto_pad") + onnx.field(4, "SAME_UPPER") + onnx.field(20, 3)]))
        nodes.append(onnx.node("Clip", ["c%d" % i, "lo", "hi"], ["r%d" % i]))
        nodes.append(onnx.node("Add", [x, "r%d" % i], ["a%d" % i]))
        x = "a%d" % i
    inits += [onnx.tensor("lo", 1, [], struct.pack("<f", 0.0)), onnx.tensor("hi", 1, [], struct.pack("<f", 6.0))]
    return onnx.model(nodes, [onnx.value_info("input", 1, [1, channels, size, size])],
                      [onnx.value_info(x, 1, [])], inits)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("relay")
    ap.add_argument("--depths", default="50,100,200,400")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    depths = [int(d) for d in a.depths.split(",")]
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in depths:
            path = os.path.join(tmp, "m%d.onnx" % n)
            with open(path, "wb") as f:
                f.write(residual_model(n))
            best = None
            for _ in range(a.repeat):
                t0 = time.perf_counter()
                r = subprocess.run([a.relay, "import", path, "-o", os.path.join(tmp, "m.relay")],
                                   capture_output=True, text=True)
                dt = time.perf_counter() - t0
                if r.returncode != 0:
                    sys.exit("import failed: " + r.stderr)
                best = dt if best is None else min(best, dt)
            times.append(best)
            print("%5d blocks (%5d nodes): %8.1f ms" % (n, 3 * n, best * 1e3))
    doublings = max(1e-9, (depths[-1] / depths[0]))
    import math
    per_doubling = (times[-1] / times[0]) ** (1 / math.log2(doublings))
    print("growth per doubling of depth: %.2fx (2x is linear, 4x quadratic)" % per_doubling)


if __name__ == "__main__":
    main()
