"""Golden data for §3.2 elementwise and §3.3 broadcast operators."""
import numpy as np

from families.common import op_case, rng


def cases():
    out = []
    r = rng("relu")
    x = r.standard_normal((3, 4)).astype("float32")
    out.append(op_case("relu_2d", "nn.relu", [x], np.maximum(x, 0)))
    r = rng("add_broadcast")
    a = r.standard_normal((2, 3)).astype("float32")
    b = r.standard_normal((3,)).astype("float32")
    out.append(op_case("add_broadcast", "add", [a, b], a + b))
    return out
