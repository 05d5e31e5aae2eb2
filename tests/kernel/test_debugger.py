#!/usr/bin/python3
"""JupyterLab's debugger against `relay kernel`, through jupyter_client: the messages
JupyterLab sends (debug_request on the control channel, debug_event on IOPub) in the
order it sends them: kernel_info, initialize, attach, debugInfo, dumpCell,
setBreakpoints, configurationDone, then a cell executed while the test drives the stop
from the control channel (stackTrace, scopes, variables, richInspectVariables, evaluate,
stepIn/stepOut/next, continue), inspectVariables between cells, and disconnect.

The cell-file names are checked against this file's own MurmurHash2 (written from the
algorithm's description, not taken from the kernel).

Usage: test_debugger.py RELAY_BINARY [TEST_NAME...]   (Debian's /usr/bin/python3)
Exit status 77 (skipped) when jupyter_client is not installed.
"""
import json
import re
import os
import queue
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_support import (SKIP, have_jupyter_client, install_kernelspec, isolated_jupyter,  # noqa: E402
                            run_tests, shell_reply, start_kernel)

RELAY = None
ROOT = None
SPEC_DIR = None
_kernel = None
_debug = None

SCALE_DEF = ("def @scale(%x: Tensor[(2, 2), float32]) -> Tensor[(2, 2), float32] {\n"
             "  multiply(%x, 2f)\n"
             "}")
# Line 3 calls @scale; %bad holds NaN (0 / 0).
CELL = ('let %z = zeros(shape=[2, 2], dtype="float32");\n'
        "let %bad = divide(%z, %z);\n"
        'let %y = @scale(ones(shape=[2, 2], dtype="float32"));\n'
        "add(%y, 1f)")


def murmur2_x86(data, seed):
    """MurmurHash2 (32-bit): the hash JupyterLab names cell files by."""
    m = 0x5BD1E995
    mask = 0xFFFFFFFF
    h = (seed ^ len(data)) & mask
    whole = len(data) - len(data) % 4
    for i in range(0, whole, 4):
        k = int.from_bytes(data[i:i + 4], "little")
        k = (k * m) & mask
        k ^= k >> 24
        k = (k * m) & mask
        h = (h * m) & mask
        h ^= k
    tail = data[whole:]
    if tail:
        for i, b in enumerate(tail):
            h ^= b << (8 * i)
        h = (h * m) & mask
    h ^= h >> 13
    h = (h * m) & mask
    h ^= h >> 15
    return h


class Debugger:
    """A debug client as JupyterLab is one: requests on control, events from IOPub. Every
    IOPub message is kept (in arrival order) so a cell's outputs and the debugger's events
    can both be read while the cell runs."""

    def __init__(self, kc):
        self.kc = kc
        self.seq = 0
        self.iopub = []
        self.events_seen = 0

    def request(self, command, arguments=None, timeout=10):
        self.seq += 1
        msg = self.kc.session.msg("debug_request", {"type": "request", "seq": self.seq, "command": command,
                                                    "arguments": arguments or {}})
        self.kc.control_channel.send(msg)
        deadline = time.monotonic() + timeout
        while True:
            reply = self.kc.get_control_msg(timeout=max(0.1, deadline - time.monotonic()))
            if reply["parent_header"].get("msg_id") == msg["header"]["msg_id"]:
                assert reply["msg_type"] == "debug_reply", reply
                content = reply["content"]
                assert content["type"] == "response" and content["command"] == command, content
                assert content["request_seq"] == self.seq, content
                return content

    def ok(self, command, arguments=None):
        r = self.request(command, arguments)
        assert r["success"], r
        return r.get("body", {})

    def drain(self, timeout):
        try:
            self.iopub.append(self.kc.get_iopub_msg(timeout=timeout))
            return True
        except queue.Empty:
            return False

    def event(self, name, timeout=15):
        """The next debug_event `name` after those already taken."""
        deadline = time.monotonic() + timeout
        while True:
            events = [m for m in self.iopub if m["msg_type"] == "debug_event"]
            for i in range(self.events_seen, len(events)):
                if events[i]["content"]["event"] == name:
                    self.events_seen = i + 1
                    return events[i]["content"]
            left = deadline - time.monotonic()
            assert left > 0, "no %s event; IOPub: %r" % (name, [m["msg_type"] for m in self.iopub])
            self.drain(min(left, 0.5))

    def outputs(self, msg_id, timeout=15):
        """A request's IOPub messages up to its idle status."""
        deadline = time.monotonic() + timeout
        while True:
            mine = [m for m in self.iopub if m["parent_header"].get("msg_id") == msg_id]
            if any(m["msg_type"] == "status" and m["content"]["execution_state"] == "idle" for m in mine):
                return [m for m in mine if m["msg_type"] != "status"]
            left = deadline - time.monotonic()
            assert left > 0, "no idle status for %s" % msg_id
            self.drain(min(left, 0.5))

    def shell_reply(self, msg_id, timeout=15):
        return shell_reply(self.kc, msg_id, timeout)["content"]

    def run(self, code, timeout=15):
        msg_id = self.kc.execute(code)
        reply = self.shell_reply(msg_id, timeout)
        return reply, self.outputs(msg_id, timeout)


def debugger():
    global _kernel, _debug
    if _debug is None:
        _kernel = start_kernel()
        _debug = Debugger(_kernel[1])
    return _debug


def result_text(outputs):
    return "".join(m["content"]["data"]["text/plain"] for m in outputs if m["msg_type"] == "execute_result")


# ---- advertising the debugger --------------------------------------------------------

def test_kernelspec_and_kernel_info():
    with open(os.path.join(SPEC_DIR, "kernel.json")) as f:
        assert json.load(f)["metadata"] == {"debugger": True}
    d = debugger()
    msg_id = d.kc.kernel_info()
    assert d.shell_reply(msg_id)["debugger"] is True


def test_debug_info_before_start():
    body = debugger().ok("debugInfo")
    assert body["isStarted"] is False, body
    assert body["hashMethod"] == "Murmur2" and body["richRendering"] is True, body
    assert isinstance(body["hashSeed"], int) and body["tmpFilePrefix"] and body["tmpFileSuffix"], body
    assert body["breakpoints"] == [] and body["stoppedThreads"] == [], body


# ---- the JupyterLab sequence -----------------------------------------------------------

def test_initialize_and_attach():
    d = debugger()
    caps = d.ok("initialize", {"clientID": "jupyterlab", "clientName": "JupyterLab", "adapterID": "relay",
                               "pathFormat": "path", "linesStartAt1": True, "columnsStartAt1": True,
                               "supportsVariableType": True, "supportsVariablePaging": True,
                               "supportsRunInTerminalRequest": True, "locale": "en"})
    assert caps["supportsConfigurationDoneRequest"] is True, caps
    d.event("initialized")
    d.ok("attach", {"justMyCode": False})
    assert d.ok("debugInfo")["isStarted"] is True


def test_dump_cell_names_files_by_murmur2():
    d = debugger()
    info = d.ok("debugInfo")
    # Every tail length (0 to 3 bytes after the 4-byte blocks), several lines, non-ASCII.
    for code in ["", "1", "%x", "1 + 2", "let %a = 1;", "(1, 2, 3)\n(4)", "// é ✓ 𝄞\n1f", SCALE_DEF, CELL]:
        path = d.ok("dumpCell", {"code": code})["sourcePath"]
        expected = info["tmpFilePrefix"] + str(murmur2_x86(code.encode("utf-8"), info["hashSeed"])) + \
            info["tmpFileSuffix"]
        assert path == expected, (code, path, expected)
        with open(path, encoding="utf-8") as f:
            assert f.read() == code, path


def test_stop_at_breakpoint_inspect_step_continue():
    d = debugger()
    reply, _ = d.run(SCALE_DEF)
    assert reply["status"] == "ok", reply
    reply, _ = d.run('let %w = ones(shape=[2], dtype="float32");')
    assert reply["status"] == "ok", reply

    cell_path = d.ok("dumpCell", {"code": CELL})["sourcePath"]
    def_path = d.ok("dumpCell", {"code": SCALE_DEF})["sourcePath"]
    bps = d.ok("setBreakpoints", {"source": {"path": cell_path}, "breakpoints": [{"line": 2}],
                                  "lines": [2], "sourceModified": False})["breakpoints"]
    assert len(bps) == 1 and bps[0]["verified"] and bps[0]["line"] == 2, bps
    assert d.ok("debugInfo")["breakpoints"] == [{"source": cell_path, "breakpoints": [{"line": 2}]}]
    d.ok("configurationDone")

    msg_id = d.kc.execute(CELL)
    stopped = d.event("stopped")
    assert stopped["body"]["reason"] == "breakpoint" and stopped["body"]["threadId"] == 1, stopped
    # The shell is busy with the cell; the control channel answers regardless.
    try:
        early = d.kc.get_shell_msg(timeout=0.3)
        raise AssertionError("the cell replied while stopped: %r" % early)
    except queue.Empty:
        pass
    assert d.ok("debugInfo")["stoppedThreads"] == [1]
    assert d.ok("threads")["threads"][0]["id"] == 1
    frames = d.ok("stackTrace", {"threadId": 1})["stackFrames"]
    assert frames[0]["source"]["path"] == cell_path and frames[0]["line"] == 2, frames

    d.ok("next", {"threadId": 1})
    d.event("continued")
    assert d.event("stopped")["body"]["reason"] == "step"
    frames = d.ok("stackTrace", {"threadId": 1})["stackFrames"]
    top = frames[0]
    # The statement stopped at: the value of the third `let`.
    assert top["source"]["path"] == cell_path and top["line"] == 3 and top["column"] == 10, frames
    assert top["name"].startswith("<input "), top
    assert d.ok("source", {"source": {"path": cell_path}})["content"] == CELL

    scopes = d.ok("scopes", {"frameId": top["id"]})["scopes"]
    by_name = {s["name"]: s for s in scopes}
    assert "Locals" in by_name and "Arguments" in by_name, scopes
    local_vars = d.ok("variables", {"variablesReference": by_name["Locals"]["variablesReference"]})["variables"]
    values = {v["name"]: v for v in local_vars}
    assert set(values) == {"%z", "%bad"}, local_vars
    assert "nan" in values["%bad"]["value"] and values["%bad"]["type"] == "Tensor[(2, 2), float32]", values
    args = d.ok("variables", {"variablesReference": by_name["Arguments"]["variablesReference"]})["variables"]
    assert [v["name"] for v in args] == ["%w"], args  # the session's binding is the cell's argument

    rich = d.ok("richInspectVariables", {"variableName": "%bad", "frameId": top["id"]})
    html = rich["data"]["text/html"]
    # Cells carry inline styles (no stylesheet survives an untrusted notebook).
    assert len(re.findall(r'<td class="rv-nonfinite"[^>]*>nan</td>', html)) == 4, html
    assert "nan" in rich["data"]["text/plain"], rich
    rich = d.ok("richInspectVariables", {"variableName": "%z", "frameId": top["id"]})
    html = rich["data"]["text/html"]
    assert 'class="rv-nonfinite"' not in html and re.search(r"<td[^>]*>0\.0?</td>", html), html

    evaluated = d.ok("evaluate", {"expression": "add(%z, 3f)", "frameId": top["id"], "context": "repl"})
    assert evaluated["result"] == "[[3. 3.] [3. 3.]]" and evaluated["type"] == "Tensor[(2, 2), float32]", evaluated
    bad = d.request("evaluate", {"expression": "%nope", "frameId": top["id"], "context": "repl"})
    assert not bad["success"] and "nope" in bad["message"], bad

    # Into @scale: its frame is in the cell that defined it.
    d.ok("stepIn", {"threadId": 1})
    d.event("continued")
    assert d.event("stopped")["body"]["reason"] == "step"
    frames = d.ok("stackTrace", {"threadId": 1})["stackFrames"]
    assert frames[0]["name"] == "@scale" and frames[0]["source"]["path"] == def_path, frames
    assert frames[0]["line"] == 2 and frames[1]["source"]["path"] == cell_path and frames[1]["line"] == 3, frames
    # Out of it: the next statement of the cell.
    d.ok("stepOut", {"threadId": 1})
    d.event("continued")
    assert d.event("stopped")["body"]["reason"] == "step"
    frames = d.ok("stackTrace", {"threadId": 1})["stackFrames"]
    assert frames[0]["source"]["path"] == cell_path and frames[0]["line"] == 4, frames

    body = d.ok("continue", {"threadId": 1})
    assert body.get("allThreadsContinued") is True, body
    d.event("continued")
    reply = d.shell_reply(msg_id)
    assert reply["status"] == "ok", reply
    assert "[[3. 3.]\n [3. 3.]]" in result_text(d.outputs(msg_id)), d.outputs(msg_id)
    assert d.ok("debugInfo")["stoppedThreads"] == []
    assert not d.request("stackTrace", {"threadId": 1})["success"]


def test_variables_between_cells():
    d = debugger()
    reply, _ = d.run('let %t = divide(zeros(shape=[3], dtype="float32"), zeros(shape=[3], dtype="float32"));')
    assert reply["status"] == "ok", reply
    variables = {v["name"]: v for v in d.ok("inspectVariables")["variables"]}
    assert {"%w", "%t"} <= set(variables), variables
    assert variables["%t"]["type"] == "Tensor[(3), float32]" and variables["%t"]["variablesReference"] == 0
    rich = d.ok("richInspectVariables", {"variableName": "%t"})
    assert rich["data"]["text/html"].count('class="rv-nonfinite"') == 3, rich
    assert not d.request("richInspectVariables", {"variableName": "%missing"})["success"]


def test_error_in_debugged_cell_is_the_cells_error():
    d = debugger()
    reply, outputs = d.run('@scale(ones(shape=[2, 2], dtype="float32"), 1)')
    assert reply["status"] == "error", reply  # a type error: never reaches the debugger
    reply, outputs = d.run("let %q = 1;\nmatch? (Cons(%q, Nil)) { Nil => 0 }")
    assert reply["status"] == "error" and "<input" in "\n".join(reply["traceback"]), reply


def test_disconnect_lets_cells_run():
    d = debugger()
    d.ok("disconnect", {"restart": False, "terminateDebuggee": False})
    info = d.ok("debugInfo")
    assert info["isStarted"] is False and info["breakpoints"] == [], info
    before = len(d.iopub)
    reply, outputs = d.run(CELL)
    assert reply["status"] == "ok" and "[[3. 3.]\n [3. 3.]]" in result_text(outputs), (reply, outputs)
    events = [m["content"] for m in d.iopub[before:] if m["msg_type"] == "debug_event"]
    assert not events, events


def test_shutdown_while_stopped():
    """A kernel shut down while a cell is stopped ends that cell and exits (the shell
    thread must not stay parked). Its own kernel."""
    km, kc = start_kernel()
    try:
        d = Debugger(kc)
        d.ok("initialize", {"adapterID": "relay"})
        d.ok("attach")
        path = d.ok("dumpCell", {"code": CELL})["sourcePath"]
        d.ok("setBreakpoints", {"source": {"path": path}, "breakpoints": [{"line": 2}]})
        d.ok("configurationDone")
        reply, _ = d.run(SCALE_DEF)
        assert reply["status"] == "ok", reply
        kc.execute(CELL)
        d.event("stopped")
        kc.stop_channels()
        km.shutdown_kernel(now=False)  # a shutdown_request on the control channel
        assert not km.is_alive()
    finally:
        if km.is_alive():
            km.shutdown_kernel(now=True)
            raise AssertionError("the kernel did not exit")


def main(argv):
    global RELAY, ROOT, SPEC_DIR
    if len(argv) < 2:
        print(__doc__)
        return 2
    if not have_jupyter_client():
        print("jupyter_client is not installed for %s: skipped" % sys.executable)
        return SKIP
    RELAY = argv[1]
    ROOT = isolated_jupyter()
    SPEC_DIR = install_kernelspec(RELAY, ROOT)
    try:
        return run_tests(globals(), argv)
    finally:
        if _kernel is not None:
            _kernel[1].stop_channels()
            _kernel[0].shutdown_kernel(now=False)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
