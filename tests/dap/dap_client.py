"""A Debug Adapter Protocol test client: starts `relay dap`, frames messages, assigns
`seq`, sends requests and waits for their responses, collects events, and checks
everything the adapter sends:

* every message is validated against the DAP JSON schema
  (`../shared/specs/debugAdapterProtocol.json` from the repository root; draft-04):
  a response against `<Command>Response` (`StackTraceResponse`), or `ErrorResponse`/
  `Response` when `success` is false; an event against `<Name>Event` (`StoppedEvent`); a
  reverse request against `<Command>Request`. Unknown commands and events fall back to
  `Response`, `Event`, `Request`. The `int32`/`uint32` formats are checked too;
* `seq` starts at 1 and grows by 1 per message (the spec says so; an adapter that sends
  from two threads must number and write each message under one lock);
* a response answers a request this client sent, once, with that request's command;
* stdout carries nothing but `Content-Length: N\\r\\n\\r\\n` frames of UTF-8 JSON objects:
  any other byte, before, between or after frames, is a violation.

A violation fails the test at the next call that waits for the adapter (and at close()),
with the message and the validation error. The binary comes from argv[1] or $RELAY_BINARY
(binary_from_argv); the schema from $RELAY_DAP_SCHEMA or the path above.

Typical use:

    with DapClient(relay) as c:
        c.start(program, breakpoints={program: [4]})   # initialize .. configurationDone
        stopped = c.wait_stopped("breakpoint")
        frame = c.top_frame()
        x = c.scope_variables(frame["id"], "Locals")["%x"]
        c.continue_()
        c.wait_end()                                   # exited, then terminated
"""
import json
import os
import subprocess
import sys
import threading
import time

from dap_protocol import DapSchema, FrameReader, ProtocolViolation, describe, frame  # noqa: F401 (re-exported)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from test_runner import run_tests as _run_tests  # noqa: E402

DEFAULT_TIMEOUT = 10.0


def binary_from_argv(argv=None):
    """The `relay` binary: argv[1], else $RELAY_BINARY; exits with a usage line if neither."""
    argv = sys.argv if argv is None else argv
    relay = argv[1] if len(argv) > 1 else os.environ.get("RELAY_BINARY")
    if not relay:
        sys.exit("usage: %s RELAY_BINARY [test names...]  (or set RELAY_BINARY)" % argv[0])
    return relay


class DapClient:
    """One adapter process. `command` defaults to [relay, "dap"]."""

    def __init__(self, relay=None, command=None, schema=None, cwd=None, env=None, stderr=None,
                 strict_seq=True):
        if command is None:
            relay = relay or os.environ.get("RELAY_BINARY")
            if not relay:
                raise ValueError("no relay binary given (argument or $RELAY_BINARY)")
            command = [relay, "dap"]
        self.schema = schema if isinstance(schema, DapSchema) else DapSchema(schema)
        self.strict_seq = strict_seq
        self.next_seq = 1
        self.requests = {}            # seq -> command of requests sent and not yet answered
        self.answered = set()         # seqs answered
        self.responses = {}           # seq -> response, until wait_response takes it
        self.events = []              # events not yet taken by wait_event
        self.all_events = []          # every event, in order, for the record
        self.reverse_requests = []    # requests the adapter sent (runInTerminal, ...)
        self.violations = []
        self.received = 0             # messages received
        self.last_adapter_seq = 0
        self.eof = False
        self.stderr_text = b""
        self._cond = threading.Condition()
        self._stderr_to_file = stderr is not None
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=stderr if stderr is not None else subprocess.PIPE,
                                     cwd=cwd, env=env)
        self._threads = [threading.Thread(target=self._read_stdout, daemon=True)]
        if not self._stderr_to_file:
            self._threads.append(threading.Thread(target=self._read_stderr, daemon=True))
        for t in self._threads:
            t.start()

    # ---- the reader threads -------------------------------------------------------
    def _read_stdout(self):
        reader = FrameReader()
        fd = self.proc.stdout.fileno()
        try:
            while True:
                chunk = os.read(fd, 65536)
                if not chunk:
                    reader.finish()
                    break
                for body in reader.feed(chunk):
                    self._accept(body)
        except ProtocolViolation as e:
            self._violation(str(e))
        except Exception as e:  # a bug here must not hang the test
            self._violation("the client's reader failed: %r" % e)
        with self._cond:
            self.eof = True
            self._cond.notify_all()

    def _read_stderr(self):
        fd = self.proc.stderr.fileno()
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                return
            with self._cond:
                self.stderr_text += chunk

    def _violation(self, text):
        with self._cond:
            self.violations.append(text)
            self._cond.notify_all()

    def _accept(self, body):
        try:
            msg = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            self._violation("a frame that is not UTF-8 JSON (%s): %r" % (e, body[:500]))
            return
        problems = self.schema.errors(msg)
        if isinstance(msg, dict):
            problems += self._sequence_problems(msg)
        if problems:
            self._violation(describe(msg, problems))
            if not isinstance(msg, dict):
                return
        with self._cond:
            self.received += 1
            kind = msg.get("type")
            if kind == "response":
                self.responses[msg.get("request_seq")] = msg
            elif kind == "event":
                self.events.append(msg)
                self.all_events.append(msg)
            elif kind == "request":
                self.reverse_requests.append(msg)
            self._cond.notify_all()

    def _sequence_problems(self, msg):
        problems = []
        seq = msg.get("seq")
        if self.strict_seq and isinstance(seq, int) and seq != self.last_adapter_seq + 1:
            problems.append("seq %d follows %d (each message's seq must be 1 more than the last)"
                            % (seq, self.last_adapter_seq))
        if isinstance(seq, int):
            self.last_adapter_seq = seq
        if msg.get("type") == "response":
            rs = msg.get("request_seq")
            with self._cond:
                if rs in self.answered:
                    problems.append("a second response to request %r" % rs)
                elif rs not in self.requests:
                    problems.append("a response to request %r, which was never sent" % rs)
                elif self.requests[rs] != msg.get("command"):
                    problems.append("the response to a `%s` request says command %r"
                                    % (self.requests[rs], msg.get("command")))
                self.answered.add(rs)
                self.requests.pop(rs, None)
        return problems

    # ---- waiting ------------------------------------------------------------------
    def _raise_violations(self):
        if self.violations:
            raise ProtocolViolation("\n\n".join(self.violations) + self._stderr_tail())

    def _stderr_tail(self):
        if self._stderr_to_file or not self.stderr_text:
            return ""
        return "\nadapter stderr (last 2000 bytes):\n" + self.stderr_text[-2000:].decode("utf-8", "replace")

    def _wait_for(self, find, what, timeout):
        """Waits until find() (called under the lock) returns something other than None."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                self._raise_violations()
                found = find()
                if found is not None:
                    return found
                if self.eof:
                    raise EOFError("the adapter closed its output while waiting for %s (exit status %r)%s"
                                   % (what, self.proc.poll(), self._stderr_tail()))
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("no %s from the adapter within %gs%s" % (what, timeout, self._stderr_tail()))
                self._cond.wait(left)

    # ---- sending ------------------------------------------------------------------
    def send(self, msg):
        """Sends one message (a dict without `seq`; it is assigned here); returns its seq."""
        with self._cond:
            seq = self.next_seq
            self.next_seq += 1
            msg = dict(msg, seq=seq)
            if msg.get("type") == "request":
                self.requests[seq] = msg.get("command")
        self.send_raw(frame(msg))
        return seq

    def send_raw(self, data):
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise EOFError("the adapter closed its input%s" % self._stderr_tail())

    def send_request(self, command, arguments=None):
        msg = {"type": "request", "command": command}
        if arguments is not None:
            msg["arguments"] = arguments
        return self.send(msg)

    def wait_response(self, seq, timeout=DEFAULT_TIMEOUT):
        return self._wait_for(lambda: self.responses.pop(seq, None), "response to request %d" % seq, timeout)

    def request(self, command, arguments=None, timeout=DEFAULT_TIMEOUT, success=True):
        """Sends a request and returns its response. success=True asserts that it
        succeeded, False that it failed, None checks nothing."""
        r = self.wait_response(self.send_request(command, arguments), timeout)
        if success is not None and r["success"] != success:
            raise AssertionError("`%s` %s: %s" % (command, "failed" if success else "succeeded unexpectedly",
                                                  json.dumps(r)))
        return r

    def respond(self, request, body=None, success=True, message=None):
        """Answers a reverse request from the adapter."""
        msg = {"type": "response", "request_seq": request["seq"], "command": request["command"],
               "success": success}
        if body is not None:
            msg["body"] = body
        if message is not None:
            msg["message"] = message
        return self.send(msg)

    # ---- events -------------------------------------------------------------------
    def wait_event(self, name, predicate=None, timeout=DEFAULT_TIMEOUT):
        """Takes the first event called `name` (that satisfies predicate(event)) not yet
        taken, waiting for it; events before it stay available."""
        def find():
            for i, e in enumerate(self.events):
                if e.get("event") == name and (predicate is None or predicate(e)):
                    return self.events.pop(i)
            return None
        return self._wait_for(find, "`%s` event" % name, timeout)

    def pending_events(self, name=None):
        """The events not yet taken (those called `name`), without waiting."""
        with self._cond:
            self._raise_violations()
            return [e for e in self.events if name is None or e.get("event") == name]

    def wait_stopped(self, reason=None, timeout=DEFAULT_TIMEOUT):
        """The body of the next `stopped` event (with that reason, when given)."""
        e = self.wait_event("stopped", (lambda e: e["body"]["reason"] == reason) if reason else None, timeout)
        return e["body"]

    def wait_end(self, timeout=DEFAULT_TIMEOUT):
        """Waits for `exited` then `terminated` (in that order); returns the exit code."""
        exited = self.wait_event("exited", timeout=timeout)
        terminated = self.wait_event("terminated", timeout=timeout)
        with self._cond:
            position = {id(e): i for i, e in enumerate(self.all_events)}
        assert position[id(exited)] < position[id(terminated)], "`terminated` came before `exited`"
        return exited["body"]["exitCode"]

    def output(self, category=None):
        """The text of the `output` events so far (of that category), in order."""
        with self._cond:
            return "".join(e["body"]["output"] for e in self.all_events
                           if e.get("event") == "output" and (category is None or e["body"].get("category") == category))

    # ---- the session --------------------------------------------------------------
    def initialize(self, **arguments):
        """`initialize` as VS Code sends it (overridable); returns the capabilities."""
        args = {"clientID": "relay-tests", "clientName": "relay tests", "adapterID": "relay", "locale": "en",
                "linesStartAt1": True, "columnsStartAt1": True, "pathFormat": "path",
                "supportsVariableType": True, "supportsRunInTerminalRequest": False}
        args.update(arguments)
        return self.request("initialize", args).get("body") or {}

    def start(self, program, breakpoints=None, entry=None, args=None, random_inputs=None,
              stop_on_entry=None, check_numerics=None, max_depth=None, timeout=DEFAULT_TIMEOUT, **launch):
        """initialize, launch, (initialized) setBreakpoints per file, configurationDone, and
        the launch response, in the order VS Code uses. breakpoints: {path: [line, ...]} or
        {path: [{"line": n, "condition": ...}, ...]}. Returns (capabilities, {path: the
        Breakpoint list the adapter answered})."""
        caps = self.initialize()
        arguments = {"program": str(program)}
        for key, value in (("entry", entry), ("args", args), ("randomInputs", random_inputs),
                           ("stopOnEntry", stop_on_entry), ("checkNumerics", check_numerics),
                           ("maxDepth", max_depth)):
            if value is not None:
                arguments[key] = value
        arguments.update(launch)
        launch_seq = self.send_request("launch", arguments)
        self.wait_event("initialized", timeout=timeout)
        verified = {}
        for path, lines in (breakpoints or {}).items():
            specs = [spec if isinstance(spec, dict) else {"line": spec} for spec in lines]
            verified[path] = self.set_breakpoints_raw(path, specs)
        if caps.get("exceptionBreakpointFilters"):
            self.request("setExceptionBreakpoints", {"filters": []})
        self.request("configurationDone", timeout=timeout)
        r = self.wait_response(launch_seq, timeout)
        if not r["success"]:
            raise AssertionError("launch failed: %s" % json.dumps(r))
        return caps, verified

    def set_breakpoints(self, path, lines, conditions=None, hit_conditions=None, log_messages=None):
        """Line breakpoints for one file (replacing its earlier ones); conditions,
        hit_conditions and log_messages are lists parallel to lines (None entries mean
        none). Returns the adapter's Breakpoint list, one per line."""
        specs = []
        for i, line in enumerate(lines):
            spec = {"line": line}
            for key, values in (("condition", conditions), ("hitCondition", hit_conditions),
                                ("logMessage", log_messages)):
                if values is not None and values[i] is not None:
                    spec[key] = values[i]
            specs.append(spec)
        return self.set_breakpoints_raw(path, specs)

    def set_breakpoints_raw(self, path, specs):
        r = self.request("setBreakpoints", {"source": {"path": str(path), "name": os.path.basename(str(path))},
                                            "breakpoints": specs, "sourceModified": False})
        result = r["body"]["breakpoints"]
        assert len(result) == len(specs), "asked for %d breakpoints, got %d: %s" % (len(specs), len(result), r)
        return result

    def threads(self):
        return self.request("threads")["body"]["threads"]

    def thread_id(self):
        """The id of the first (for Relay, the only) thread."""
        threads = self.threads()
        assert threads, "no threads"
        return threads[0]["id"]

    def stack_trace(self, thread_id=None, start=0, levels=None):
        args = {"threadId": self.thread_id() if thread_id is None else thread_id, "startFrame": start}
        if levels is not None:
            args["levels"] = levels
        return self.request("stackTrace", args)["body"]["stackFrames"]

    def top_frame(self, thread_id=None):
        frames = self.stack_trace(thread_id, levels=1)
        assert frames, "an empty stack while stopped"
        return frames[0]

    def scopes(self, frame_id):
        return self.request("scopes", {"frameId": frame_id})["body"]["scopes"]

    def variables(self, reference, start=None, count=None):
        args = {"variablesReference": reference}
        if start is not None:
            args["start"] = start
        if count is not None:
            args["count"] = count
        return self.request("variables", args)["body"]["variables"]

    def variables_by_name(self, reference):
        return {v["name"]: v for v in self.variables(reference)}

    def scope_variables(self, frame_id, scope_name):
        """{name: Variable} of the scope called `scope_name` (Arguments, Locals, ...)."""
        scopes = {s["name"]: s for s in self.scopes(frame_id)}
        assert scope_name in scopes, "no scope %r; the frame has %s" % (scope_name, sorted(scopes))
        return self.variables_by_name(scopes[scope_name]["variablesReference"])

    def evaluate(self, expression, frame_id=None, context="repl", success=True):
        args = {"expression": expression, "context": context}
        if frame_id is not None:
            args["frameId"] = frame_id
        return self.request("evaluate", args, success=success)

    def _step(self, command, thread_id, granularity):
        args = {"threadId": self.thread_id() if thread_id is None else thread_id}
        if granularity:
            args["granularity"] = granularity
        return self.request(command, args)

    def continue_(self, thread_id=None):
        return self._step("continue", thread_id, None)

    def next(self, thread_id=None, granularity=None):
        return self._step("next", thread_id, granularity)

    def step_in(self, thread_id=None, granularity=None):
        return self._step("stepIn", thread_id, granularity)

    def step_out(self, thread_id=None, granularity=None):
        return self._step("stepOut", thread_id, granularity)

    def pause(self, thread_id=None):
        return self._step("pause", thread_id, None)

    def disconnect(self, terminate=True, timeout=DEFAULT_TIMEOUT):
        return self.request("disconnect", {"terminateDebuggee": terminate}, timeout=timeout)

    # ---- ending -------------------------------------------------------------------
    def close(self, timeout=DEFAULT_TIMEOUT):
        """Closes the adapter's stdin, waits for it to exit and for its output to end;
        raises on any violation (also one in the last bytes) and returns the exit status."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            status = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise TimeoutError("the adapter did not exit within %gs of its input closing%s"
                               % (timeout, self._stderr_tail()))
        for t in self._threads:
            t.join(timeout)
        with self._cond:
            self._raise_violations()
        return status

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        if kind is None:
            self.close()
        else:
            self.kill()
        return False


def run_tests(namespace, argv):
    """tests/support/test_runner.py's runner."""
    return _run_tests(namespace, argv)
