"""Shared helpers for the kernel golden-data families (see ../generate.py)."""
import zlib
from dataclasses import dataclass, field
from typing import Any, List

import numpy as np


@dataclass
class Case:
    name: str        # file-name safe, unique within the family
    program: str     # a Relay module with @main (see relay_type/program below)
    inputs: List[Any]
    outputs: Any     # an array, or a list of arrays when tuple=True
    tuple: bool = False
    rtol: float = 1e-5
    atol: float = 1e-6


def rng(name):
    """A generator seeded from the case name: stable across runs and case order."""
    return np.random.default_rng(zlib.crc32(name.encode()))


def relay_dtype(a):
    a = np.asarray(a)
    return "bool" if a.dtype == np.bool_ else str(a.dtype)


def relay_type(a):
    a = np.asarray(a)
    dims = ", ".join(str(d) for d in a.shape)
    if a.ndim == 1:
        dims += ""
    return "Tensor[(%s), %s]" % (dims, relay_dtype(a))


def program(inputs, body):
    """`def @main(%x0: T0, %x1: T1, ...) { BODY }` with BODY using %x0, %x1, ..."""
    params = ", ".join("%%x%d: %s" % (k, relay_type(a)) for k, a in enumerate(inputs))
    return '#[version = "0.0.5"]\ndef @main(%s) {\n  %s\n}\n' % (params, body)


def op_case(name, op, inputs, expected, attrs="", **kw):
    """A case calling `op(%x0, %x1, ..., attrs)` on its inputs."""
    args = ", ".join("%%x%d" % k for k in range(len(inputs)))
    if attrs:
        args += ", " + attrs
    return Case(name, program(inputs, "%s(%s)" % (op, args)), list(inputs), expected, **kw)
