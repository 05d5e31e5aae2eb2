"""PyTorch eager peers for bench_models.py: the same model, op for op, on the same weights
and inputs as `relay run --arg NAME=FILE.npy ...`.

* Graph-form models (tests/models/*.relay as TVM prints them: one `%N = op(...)`,
  `%N = (%a, %b)` or `%N = %a.0` binding per line) are translated line by line into a
  list of torch calls, built once, so a forward pass is the model's op sequence with no
  parsing (the operator table is torch_ops.py; what it lacks raises Unsupported).
  compile_graph gives run(env); graph_forward binds it to the parameters (eager), and
  torch_jit.py wraps it in an nn.Module for torch.jit.
* The LSTM (bench_models.py's generated 10 steps x 128 hidden, TVM's testing/lstm.py cell)
  is written out as the Relay cell computes it: two dense + bias_add, add, split in four,
  sigmoid/tanh gates, the new cell and hidden states.
"""
import re

import torch
import torch.nn.functional as F

from torch_ops import OPS, Unsupported

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


def compile_graph(relay_text):
    """run(env) for a graph-form model: env maps parameter names (without %) to tensors;
    returns the result tensor. Raises Unsupported for an operator torch_ops lacks."""
    body = relay_text[relay_text.index("{") + 1:relay_text.rindex("}")]
    steps = []  # (target, kind, fn, attrs, operands)
    for line in body.splitlines():
        line = COMMENT.sub("", line).strip().rstrip(";").strip()
        if not line:
            continue
        m = BINDING.match(line)
        target, expr = (m.group(1), m.group(2).strip()) if m else (None, line)
        proj = re.fullmatch(r"%(\w+)\.(\d+)", expr)
        if proj:
            steps.append((target, "proj", None, None, (proj.group(1), int(proj.group(2)))))
        elif expr.startswith("("):
            steps.append((target, "tuple", None, None, [a.strip()[1:] for a in split_top(expr[1:-1])]))
        else:
            call = re.fullmatch(r"([\w.]+)\((.*)\)", expr)
            if not call:
                raise Unsupported("not a call: " + line[:80])
            op, args = call.group(1), split_top(call.group(2))
            if op not in OPS:
                raise Unsupported(op)
            operands = [a[1:] for a in args if a.startswith("%")]
            attrs = {k.strip(): attr_value(v) for k, v in (a.split("=", 1) for a in args if "=" in a and not a.startswith("%"))}
            steps.append((target, "call", OPS[op], attrs, operands))

    def run(env):
        env = dict(env)
        value = None
        for target, kind, fn, attrs, operands in steps:
            if kind == "proj":
                value = env[operands[0]][operands[1]]
            elif kind == "tuple":
                value = tuple(env[o] for o in operands)
            else:
                value = fn(attrs, *(env[o] for o in operands))
            if target is not None:
                env[target] = value
        return value

    return run


def graph_forward(relay_text, params):
    """A forward function of no arguments for a graph-form model: params maps parameter
    names (without %) to tensors."""
    run = compile_graph(relay_text)
    return lambda: run(params)


def lstm_forward(params, steps, hidden):
    run = lstm_run(steps, hidden)
    return lambda: run(params)


def lstm_run(steps, hidden):
    """run(env): TVM's lstm_cell unrolled `steps` times from zero states; the last hidden
    state."""

    def forward(params):
        xs = [params["data" if i == 0 else "data%d" % i] for i in range(steps)]
        w = [(params["i2h_%d_weight" % i], params["i2h_%d_bias" % i], params["h2h_%d_weight" % i],
              params["h2h_%d_bias" % i]) for i in range(steps)]
        h = c = torch.zeros(xs[0].shape[0], hidden)
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
