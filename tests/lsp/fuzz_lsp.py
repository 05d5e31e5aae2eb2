#!/usr/bin/python3
"""A protocol fuzzer for `relay lsp`: random editing sessions over real Relay files, with
every request the server implements (and some it does not) sent at random positions and
ranges, mostly inside the document, sometimes past its end, negative or huge, and with
parameters now and then of the wrong shape; edits, closes, cancels and garbage frames
interleaved, several messages per write so that the server sees them in one batch.

Each seed is one session: initialize, open 1-3 documents (tests/dap/programs, examples,
tests/models' small ones), --steps random steps, shutdown and exit. What must hold:

* every request is answered exactly once, within --timeout seconds, by a JSON-RPC 2.0
  response holding either `result` or an `error` with an integer `code` and a string
  `message`; an unknown method gets MethodNotFound (-32601);
* every published diagnostic has a well-formed range inside its document's lines (the
  server publishes for the text it holds; ranges are checked against the client's text
  only for documents whose edits were all valid);
* the server's copy of a document equals the client's after valid edits
  (`relay/debug/documentText`, at the end and now and then);
* the server never exits before `exit`, then exits with status 0, and its stderr holds no
  sanitizer report (run it under an ASan build to catch memory errors).

A failure prints the seed, the reason and the last messages sent, and exits 1; replay with
`--seeds N:N+1`. CTest runs a few seeds (tests/lsp.cmake); longer runs by hand:

    tests/lsp/fuzz_lsp.py build/release/relay --seeds 1:300 --steps 200
"""
import copy
import json
import os
import pathlib
import random
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import LspClient  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from session_fuzz import arguments, run_seeds, sanitizer_report  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[2]
SOURCES = sorted(list((REPO / "tests" / "dap" / "programs").glob("*.relay")) + [REPO / "examples" / "mlp.relay"] +
                 [p for p in (REPO / "tests" / "models").glob("*.relay") if p.stat().st_size < 20000])

# Requests by how often they are drawn: (method, how its params are made).
POSITIONAL = ["textDocument/hover", "textDocument/definition", "textDocument/typeDefinition",
              "textDocument/references", "textDocument/documentHighlight", "textDocument/prepareRename",
              "textDocument/rename", "textDocument/completion", "textDocument/signatureHelp"]
WHOLE_DOCUMENT = ["textDocument/formatting", "textDocument/semanticTokens/full",
                  "textDocument/semanticTokens/full/delta", "textDocument/documentSymbol",
                  "textDocument/foldingRange", "relay/typedIR", "relay/debug/documentText"]
RANGED = ["textDocument/inlayHint", "textDocument/codeAction", "textDocument/rangeFormatting"]
OTHER = ["textDocument/selectionRange", "workspace/symbol", "completionItem/resolve", "relay/preludeText"]
UNKNOWN = ["textDocument/declaration", "textDocument/implementation", "workspace/executeCommand", "nonsense",
           "", "$/unknownRequest"]
PIECES = ["a", "%", "(", ")", "{", "}", "\n", " ", "add(", "1f", "\u00e9", "\u4e2d", "\U0001F600", ";",
          "let %q = ", "def @g(%a: int32) { %a }\n", "/*", "*/", "\"", "\u0301", "meta[relay.Constant][0]",
          "Tensor[(1, ?), float32]", "fn (%z) { %z }", "match (%x) {", "#[version = \"0.0.5\"]\n", "\t", "\r\n", "\r"]
EXTREME_INTS = [-1, 2**31 - 1, 2**31, 2**32, 2**53, -2**63, 2**64 - 1]
ODD = [None, True, "x", 1.5, [], {}, -1, 2**64 - 1, {"line": "0", "character": 0}]


def utf16_len(s):
    return len(s.encode("utf-16-le")) // 2


LINE_BREAK = re.compile("\r\n|\r|\n")   # LSP's three line endings


class Document:
    def __init__(self, uri, text):
        self.uri, self.text, self.version, self.tracked, self.open = uri, text, 1, True, True

    def lines(self):
        return LINE_BREAK.split(self.text)

    def index_to_position(self, index):
        line, start = 0, 0
        for m in LINE_BREAK.finditer(self.text, 0, index):
            line, start = line + 1, m.end()
        return {"line": line, "character": utf16_len(self.text[start:index])}

    def edit_point(self, index):
        """`index`, moved off the middle of a \r\n (no position stands there)."""
        if 0 < index < len(self.text) and self.text[index - 1:index + 1] == "\r\n":
            return index + 1
        return index


class Session:
    def __init__(self, relay, seed, steps, timeout):
        self.rng = random.Random(seed)
        self.steps, self.timeout = steps, timeout
        self.stderr = tempfile.TemporaryFile()
        self.client = LspClient(relay, stderr=self.stderr)   # kept for the sanitizer check
        self.docs = {}
        self.pending = {}       # request id -> method, sent and not yet answered
        self.sent = []          # the messages sent, for the failure report
        self.result_ids = {}    # uri -> the last semantic-tokens resultId
        self.items = []         # completion items, for completionItem/resolve
        self.expected_texts = {}  # request id -> (uri, text) of a documentText request

    # ---- sending ------------------------------------------------------------------
    def send(self, msgs):
        frames = []
        for m in msgs:
            self.sent.append(m)
            frames.append(m if isinstance(m, bytes) else LspClient.frame(m))
        self.client.send_raw(b"".join(frames))

    def request_msg(self, method, params):
        rid, msg = self.client.request_msg(method, params)
        self.pending[rid] = method
        if method == "relay/debug/documentText":
            ident = params.get("textDocument") if isinstance(params, dict) else None
            uri = ident.get("uri") if isinstance(ident, dict) else None
            doc = self.docs.get(uri) if isinstance(uri, str) else None
            if doc is not None and doc.open and doc.tracked:
                self.expected_texts[rid] = (doc.uri, doc.text)  # the text when the server reads the request
        return msg

    # ---- making parameters --------------------------------------------------------
    def doc(self):
        open_docs = [d for d in self.docs.values() if d.open]
        if not open_docs or self.rng.random() < 0.03:
            return Document("file:///nowhere/unknown.relay", "")
        return self.rng.choice(open_docs)

    def position(self, doc):
        r = self.rng
        lines = doc.lines() or [""]
        if r.random() < 0.9:
            line = r.randrange(len(lines))
            return {"line": line, "character": r.randint(0, utf16_len(lines[line]))}
        return {"line": r.choice([len(lines), len(lines) + 5] + EXTREME_INTS),
                "character": r.choice([0, 1, 1000] + EXTREME_INTS)}

    def range(self, doc):
        a, b = self.position(doc), self.position(doc)
        if (a["line"], a["character"]) > (b["line"], b["character"]) and self.rng.random() < 0.8:
            a, b = b, a
        return {"start": a, "end": b}

    def bend(self, params):
        r = self.rng
        if not isinstance(params, dict) or not params or r.random() < 0.1:
            return r.choice(ODD)
        params = copy.deepcopy(params)
        key = r.choice(sorted(params))
        how = r.randrange(3)
        if how == 0:
            params[key] = r.choice(ODD)
        elif how == 1:
            del params[key]
        else:
            inner = params[key]
            if isinstance(inner, dict) and inner:
                inner[r.choice(sorted(inner))] = r.choice(ODD)
            else:
                params["extra"] = r.choice(ODD)
        return params

    def request_for(self, method):
        r, doc = self.rng, self.doc()
        ident = {"uri": doc.uri}
        if method in POSITIONAL:
            p = {"textDocument": ident, "position": self.position(doc)}
            if method == "textDocument/references":
                p["context"] = {"includeDeclaration": r.random() < 0.5}
            elif method == "textDocument/rename":
                p["newName"] = r.choice(["%renamed", "@renamed", "renamed", "", "%", "%a b", "\u4e2d", "%x"])
            elif method == "textDocument/completion" and r.random() < 0.5:
                p["context"] = {"triggerKind": r.choice([1, 2, 3]), "triggerCharacter": r.choice(["%", "@", ".", "("])}
            return p
        if method in WHOLE_DOCUMENT:
            p = {"textDocument": ident}
            if method.endswith("formatting"):
                p["options"] = {"tabSize": r.choice([2, 4, 0, -1]), "insertSpaces": r.random() < 0.8}
            if method.endswith("/delta"):
                p["previousResultId"] = self.result_ids.get(doc.uri, r.choice(["", "0", "x"]))
            return p
        if method in RANGED:
            p = {"textDocument": ident, "range": self.range(doc)}
            if method == "textDocument/codeAction":
                p["context"] = {"diagnostics": []}
            if method == "textDocument/rangeFormatting":
                p["options"] = {"tabSize": 2, "insertSpaces": True}
            return p
        if method == "textDocument/selectionRange":
            return {"textDocument": ident, "positions": [self.position(doc) for _ in range(r.randint(0, 3))]}
        if method == "workspace/symbol":
            return {"query": r.choice(["", "main", "m", "fib", "\u4e2d", "%", "@"])}
        if method == "completionItem/resolve":
            return r.choice(self.items) if self.items and r.random() < 0.8 else {"label": r.choice(["add", "", "x"])}
        return {} if r.random() < 0.5 else None

    def edit(self):
        r, doc = self.rng, self.doc()
        if not doc.open or doc.uri not in self.docs:
            return self.client.notify_msg("textDocument/didChange", {"textDocument": {"uri": doc.uri, "version": 1},
                                                                      "contentChanges": [{"text": "x"}]})
        changes = []
        for _ in range(r.randint(1, 3)):
            if r.random() < 0.05:                        # the whole text
                doc.text = r.choice(PIECES) * r.randint(0, 30)
                changes.append({"text": doc.text})
                continue
            if r.random() < 0.04:                        # a range past the end: the copies may part
                doc.tracked = False
                changes.append({"range": {"start": {"line": 10**6, "character": 0},
                                          "end": {"line": 10**6 + 1, "character": 5}}, "text": "z"})
                continue
            a = doc.edit_point(r.randint(0, len(doc.text)))
            b = doc.edit_point(min(len(doc.text), a + r.randint(1, 12))) if r.random() < 0.4 else a
            new = "" if b > a and r.random() < 0.7 else r.choice(PIECES)
            changes.append({"range": {"start": doc.index_to_position(a), "end": doc.index_to_position(b)},
                            "text": new})
            doc.text = doc.text[:a] + new + doc.text[b:]
        doc.version += 1
        return self.client.notify_msg("textDocument/didChange", {"textDocument": {"uri": doc.uri, "version": doc.version},
                                                                  "contentChanges": changes})

    def open_new(self):
        r = self.rng
        source = r.choice(SOURCES)
        uri = "file:///fuzz/%d/%s" % (len(self.docs), source.name)
        text = source.read_text(encoding="utf-8")
        if r.random() < 0.2 and text:
            cut = r.randrange(len(text))
            text = text[:cut]
        self.docs[uri] = Document(uri, text)
        return self.client.notify_msg("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "relay",
                                                                                  "version": 1, "text": text}})

    def message(self):
        r = self.rng
        x = r.random()
        if x < 0.25:
            return self.edit()
        if x < 0.27:
            return self.open_new()
        if x < 0.29 and self.docs:
            doc = r.choice(list(self.docs.values()))
            doc.open = False
            return self.client.notify_msg("textDocument/didClose", {"textDocument": {"uri": doc.uri}})
        if x < 0.31:
            ids = sorted(self.pending) or [1]
            return self.client.notify_msg("$/cancelRequest", {"id": r.choice(ids + [10**9, "x"])})
        if x < 0.32:
            return r.choice([LspClient.frame(b"{\"jsonrpc\": \"2.0\", \"method\": "), LspClient.frame(b"[1, 2]"),
                             LspClient.frame(b"null"), b"Content-Length: 12x\r\n\r\n",
                             LspClient.frame({"jsonrpc": "2.0", "id": {"no": 1}, "method": "textDocument/hover"}),
                             self.client.notify_msg("workspace/didChangeConfiguration", {"settings": {}}),
                             self.client.notify_msg("textDocument/didSave", {"textDocument": {"uri": "x"}})])
        if x < 0.34:
            return self.request_msg(r.choice(UNKNOWN), {})
        method = r.choice(POSITIONAL * 2 + WHOLE_DOCUMENT + RANGED + OTHER)
        params = self.request_for(method)
        if r.random() < 0.08:
            params = self.bend(params)
        return self.request_msg(method, params)

    # ---- checking -----------------------------------------------------------------
    def collect(self, wait_for_all):
        """Takes the responses and notifications that have arrived (waiting, with
        wait_for_all, until every pending request is answered) and checks each."""
        c = self.client
        deadline = time.time() + self.timeout
        while True:
            for rid in [rid for rid in c.responses]:
                msg = c.responses.pop(rid)
                if rid not in self.pending:
                    raise AssertionError("a response to request %r, which is not pending: %s" % (rid, msg))
                self.check_response(self.pending.pop(rid), msg)
            for msg in c.unattributed_errors:
                self.check_error(msg)
            c.unattributed_errors = []
            for msg in c.notifications:
                self.check_notification(msg)
            c.notifications = []
            if not wait_for_all or not self.pending:
                return
            left = deadline - time.time()
            if left <= 0:
                raise AssertionError("no response within %gs to %s" % (self.timeout, sorted(self.pending.items())))
            try:
                c._pump(left)
            except TimeoutError:
                pass

    def check_error(self, msg):
        e = msg.get("error")
        if not (isinstance(e, dict) and isinstance(e.get("code"), int) and isinstance(e.get("message"), str)):
            raise AssertionError("a malformed error response: %s" % json.dumps(msg)[:500])

    def check_response(self, method, msg):
        if msg.get("jsonrpc") != "2.0" or ("result" in msg) == ("error" in msg):
            raise AssertionError("a response to %s without exactly one of result and error: %s"
                                 % (method, json.dumps(msg)[:500]))
        if "error" in msg:
            self.check_error(msg)
            if method in UNKNOWN and msg["error"]["code"] not in (-32601, -32800):  # or cancelled
                raise AssertionError("unknown method %r answered %s" % (method, msg["error"]))
            return
        if method in UNKNOWN:
            raise AssertionError("unknown method %r answered with a result: %s" % (method, json.dumps(msg)[:300]))
        result = msg["result"]
        if method.startswith("textDocument/semanticTokens") and isinstance(result, dict):
            uri = self.last_uri(msg["id"])
            if "resultId" in result and isinstance(uri, str):
                self.result_ids[uri] = result["resultId"]
        expected = self.expected_texts.pop(msg["id"], None)
        if expected is not None and result["text"] != expected[1]:
            raise AssertionError("the server's text of %s differs from the client's" % expected[0])
        if method == "textDocument/completion" and result:
            items = result["items"] if isinstance(result, dict) else result
            self.items = items[:20]

    def last_uri(self, rid):
        for m in reversed(self.sent):
            if isinstance(m, dict) and m.get("id") == rid:
                p = m.get("params")
                if isinstance(p, dict) and isinstance(p.get("textDocument"), dict):
                    return p["textDocument"].get("uri")
        return None

    def check_notification(self, msg):
        if msg.get("method") != "textDocument/publishDiagnostics":
            return
        p = msg["params"]
        doc = self.docs.get(p["uri"])
        for d in p["diagnostics"]:
            rng = d["range"]
            s, e = rng["start"], rng["end"]
            for point in (s, e):
                if not (isinstance(point["line"], int) and point["line"] >= 0 and
                        isinstance(point["character"], int) and point["character"] >= 0):
                    raise AssertionError("a diagnostic with a malformed range: %s" % d)
            if (s["line"], s["character"]) > (e["line"], e["character"]):
                raise AssertionError("a diagnostic whose range ends before it starts: %s" % d)
            if doc and doc.tracked and doc.version == p.get("version") and e["line"] > len(doc.lines()):
                raise AssertionError("a diagnostic past the end of %s (%d lines): %s"
                                     % (doc.uri, len(doc.lines()), d))

    def check_texts(self):
        """Asks for the server's copy of every open document whose edits were valid;
        check_response compares each with the client's."""
        self.send([self.request_msg("relay/debug/documentText", {"textDocument": {"uri": d.uri}})
                   for d in self.docs.values() if d.open and d.tracked])
        self.collect(True)

    def run(self):
        c, r = self.client, self.rng
        try:
            self.send([self.request_msg("initialize", {"capabilities": {}, "processId": None})])
            self.collect(True)
            self.send([c.notify_msg("initialized", {})] + [self.open_new() for _ in range(r.randint(1, 3))])
            done = 0
            while done < self.steps:
                batch = [self.message() for _ in range(r.choice([1, 1, 1, 2, 3, 8]))]
                done += len(batch)
                self.send(batch)
                self.collect(r.random() < 0.5)
                if c.proc.poll() is not None:
                    raise AssertionError("the server exited (status %r) before `exit`" % c.proc.returncode)
            self.collect(True)
            self.check_texts()
            self.send([self.request_msg("shutdown", None)])
            self.collect(True)
            self.send([c.notify_msg("exit")])
            status = c.close()
            if status != 0:
                raise AssertionError("the server exited with status %r after shutdown and exit" % status)
            self.stderr.seek(0)
            report = sanitizer_report(self.stderr.read().decode("utf-8", "replace"))
            if report:
                raise AssertionError(report)
        except Exception as e:
            if c.proc.poll() is None:
                c.proc.kill()
                c.proc.wait()
            self.stderr.seek(0)
            tail = self.stderr.read()[-3000:].decode("utf-8", "replace")
            return "%s: %s\nserver stderr (tail):\n%s" % (type(e).__name__, e, tail)
        return None

    def transcript(self, last=20):
        lines = []
        for m in self.sent[-last:]:
            text = m.decode("latin-1") if isinstance(m, bytes) else json.dumps(m, ensure_ascii=True)
            lines.append("  " + (text if len(text) < 400 else text[:400] + "..."))
        return "\n".join(lines)


def main(argv):
    ap = arguments(__doc__.split("\n\n")[0], seeds="1:11", steps=120, timeout=30.0)
    args = ap.parse_args(argv[1:])

    def run_one(seed):
        s = Session(args.relay, seed, args.steps, args.timeout)
        problem = s.run()
        return "%d documents" % len(s.docs), problem and "%s\nlast messages sent:\n%s" % (problem, s.transcript())
    return run_seeds("fuzz_lsp", args.seeds, run_one, args.verbose)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
