#!/usr/bin/python3
"""Fixtures for the .npy/.npz reader and writer (tests/unit/npy_test.cpp).

Writes tests/runtime/npy_data/: arrays saved by numpy in the layouts the interpreter
must read (every dtype, 0-d, empty, Fortran order, big-endian, format versions 2.0 and
3.0, savez and savez_compressed archives with ZIP64 extra fields) and manifest.json,
which lists for each file its members with dtype, shape and C-order values
(NaN/Inf as strings) so the C++ test checks the decoded contents.

With --check, instead verifies that numpy.load reads relay_written.npz (the bytes the
interpreter's writer produced, committed by the C++ test under RELAY_BLESS=1) with the
contents the C++ test wrote.

Run with Debian's numpy: /usr/bin/python3 tests/runtime/npy_cases.py [--check]
"""
import io
import json
import math
import pathlib
import sys
import zipfile

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent / "npy_data"
rng = np.random.default_rng(7)

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64"]


def sample(dtype, shape):
    dt = np.dtype(dtype)
    n = int(np.prod(shape))
    if dt.kind == "b":
        v = rng.integers(0, 2, n).astype(bool)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        v = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
    else:
        v = (rng.standard_normal(n) * 100).astype(dt)
        if n >= 4:
            v[:4] = [np.nan, np.inf, -np.inf, -0.0]
    return v.reshape(shape)


def values(a):
    out = []
    for x in np.ascontiguousarray(a).reshape(-1).tolist():
        if isinstance(x, float) and not math.isfinite(x):
            out.append(str(x))
        else:
            out.append(x)
    return out


def describe(a):
    native = a.dtype.newbyteorder("=") if a.dtype.byteorder == ">" else a.dtype
    return {"dtype": native.name, "shape": list(a.shape), "values": values(a)}


def expected_written():
    """The arrays the C++ test writes to relay_written.npz (keep in sync with npy_test.cpp)."""
    return {
        "ints": np.arange(6, dtype=np.int32).reshape(2, 3),
        "scalar": np.array(2.5, dtype=np.float64),
        "empty": np.zeros((0, 3), dtype=np.float32),
        "flags": np.array([True, False, True]),
    }


def check():
    with np.load(OUT / "relay_written.npz") as z:
        want = expected_written()
        assert sorted(z.files) == sorted(want), z.files
        for k, v in want.items():
            got = z[k]
            assert got.dtype == v.dtype and got.shape == v.shape and np.array_equal(got, v), (k, got)
    # Python's own zip reader must accept it too (CRC, directory, local headers).
    with zipfile.ZipFile(OUT / "relay_written.npz") as z:
        assert z.testzip() is None
    print("numpy.load reads relay_written.npz correctly")


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for old in list(OUT.glob("*.npy")) + [p for p in OUT.glob("*.npz") if p.name != "relay_written.npz"]:
        old.unlink()
    manifest = {}

    def save(name, a, version=None):
        if version is None:
            np.save(OUT / name, a)
        else:
            with open(OUT / name, "wb") as f:
                np.lib.format.write_array(f, a, version=version)
        manifest[name] = {"members": {"": describe(a)}}

    for dt in DTYPES:
        save(f"c_{dt}.npy", sample(dt, (3, 5)))
    save("zero_d_float64.npy", np.array(-1.25))
    save("zero_d_int8.npy", np.array(-7, dtype=np.int8))
    save("empty_float32.npy", np.zeros((0,), np.float32))
    save("empty_int16_2x0x3.npy", np.zeros((2, 0, 3), np.int16))
    save("fortran_float32_3x4.npy", np.asfortranarray(sample("float32", (3, 4))))
    save("fortran_int16_2x3x4.npy", np.asfortranarray(sample("int16", (2, 3, 4))))
    save("fortran_bool_4x3.npy", np.asfortranarray(sample("bool", (4, 3))))
    for dt in ["float16", "float32", "float64", "int16", "int32", "int64", "uint16", "uint32", "uint64"]:
        save(f"big_endian_{dt}.npy", sample(dt, (2, 3)).astype(np.dtype(dt).newbyteorder(">")))
    save("big_endian_fortran_float64.npy",
         np.asfortranarray(sample("float64", (3, 2)).astype(">f8")))
    save("version2_float32.npy", sample("float32", (2, 2)), version=(2, 0))
    save("version3_int32.npy", sample("int32", (3,)), version=(3, 0))

    archive = {
        "weights": sample("float32", (4, 3)),
        "bias": sample("float64", (3,)),
        "step": np.array(12, dtype=np.int64),
        "mask": sample("bool", (2, 2)),
        "nothing": np.zeros((0, 2), np.uint8),
        "dotted.name": np.arange(3, dtype=np.int16),
    }
    np.savez(OUT / "savez.npz", **archive)
    # Compressible, so the deflate stream is much shorter than the data.
    big = np.tile(np.arange(250, dtype=np.int32), 16).reshape(16, 250)
    np.savez_compressed(OUT / "savez_compressed.npz", big=big, **archive)
    for name, members in [("savez.npz", archive), ("savez_compressed.npz", dict(big=big, **archive))]:
        # numpy.savez gives every local header a ZIP64 extra field (id 1, 16 bytes of
        # sizes): the reader must step over it.
        data = (OUT / name).read_bytes()
        with zipfile.ZipFile(OUT / name) as z:
            for i in z.infolist():
                extra_len = int.from_bytes(data[i.header_offset + 28:i.header_offset + 30], "little")
                assert extra_len == 20, (name, i.filename, extra_len)
        manifest[name] = {"members": {k: describe(v) for k, v in members.items()},
                          "order": list(members)}

    with open(OUT / "manifest.json", "w") as out:
        json.dump(manifest, out, indent=1)
        out.write("\n")
    print(f"{len(manifest)} fixtures in {OUT}")
    if (OUT / "relay_written.npz").exists():
        check()


if __name__ == "__main__":
    if sys.argv[1:] == ["--check"]:
        check()
    else:
        main()
