"""Tests the DAP test client itself, without `relay dap`: the schema validator accepts
well-formed messages and rejects broken ones with a useful error, the frame reader rejects
any byte outside a frame, and a scripted fake adapter (this file run with --fake-adapter
MODE) drives a whole session through the client's helpers, cleanly or with one planted
protocol violation that the client must catch.

    /usr/bin/python3 tests/dap/test_client_selftest.py [test names...]
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dap_client import DapClient, DapSchema, FrameReader, ProtocolViolation, frame, run_tests  # noqa: E402

SCHEMA = DapSchema()


def response(command, body=None, request_seq=1, seq=1, success=True, message=None):
    msg = {"seq": seq, "type": "response", "request_seq": request_seq, "command": command, "success": success}
    if body is not None:
        msg["body"] = body
    if message is not None:
        msg["message"] = message
    return msg


def event(name, body=None, seq=1):
    msg = {"seq": seq, "type": "event", "event": name}
    if body is not None:
        msg["body"] = body
    return msg


FRAME = {"id": 1, "name": "@main", "line": 4, "column": 3, "source": {"name": "t.relay", "path": "/tmp/t.relay"}}
VARIABLE = {"name": "%x", "value": "[1. 2. 3.]", "type": "Tensor[(3), float32]", "variablesReference": 0}


# ---- the validator ----------------------------------------------------------------

def test_schema_accepts_good_messages():
    good = [
        response("initialize", {"supportsConfigurationDoneRequest": True}),
        response("configurationDone"),
        response("launch"),
        response("setBreakpoints", {"breakpoints": [{"verified": True, "line": 4}, {"verified": False}]}),
        response("threads", {"threads": [{"id": 1, "name": "main"}]}),
        response("stackTrace", {"stackFrames": [FRAME], "totalFrames": 1}),
        response("scopes", {"scopes": [{"name": "Locals", "variablesReference": 7, "expensive": False}]}),
        response("variables", {"variables": [VARIABLE]}),
        response("continue", {"allThreadsContinued": True}),
        response("evaluate", {"result": "[1. 2. 3.]", "variablesReference": 0}),
        response("stackTrace", success=False, message="notStopped"),
        response("stackTrace", {"error": {"id": 3, "format": "no frame {id}", "variables": {"id": "9"}}},
                 success=False, message="no such frame"),
        response("relay/custom", {"anything": [1, 2]}),  # unknown commands: checked as Response
        event("initialized"),
        event("stopped", {"reason": "breakpoint", "threadId": 1, "hitBreakpointIds": [1]}),
        event("stopped", {"reason": "numerics", "description": "NaN in %3", "threadId": 1}),  # open enum
        event("output", {"category": "stdout", "output": "hello\n"}),
        event("exited", {"exitCode": 0}),
        event("terminated"),
        {"seq": 5, "type": "request", "command": "runInTerminal",
         "arguments": {"cwd": "/tmp", "args": ["relay", "run"]}},
    ]
    for msg in good:
        assert SCHEMA.errors(msg) == [], (msg, SCHEMA.errors(msg))


def expect_rejected(msg, *fragments):
    problems = SCHEMA.errors(msg)
    assert problems, "accepted an invalid message: %s" % json.dumps(msg)
    text = "\n".join(problems)
    for fragment in fragments:
        assert fragment in text, "expected %r in:\n%s" % (fragment, text)
    try:
        SCHEMA.check(msg)
    except ProtocolViolation as e:
        assert json.dumps(msg, sort_keys=True)[:100] in str(e), str(e)  # the message is quoted
    else:
        raise AssertionError("check() let it through")


def test_schema_rejects_bad_messages():
    expect_rejected(event("stopped", {"threadId": 1}), "StoppedEvent", "'reason' is a required property")
    expect_rejected(event("stopped", {"reason": 3, "threadId": 1}), "StoppedEvent", "is not of type 'string'",
                    "body/reason")
    expect_rejected(event("exited", {}), "ExitedEvent", "'exitCode'")
    expect_rejected(event("exited", {"exitCode": 1.5}), "is not of type 'integer'")
    expect_rejected(event("output", {"output": 7}), "OutputEvent")
    expect_rejected(response("stackTrace", {"frames": []}), "StackTraceResponse", "'stackFrames'")
    expect_rejected(response("stackTrace"), "StackTraceResponse", "'body' is a required property")
    expect_rejected(response("stackTrace", {"stackFrames": [dict(FRAME, line="4")]}), "stackFrames/0/line")
    expect_rejected(response("stackTrace", {"stackFrames": [{"id": 1, "name": "@main", "line": 4}]}),
                    "'column' is a required property")
    expect_rejected(response("scopes", {"scopes": [{"name": "Locals", "variablesReference": 1}]}),
                    "'expensive' is a required property")
    expect_rejected(response("variables", {"variables": [{"name": "%x", "value": 1, "variablesReference": 0}]}),
                    "variables/0/value")
    expect_rejected(response("variables", {"variables": [dict(VARIABLE, variablesReference=2**31)]}),
                    "int32")
    expect_rejected(response("threads", {"threads": [{"id": 1}]}), "'name' is a required property")
    expect_rejected(response("stackTrace", success=False), "must say why")
    expect_rejected(response("stackTrace", {"error": {"id": "x", "format": "f"}}, success=False, message="m"),
                    "ErrorResponse")
    expect_rejected(dict(response("launch"), request_seq=0), "request_seq")
    expect_rejected(dict(response("launch"), seq=0), "seq")
    expect_rejected({"seq": 1, "type": "notification", "method": "x"}, "must be request, response or event")
    expect_rejected({"seq": 1, "event": "stopped"}, "'type' is a required property")
    expect_rejected([1, 2], "JSON object")


# ---- the frame reader -------------------------------------------------------------

def test_frame_reader():
    r = FrameReader()
    assert r.feed(b"Content-Len") == []
    assert r.feed(b"gth: 2\r\n\r") == []
    assert r.feed(b"\n{}" + frame({"a": 1}) + b"Content-Length: 3\r\n\r\n[1") == [b"{}", b'{"a": 1}']
    assert r.feed(b"]") == [b"[1]"]
    r.finish()
    for stray in [b"hello\n", b"\n" + frame({}), b"Content-length: 2\r\n\r\n{}", b"Content-Length:2\r\n\r\n{}",
                  b"Content-Length: 2\n\n{}", b"Content-Length: x\r\n\r\n", b"Content-Type: a\r\n"]:
        try:
            FrameReader().feed(stray)
        except ProtocolViolation as e:
            assert "outside a frame" in str(e), e
        else:
            raise AssertionError("accepted %r" % stray)
    truncated = FrameReader()
    truncated.feed(b"Content-Length: 10\r\n\r\n{")
    try:
        truncated.finish()
    except ProtocolViolation as e:
        assert "ended inside a frame" in str(e)
    else:
        raise AssertionError("accepted a truncated frame")


# ---- a scripted fake adapter ------------------------------------------------------

def fake_adapter(mode):
    """Speaks just enough DAP for the session in test_fake_session; `mode` plants one fault."""
    out = sys.stdout.buffer
    seq = [0]

    def send(msg):
        seq[0] += 1
        msg = dict(msg, seq=seq[0] if mode != "bad-seq" or seq[0] < 3 else 2)
        out.write(frame(msg))
        out.flush()

    def respond(req, body=None, **extra):
        msg = {"type": "response", "request_seq": req["seq"], "command": req["command"], "success": True}
        if body is not None:
            msg["body"] = body
        msg.update(extra)
        send(msg)

    buf = b""
    launch = None
    while True:
        chunk = os.read(0, 65536)
        if not chunk:
            return 0
        buf += chunk
        while True:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                break
            length = int(buf[len(b"Content-Length: "):end])
            if len(buf) < end + 4 + length:
                break
            req = json.loads(buf[end + 4:end + 4 + length])
            buf = buf[end + 4 + length:]
            cmd = req["command"]
            if cmd == "initialize":
                respond(req, {"supportsConfigurationDoneRequest": True})
                if mode == "stray-stdout":
                    out.write(b"debug: initialized\n")
                    out.flush()
            elif cmd == "launch":
                launch = req
                send(event("initialized"))
            elif cmd == "setBreakpoints":
                respond(req, {"breakpoints": [{"verified": True, "line": b["line"]}
                                              for b in req["arguments"]["breakpoints"]]})
            elif cmd == "configurationDone":
                respond(req)
                respond(launch)
                stop = {"threadId": 1} if mode == "bad-event" else {"reason": "breakpoint", "threadId": 1}
                send(event("stopped", stop))
            elif cmd == "threads":
                respond(req, {"threads": [{"id": 1, "name": "main"}]})
                if mode == "wrong-request-seq":
                    send({"type": "response", "request_seq": 999, "command": "threads", "success": True,
                          "body": {"threads": []}})
            elif cmd == "stackTrace":
                frames = [dict(FRAME, line="4")] if mode == "bad-response" else [FRAME]
                respond(req, {"stackFrames": frames, "totalFrames": 1})
            elif cmd == "scopes":
                respond(req, {"scopes": [{"name": "Locals", "variablesReference": 1, "expensive": False}]})
            elif cmd == "variables":
                respond(req, {"variables": [VARIABLE]})
            elif cmd == "evaluate":
                send({"type": "response", "request_seq": req["seq"], "command": "evaluate", "success": False})
            elif cmd == "continue":
                respond(req, {"allThreadsContinued": True})
                send(event("exited", {"exitCode": 0}))
                send(event("terminated"))
                if mode == "truncated":
                    out.write(b"Content-Length: 40\r\n\r\n{\"seq\":")
                    out.flush()
                    return 0
            elif cmd == "disconnect":
                respond(req)
            else:
                respond(req, success=False, message="unknown command %s" % cmd)


def fake(mode):
    return DapClient(command=[sys.executable, os.path.abspath(__file__), "--fake-adapter", mode])


def session(c):
    """The session a `relay dap` test runs: breakpoint, inspect, continue to the end."""
    _, verified = c.start("/tmp/t.relay", breakpoints={"/tmp/t.relay": [4]}, random_inputs=0)
    assert verified["/tmp/t.relay"][0]["verified"]
    stopped = c.wait_stopped("breakpoint")
    assert stopped["threadId"] == 1
    frame_ = c.top_frame()
    assert frame_["name"] == "@main" and frame_["line"] == 4, frame_
    x = c.scope_variables(frame_["id"], "Locals")["%x"]
    assert x["value"] == "[1. 2. 3.]" and x["type"] == "Tensor[(3), float32]", x
    c.continue_()
    assert c.wait_end() == 0
    c.disconnect()


def test_fake_session():
    with fake("good") as c:
        session(c)
        assert [e["event"] for e in c.all_events] == ["initialized", "stopped", "exited", "terminated"]
    assert c.proc.returncode == 0


def test_failed_request_without_message_is_caught():
    with fake("good") as c:
        c.start("/tmp/t.relay")
        c.wait_stopped()
        try:
            c.evaluate("%x", success=None)
        except ProtocolViolation as e:
            assert "must say why" in str(e), e
        else:
            raise AssertionError("a failed response without a message went unnoticed")
        c.violations.clear()


def expect_violation(mode, *fragments):
    c = fake(mode)
    try:
        session(c)
        c.close()
    except ProtocolViolation as e:
        for fragment in fragments:
            assert fragment in str(e), "expected %r in:\n%s" % (fragment, e)
        return
    finally:
        c.kill()
    raise AssertionError("mode %s: the violation went unnoticed" % mode)


def test_stray_stdout_is_caught():
    expect_violation("stray-stdout", "outside a frame", "debug: initialized")


def test_invalid_event_is_caught():
    expect_violation("bad-event", "StoppedEvent", "'reason' is a required property")


def test_invalid_response_is_caught():
    expect_violation("bad-response", "StackTraceResponse", "stackFrames/0/line", '"line": "4"')


def test_bad_seq_is_caught():
    expect_violation("bad-seq", "seq 2 follows 2")


def test_response_to_unknown_request_is_caught():
    expect_violation("wrong-request-seq", "never sent")


def test_truncated_output_is_caught():
    expect_violation("truncated", "ended inside a frame")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--fake-adapter":
        sys.exit(fake_adapter(sys.argv[2]))
    # argv[1] would be the relay binary in the adapter's tests; here it is optional.
    argv = sys.argv if len(sys.argv) > 1 and not sys.argv[1].startswith("test_") else [sys.argv[0], ""] + sys.argv[1:]
    sys.exit(run_tests(globals(), argv))
