"""`relay import` against ONNX's own backend test data (Debian's libonnx-testdata: each
test is a model.onnx with test_data_set_*/input_*.pb and the expected output_*.pb).

For every model of the data set:
  * `relay import` must exit 0, or 1 with E0121 diagnostics: never crash, never an
    internal error (an imported program that does not type-check);
  * a model that imports is run with `relay run` on each data set's inputs (converted
    with `relay import --tensor`) and its outputs compared with ONNX's expected ones
    (rtol 1e-3, atol 1e-5, as ONNX's backend tests for float32; exact for integers).
Every test named in onnx_expected_pass.txt must pass; a test that passes but is not listed
is reported so the list can grow (--update rewrites it).

    /usr/bin/python3 tests/import/onnx_conformance.py RELAY [--data DIR] [--jit off,eager] [--update] [FILTER]
"""
import argparse
import concurrent.futures
import glob
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = os.path.join(HERE, "onnx_expected_pass.txt")
DEFAULT_DATA = "/usr/share/libonnx-testdata/data"
SUITES = ["node", "pytorch-converted", "pytorch-operator", "simple"]


def run(cmd, timeout=120):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def params_of(relay_text):
    """The parameter names of @main, in order (the graph inputs that are not initializers)."""
    m = re.search(r"def @main\((.*?)\) ->", relay_text, re.S)
    return re.findall(r"%([A-Za-z0-9_]+):", m.group(1)) if m else []


# TensorProto.DataType -> numpy (bfloat16, strings and complex are not comparable here).
NUMPY_OF = {1: np.float32, 2: np.uint8, 3: np.int8, 4: np.uint16, 5: np.int16, 6: np.int32, 7: np.int64,
            9: np.bool_, 10: np.float16, 11: np.float64, 12: np.uint32, 13: np.uint64}


def varint(buf, pos):
    value = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, pos


def read_tensor_proto(path):
    """A TensorProto file as a numpy array, decoded here independently of `relay import
    --tensor` (a second reader of the wire format; the two are cross-checked below).
    None for element types numpy cannot hold (bfloat16, strings)."""
    buf = open(path, "rb").read()
    dims, dtype, raw, values = [], 0, None, []
    pos = 0
    while pos < len(buf):
        tag, pos = varint(buf, pos)
        field, wire = tag >> 3, tag & 7
        if wire == 0:
            v, pos = varint(buf, pos)
            payload = None
        elif wire == 1:
            v, payload, pos = buf[pos:pos + 8], None, pos + 8
        elif wire == 5:
            v, payload, pos = buf[pos:pos + 4], None, pos + 4
        else:
            n, pos = varint(buf, pos)
            payload, pos = buf[pos:pos + n], pos + n
        if field == 1:
            if payload is None:
                dims.append(v)
            else:
                p = 0
                while p < len(payload):
                    d, p = varint(payload, p)
                    dims.append(d)
        elif field == 2:
            dtype = v
        elif field == 9:
            raw = payload
        elif field == 4:
            values += list(np.frombuffer(payload, "<f4")) if payload is not None else list(np.frombuffer(v, "<f4"))
        elif field == 10:
            values += list(np.frombuffer(payload, "<f8")) if payload is not None else list(np.frombuffer(v, "<f8"))
        elif field in (5, 7, 11):
            if payload is None:
                values.append(v)
            else:
                p = 0
                while p < len(payload):
                    d, p = varint(payload, p)
                    values.append(d)
    if dtype not in NUMPY_OF:
        return None
    np_type = NUMPY_OF[dtype]
    if raw is not None:
        return np.frombuffer(raw, dtype=np.dtype(np_type).newbyteorder("<")).reshape(dims).copy()
    if np_type == np.float16:
        return np.array(values, dtype=np.uint16).view(np.float16).reshape(dims)
    if np_type in (np.float32, np.float64):
        return np.array(values, dtype=np_type).reshape(dims)
    # int32_data / int64_data hold two's-complement varints of 64 bits.
    ints = [v - (1 << 64) if v >= (1 << 63) else v for v in values]
    return np.array(ints, dtype=np.int64).astype(np_type).reshape(dims)


def tensor(relay, pb, tmp, name, cross_check):
    arr = read_tensor_proto(pb)
    if arr is None:
        return None, "skip"
    if cross_check:
        out = os.path.join(tmp, name + ".npy")
        r = run([relay, "import", "--tensor", pb, "-o", out])
        if r.returncode != 0:
            return None, "relay import --tensor: " + r.stderr.strip()
        theirs = np.load(out)
        if theirs.dtype != arr.dtype or theirs.shape != arr.shape or not np.array_equal(theirs, arr, equal_nan=True):
            return None, "relay import --tensor disagrees with the test's own reader on " + pb
    return arr, None


def compare(got, want):
    if got.shape != want.shape:
        return "shape %s, expected %s" % (got.shape, want.shape)
    if got.dtype != want.dtype:
        return "dtype %s, expected %s" % (got.dtype, want.dtype)
    if want.dtype.kind in "fc":
        if not np.allclose(got, want, rtol=1e-3, atol=1e-5, equal_nan=True):
            err = np.max(np.abs(got.astype(np.float64) - want.astype(np.float64)))
            return "values differ (max abs error %g)" % err
    elif not np.array_equal(got, want):
        return "values differ"
    return None


def check_model(relay, test_dir, tmp, modes=("off",)):
    """(status, detail): status is pass, refused, mismatch, run-error, crash, internal or
    skip (data numpy cannot hold, such as bfloat16)."""
    cross_check = "/simple/" in test_dir or "/pytorch-" in test_dir
    model = os.path.join(test_dir, "model.onnx")
    out_relay = os.path.join(tmp, "model.relay")
    r = run([relay, "import", model, "-o", out_relay])
    if r.returncode not in (0, 1) or "Sanitizer" in r.stderr:
        return "crash", "exit %d: %s" % (r.returncode, r.stderr[-2000:])
    if r.returncode == 1:
        if "internal error" in r.stderr:
            return "internal", r.stderr[-2000:]
        if "error[E0121]" not in r.stderr:
            return "crash", "exit 1 without an E0121 diagnostic: " + r.stderr[-2000:]
        first = re.search(r"error\[E0121\]: (.*)", r.stderr)
        return "refused", first.group(1) if first else ""
    with open(out_relay) as f:
        text = f.read()
    names = params_of(text)
    if "bfloat16]" in text.split("{", 1)[0]:
        return "skip", "bfloat16 inputs (numpy has no bfloat16)"
    sets = sorted(glob.glob(os.path.join(test_dir, "test_data_set_*")))
    if not sets:
        return "pass", "imported (no data sets)"
    for ds in sets:
        inputs = sorted(glob.glob(os.path.join(ds, "input_*.pb")), key=lambda p: int(re.findall(r"\d+", os.path.basename(p))[0]))
        outputs = sorted(glob.glob(os.path.join(ds, "output_*.pb")), key=lambda p: int(re.findall(r"\d+", os.path.basename(p))[0]))
        if len(inputs) != len(names):
            return "run-error", "%d inputs for %d parameters" % (len(inputs), len(names))
        args = []
        for i, (pb, name) in enumerate(zip(inputs, names)):
            arr, err = tensor(relay, pb, tmp, "in%d" % i, cross_check)
            if err:
                return ("skip", "input of an element type numpy lacks") if err == "skip" else ("run-error", "input: " + err)
            path = os.path.join(tmp, "in%d.npy" % i)
            np.save(path, arr)
            args += ["--arg", "%s=%s" % (name, path)]
        wants = []
        for i, pb in enumerate(outputs):
            arr, err = tensor(relay, pb, tmp, "want%d" % i, cross_check)
            if err:
                return ("skip", "output of an element type numpy lacks") if err == "skip" else ("run-error", "expected output: " + err)
            wants.append(arr)
        for mode in modes:
            result = os.path.join(tmp, "out.npz" if len(wants) > 1 else "out.npy")
            r = run([relay, "run", out_relay, "--jit=" + mode, "--out", result] + args)
            if r.returncode not in (0, 1) or "Sanitizer" in r.stderr:
                return "crash", "relay run --jit=%s exit %d: %s" % (mode, r.returncode, r.stderr[-2000:])
            if r.returncode != 0:
                return "run-error", "--jit=%s: %s" % (mode, r.stderr.strip().splitlines()[0] if r.stderr.strip() else "exit 1")
            if len(wants) > 1:
                with np.load(result) as z:
                    gots = [z[str(i)] for i in range(len(wants))]
            else:
                gots = [np.load(result)]
            for i, (got, want) in enumerate(zip(gots, wants)):
                problem = compare(got, want)
                if problem:
                    return "mismatch", "--jit=%s %s output %d: %s" % (mode, os.path.basename(ds), i, problem)
    return "pass", ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("relay")
    ap.add_argument("--data", default=DEFAULT_DATA)
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--jit", default="off",
                    help="comma-separated --jit modes to run each model in (off: the interpreter; eager: "
                         "compiled before it runs), each compared with ONNX's outputs")
    ap.add_argument("filter", nargs="?", default="")
    a = ap.parse_intermixed_args()
    if not os.path.isdir(a.data):
        print("onnx_conformance: no ONNX test data at %s (scripts/setup.sh installs libonnx-testdata)" % a.data)
        print("0 passed, 1 failed")
        return 1
    tests = []
    for suite in SUITES:
        for d in sorted(glob.glob(os.path.join(a.data, suite, "test_*"))):
            if os.path.exists(os.path.join(d, "model.onnx")) and a.filter in suite + "/" + os.path.basename(d):
                tests.append((suite + "/" + os.path.basename(d), d))
    with open(EXPECTED) as f:
        expected = {line.strip() for line in f if line.strip() and not line.startswith("#")}
    def one(item):
        name, d = item
        with tempfile.TemporaryDirectory() as tmp:
            try:
                return name, check_model(a.relay, d, tmp, a.jit.split(","))
            except subprocess.TimeoutExpired as e:
                return name, ("crash", "timed out: %s" % e)

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        results = dict(pool.map(one, tests))
    counts = {}
    for name, (status, detail) in sorted(results.items()):
        counts[status] = counts.get(status, 0) + 1
        if a.verbose or status in ("crash", "internal") or (name in expected and status != "pass"):
            print("%-10s %s  %s" % (status, name, detail.splitlines()[0] if detail else ""))
    print("onnx_conformance: %d models: %s" % (len(results), ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    passed = {n for n, (s, _) in results.items() if s == "pass"}
    checked = {n for n in results}
    regressions = sorted((expected & checked) - passed)
    new = sorted(passed - expected)
    broken = sorted(n for n, (s, _) in results.items() if s in ("crash", "internal"))
    if new and not a.update:
        print("onnx_conformance: %d newly passing (not in onnx_expected_pass.txt): %s" % (len(new), " ".join(new[:20])))
    if a.update:
        keep = (expected - checked) | passed
        with open(EXPECTED) as f:
            header = [line for line in f if line.startswith("#")]
        with open(EXPECTED, "w") as f:
            f.writelines(header)
            for n in sorted(keep):
                f.write(n + "\n")
        print("onnx_conformance: wrote %d names" % len(keep))
    failed = len(regressions) + len(broken)
    for n in regressions:
        print("REGRESSION %s: %s %s" % (n, results[n][0], results[n][1].splitlines()[0] if results[n][1] else ""))
    print("%d passed, %d failed" % (len(passed), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
