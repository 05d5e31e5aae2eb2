#!/usr/bin/python3
"""bench/lsp: latency and memory of the language server (`relay lsp`), driven over stdio
the way an editor drives it.

On a generated 10,000-line module (bench/frontend's generator, through
`relay_bench_frontend --emit`): p50/p99/max latency of
  * diagnostics after a one-character edit inside one function (didChange sent, one edit
    at a time, until the publishDiagnostics of that version arrives),
  * hover, completion (three contexts), inlay hints for a visible range of 60 lines and
    semantic tokens (full), each from sending the request to having its whole response,
and the server's resident memory afterwards. Then a 100,000-line workspace
(`--workspace-files` files, each generated with its own seed) is opened in a fresh server
twice: all files in one write (an editor restoring a session), and one file at a time;
the time to the first and to the last publishDiagnostics and the server's memory (VmRSS,
and the peak, VmHWM, which the target counts).

Not a test: timings depend on the machine and its load. Usage:
  /usr/bin/python3 bench/lsp/bench_lsp.py [--relay PATH] [--lines N] [--edits N] [--samples N]
      [--workspace-lines N] [--workspace-files N] [--position-encoding utf-16|utf-8] [--seed S]
      [--timeout S] [--keep] [--check]
Standard library only; the JSON-RPC framing comes from tests/lsp/lsp_client.py.
"""
import argparse
import json
import math
import os
import platform
import random
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True  # no __pycache__ left in tests/lsp
sys.path.insert(0, os.path.join(REPO, "tests", "lsp"))
from lsp_client import LspClient  # noqa: E402

# The targets.
HOVER_P99_MS = 20.0
COMPLETION_P99_MS = 20.0
DIAGNOSTICS_P99_MS = 50.0
WORKSPACE_MEMORY_MB = 300.0

ERROR = 1  # DiagnosticSeverity.Error


class BenchFailure(Exception):
    pass


class BenchClient(LspClient):
    """LspClient with the server's stderr sent to a file (a pipe nobody reads could fill
    up and block the server), a reader that does not copy the buffer per chunk (semantic
    tokens of a 10,000-line file are megabytes), and the arrival time of each message:
    the moment its last byte was read, before the client parses the JSON."""

    def __init__(self, relay, stderr_path):
        self.stderr_path = stderr_path
        self.stderr_file = open(stderr_path, "wb")
        self.proc = subprocess.Popen([relay, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.stderr_file)
        self.buf = bytearray()
        self.next_id = 1
        self.notifications = []
        self.responses = {}
        self.unattributed_errors = []
        self.arrival = {}  # request id -> (arrival time, body bytes)
        self._need = None  # (body start, body end) of the message being received
        self._last_read = 0.0

    def _read_message(self, timeout):
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while True:
            if self._need is None:
                head_end = self.buf.find(b"\r\n\r\n")
                if head_end >= 0:
                    length = None
                    for line in bytes(self.buf[:head_end]).decode().split("\r\n"):
                        k, _, v = line.partition(":")
                        if k.strip().lower() == "content-length":
                            length = int(v.strip())
                    if length is None:
                        raise BenchFailure("a message from the server has no Content-Length: %r"
                                           % bytes(self.buf[:head_end]))
                    self._need = (head_end + 4, head_end + 4 + length)
            if self._need is not None and len(self.buf) >= self._need[1]:
                start, end = self._need
                self._need = None
                body = bytes(self.buf[start:end])
                del self.buf[:end]
                self._msg_time, self._msg_size = self._last_read, len(body)
                return json.loads(body)
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no message from the server")
            r, _, _ = select.select([fd], [], [], left)
            if r:
                chunk = os.read(fd, 1 << 20)
                self._last_read = time.perf_counter()
                if not chunk:
                    raise EOFError("the server closed its output (exit status %s)" % self.proc.poll())
                self.buf += chunk

    def _pump(self, timeout):
        msg = self._read_message(timeout)
        if "id" in msg and msg["id"] is None and "error" in msg:
            self.unattributed_errors.append(msg)
        elif "id" in msg and ("result" in msg or "error" in msg):
            self.responses[msg["id"]] = msg
            self.arrival[msg["id"]] = (self._msg_time, self._msg_size)
        else:
            msg["_arrival"] = self._msg_time
            self.notifications.append(msg)

    def stderr_tail(self, n=2000):
        try:
            self.stderr_file.flush()
            with open(self.stderr_path, "rb") as f:
                data = f.read()
            return data[-n:].decode(errors="replace")
        except (OSError, ValueError):
            return ""

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.stderr_file.close()


# ---- helpers ---------------------------------------------------------------------------

def percentile(values, p):
    """Nearest rank, as bench/typecheck does."""
    if not values:
        return 0.0
    v = sorted(values)
    rank = int(math.ceil(p * len(v)))
    return v[min(len(v) - 1, max(rank, 1) - 1)]


def summary(values_s, cpu_s):
    """Percentiles in ms of `values_s` (seconds), and the server's CPU time per sample in
    ms (`cpu_s`: its CPU seconds over all the samples)."""
    ms = [x * 1e3 for x in values_s]
    return {"n": len(ms), "p50": percentile(ms, 0.50), "p90": percentile(ms, 0.90),
            "p99": percentile(ms, 0.99), "max": max(ms) if ms else 0.0,
            "cpu": cpu_s * 1e3 / len(ms) if ms else 0.0}


def proc_status(pid):
    """VmRSS and VmHWM of process `pid`, in bytes."""
    out = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmRSS", "VmHWM"):
                out[k] = int(v.split()[0]) * 1024
    return out


def cpu_seconds(pid):
    """User + system CPU time of process `pid` so far (clock-tick resolution)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def mb(b):
    return b / 1e6


def machine_line():
    model = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = os.getloadavg()
    return "%s, %d CPU(s) (%s), load average %.2f %.2f %.2f" % (
        platform.platform(terse=True), os.cpu_count() or 0, model, load[0], load[1], load[2])


def generate(generator, relay, lines, seed, path):
    """Writes a generated module to `path` and checks that `relay check` accepts it
    silently; returns its text."""
    r = subprocess.run([generator, "--lines", str(lines), "--seed", str(seed), "--emit", path],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
    if r.returncode != 0:
        raise BenchFailure("%s --emit failed (status %d):\n%s" % (generator, r.returncode, r.stdout.decode()))
    r = subprocess.run([relay, "check", path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
    if r.returncode != 0 or r.stdout.strip():
        raise BenchFailure("`relay check %s` does not accept the generated module (status %d):\n%s"
                           % (path, r.returncode, r.stdout.decode(errors="replace")[:4000]))
    with open(path, encoding="utf-8") as f:
        return f.read()


def uri_of(path):
    return "file://" + os.path.abspath(path)


def functions(lines):
    """(first line, last line) of every top-level `def` (TVM printouts: `def @` at column
    0, the closing `}` alone at column 0)."""
    out = []
    start = None
    for i, line in enumerate(lines):
        if line.startswith("def @"):
            start = i
        elif line == "}" and start is not None:
            out.append((start, i))
            start = None
    return out


def column(line, index, encoding):
    """The LSP column of Python string index `index` of `line`."""
    if encoding == "utf-8":
        return len(line[:index].encode("utf-8"))
    return len(line[:index].encode("utf-16-le")) // 2


def error_count(diags):
    return sum(1 for d in diags if d.get("severity", ERROR) == ERROR)


# ---- the benchmark ---------------------------------------------------------------------

class Bench:
    def __init__(self, opt):
        self.opt = opt
        self.rng = random.Random(opt.seed)
        self.verdicts = []  # (name, required, measured, pass)
        self.rows = []      # (label, summary, note)

    def start_server(self, tmp, name):
        c = BenchClient(self.opt.relay, os.path.join(tmp, name + ".stderr"))
        self.client = c
        rid, msg = c.request_msg("initialize", {
            "processId": os.getpid(), "rootUri": uri_of(tmp),
            "capabilities": {"general": {"positionEncodings": [self.opt.position_encoding]},
                             "textDocument": {"publishDiagnostics": {"versionSupport": True},
                                              "completion": {"completionItem": {"snippetSupport": True}}}}})
        c.send(msg)
        r = self.wait_response(rid, "initialize")
        c.notify("initialized", {})
        self.encoding = r["result"]["capabilities"].get("positionEncoding", "utf-16")
        return c, r["result"]

    def wait_response(self, rid, what):
        c = self.client
        try:
            r = c.wait_response(rid, self.opt.timeout)
        except (TimeoutError, EOFError) as e:
            raise BenchFailure("%s: no response within %.0f s (%s)%s" % (what, self.opt.timeout, e, self.stderr_note()))
        if "error" in r:
            raise BenchFailure("%s: the server answered with an error: %s" % (what, json.dumps(r["error"])))
        return r

    def wait_diagnostics(self, uri, version, what):
        c = self.client
        try:
            m = c.wait_notification(
                "textDocument/publishDiagnostics",
                lambda m: m["params"]["uri"] == uri and (version is None or m["params"].get("version") == version),
                self.opt.timeout)
        except (TimeoutError, EOFError) as e:
            raise BenchFailure("%s: no publishDiagnostics for %s version %s within %.0f s (%s)%s"
                               % (what, uri, version, self.opt.timeout, e, self.stderr_note()))
        # Older publications for the same document are not waited for any more.
        c.notifications = [n for n in c.notifications
                           if not (n.get("method") == "textDocument/publishDiagnostics"
                                   and n["params"]["uri"] == uri)]
        return m

    def stderr_note(self):
        tail = self.client.stderr_tail()
        return ("\nserver stderr (tail):\n" + tail) if tail.strip() else ""

    def timed(self, method, params):
        """One request: seconds from before sending to the arrival of the whole response."""
        c = self.client
        rid, msg = c.request_msg(method, params)
        t0 = time.perf_counter()
        c.send(msg)
        r = self.wait_response(rid, method)
        t1, size = c.arrival.pop(rid)
        return t1 - t0, r["result"], size

    # -- phase 1: one 10,000-line document ----------------------------------------------

    def phase_document(self, tmp):
        opt = self.opt
        path = os.path.join(tmp, "bench_lsp_%d.relay" % opt.lines)
        text = generate(opt.generator, opt.relay, opt.lines, opt.seed, path)
        lines = text.split("\n")
        fns = functions(lines)
        if not fns:
            raise BenchFailure("no functions found in the generated module")
        uri = uri_of(path)
        print("\n== one document: generated module, %d lines, %d bytes, %d functions (seed %d); `relay check` "
              "accepts it" % (text.count("\n"), len(text.encode()), len(fns), opt.seed))

        c, _ = self.start_server(tmp, "document")
        t0 = time.perf_counter()
        c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "relay", "version": 1,
                                                             "text": text}})
        m = self.wait_diagnostics(uri, 1, "didOpen")
        open_s = m["_arrival"] - t0
        diags = m["params"]["diagnostics"]
        if error_count(diags):
            raise BenchFailure("the server reports %d error(s) on the generated module; the first: %s"
                               % (error_count(diags), json.dumps(diags[0])))
        mem_open = proc_status(c.proc.pid)
        print("  %-44s %10.2f ms  (%d diagnostics)" % ("didOpen to first publishDiagnostics", open_s * 1e3,
                                                        len(diags)))
        print("  %-44s %10.1f MB  (VmHWM %.1f MB)" % ("server VmRSS then", mb(mem_open["VmRSS"]),
                                                      mb(mem_open["VmHWM"])))

        # The edited function: the one around the middle of the file; the edit inserts a
        # space between a `(` and a `%` of its body, and the next edit removes it again.
        mid = len(lines) // 2
        fn = next((f for f in fns if f[1] >= mid), fns[-1])
        edit_line = edit_col = None
        for i in range(fn[0] + 1, fn[1]):
            k = lines[i].find("(%")
            if k >= 0:
                edit_line, edit_col = i, column(lines[i], k + 1, self.encoding)
                break
        if edit_line is None:
            raise BenchFailure("no `(%%` in the body of the function at lines %d-%d" % (fn[0] + 1, fn[1] + 1))
        fn_name = lines[fn[0]][4:].split("(")[0]

        # -- diagnostics after a one-character edit
        version = 1
        times = []
        inserted = False
        cpu0 = cpu_seconds(c.proc.pid)
        for i in range(opt.edits):
            version += 1
            if not inserted:
                change = {"range": {"start": {"line": edit_line, "character": edit_col},
                                    "end": {"line": edit_line, "character": edit_col}}, "text": " "}
            else:
                change = {"range": {"start": {"line": edit_line, "character": edit_col},
                                    "end": {"line": edit_line, "character": edit_col + 1}}, "text": ""}
            inserted = not inserted
            msg = c.notify_msg("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                          "contentChanges": [change]})
            t0 = time.perf_counter()
            c.send(msg)
            m = self.wait_diagnostics(uri, version, "edit %d" % (i + 1))
            times.append(m["_arrival"] - t0)
            if error_count(m["params"]["diagnostics"]):
                raise BenchFailure("edit %d: the server reports errors: %s"
                                   % (i + 1, json.dumps(m["params"]["diagnostics"][0])))
        d = summary(times, cpu_seconds(c.proc.pid) - cpu0)
        edited = lines[edit_line][:edit_col] + " " + lines[edit_line][edit_col:] if inserted else lines[edit_line]
        # The server's copy must be the client's (the edits really applied).
        r = self.wait_response(self._request_id("relay/debug/documentText", {"textDocument": {"uri": uri}}),
                               "relay/debug/documentText")
        server_lines = r["result"]["text"].split("\n")
        if server_lines[edit_line] != edited or len(server_lines) != len(lines):
            raise BenchFailure("after the edits the server's text differs from the client's")
        if inserted:  # leave the text as generated for the requests below
            version += 1
            c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                "contentChanges": [{"range": {
                                                    "start": {"line": edit_line, "character": edit_col},
                                                    "end": {"line": edit_line, "character": edit_col + 1}},
                                                    "text": ""}]})
            self.wait_diagnostics(uri, version, "last edit")
        self.rows.append(("diagnostics after a 1-char edit", d,
                          "%d edits in %s (line %d), one at a time" % (len(times), fn_name, edit_line + 1)))
        self.verdicts.append(("diagnostics after an edit, p99 (ms)", "< %.0f" % DIAGNOSTICS_P99_MS,
                              "%.2f" % d["p99"], d["p99"] < DIAGNOSTICS_P99_MS))

        # -- hover: operator names, graph variables and parameters inside function bodies
        cands = []
        for a, b in fns:
            for i in range(a + 1, b):
                line = lines[i]
                for mt in re.finditer(r"\b(nn\.[a-z_0-9]+|add|reshape|split)\(", line):
                    cands.append((i, column(line, mt.start() + 2, self.encoding), "op"))
                for mt in re.finditer(r"%[A-Za-z0-9_]+", line):
                    cands.append((i, column(line, mt.start() + 1, self.encoding), "var"))
        if not cands:
            raise BenchFailure("no hover positions found")
        picks = [self.rng.choice(cands) for _ in range(opt.samples)]
        times, empty, kinds = [], 0, {"op": 0, "var": 0}
        cpu0 = cpu_seconds(c.proc.pid)
        for (ln, col, kind) in picks:
            dt, res, _ = self.timed("textDocument/hover", {"textDocument": {"uri": uri},
                                                           "position": {"line": ln, "character": col}})
            times.append(dt)
            kinds[kind] += 1
            if not res:
                empty += 1
        d = summary(times, cpu_seconds(c.proc.pid) - cpu0)
        self.rows.append(("hover", d, "%d operators, %d %%variables at random places; %d empty"
                          % (kinds["op"], kinds["var"], empty)))
        self.verdicts.append(("hover p99 (ms)", "< %.0f" % HOVER_P99_MS, "%.2f" % d["p99"], d["p99"] < HOVER_P99_MS))
        if empty > opt.samples // 10:
            raise BenchFailure("%d of %d hovers returned nothing: the positions are wrong" % (empty, opt.samples))

        # -- completion in the edited function: after `nn.` (operators), after `%` (locals
        # and parameters), and at an empty argument position (everything: locals, globals,
        # operators, attributes, keywords)
        comp_pos = {}
        for i in range(fn[0] + 1, fn[1]):
            line = lines[i]
            if "nn" not in comp_pos and "nn." in line:
                comp_pos["nn"] = (i, column(line, line.index("nn.") + 3, self.encoding))
            if "pct" not in comp_pos and "(%" in line:
                comp_pos["pct"] = (i, column(line, line.index("(%") + 2, self.encoding))
            if "arg" not in comp_pos and "(%" in line and ", " in line:
                comp_pos["arg"] = (i, column(line, line.index(", ") + 2, self.encoding))
        completion_p99 = 0.0
        for key, label in (("nn", "completion after `nn.`"), ("pct", "completion after `%`"),
                           ("arg", "completion, empty word in a call")):
            if key not in comp_pos:
                raise BenchFailure("no position for %s in %s" % (label, fn_name))
            ln, col = comp_pos[key]
            times, counts, sizes = [], set(), set()
            cpu0 = cpu_seconds(c.proc.pid)
            for _ in range(opt.samples):
                dt, res, size = self.timed("textDocument/completion", {
                    "textDocument": {"uri": uri}, "position": {"line": ln, "character": col}})
                times.append(dt)
                items = res["items"] if isinstance(res, dict) else (res or [])
                counts.add(len(items))
                sizes.add(size)
            d = summary(times, cpu_seconds(c.proc.pid) - cpu0)
            if max(counts) == 0:
                raise BenchFailure("%s returned no items" % label)
            self.rows.append((label, d, "%s items, %s KB" % ("/".join(str(x) for x in sorted(counts)),
                                                            "%.0f" % (max(sizes) / 1e3))))
            completion_p99 = max(completion_p99, d["p99"])
        self.verdicts.append(("completion p99, worst of the three (ms)", "< %.0f" % COMPLETION_P99_MS,
                              "%.2f" % completion_p99, completion_p99 < COMPLETION_P99_MS))

        # -- inlay hints for the visible range: 60 lines around the edited line
        first = max(0, edit_line - 30)
        last = min(len(lines) - 1, first + 60)
        times, counts = [], set()
        cpu0 = cpu_seconds(c.proc.pid)
        for _ in range(opt.samples):
            dt, res, _ = self.timed("textDocument/inlayHint", {
                "textDocument": {"uri": uri},
                "range": {"start": {"line": first, "character": 0}, "end": {"line": last, "character": 0}}})
            times.append(dt)
            counts.add(len(res or []))
        self.rows.append(("inlay hints, 60 visible lines", summary(times, cpu_seconds(c.proc.pid) - cpu0),
                          "lines %d-%d, %s hints" % (first + 1, last + 1, "/".join(str(x) for x in sorted(counts)))))

        # -- semantic tokens of the whole document
        times, sizes = [], set()
        ntok = 0
        cpu0 = cpu_seconds(c.proc.pid)
        for _ in range(opt.samples):
            dt, res, size = self.timed("textDocument/semanticTokens/full", {"textDocument": {"uri": uri}})
            times.append(dt)
            ntok = len(res["data"]) // 5
            sizes.add(size)
        self.rows.append(("semantic tokens, full document", summary(times, cpu_seconds(c.proc.pid) - cpu0),
                          "%d tokens, %.2f MB of JSON" % (ntok, max(sizes) / 1e6)))

        mem = proc_status(c.proc.pid)
        self.print_rows("latency, from sending to the whole response (diagnostics: to the publication of the "
                        "edited version)")
        print("\n  server memory after all of the above: VmRSS %.1f MB, VmHWM (peak) %.1f MB (after didOpen: "
              "VmRSS %.1f MB)" % (mb(mem["VmRSS"]), mb(mem["VmHWM"]), mb(mem_open["VmRSS"])))
        self.shutdown(c)

    def _request_id(self, method, params):
        rid, msg = self.client.request_msg(method, params)
        self.client.send(msg)
        return rid

    def print_rows(self, title):
        print("\n  %s:" % title)
        print("  %-34s %5s %8s %8s %8s %8s %9s   %s" % ("request", "n", "p50 ms", "p90 ms", "p99 ms", "max ms",
                                                          "server", "(server: its CPU ms per request, mean)"))
        for label, d, note in self.rows:
            print("  %-34s %5d %8.2f %8.2f %8.2f %8.2f %9.2f   %s" % (label, d["n"], d["p50"], d["p90"], d["p99"],
                                                                     d["max"], d["cpu"], note))

    def shutdown(self, c):
        try:
            rid = self._request_id("shutdown", None)
            self.wait_response(rid, "shutdown")
            c.notify("exit")
            c.proc.stdin.close()
            status = c.proc.wait(timeout=self.opt.timeout)
            if status != 0:
                raise BenchFailure("the server exited with status %d after shutdown/exit" % status)
        finally:
            c.kill()

    # -- phase 2: a workspace -----------------------------------------------------------

    def phase_workspace(self, tmp):
        opt = self.opt
        nfiles = opt.workspace_files
        per_file = max(1, opt.workspace_lines // nfiles)
        docs = []
        for k in range(nfiles):
            path = os.path.join(tmp, "workspace", "module_%02d.relay" % k)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            text = generate(opt.generator, opt.relay, per_file, opt.seed + 1 + k, path)
            docs.append((uri_of(path), text))
        total_lines = sum(t.count("\n") for _, t in docs)
        total_bytes = sum(len(t.encode()) for _, t in docs)
        print("\n== workspace: %d file(s) of %d lines (seeds %d..%d), %d lines, %.1f MB in all; `relay check` "
              "accepts each" % (nfiles, per_file, opt.seed + 1, opt.seed + nfiles, total_lines, mb(total_bytes)))
        peaks = []
        print("  %-32s %9s %9s %10s %10s %10s %10s" % ("opening", "first", "last", "VmRSS", "VmHWM",
                                                       "per src B", "then hover"))
        for mode in ("batch", "sequential"):
            c, _ = self.start_server(tmp, "workspace_" + mode)
            base = proc_status(c.proc.pid)
            msgs = [c.notify_msg("textDocument/didOpen", {"textDocument": {"uri": u, "languageId": "relay",
                                                                           "version": 1, "text": t}})
                    for u, t in docs]
            arrivals = []
            t0 = time.perf_counter()
            if mode == "batch":  # all in one write, as an editor restoring a session does
                c.send(*msgs)
            for k, (u, _) in enumerate(docs):
                if mode == "sequential":  # the next file once the previous one's diagnostics are in
                    c.send(msgs[k])
                m = self.wait_diagnostics(u, 1, "workspace didOpen (%s)" % mode)
                arrivals.append(m["_arrival"] - t0)
                if error_count(m["params"]["diagnostics"]):
                    raise BenchFailure("the server reports errors on %s: %s"
                                       % (u, json.dumps(m["params"]["diagnostics"][0])))
            mem = proc_status(c.proc.pid)
            # Then a hover in every file: every document's check is kept and answers.
            hov = []
            for u, t in docs:
                ls = t.split("\n")
                i = next(i for i, line in enumerate(ls) if "nn." in line and not line.startswith("def"))
                dt, res, _ = self.timed("textDocument/hover", {"textDocument": {"uri": u}, "position": {
                    "line": i, "character": column(ls[i], ls[i].index("nn.") + 3, self.encoding)}})
                hov.append(dt)
                if not res:
                    raise BenchFailure("hover in %s returned nothing" % u)
            mem_after = proc_status(c.proc.pid)
            peak = max(mem["VmHWM"], mem_after["VmHWM"])
            peaks.append(peak)
            label = ("all %d in one write" if mode == "batch" else "one at a time (%d)") % nfiles
            print("  %-32s %7.2f s %7.2f s %7.1f MB %7.1f MB %10.1f %7.2f ms" % (
                label, min(arrivals), max(arrivals), mb(mem["VmRSS"]), mb(peak), mem["VmRSS"] / total_bytes,
                max(hov) * 1e3))
            self.shutdown(c)
        print("  (first/last: from the first didOpen to the first/last publishDiagnostics; VmRSS once all are "
              "checked;\n   VmHWM: the peak, also over a hover in each file afterwards (the worst hover shown); "
              "empty server: VmRSS %.1f MB)" % mb(base["VmRSS"]))
        peak = max(peaks)
        self.verdicts.append(("server memory, %d-line workspace, peak VmHWM (MB)" % total_lines,
                              "< %.0f" % WORKSPACE_MEMORY_MB, "%.1f" % mb(peak), mb(peak) < WORKSPACE_MEMORY_MB))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--relay", default=os.path.join(REPO, "build", "release", "relay"),
                    help="the relay binary (default: build/release/relay)")
    ap.add_argument("--generator", default=None,
                    help="relay_bench_frontend, for --emit (default: bench/relay_bench_frontend next to --relay)")
    ap.add_argument("--lines", type=int, default=10000, help="lines of the edited document (default 10000)")
    ap.add_argument("--edits", type=int, default=200, help="one-character edits timed (default 200)")
    ap.add_argument("--samples", type=int, default=200, help="requests timed per kind (default 200)")
    ap.add_argument("--workspace-lines", type=int, default=100000,
                    help="lines of the workspace of the memory phase (default 100000; 0 skips it)")
    ap.add_argument("--workspace-files", type=int, default=10,
                    help="files the workspace is split into (default 10; 1: one file)")
    ap.add_argument("--position-encoding", choices=("utf-16", "utf-8"), default="utf-16",
                    help="the position encoding the client offers (default utf-16, as VS Code; the server "
                         "takes utf-8 when offered)")
    ap.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    ap.add_argument("--timeout", type=float, default=60, help="seconds to wait for any one answer (default 60)")
    ap.add_argument("--keep", action="store_true", help="keep the generated files (their directory is printed)")
    ap.add_argument("--check", action="store_true", help="exit status 1 when a target is missed")
    opt = ap.parse_args(argv[1:])
    opt.relay = os.path.abspath(opt.relay)
    if opt.generator is None:
        opt.generator = os.path.join(os.path.dirname(opt.relay), "bench", "relay_bench_frontend")
    for exe in (opt.relay, opt.generator):
        if not os.access(exe, os.X_OK):
            print("bench_lsp: %s is not an executable (build the release build first: scripts/setup.sh)" % exe,
                  file=sys.stderr)
            return 2
    if opt.edits < 1 or opt.samples < 1 or opt.workspace_files < 1:
        print("bench_lsp: --edits, --samples and --workspace-files must be at least 1", file=sys.stderr)
        return 2

    print("bench_lsp: %s, seed %d, %d edits, %d samples per request kind, %s positions"
          % (opt.relay, opt.seed, opt.edits, opt.samples, opt.position_encoding))
    print("machine: %s" % machine_line())
    tmp = tempfile.mkdtemp(prefix="bench_lsp.")
    bench = Bench(opt)
    try:
        bench.phase_document(tmp)
        if opt.workspace_lines > 0:
            bench.phase_workspace(tmp)
    except BenchFailure as e:
        print("bench_lsp: FAILED: %s" % e, file=sys.stderr)
        print("(generated files kept in %s)" % tmp, file=sys.stderr)
        return 1
    finally:
        c = getattr(bench, "client", None)
        if c is not None:
            c.kill()
    if opt.keep:
        print("\ngenerated files: %s" % tmp)
    else:
        shutil.rmtree(tmp, ignore_errors=True)

    ok = True
    print("\n%-52s %-10s %-12s %s" % ("target", "required", "measured", "pass"))
    for name, required, measured, passed in bench.verdicts:
        print("%-52s %-10s %-12s %s" % (name, required, measured, "PASS" if passed else "MISS"))
        ok = ok and passed
    print("\nload average at the end: %.2f %.2f %.2f" % os.getloadavg())
    return 1 if opt.check and not ok else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
