#!/usr/bin/python3
"""Generates golden data for the reference kernels from numpy.

Each family module in families/ defines `cases()`, returning a list of Case. For every
case this writes, under data/<family>/:
  <name>.in<k>.npy    the k-th argument of @main
  <name>.out<k>.npy   the expected k-th output (one file for a tensor result, one per
                      field for a tuple result)
and one line per case in data/<family>/manifest.jsonl:
  {"name", "program", "inputs", "outputs", "tuple", "rtol", "atol"}
`program` is a Relay module whose @main calls the operator on its parameters; the test
(tests/unit/kernel_golden_test.cpp) type-checks it, runs @main on the inputs through
the interpreter and compares with the outputs within rtol/atol (numpy.allclose rules;
exact for integer and bool results).

Usage: tests/kernels/generate.py [FAMILY...]   (default: every family)
Inputs are drawn from a fixed seed per case, so the output is reproducible.
"""
import importlib
import json
import os
import shutil
import sys
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from families.common import Case  # noqa: E402


def write_family(family):
    module = importlib.import_module("families." + family)
    out_dir = os.path.join(HERE, "data", family)
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    names = set()
    lines = []
    for case in module.cases():
        assert isinstance(case, Case), case
        assert case.name not in names, "duplicate case " + case.name
        names.add(case.name)
        inputs = []
        for k, a in enumerate(case.inputs):
            fname = "%s.in%d.npy" % (case.name, k)
            np.save(os.path.join(out_dir, fname), np.asarray(a))
            inputs.append(fname)
        outs = list(case.outputs) if case.tuple else [case.outputs]
        outputs = []
        for k, a in enumerate(outs):
            fname = "%s.out%d.npy" % (case.name, k)
            np.save(os.path.join(out_dir, fname), np.asarray(a))
            outputs.append(fname)
        lines.append(json.dumps({
            "name": case.name, "program": case.program, "inputs": inputs, "outputs": outputs,
            "tuple": case.tuple, "rtol": case.rtol, "atol": case.atol}, sort_keys=True))
    with open(os.path.join(out_dir, "manifest.jsonl"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("%s: %d cases" % (family, len(lines)))


def main():
    families = sys.argv[1:] or sorted(
        f[:-3] for f in os.listdir(os.path.join(HERE, "families"))
        if f.endswith(".py") and f not in ("common.py", "__init__.py"))
    for family in families:
        write_family(family)


if __name__ == "__main__":
    main()
