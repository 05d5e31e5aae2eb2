#!/usr/bin/python3
"""Tests of the committed-versus-fresh output comparison (notebook_outputs.py) that
kernel_notebooks applies to the example notebooks: processor-level differences pass,
real drift fails with a readable diff.

Usage: test_notebook_outputs.py
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from notebook_outputs import compare, texts_match  # noqa: E402


def nb(*cells):
    return {"cells": [{"cell_type": "code", "source": src, "outputs": outs} for src, outs in cells]}


def result(plain):
    return {"output_type": "execute_result", "data": {"text/plain": plain, "text/html": "<b>x</b>"}}


def stream(t):
    return {"output_type": "stream", "name": "stdout", "text": t}


def test_numbers_within_tolerance():
    assert texts_match("1.0\n: float32", "1.0000001\n: float32")
    assert texts_match("[[0.12832926 0.21441546 0.5300468  0.12720849]]",
                       "[[0.12832927 0.21441545 0.5300468 0.1272085 ]]")
    assert texts_match("[1. 1.]", "[1.0000001 0.9999999]")  # numpy's padding changes
    assert texts_match("1e-05", "1.000001e-05")
    assert texts_match("nan", "nan")


def test_real_differences_fail():
    assert not texts_match("1.0\n: float32", "1.001\n: float32")  # beyond 1e-5
    assert not texts_match("1.0\n: float32", "1.0\n: float64")  # the type
    assert not texts_match("Tensor[(3, 4), float32]", "Tensor[(3, 5), float32]")  # integers exact
    assert not texts_match("4\n: int32", "5\n: int32")
    assert not texts_match("Cons(1, Nil)", "Cons(1, Cons(2, Nil))")
    assert not texts_match("0.0", "1e-30")  # relative: zero matches only zero
    assert not texts_match("nan", "1.0")
    assert not texts_match("[0.5 0.0018939]", "[0.5 0.0019]")  # beyond 1e-5 of the array's scale


def test_small_numbers_are_held_to_their_texts_scale():
    # a value near zero after cancellation, printed beside larger ones (another CPU's sums)
    assert texts_match("[[0.5598942 0.0018939 0.03416459]]", "[[0.5598942 0.00189392 0.03416456]]")


def test_compare_reports_a_diff_and_skips_timings():
    committed = nb(("sum(%p)", [result("1.0\n: float32")]),
                   (":time @f(%x)", [result("[1. 2.]\n: Tensor[(2), float32]"), stream("time: 41.4 us\n")]),
                   ("%xs", [result("Cons(1, Nil)\n: List[int32]")]))
    fresh = nb(("sum(%p)", [result("1.0000001\n: float32")]),
               (":time @f(%x)", [result("[1. 2.]\n: Tensor[(2), float32]"), stream("time: 12.0 ms\n")]),
               ("%xs", [result("Cons(1, Nil)\n: List[int32]")]))
    assert compare(committed, fresh) == []
    fresh["cells"][2]["outputs"] = [result("Cons(2, Nil)\n: List[int32]")]
    problems = compare(committed, fresh)
    assert len(problems) == 1 and "code cell 2 (%xs)" in problems[0], problems
    assert "-Cons(1, Nil)" in problems[0] and "+Cons(2, Nil)" in problems[0], problems[0]
    # A missing output and a changed cell count are differences too.
    fresh["cells"][2]["outputs"] = []
    assert len(compare(committed, fresh)) == 1
    fresh["cells"].pop()
    assert "3 code cells committed, 2 executed" in compare(committed, fresh)[0]


def main():
    failed = 0
    for name, fn in sorted(globals().items()):
        if name.startswith("test_") and callable(fn):
            try:
                fn()
                print("ok   %s" % name)
            except AssertionError as e:
                failed += 1
                print("FAIL %s: %s" % (name, e))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
