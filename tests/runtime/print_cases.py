#!/usr/bin/python3
"""Golden data for tensor printing (tests/unit/tensor_print_test.cpp).

Writes tests/runtime/print_data/: one .npy per case and cases.json, a list of
{"name", "file", "str", "repr", "options"} where "str"/"repr" are numpy's own str() and
repr() of the array under the given print options (numpy 1.24 defaults otherwise).
The interpreter must reproduce both character for character.

Run with Debian's numpy: /usr/bin/python3 tests/runtime/print_cases.py
"""
import json
import pathlib
import shutil

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent / "print_data"
rng = np.random.default_rng(20240601)
cases = []


def case(name, a, **options):
    a = np.asarray(a)
    cases.append((name, a, options))


def f(values, dtype):
    with np.errstate(all="ignore"):
        return np.array(values, dtype=dtype)


# --- 0-d arrays: str() prints the scalar, repr() goes through the array formatter ---
case("scalar_f64", f(0.1, np.float64))
case("scalar_f64_sum", f(0.1 + 0.2, np.float64))  # str keeps 17 digits, repr rounds to 8
case("scalar_f64_integral", f(3.0, np.float64))
case("scalar_f64_big", f(1e16, np.float64))
case("scalar_f64_small", f(1.5e-5, np.float64))
case("scalar_f32_1e-4", f(1e-4, np.float32))  # float32(1e-4) < 1e-4: scientific
case("scalar_f16_negzero", f(-0.0, np.float16))
case("scalar_f64_nan", f(np.nan, np.float64))
case("scalar_f32_neginf", f(-np.inf, np.float32))
case("scalar_i8", f(-5, np.int8))
case("scalar_u64_max", f(2**64 - 1, np.uint64))
case("scalar_i64", f(-(2**63), np.int64))
case("scalar_bool", f(True, np.bool_))

# --- every dtype, 1-d to 4-d ---
case("bool_1d", rng.integers(0, 2, 7).astype(np.bool_))
case("bool_2d", rng.integers(0, 2, (3, 4)).astype(np.bool_))
for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64):
    info = np.iinfo(t)
    case(f"{np.dtype(t).name}_1d", rng.integers(info.min, info.max, 9, dtype=t, endpoint=True))
case("int32_2d_mixed_width", f([[1, -200, 3], [40000, 5, -6]], np.int32))
case("int64_3d", np.arange(-12, 12, dtype=np.int64).reshape(2, 3, 4))
case("uint8_4d", np.arange(48, dtype=np.uint8).reshape(2, 2, 3, 4))
case("float16_1d", f([0.1, 1.5, -2.25, 1000.0, 65504.0], np.float16))
case("float16_2d_ratio", f([[0.3, 300.1], [1.0, 2.0]], np.float16))  # ratio rounds to 1000 in half
case("float32_1d", rng.standard_normal(6).astype(np.float32))
case("float64_1d", rng.standard_normal(6))
case("float32_2d", rng.standard_normal((3, 4)).astype(np.float32))
case("float64_3d", rng.standard_normal((2, 3, 2)))
case("float32_4d", (rng.standard_normal((2, 2, 2, 3)) * 10).astype(np.float32))
case("float64_integral", f([1.0, 2.0, 100.0, -3.0], np.float64))
case("float64_maxprec", f([0.1 + 0.2, 1 / 3, 2 / 3, 1e-3], np.float64))
case("float64_extremes", f([np.finfo(np.float64).max, np.finfo(np.float64).tiny, 5e-324], np.float64))
case("float32_extremes", f([np.finfo(np.float32).max, 1e-45, 1.0], np.float32))
case("float16_subnormal", f([6e-8, 6.1e-5, 1.0], np.float16))

# --- positional vs scientific ---
case("sci_small_min", f([1e-5, 1.0, 2.5], np.float64))
case("sci_big_max", f([1e8, 1.0], np.float64))
case("pos_just_under_1e8", f([99999999.0, 1.0], np.float64))  # ratio > 1000 -> scientific anyway
case("sci_ratio", f([1.0, 1000.5], np.float32))
case("pos_ratio_1000", f([1.0, 1000.0], np.float32))
case("sci_mixed_exponents", f([1e-300, 1e300, -1.5], np.float64))
case("sci_three_digit_exp", f([1e-100, 1.0], np.float64))
case("sci_float16", f([1e-4 * 0.5, 3.0], np.float16))

# --- nan, inf, negative zero ---
case("nan_inf_mixed", f([np.nan, 1.5, -np.inf, np.inf], np.float64))
case("nan_only", f([np.nan, np.nan], np.float32))
case("inf_only", f([np.inf, -np.inf], np.float16))
case("nan_sci", f([np.nan, 1e-10, 1.0], np.float64))
case("negative_zero", f([-0.0, 0.0, 1.0], np.float64))
case("all_zero", f([0.0, -0.0], np.float32))

# --- empty ---
case("empty_f32", np.zeros((0,), np.float32))
case("empty_f64", np.zeros((0,), np.float64))
case("empty_f64_2x0", np.zeros((2, 0), np.float64))
case("empty_i8_0x3x2", np.zeros((0, 3, 2), np.int8))
case("empty_bool", np.zeros((0,), np.bool_))

# --- wrapping ---
case("wrap_f64_row", rng.standard_normal(30))
case("wrap_i64_rows", rng.integers(-10**6, 10**6, (3, 25)))
case("wrap_f32_dtype_newline", f([1.25] * 12 + [1234.5], np.float32))
case("wrap_bool_row", rng.integers(0, 2, 40).astype(np.bool_))
case("wrap_u16_3d", rng.integers(0, 60000, (2, 2, 20), dtype=np.uint16))

# --- summarised (more than 1000 elements) ---
case("summary_f32_1d", rng.standard_normal(2000).astype(np.float32))
case("summary_i32_2d", np.arange(1600, dtype=np.int32).reshape(40, 40))
case("summary_f64_3d", rng.standard_normal((10, 10, 20)))
case("summary_i8_4d", rng.integers(-128, 127, (6, 7, 8, 9), dtype=np.int8))
case("summary_bool", rng.integers(0, 2, 1001).astype(np.bool_))
case("summary_f16_edges_only", np.concatenate([f([1e-6, 2.0, 3.0], np.float16), np.full(1000, 1e4, np.float16),
                                               f([4.0, 5.0, 6.0], np.float16)]))
case("summary_short_axis", np.arange(1005 * 2, dtype=np.int16).reshape(2, 1005))

# --- non-default options ---
case("opt_precision_3", f([np.pi, np.e, 1 / 3], np.float64), precision=3)
case("opt_precision_3_sci", f([np.pi * 1e-6, np.e, 1.0], np.float64), precision=3)
case("opt_linewidth_30", np.arange(20, dtype=np.int32), linewidth=30)
case("opt_threshold_10_edge_2", np.arange(30, dtype=np.float32).reshape(5, 6), threshold=10, edgeitems=2)
case("opt_suppress", f([1e-10, 1.0, 1234.5], np.float64), suppress=True)



def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    manifest = []
    names = set()
    for name, a, options in cases:
        assert name not in names, name
        names.add(name)
        file = name + ".npy"
        np.save(OUT / file, a)
        with np.printoptions(**options), np.errstate(all="ignore"):
            s, r = str(a), repr(a)
        manifest.append({"name": name, "file": file, "str": s, "repr": r, "options": options})
    with open(OUT / "cases.json", "w") as out:
        json.dump(manifest, out, indent=1)
        out.write("\n")
    print(f"{len(manifest)} cases in {OUT}")


if __name__ == "__main__":
    main()
