"""Comparing a notebook's fresh outputs with its committed ones (run_notebooks.py).

What is compared is the text a reader sees: streams and each result's `text/plain`, cell
by cell. Pictures and HTML are not (Graphviz's output differs between its versions; the
HTML is drawn from the same value as the text). Numbers differ in their last digits
between processors (BLAS kernels sum in a different order), so they are equal within a
relative tolerance; integers (shapes, counts, indices) and all other text must be equal.
Runs of blank space count as one space: numpy pads columns to the widest number, so
`[1. 1.]` and `[1.0000001 0.9999999]` differ in padding where the numbers agree (also
next to brackets: `0.1272085 ]]`).
`:time` cells' timing lines are skipped.
"""
import difflib
import math
import re

REL_TOL = 1e-5

# A number as numpy and the Relay printer write them: `-1.5`, `1.`, `1e-05`, `2.5e+10`,
# `nan`, `-inf`. Not digits inside names (`float32`, `@f2`, `%x1`).
NUMBER = re.compile(r"(?<![A-Za-z_0-9.])-?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|nan|inf)(?![A-Za-z_0-9])")


def text(value):
    return value if isinstance(value, str) else "".join(value)


def tokens(s):
    """`s` as alternating text and numbers: ("text", ...) and ("num", ...) pieces, blank
    space collapsed."""
    s = " ".join(s.split())
    out, pos = [], 0
    for m in NUMBER.finditer(s):
        out.append(("text", s[pos:m.start()]))
        out.append(("num", m.group()))
        pos = m.end()
    out.append(("text", s[pos:]))
    # numpy's padding also sits inside brackets: `[ 1.5 -2. ]`, `0.1272085 ]]`.
    return [(k, re.sub(r"\s+\]", "]", re.sub(r"\[\s+", "[", v)) if k == "text" else v) for k, v in out]


def numbers_equal(a, b, scale=0.0):
    """Whether two printed numbers match: integers exactly, floats within REL_TOL of each
    other or of `scale` (the largest magnitude printed beside them: a float32 result near
    zero after cancellation differs from one CPU to another by the last bits of the
    larger terms, since a library's summation order follows the cache sizes)."""
    if a == b:
        return True
    is_int = lambda t: re.fullmatch(r"-?\d+", t) is not None  # noqa: E731
    if is_int(a) and is_int(b):
        return False  # shapes, counts, indices: exact
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return math.isclose(x, y, rel_tol=REL_TOL, abs_tol=REL_TOL * scale)


def float_scale(tokens_):
    """The largest finite magnitude among a text's float tokens."""
    scale = 0.0
    for kind, value in tokens_:
        if kind == "num" and not re.fullmatch(r"-?\d+", value):
            try:
                v = abs(float(value))
            except ValueError:
                continue
            if math.isfinite(v):
                scale = max(scale, v)
    return scale


def texts_match(committed, fresh):
    """Whether two output texts are the same up to blank space and number tolerance."""
    a, b = tokens(committed), tokens(fresh)
    if len(a) != len(b):
        return False
    scale = float_scale(a)
    for (ka, va), (kb, vb) in zip(a, b):
        if ka != kb:
            return False
        if ka == "text" and va != vb:
            return False
        if ka == "num" and not numbers_equal(va, vb, scale):
            return False
    return True


def shown_texts(cell):
    """The texts of a code cell's outputs a reader sees, as (what, text) pairs."""
    source = text(cell.get("source", "")).lstrip()
    timed = source.startswith(":time")
    out = []
    for o in cell.get("outputs", []):
        kind = o["output_type"]
        if kind == "stream":
            body = text(o["text"])
            if timed and body.startswith("time:"):
                continue  # how long it took: different on every run
            out.append(("stream " + o["name"], body))
        elif kind in ("execute_result", "display_data"):
            plain = o.get("data", {}).get("text/plain")
            if plain is not None:
                out.append((kind + " text/plain", text(plain)))
        elif kind == "error":
            out.append(("error", "%s: %s" % (o["ename"], o["evalue"])))
    return out


def compare(committed_nb, fresh_nb):
    """Problems (readable, with a diff) where the fresh notebook's outputs differ from the
    committed ones; empty when they match."""
    problems = []
    old = [c for c in committed_nb["cells"] if c["cell_type"] == "code"]
    new = [c for c in fresh_nb["cells"] if c["cell_type"] == "code"]
    if len(old) != len(new):
        return ["%d code cells committed, %d executed" % (len(old), len(new))]
    for i, (a, b) in enumerate(zip(old, new)):
        ta, tb = shown_texts(a), shown_texts(b)
        same = len(ta) == len(tb) and all(
            wa == wb and texts_match(xa, xb) for (wa, xa), (wb, xb) in zip(ta, tb))
        if same:
            continue
        render = lambda outs: "".join("[%s]\n%s\n" % (w, x.rstrip("\n")) for w, x in outs)  # noqa: E731
        diff = difflib.unified_diff(render(ta).splitlines(), render(tb).splitlines(),
                                    "committed", "executed", lineterm="")
        first_line = text(a.get("source", "")).split("\n")[0]
        problems.append("code cell %d (%s) shows something else than committed:\n    %s"
                        % (i, first_line[:60], "\n    ".join(diff)))
    return problems
