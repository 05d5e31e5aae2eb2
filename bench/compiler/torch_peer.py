"""PyTorch eager peers for bench_models.py: the same model, op for op, on the same weights
and inputs as `relay run --arg NAME=FILE.npy ...`.

* Graph-form models (tests/models/mlp.relay, resnet18.relay: one `%N = op(...)` binding
  per line) are translated line by line into a list of torch calls, built once, so a
  forward pass is the model's op sequence with no parsing: nn.batch_norm is
  F.batch_norm in inference mode, nn.conv2d F.conv2d, nn.dense F.linear without bias,
  nn.bias_add a broadcast add, and so on (OPS below).
* The LSTM (bench_models.py's generated 10 steps x 128 hidden, TVM's testing/lstm.py cell)
  is written out as the Relay cell computes it: two dense + bias_add, add, split in four,
  sigmoid/tanh gates, the new cell and hidden states.
"""
import re

import torch
import torch.nn.functional as F

BINDING = re.compile(r"^%(\w+) = (.*)$")
COMMENT = re.compile(r"/\*.*?\*/")


def split_top(text):
    """Splits at commas outside brackets and quotes."""
    parts, depth, cur, quoted = [], 0, "", False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        if not quoted and ch in "([":
            depth += 1
        if not quoted and ch in ")]":
            depth -= 1
        if ch == "," and depth == 0 and not quoted:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def attr_value(text):
    text = text.strip()
    if text.startswith("["):
        return [attr_value(t) for t in split_top(text[1:-1])]
    if text.startswith('"'):
        return text[1:-1]
    if text in ("True", "False"):
        return text == "True"
    if text == "None":
        return None
    if text.endswith("f"):
        text = text[:-1]
    return float(text) if any(c in text for c in ".e") else int(text)


def pad2(p):
    # Relay's [top, left, bottom, right]; these models pad symmetrically
    if len(p) == 4:
        assert p[0] == p[2] and p[1] == p[3], "asymmetric padding"
        return (p[0], p[1])
    return tuple(p) if len(p) == 2 else (p[0], p[0])


def batch_norm(a, x, gamma, beta, mean, var):
    return (F.batch_norm(x, mean, var, gamma if a.get("scale", True) else None,
                         beta if a.get("center", True) else None, False, 0.0, a.get("epsilon", 1e-5)),)


def bias_add(a, x, b):
    axis = a.get("axis", 1) % x.dim()
    return x + b.view([-1 if d == axis else 1 for d in range(x.dim())])


OPS = {
    "nn.batch_norm": batch_norm,
    "nn.conv2d": lambda a, x, w: F.conv2d(x, w, None, tuple(a.get("strides", [1, 1])), pad2(a.get("padding", [0, 0])),
                                          tuple(a.get("dilation", [1, 1])), a.get("groups", 1)),
    "nn.relu": lambda a, x: F.relu(x),
    "nn.max_pool2d": lambda a, x: F.max_pool2d(x, tuple(a["pool_size"]), tuple(a.get("strides", [1, 1])),
                                               pad2(a.get("padding", [0, 0])), ceil_mode=a.get("ceil_mode", False)),
    "nn.global_avg_pool2d": lambda a, x: F.adaptive_avg_pool2d(x, 1),
    "nn.batch_flatten": lambda a, x: torch.flatten(x, 1),
    "nn.dense": lambda a, x, w: F.linear(x, w),
    "nn.bias_add": bias_add,
    "nn.softmax": lambda a, x: torch.softmax(x, a.get("axis", -1)),
    "add": lambda a, x, y: x + y,
    "multiply": lambda a, x, y: x * y,
}


def graph_forward(relay_text, params):
    """A forward function for a graph-form model: params maps parameter names (without
    %) to tensors; returns the result tensor."""
    body = relay_text[relay_text.index("{") + 1:relay_text.rindex("}")]
    steps = []  # (target, fn, attrs, operand names or a (value, index) projection)
    result = None
    for line in body.splitlines():
        line = COMMENT.sub("", line).strip().rstrip(";").strip()
        if not line:
            continue
        m = BINDING.match(line)
        target, expr = (m.group(1), m.group(2).strip()) if m else (None, line)
        proj = re.fullmatch(r"%(\w+)\.(\d+)", expr)
        if proj:
            steps.append((target, None, None, (proj.group(1), int(proj.group(2)))))
        else:
            call = re.fullmatch(r"([\w.]+)\((.*)\)", expr)
            assert call, "not a call: " + line
            op, args = call.group(1), split_top(call.group(2))
            operands = [a[1:] for a in args if a.startswith("%")]
            attrs = {k.strip(): attr_value(v) for k, v in (a.split("=", 1) for a in args if "=" in a and not a.startswith("%"))}
            steps.append((target, OPS[op], attrs, operands))
        if target is None:
            result = steps[-1]

    def forward():
        env = dict(params)
        value = None
        for target, fn, attrs, operands in steps:
            if fn is None:
                value = env[operands[0]][operands[1]]
            else:
                value = fn(attrs, *(env[o] for o in operands))
            if target is not None:
                env[target] = value
        return value

    assert result is not None
    return forward


def lstm_forward(params, steps, hidden):
    """TVM's lstm_cell unrolled `steps` times from zero states; the last hidden state."""
    xs = [params["data" if i == 0 else "data%d" % i] for i in range(steps)]
    w = [(params["i2h_%d_weight" % i], params["i2h_%d_bias" % i], params["h2h_%d_weight" % i],
          params["h2h_%d_bias" % i]) for i in range(steps)]

    def forward():
        h = c = torch.zeros(1, hidden)
        for x, (wi, bi, wh, bh) in zip(xs, w):
            i2h = F.linear(x, wi) + bi
            h2h = F.linear(h, wh) + bh
            gates = i2h + h2h
            g0, g1, g2, g3 = torch.split(gates, hidden, dim=1)
            in_gate, forget_gate = torch.sigmoid(g0), torch.sigmoid(g1)
            in_transform, out_gate = torch.tanh(g2), torch.sigmoid(g3)
            c = forget_gate * c + in_gate * in_transform
            h = out_gate * torch.tanh(c)
        return h

    return forward
