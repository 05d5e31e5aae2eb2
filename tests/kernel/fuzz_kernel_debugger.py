#!/usr/bin/python3
"""A fuzzer for the kernel's debugger (JupyterLab's protocol: DAP requests inside
debug_request messages on the control channel, events as debug_event on IOPub): random
cells (fuzz_kernel.py's) dumped and run with a breakpoint on a random line, and while
they run or stop, random debug requests whose arguments fuzz_dap.py's generator makes
from the DAP schema and from the ids the kernel answered, plus the Jupyter-only commands
(debugInfo, dumpCell, inspectVariables, richInspectVariables, copyToGlobals).

Each seed is one kernel: initialize, attach, --steps requests, disconnect, shutdown.
What must hold: every debug_request gets its debug_reply within --timeout seconds, a DAP
response for the same command and seq; every debug_reply and debug_event validates
against the DAP schema (a Jupyter-only command's reply against `Response`); the kernel
stays alive.

    /usr/bin/python3 tests/kernel/fuzz_kernel_debugger.py build/release/relay --seeds 1:50
"""
import os
import queue
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "dap"))
sys.path.insert(0, os.path.join(HERE, "..", "support"))
from kernel_support import SKIP, kernelspec_for_fuzzing, start_kernel  # noqa: E402
from fuzz_kernel import Fuzzer as CellMaker  # noqa: E402
from fuzz_dap import Generator, Pools  # noqa: E402
from dap_protocol import DapSchema, describe  # noqa: E402
from session_fuzz import arguments, run_seeds  # noqa: E402

COMMANDS = ["stackTrace", "scopes", "variables", "evaluate", "setVariable", "next", "stepIn", "stepOut",
            "continue", "pause", "setBreakpoints", "setExceptionBreakpoints", "configurationDone", "threads",
            "exceptionInfo", "source", "debugInfo", "dumpCell", "inspectVariables", "richInspectVariables",
            "copyToGlobals", "restart", "nonsense"]
JUPYTER_ONLY = {"debugInfo", "dumpCell", "inspectVariables", "richInspectVariables", "copyToGlobals"}


class Session:
    def __init__(self, kc, schema, seed, timeout):
        self.kc, self.schema, self.timeout = kc, schema, timeout
        self.rng = random.Random(seed)
        self.pools = Pools()
        self.gen = Generator(schema, self.rng, self.pools, "/nowhere.relay")
        self.cells = CellMaker(kc, seed)
        self.seq = 0
        self.sent = []   # (command, arguments), for the failure report
        self.stops = 0

    def check(self, content, definition=None):
        problems = self.schema.errors(content) if definition is None else \
            [e.message for e in self.schema.validator(definition).iter_errors(content)]
        if problems:
            raise AssertionError(describe(content, problems))

    def drain_events(self):
        try:
            while True:
                m = self.kc.get_iopub_msg(timeout=0)
                if m["msg_type"] == "debug_event":
                    self.check(m["content"])
                    self.pools.harvest(m["content"].get("body"))
                    self.stops += m["content"].get("event") == "stopped"
        except queue.Empty:
            pass

    def request(self, command, args):
        self.seq += 1
        self.sent.append((command, args))
        msg = self.kc.session.msg("debug_request", {"type": "request", "seq": self.seq, "command": command,
                                                    "arguments": args})
        self.kc.control_channel.send(msg)
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("no debug_reply to `%s` within %gs" % (command, self.timeout))
            try:
                reply = self.kc.get_control_msg(timeout=left)
            except queue.Empty:
                continue
            if reply["parent_header"].get("msg_id") == msg["header"]["msg_id"]:
                break
        content = reply["content"]
        if reply["msg_type"] != "debug_reply" or content.get("command") != command or \
                content.get("request_seq") != self.seq:
            raise AssertionError("`%s` (seq %d) answered %r" % (command, self.seq, content))
        self.check(content, "Response" if command in JUPYTER_ONLY and content.get("success") else None)
        self.pools.harvest(content.get("body"))
        self.drain_events()
        return content

    def step(self):
        r = self.rng
        if r.random() < 0.15:   # a cell to run, with a breakpoint somewhere in it
            code = self.cells.cell()
            path = self.request("dumpCell", {"code": code}).get("body", {}).get("sourcePath")
            if path:
                self.gen.program = path
                self.pools.lines = code.count("\n") + 1
                self.request("setBreakpoints", {"source": {"path": path},
                                                "breakpoints": [{"line": r.randint(1, self.pools.lines)}]})
            self.sent.append(("execute", code))
            self.kc.execute(code)
            return
        command = r.choice(COMMANDS)
        if command == "dumpCell":
            args = {"code": self.cells.cell()}
        elif command in ("inspectVariables", "richInspectVariables", "copyToGlobals") and r.random() < 0.6:
            args = {"variableName": r.choice(sorted(self.pools.names)), "frameId": r.choice(sorted(self.pools.frames)),
                    "srcVariableName": r.choice(sorted(self.pools.names)), "dstVariableName": "%copied",
                    "srcFrameId": r.choice(sorted(self.pools.frames))}
        else:
            args = self.gen.arguments(command)
        self.request(command, args if args is not None else {})


def main(argv):
    ap = arguments(__doc__.split("\n\n")[0], seeds="1:4", steps=80, timeout=15.0)
    args = ap.parse_args(argv[1:])
    if not kernelspec_for_fuzzing("fuzz_kernel_debugger", args.relay):
        return SKIP
    schema = DapSchema()

    def run_one(seed):
        km, kc = start_kernel()
        s = Session(kc, schema, seed, args.timeout)
        problem = None
        try:
            s.request("initialize", {"clientID": "fuzz", "adapterID": "relay", "pathFormat": "path",
                                     "linesStartAt1": True, "columnsStartAt1": True})
            s.request("attach", {})
            for _ in range(args.steps):
                s.step()
                if not km.is_alive():
                    raise AssertionError("the kernel died")
            s.request("disconnect", {"restart": False, "terminateDebuggee": True})
        except Exception as e:
            last = "\n".join("  %s %.300r" % item for item in s.sent[-12:])
            problem = "%s: %s\nlast requests:\n%s" % (type(e).__name__, e, last)
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)
        return "%d stops" % s.stops, problem
    return run_seeds("fuzz_kernel_debugger", args.seeds, run_one, args.verbose)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
