#!/usr/bin/python3
"""A session fuzzer for the Jupyter kernel (and so for the session engine `relay repl`
shares with it, repl/session.h): random cells made of definitions, bindings, expressions
and commands drawn from pools of Relay pieces and bent (names swapped, pieces dropped or
repeated, odd characters spliced in), with complete, inspect and is_complete requests at
random cursors in between.

Each seed is one kernel. What must hold, whatever the cells say:

* every request is answered: execute with status `ok` or `error` (an error with `ename`,
  `evalue` and a `traceback` list); complete with `cursor_start <= cursor_end <=` the
  cell's length in code points; inspect and is_complete with a status;
* **a cell that fails leaves the session as it was** (docs/repl.md): `:env` prints the
  same text before and after it;
* the kernel stays alive to the end, then shuts down when asked.

A failure prints the seed, the reason and the last cells, and exits 1 (77: jupyter_client
missing). CTest runs a few seeds (tests/kernel.cmake); longer runs by hand:

    /usr/bin/python3 tests/kernel/fuzz_kernel.py build/release/relay --seeds 1:100 --steps 150
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_support import SKIP, execute, kernelspec_for_fuzzing, shell_reply, start_kernel  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from session_fuzz import arguments, run_seeds  # noqa: E402

DEFINITIONS = [
    "def @f(%x: Tensor[(3), float32]) -> Tensor[(3), float32] { add(%x, %x) }",
    "def @f(%x: float32) -> float32 { multiply(%x, 2f) }",
    "def @g(%n: int32) -> int32 { if (less(%n, 1)) { 0 } else { add(%n, @g(subtract(%n, 1))) } }",
    "def @h(%t: (int32, float32)) -> float32 { %t.1 }",
    "def @k() { ones(shape=[2, 2], dtype=\"float32\") }",
    "type Box[A] { MkBox(A) }",
    "type Shape { Circle(float32), Square(float32, float32) }",
    "def @area(%s: Shape) -> float32 { match (%s) { Circle(%r) => multiply(%r, %r), Square(%a, %b) => multiply(%a, %b) } }",
    "/// doc\ndef @doc(%a: int32) -> int32 { %a }",
    "def @main(%x: Tensor[(1, 4), float32]) { nn.relu(%x) }",
]
BINDINGS = [
    "let %w = ones(shape=[3], dtype=\"float32\");",
    "let %w = zeros(shape=[4], dtype=\"float32\");",
    "let %n = 5;",
    "let %t = (1, 2f);",
    "let %xs = Cons(1, Cons(2, Nil));",
    "let %b = MkBox(3);",
    "let %inc = fn (%v: int32) { add(%v, 1) };",
    "let %nan = divide(0f, 0f);",
    "let %m: Tensor[(2, 2), float32] = ones(shape=[2, 2], dtype=\"float32\");",
    "let %a = 1f; let %c = add(%a, %a);",
]
EXPRESSIONS = [
    "@f(%w)", "@f(2f)", "@g(%n)", "@g(10)", "@h(%t)", "@k()", "add(%w, %w)", "%n", "%t.0", "%t.2",
    "@map(%inc, %xs)", "@area(Circle(2f))", "@area(Square(1f, 3f))", "sum(%m)", "%nan",
    "reshape(%w, newshape=[-1, 1])", "nn.softmax(%m)", "concatenate((%w, %w))", "take(%w, 7)",
    "@nth(%xs, 5)", "divide(1, 0)", "ones(shape=[100000000000], dtype=\"float32\")",
    "match (%b) { MkBox(%v) => %v }", "if (%n > 2) { 1 } else { 2 }", "(%w, %n)", "@main(%m)",
    "fn (%q: int32) { %q }", "@undefined(1)", "%undefined", "add(1, 2f)",
]
COMMANDS = [":env", ":type @f", ":type add(%w, %w)", ":ir @f(%w)", ":time @g(%n)", ":jit", ":help",
            ":set check-numerics on", ":set check-numerics off", ":set jit off", ":set jit on",
            ":type", ":ir", ":viz f", ":viz nope", ":grad f", ":grad nope", ":load /nonexistent.relay", ":reload", ":t %n",
            ":set", ":set nothing on", ":frobnicate", ":reset"]
ODD = ["", " ", "\n", "(", ")", "{", "}", ";", "%", "@", ",", "\u00e9", "\U0001F600", "\t", "\"", "/*", "//",
       "[", "]", "1e400f", "-", "=", "=>", "let", "fn", "meta[relay.Constant][0]"]


class Fuzzer:
    def __init__(self, kc, seed):
        self.kc, self.rng = kc, random.Random(seed)
        self.cells = []

    def piece(self):
        r = self.rng
        pool = r.choice([DEFINITIONS, BINDINGS, EXPRESSIONS, EXPRESSIONS, COMMANDS])
        text = r.choice(pool)
        if r.random() < 0.3:
            text = self.bend(text)
        return text

    def bend(self, text):
        r = self.rng
        if not text:
            return r.choice(ODD)
        for _ in range(r.randint(1, 3)):
            i = r.randrange(len(text) + 1)
            how = r.randrange(4)
            if how == 0:
                text = text[:i] + r.choice(ODD) + text[i:]
            elif how == 1:
                text = text[:i] + text[i + r.randint(1, 6):]
            elif how == 2:
                j = r.randrange(len(text) + 1)
                a, b = min(i, j), max(i, j)
                text = text[:a] + text[a:b] * 2 + text[b:]
            else:
                text = text.replace("%w", r.choice(["%n", "%t", "%zz", "%xs"]))
        return text

    def cell(self):
        r = self.rng
        parts = [self.piece() for _ in range(r.choice([1, 1, 1, 2, 3]))]
        if any(p.startswith(":") for p in parts):   # a command is a cell of its own
            parts = [next(p for p in parts if p.startswith(":"))]
        return "\n".join(parts)

    def env(self):
        c = execute(self.kc, ":env")
        if c.reply["status"] != "ok":
            raise AssertionError(":env failed: %r" % c)
        return c.stdout() + "".join(str(x.get("data", {}).get("text/plain", "")) for x in c.of_type("display_data"))

    def step(self):
        r = self.rng
        code = self.cell()
        x = r.random()
        if x < 0.15:
            cursor = r.randint(0, len(code)) if r.random() < 0.9 else r.choice([-1, len(code) + 3, 2**31])
            self.cells.append(("complete", code, cursor))
            reply = shell_reply(self.kc, self.kc.complete(code, cursor))["content"]
            if reply["status"] != "ok":
                return
            if not (0 <= reply["cursor_start"] <= reply["cursor_end"] <= len(code)):
                raise AssertionError("complete at %r of %r: cursor_start %r, cursor_end %r"
                                     % (cursor, code, reply["cursor_start"], reply["cursor_end"]))
            return
        if x < 0.25:
            cursor = r.randint(0, len(code)) if r.random() < 0.9 else r.choice([-1, len(code) + 3])
            self.cells.append(("inspect", code, cursor))
            reply = shell_reply(self.kc, self.kc.inspect(code, cursor))["content"]
            if reply["status"] not in ("ok", "error"):
                raise AssertionError("inspect answered %r" % reply)
            return
        if x < 0.3:
            self.cells.append(("is_complete", code, None))
            reply = shell_reply(self.kc, self.kc.is_complete(code))["content"]
            if reply.get("status") not in ("complete", "incomplete", "invalid", "unknown"):
                raise AssertionError("is_complete answered %r" % reply)
            return
        check_env = r.random() < 0.5 and not code.startswith(":")
        before = self.env() if check_env else None
        self.cells.append(("execute", code, None))
        c = execute(self.kc, code, timeout=60)
        status = c.reply["status"]
        if status == "error":
            for key, kind in (("ename", str), ("evalue", str), ("traceback", list)):
                if not isinstance(c.reply.get(key), kind):
                    raise AssertionError("an error reply without a %s %s: %r" % (kind.__name__, key, c.reply))
            if check_env:
                after = self.env()
                if after != before:
                    raise AssertionError("a failed cell changed the session:\n%r\n:env before:\n%s\n:env after:\n%s"
                                         % (code, before, after))
        elif status != "ok":
            raise AssertionError("execute answered status %r: %r" % (status, c.reply))


def main(argv):
    ap = arguments(__doc__.split("\n\n")[0], seeds="1:4", steps=60)
    args = ap.parse_args(argv[1:])
    if not kernelspec_for_fuzzing("fuzz_kernel", args.relay):
        return SKIP

    def run_one(seed):
        km, kc = start_kernel()
        f = Fuzzer(kc, seed)
        problem = None
        try:
            for _ in range(args.steps):
                f.step()
                if not km.is_alive():
                    raise AssertionError("the kernel died")
        except Exception as e:
            last = "\n".join("  %s %r%s" % (kind, code, "" if cursor is None else " at %r" % cursor)
                             for kind, code, cursor in f.cells[-12:])
            problem = "%s: %s\nlast requests:\n%s" % (type(e).__name__, e, last)
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=False)
            if km.is_alive() and not problem:
                problem = "the kernel did not shut down"
        return "%d requests" % len(f.cells), problem
    return run_seeds("fuzz_kernel", args.seeds, run_one, args.verbose)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
