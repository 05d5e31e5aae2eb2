"""A minimal LSP client for tests: starts `relay lsp`, frames JSON-RPC messages, and
collects responses and notifications."""
import json
import os
import select
import subprocess
import time
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from test_runner import run_tests as _run_tests  # noqa: E402


class LspClient:
    def __init__(self, relay, stderr=subprocess.PIPE):
        """stderr: where the server's stderr goes (a file keeps it for later reading; the
        default pipe is drained and dropped while sending)."""
        self.proc = subprocess.Popen([relay, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=stderr)
        self.buf = b""
        self.next_id = 1
        self.notifications = []
        self.responses = {}
        self.unattributed_errors = []  # error responses with id null (parse errors)

    # ---- sending ------------------------------------------------------------------
    @staticmethod
    def frame(obj):
        body = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    def send_raw(self, data):
        """Writes `data` while reading what the server writes meanwhile: a server that
        answers while the client is still writing would otherwise fill the output pipe and
        both would wait for each other."""
        fd = self.proc.stdin.fileno()
        outputs = [s for s in (self.proc.stdout, self.proc.stderr) if s is not None]  # stderr may go to a file
        view = memoryview(data)
        while view:
            readable, writable, _ = select.select(outputs, [fd], [], 60)
            if not readable and not writable:
                raise TimeoutError("the server neither reads nor writes")
            for stream in readable:
                chunk = os.read(stream.fileno(), 65536)
                if stream is self.proc.stdout and chunk:
                    self.buf += chunk
                # stderr is drained and dropped; EOF on either shows up in the next read
            if writable:
                n = os.write(fd, view[:select.PIPE_BUF])  # never more than a writable pipe takes
                view = view[n:]

    def send(self, *msgs):
        """Sends messages in one write (so the server sees them in one batch)."""
        self.send_raw(b"".join(self.frame(m) for m in msgs))

    def request_msg(self, method, params=None):
        rid = self.next_id
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        return rid, msg

    def notify_msg(self, method, params=None):
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        return msg

    def request(self, method, params=None, timeout=10):
        rid, msg = self.request_msg(method, params)
        self.send(msg)
        return self.wait_response(rid, timeout)

    def notify(self, method, params=None):
        self.send(self.notify_msg(method, params))

    # ---- receiving ----------------------------------------------------------------
    def _read_message(self, timeout):
        deadline = time.time() + timeout
        while True:
            head_end = self.buf.find(b"\r\n\r\n")
            if head_end >= 0:
                headers = self.buf[:head_end].decode()
                length = None
                for line in headers.split("\r\n"):
                    k, _, v = line.partition(":")
                    if k.strip().lower() == "content-length":
                        length = int(v.strip())
                assert length is not None, headers
                start = head_end + 4
                if len(self.buf) >= start + length:
                    body = self.buf[start:start + length]
                    self.buf = self.buf[start + length:]
                    return json.loads(body)
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError("no message from the server")
            r, _, _ = select.select([self.proc.stdout], [], [], left)
            if r:
                chunk = os.read(self.proc.stdout.fileno(), 65536)
                if not chunk:
                    raise EOFError("the server closed its output")
                self.buf += chunk

    def _pump(self, timeout):
        msg = self._read_message(timeout)
        if "id" in msg and msg["id"] is None and "error" in msg:
            self.unattributed_errors.append(msg)
        elif "id" in msg and ("result" in msg or "error" in msg):
            self.responses[msg["id"]] = msg
        else:
            self.notifications.append(msg)

    def wait_response(self, rid, timeout=10):
        deadline = time.time() + timeout
        while rid not in self.responses:
            self._pump(max(0.01, deadline - time.time()))
        return self.responses.pop(rid)

    def wait_notification(self, method, pred=lambda m: True, timeout=10):
        deadline = time.time() + timeout
        while True:
            for i, m in enumerate(self.notifications):
                if m.get("method") == method and pred(m):
                    return self.notifications.pop(i)
            self._pump(max(0.01, deadline - time.time()))

    def diagnostics(self, uri, version=None, timeout=10):
        return self.wait_notification(
            "textDocument/publishDiagnostics",
            lambda m: m["params"]["uri"] == uri and (version is None or m["params"].get("version") == version),
            timeout)["params"]["diagnostics"]

    def close(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        return self.proc.wait(timeout=10)


def cursors(text):
    """Removes `<|N|>` markers from `text`; returns (text, {N: (line, utf16 column)})."""
    import re
    marks = {}
    out = ""
    pos = 0
    for m in re.finditer(r"<\|(\w+)\|>", text):
        out += text[pos:m.start()]
        pos = m.end()
        line = out.count("\n")
        col_text = out[out.rfind("\n") + 1:]
        marks[m.group(1)] = (line, len(col_text.encode("utf-16-le")) // 2)
    out += text[pos:]
    return out, marks


# ---- shared by the protocol test files (test_*.py) -----------------------------------

def initialize(relay, params=None):
    """Starts `relay lsp`, runs initialize/initialized; returns (client, InitializeResult)."""
    c = LspClient(relay)
    r = c.request("initialize", params if params is not None else {"capabilities": {}, "processId": None})
    assert "result" in r, r
    c.notify("initialized", {})
    return c, r["result"]


def shutdown(c):
    """shutdown + exit; the server must exit with status 0."""
    r = c.request("shutdown")
    assert r.get("result", "x") is None, r
    c.notify("exit")
    assert c.close() == 0


def open_doc(c, text, uri, version=1):
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "relay", "version": version,
                                                         "text": text}})


def pos(marks, name):
    """The LSP position of cursor mark `name` (see cursors)."""
    line, col = marks[name]
    return {"line": line, "character": col}


def run_tests(namespace, argv):
    """tests/support/test_runner.py's runner."""
    return _run_tests(namespace, argv)
