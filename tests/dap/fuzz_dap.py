#!/usr/bin/python3
"""A protocol fuzzer for `relay dap`: random debugging sessions whose requests are
generated from the DAP JSON schema's argument definitions, fed with the ids, names and
references the adapter has answered so far, and bent (wrong types, missing or unknown
fields, extreme numbers, odd strings, garbage frames) often enough to reach every error
path of the adapter.

Each seed is one session: `initialize`, `launch` of one of tests/dap/programs with random
options and breakpoints, `configurationDone` (each sometimes skipped, repeated or sent
out of order), then --steps random requests, then `disconnect`. What must hold, whatever
was sent:

* every message the adapter writes is a valid DAP message (dap_client.py validates each
  against the schema, checks `seq` and that each request is answered once);
* every request is answered within --timeout seconds (the adapter runs programs in
  slices, so a program that never ends must not stop it from answering);
* the adapter never exits before `disconnect`, then exits with status 0, and its stderr
  holds no sanitizer report (run it under an ASan build to catch memory errors).

A failure prints the seed, the reason and the last requests sent, and exits 1; replay it
with `--seeds N:N+1`. CTest runs a few seeds (tests/dap.cmake); longer runs by hand:

    tests/dap/fuzz_dap.py build/release/relay --seeds 1:500 --steps 150
"""
import copy
import json
import os
import pathlib
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dap_client import DapClient  # noqa: E402
from dap_protocol import DapSchema  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from session_fuzz import arguments, run_seeds, sanitizer_report  # noqa: E402

PROGRAMS = sorted((pathlib.Path(__file__).resolve().parent / "programs").glob("*.relay"))

# The requests of a session after launch, with how often each is drawn. Requests the
# adapter does not implement stay in (with small weights): they must be refused cleanly.
STEP_WEIGHTS = {
    "threads": 3, "stackTrace": 8, "scopes": 8, "variables": 12, "evaluate": 10, "setVariable": 4,
    "next": 8, "stepIn": 8, "stepOut": 5, "continue": 5, "pause": 3, "restart": 1,
    "setBreakpoints": 5, "setFunctionBreakpoints": 2, "setExceptionBreakpoints": 2, "breakpointLocations": 2,
    "completions": 3, "stepInTargets": 2, "exceptionInfo": 2, "readMemory": 4, "source": 2,
    "configurationDone": 1, "launch": 1, "initialize": 1, "terminate": 1,
    "goto": 1, "stepBack": 1, "setExpression": 1, "dataBreakpointInfo": 1, "modules": 1, "loadedSources": 1,
    "disassemble": 1, "cancel": 1, "attach": 1,
}

ODD_STRINGS = ["", " ", "\u0000", "%", "@", "@main", "%x", "%0", "((((", "))", "{", "}", "\\", "\"",
               "\u00e9\u4e2d\U0001F600", "\ud7ff", "x" * 5000, "1e309", "-0", "NaN", "null", "%x.0", "%x[0]",
               "let %a = 1; %a", "fn () { 1 }", "add(", "add(1, 2)", "@fib(3)", "meta[relay.Constant][0]"]
EXPRESSIONS = ["%x", "%n", "%r", "%y", "%z", "%w", "%d", "%small", "%small.0", "%small.3", "%v", "%a", "%b",
               "add(%n, 1)", "subtract(%n, 100)", "sum(%x)", "max(%x)", "%x[0]", "%x[999][3]", "%x[1000]",
               "shape_of(%x)", "multiply(%x, %x)", "divide(1f, 0f)", "@fib(5)", "@main", "@scale",
               "ones(shape=[2, 2], dtype=\"float32\")", "zeros(shape=[100000000000], dtype=\"float32\")",
               "reshape(%x, newshape=[-1])", "nn.relu(%x)", "(%n, %n)", "%n == 1", "1 +", "(" * 300 + "1" + ")" * 300]
CONDITIONS = ["less(%n, 2)", "equal(%n, 3)", "true", "false", "1", "%n", "greater(max(%x), 0f)", "isnan(%x)",
              "", "((", "@nope(1)", "less(%n, %undefined)"]
HIT_CONDITIONS = ["1", "2", ">= 3", "> 1", "% 2", "== 4", "<= 0", "0", "-1", "x", "", "99999999999999999999", "%"]
LOG_MESSAGES = ["n = {%n}", "{", "}", "{{}}", "{%undefined}", "plain", "{%x}", "{sum(%x)}", ""]
NAMES = ["%x", "%n", "%r", "%a", "%y", "[0]", "0", "%small", "Locals", "Arguments", "@fib", "@main", "fib", "main"]
VALUES = ["1", "1f", "-1", "2i64", "0.5f", "[1, 2]", "ones(shape=[1000, 4], dtype=\"float32\")", "(1, 2)", "%n",
          "nan", "", "garbage(", "1e40f"]
EXTREME_INTS = [-1, 0, 1, 2, 2**31 - 1, 2**31, -2**31, 2**32, 2**53 + 1, 2**63 - 1, -2**63, 2**64 - 1]


class Pools:
    """What the adapter has said so far: the ids and names worth sending back."""

    def __init__(self):
        self.frames, self.references, self.memory, self.sources = {1}, {1}, set(), set()
        self.names, self.filters, self.targets = set(NAMES), set(), set()
        self.lines = 20

    def harvest(self, value, key=None):
        if isinstance(value, dict):
            if key == "stackFrames" or ("line" in value and "column" in value and "id" in value):
                if isinstance(value.get("id"), int):
                    self.frames.add(value["id"])
            for k, v in value.items():
                if k in ("variablesReference", "namedVariables", "indexedVariables") and isinstance(v, int) and v > 0:
                    if k == "variablesReference":
                        self.references.add(v)
                elif k == "memoryReference" and isinstance(v, str):
                    self.memory.add(v)
                elif k == "sourceReference" and isinstance(v, int):
                    self.sources.add(v)
                elif k == "name" and isinstance(v, str) and len(v) < 100:
                    self.names.add(v)
                elif k == "filter" and isinstance(v, str):
                    self.filters.add(v)
                elif k == "targets" and isinstance(v, list):
                    for t in v:
                        if isinstance(t, dict) and isinstance(t.get("id"), int):
                            self.targets.add(t["id"])
                self.harvest(v, k)
        elif isinstance(value, list):
            for v in value:
                self.harvest(v, key)


class Generator:
    """Request arguments from the schema's `<Command>Arguments`, with plausible values
    for the fields the adapter reads and, now and then, implausible ones."""

    def __init__(self, schema, rng, pools, program):
        self.defs, self.rng, self.pools, self.program = schema.definitions, rng, pools, program

    def resolve(self, node):
        while isinstance(node, dict) and "$ref" in node:
            node = self.defs[node["$ref"].split("/")[-1]]
        if isinstance(node, dict) and "allOf" in node:
            merged = {"type": "object", "properties": {}, "required": []}
            for part in node["allOf"]:
                part = self.resolve(part)
                merged["properties"].update(part.get("properties", {}))
                merged["required"] += part.get("required", [])
            return merged
        return node

    def arguments(self, command):
        name = command[:1].upper() + command[1:] + "Arguments"
        if name not in self.defs:
            name = command[:1].upper() + command[1:] + "RequestArguments"
        if name not in self.defs:
            return self.junk(2) if self.rng.random() < 0.5 else None
        args = self.value(self.defs[name], "arguments", 0)
        return self.bend(args) if self.rng.random() < 0.15 else args

    def plausible(self, key):
        """A value for a field the adapter reads, or None to fall back on the schema."""
        r, p = self.rng, self.pools
        table = {
            "threadId": lambda: 1 if r.random() < 0.9 else r.choice(EXTREME_INTS),
            "frameId": lambda: r.choice(sorted(p.frames)) if r.random() < 0.85 else r.choice(EXTREME_INTS),
            "variablesReference": lambda: (r.choice(sorted(p.references)) if r.random() < 0.85
                                           else r.choice(EXTREME_INTS)),
            "memoryReference": lambda: (r.choice(sorted(p.memory)) if p.memory and r.random() < 0.8
                                        else r.choice(ODD_STRINGS + ["0x0", "0", "-1"])),
            "sourceReference": lambda: r.choice(sorted(p.sources | {0, 1, 2, -1})),
            "targetId": lambda: r.choice(sorted(p.targets | {0, 1, -1})),
            "line": lambda: r.randint(0, p.lines + 2) if r.random() < 0.9 else r.choice(EXTREME_INTS),
            "endLine": lambda: r.randint(0, p.lines + 2) if r.random() < 0.9 else r.choice(EXTREME_INTS),
            "column": lambda: r.randint(0, 60) if r.random() < 0.9 else r.choice(EXTREME_INTS),
            "endColumn": lambda: r.randint(0, 60),
            "startFrame": lambda: r.choice([0, 0, 1, 2, 5, -1, 2**31, 2**62, 2**63 - 1, -2**63]),
            "levels": lambda: r.choice([0, 1, 2, 20, -1, 2**31, 2**62, 2**63 - 1]),
            "start": lambda: r.choice([0, 0, 1, 3, 999, 1000, 4000, -1, 2**62]),
            "count": lambda: r.choice([0, 1, 2, 10, 100, 4096, -1, 2**31, 2**62]),
            "offset": lambda: r.choice([0, 0, 1, 4, 16000, -1, -2**63, 2**62]),
            "expression": lambda: (r.choice(EXPRESSIONS) if r.random() < 0.6
                                   else r.choice(sorted(p.names) + ODD_STRINGS)),
            "condition": lambda: r.choice(CONDITIONS),
            "hitCondition": lambda: r.choice(HIT_CONDITIONS),
            "logMessage": lambda: r.choice(LOG_MESSAGES),
            "name": lambda: r.choice(sorted(p.names)),
            "value": lambda: r.choice(VALUES),
            "text": lambda: r.choice(EXPRESSIONS + ["%", "@", "add", "nn.", ""]),
            "context": lambda: r.choice(["repl", "watch", "hover", "clipboard", "variables", "nonsense"]),
            "filter": lambda: r.choice(["indexed", "named", "", "other"]),
            "filters": lambda: r.sample(sorted(p.filters | {"nan", "raised", "x"}), r.randint(0, 2)),
            "granularity": lambda: r.choice(["statement", "line", "instruction", "bogus"]),
            "program": lambda: self.program if r.random() < 0.9 else r.choice(
                [str(x) for x in PROGRAMS] + ["/nonexistent.relay", "/", "/dev/null", ""]),
            "entry": lambda: r.choice(["main", "@main", "fib", "@fib", "scale", "nope", ""]),
            "path": lambda: self.program if r.random() < 0.85 else r.choice(["/nonexistent.relay", "", "/", "rel.relay"]),
        }
        make = table.get(key)
        return make() if make else None

    def value(self, node, key, depth):
        r = self.rng
        node = self.resolve(node)
        v = self.plausible(key)
        if v is not None:
            return v
        if depth > 4:
            return None
        if "enum" in node:
            return r.choice(node["enum"])
        if "_enum" in node and r.random() < 0.7:
            return r.choice(node["_enum"])
        kind = node.get("type", "object")
        if isinstance(kind, list):
            kind = r.choice(kind)
        if kind == "object":
            props = node.get("properties", {})
            required = set(node.get("required", []))
            out = {}
            for k, sub in props.items():
                if k in required or r.random() < 0.4:
                    out[k] = self.value(sub, k, depth + 1)
            return out
        if kind == "array":
            return [self.value(node.get("items", {}), key, depth + 1) for _ in range(r.choice([0, 1, 1, 2, 3]))]
        if kind == "string":
            return r.choice(ODD_STRINGS[:12] + ["a", "main"])
        if kind == "integer":
            return r.choice([0, 1, 2, 3, 10] + EXTREME_INTS)
        if kind == "number":
            return r.choice([0, 1.5, -2.25, 1e308])
        if kind == "boolean":
            return r.random() < 0.5
        return None

    def junk(self, depth):
        r = self.rng
        kinds = ["int", "str", "bool", "null", "float"] + (["list", "dict"] if depth > 0 else [])
        k = r.choice(kinds)
        if k == "int":
            return r.choice(EXTREME_INTS)
        if k == "str":
            return r.choice(ODD_STRINGS)
        if k == "bool":
            return r.random() < 0.5
        if k == "null":
            return None
        if k == "float":
            return r.choice([0.5, -1.0, 1e300, 2.0**63])
        if k == "list":
            return [self.junk(depth - 1) for _ in range(r.randint(0, 3))]
        return {r.choice(["line", "id", "x", "source", "name", "arguments"]): self.junk(depth - 1)
                for _ in range(r.randint(0, 3))}

    def bend(self, args):
        """One of: a field given a wrong value, a required one dropped, an unknown one
        added, or arguments that are not an object at all."""
        r = self.rng
        if not isinstance(args, dict) or not args or r.random() < 0.1:
            return self.junk(2)
        args = copy.deepcopy(args)
        key = r.choice(sorted(args))
        how = r.randrange(3)
        if how == 0:
            args[key] = self.junk(2)
        elif how == 1:
            del args[key]
        else:
            args["unknown" + str(r.randrange(10))] = self.junk(2)
        return args


def _frame(body):
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


# Frames the adapter must pass over (an `output` event says so) or refuse, and go on.
GARBAGE_FRAMES = [_frame(b) for b in (
    b"{}", b"null", b"[]", b"not json!", b"\xff\xfe\x00", b"{\"type\":\"request\",\"seq\":\"one\"}",
    b"{\"type\":\"request\",\"seq\":-5,\"command\":17}    ", b"{\"type\":\"event\",\"x\":1}",
)] + [b"X-Other: 1\r\n\r\n"]


class Session:
    def __init__(self, relay, schema, seed, steps, timeout):
        self.rng = random.Random(seed)
        self.steps, self.timeout = steps, timeout
        self.program = str(self.rng.choice(PROGRAMS))
        self.pools = Pools()
        self.pools.lines = len(pathlib.Path(self.program).read_text().splitlines())
        self.gen = Generator(schema, self.rng, self.pools, self.program)
        self.sent = []  # (seq, command, arguments), for the failure report
        self.client = DapClient(relay, schema=schema)

    def request(self, command, arguments):
        seq = self.client.send_request(command, arguments)
        self.sent.append((seq, command, arguments))
        r = self.client.wait_response(seq, self.timeout)
        self.pools.harvest(r.get("body"))
        if command == "initialize" and isinstance(r.get("body"), dict):
            for f in r["body"].get("exceptionBreakpointFilters", []):
                self.pools.filters.add(f.get("filter"))
        # events carry references too (stopped threads, output variablesReference)
        for e in self.client.pending_events():
            self.pools.harvest(e.get("body"))
        return r

    def start(self):
        r, g = self.rng, self.gen
        if r.random() < 0.1:
            self.request(r.choice(["threads", "stackTrace", "launch", "configurationDone"]),
                         g.arguments("stackTrace"))
        init = {"clientID": "fuzz", "adapterID": "relay", "linesStartAt1": r.random() < 0.9,
                "columnsStartAt1": r.random() < 0.9, "pathFormat": "path"}
        self.request("initialize", init if r.random() < 0.9 else g.arguments("initialize"))
        launch = {"program": self.program, "stopOnEntry": r.random() < 0.7}
        for key, make in (("checkNumerics", lambda: r.random() < 0.5), ("randomInputs", lambda: r.randrange(5)),
                          ("maxDepth", lambda: r.choice([1, 2, 3, 50, 0, -1, 2**40]))):
            if r.random() < 0.4:
                launch[key] = make()
        if r.random() < 0.15:
            launch = g.bend(launch)
        launch_seq = self.client.send_request("launch", launch)
        self.sent.append((launch_seq, "launch", launch))
        for _ in range(r.randrange(3)):
            self.request("setBreakpoints", g.arguments("setBreakpoints"))
        if r.random() < 0.95:
            self.request("configurationDone", None)
        self.client.wait_response(launch_seq, self.timeout)

    def step(self):
        r = self.rng
        if r.random() < 0.03:
            frame = r.choice(GARBAGE_FRAMES)
            self.sent.append((None, "raw", frame.decode("latin-1")))
            self.client.send_raw(frame)
            return
        commands = sorted(STEP_WEIGHTS)
        command = r.choices(commands, [STEP_WEIGHTS[c] for c in commands])[0]
        if r.random() < 0.01:
            command = r.choice(ODD_STRINGS[:8])
        self.request(command, self.gen.arguments(command))

    def finish(self):
        r = self.rng
        args = {"terminateDebuggee": True} if r.random() < 0.8 else self.gen.arguments("disconnect")
        self.request("disconnect", args)
        status = self.client.close(self.timeout)
        if status != 0:
            raise AssertionError("the adapter exited with status %r after disconnect" % status)

    def run(self):
        try:
            self.start()
            for _ in range(self.steps):
                self.step()
                if self.client.proc.poll() is not None:
                    raise AssertionError("the adapter exited (status %r) before disconnect"
                                         % self.client.proc.returncode)
            self.finish()
            report = sanitizer_report(self.client.stderr_text.decode("utf-8", "replace"))
            if report:
                raise AssertionError(report)
        except Exception as e:
            try:
                status = self.client.proc.wait(timeout=2)   # a crash shows as a signal here
            except subprocess.TimeoutExpired:
                status = "still running"
            self.client.kill()
            return "%s: %s\nadapter exit status: %s" % (type(e).__name__, e, status)
        return None

    def transcript(self, last=25):
        lines = []
        for seq, command, arguments in self.sent[-last:]:
            text = json.dumps(arguments, ensure_ascii=True)
            lines.append("  %s %s %s" % (seq, command, text if len(text) < 400 else text[:400] + "..."))
        return "\n".join(lines)


def main(argv):
    ap = arguments(__doc__.split("\n\n")[0], seeds="1:21", steps=80, timeout=20.0)
    args = ap.parse_args(argv[1:])
    schema = DapSchema()

    def run_one(seed):
        s = Session(args.relay, schema, seed, args.steps, args.timeout)
        problem = s.run()
        label = os.path.basename(s.program)
        return label, problem and "%s\nlast requests sent:\n%s" % (problem, s.transcript())
    return run_seeds("fuzz_dap", args.seeds, run_one, args.verbose)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
