#!/usr/bin/python3
"""Protocol tests for `relay lsp`: each test starts the server as a subprocess and drives
it with fixtures (source text with `<|name|>` cursor marks, the request, the expected
answer).

Usage: test_lsp.py RELAY_BINARY [TEST_NAME...]
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsp_client  # noqa: E402
from lsp_client import LspClient, cursors, initialize, pos, run_tests, shutdown  # noqa: E402

RELAY = None
URI = "file:///tmp/lsp-test/model.relay"

MODEL = """#[version = "0.0.5"]
/// A dense layer.
def @dense(%<|x|>x: Tensor[(1, 784), float32], %w: Tensor[(128, 784), float32]) -> Tensor[(1, 128), float32] {
  <|op|>nn.dense(%x, %w, units=128)
}

def @main(%data: Tensor[(1, 784), float32], %w1: Tensor[(128, 784), float32]) {
  %0 = @<|call|>dense(%data, %w1);
  nn.relu(<|use|>%0)
}
"""


def start(params=None):
    return initialize(RELAY, params)


def open_doc(c, text, uri=URI, version=1):
    lsp_client.open_doc(c, text, uri, version)


# ---- tests ---------------------------------------------------------------------------

def test_initialize_advertises_what_is_implemented():
    c, result = start()
    caps = result["capabilities"]
    assert caps["positionEncoding"] == "utf-16", caps
    assert caps["textDocumentSync"] == {"openClose": True, "change": 2}, caps
    assert set(caps) == {"positionEncoding", "textDocumentSync", "hoverProvider", "documentFormattingProvider",
                         "documentSymbolProvider",
                         # navigation (test_navigation.py)
                         "definitionProvider", "typeDefinitionProvider", "referencesProvider",
                         "documentHighlightProvider", "renameProvider", "workspaceSymbolProvider",
                         "foldingRangeProvider", "selectionRangeProvider",
                         # editing features (test_editing.py checks their values)
                         "completionProvider", "signatureHelpProvider", "semanticTokensProvider",
                         "inlayHintProvider", "codeActionProvider", "documentRangeFormattingProvider"}, caps
    assert caps["renameProvider"] == {"prepareProvider": True}, caps
    assert result["serverInfo"]["name"] == "relay"
    # initialize twice is an error
    r = c.request("initialize", {"capabilities": {}})
    assert r["error"]["code"] == -32602, r
    shutdown(c)


def test_utf8_is_negotiated_when_offered():
    c, result = start({"capabilities": {"general": {"positionEncodings": ["utf-16", "utf-8"]}}})
    assert result["capabilities"]["positionEncoding"] == "utf-8"
    shutdown(c)


def test_request_before_initialize():
    c = LspClient(RELAY)
    r = c.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}})
    assert r["error"]["code"] == -32002, r
    c.notify("exit")
    assert c.close() == 1  # exit without shutdown


def test_malformed_messages_do_not_stop_the_server():
    c, _ = start()
    c.send_raw(c.frame(b"{not json"))
    c.send_raw(b"Content-Length: abc\r\n\r\n")
    c.send_raw(b"X-Nothing: 1\r\n\r\n")
    while len(c.unattributed_errors) < 3:
        c._pump(10)
    errors = c.unattributed_errors
    assert all(e["error"]["code"] == -32700 for e in errors), errors
    assert "not valid JSON" in errors[0]["error"]["message"], errors
    r = c.request("no/such/method")
    assert r["error"]["code"] == -32601, r
    r = c.request("textDocument/hover", {"textDocument": {"uri": "file:///nope.relay"},
                                         "position": {"line": 0, "character": 0}})
    assert r["error"]["code"] == -32602 and "unknown document" in r["error"]["message"], r
    r = c.request("textDocument/hover", {"textDocument": {"uri": URI}})  # missing position
    assert r["error"]["code"] == -32602, r
    shutdown(c)


def test_garbage_between_messages_resynchronises():
    """Bytes that are no header at all (a stray print into the pipe, a truncated write)
    sit between valid messages: the server skips to the next `Content-Length:` header and
    answers every request after them, shutdown included."""
    c, _ = start()
    first, m1 = c.request_msg("textDocument/hover", {"textDocument": {"uri": "file:///nope.relay"},
                                                     "position": {"line": 0, "character": 0}})
    second, m2 = c.request_msg("no/such/method")
    junk = b"garbage \x00\xff\r\nnot: a header at all"
    # One write: a request, garbage with no header end, a second request right after it.
    c.send_raw(c.frame(m1) + junk + c.frame(m2))
    assert c.wait_response(first)["error"]["code"] == -32602
    assert c.wait_response(second)["error"]["code"] == -32601
    # Garbage again, then a request in its own write.
    c.send_raw(b"\r\n\r\n}}}{{{ Content-Type: nothing\r\n")
    r = c.request("no/such/method")
    assert r["error"]["code"] == -32601, r
    shutdown(c)


def test_diagnostics_on_open_and_after_an_incremental_fix():
    c, _ = start()
    text = '#[version = "0.0.5"]\ndef @main(%x: Tensor[(2, 3), float32]) {\n  add(%x, %y)\n}\n'
    open_doc(c, text)
    diags = c.diagnostics(URI, version=1)
    assert len(diags) == 1, diags
    d = diags[0]
    assert d["code"] == "E0040" and d["severity"] == 1 and d["source"] == "relay", d
    assert d["range"] == {"start": {"line": 2, "character": 10}, "end": {"line": 2, "character": 12}}, d
    # Replace `%y` by `%x` with a ranged change.
    c.notify("textDocument/didChange", {
        "textDocument": {"uri": URI, "version": 2},
        "contentChanges": [{"range": {"start": {"line": 2, "character": 11}, "end": {"line": 2, "character": 12}},
                            "text": "x"}]})
    assert c.diagnostics(URI, version=2) == []
    # A type error: related information carries the secondary labels.
    c.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": 3}, "contentChanges": [
        {"text": text.replace("add(%x, %y)", "add(%x, ones(shape=[4], dtype=\"float32\"))")}]})
    diags = c.diagnostics(URI, version=3)
    assert len(diags) == 1 and diags[0]["code"].startswith("E00"), diags
    rel = diags[0]["relatedInformation"]
    assert len(rel) >= 2 and all(isinstance(r, dict) and set(r) == {"location", "message"} and
                                 r["location"]["uri"] == URI for r in rel), rel
    assert rel[0]["location"]["range"] == diags[0]["range"], rel  # the primary label's message first
    shutdown(c)


def test_a_syntax_error_in_one_binding_keeps_the_others_checked():
    # Issue 16 §3: while the third binding is half typed, the shape error on the second
    # and the dtype error on the fourth are still published; the broken binding's variable
    # (used in the result) is not reported again.
    c, _ = start()
    text = ('#[version = "0.0.5"]\n'
            'def @main(%x: Tensor[(1, 784), float32], %w1: Tensor[(128, 784), float32], %w2: Tensor[(10, 64), float32]) {\n'
            '  let %y = nn.dense(%x, %w1, units=128);\n'
            '  let %z = nn.dense(%y, %w2, units=10);\n'
            '  let %q = add(%z, ;\n'
            '  let %r = add(%x, 1);\n'
            '  multiply(%q, %r)\n'
            '}\n')
    open_doc(c, text)
    diags = c.diagnostics(URI, version=1)
    got = sorted((d["range"]["start"]["line"], d["code"]) for d in diags)
    assert got == [(3, "E0071"), (4, "E0021"), (5, "E0071")], diags
    shutdown(c)


def test_error_limit_per_document():
    # 300 unknown locals: 200 are published, then one information item at the 201st
    # says how many more there were. initializationOptions.errorLimit changes the limit.
    lines = "".join("  let %%v%d = add(%%x, %%u%d);\n" % (i, i) for i in range(300))
    text = '#[version = "0.0.5"]\ndef @main(%x: float32) {\n' + lines + "  %x\n}\n"
    c, _ = start()
    open_doc(c, text)
    diags = c.diagnostics(URI, version=1)
    errors = [d for d in diags if d["severity"] == 1]
    assert len(errors) == 200, len(errors)
    note = diags[-1]
    assert note["severity"] == 3 and note["message"].startswith("100 more errors and "), note
    assert "stopped after 200 errors" in note["message"], note
    assert note["range"]["start"]["line"] == 2 + 200, note  # where the first one not shown is
    shutdown(c)
    for limit, shown in ((5, 5), (0, 300)):
        c, _ = start({"capabilities": {}, "processId": None, "initializationOptions": {"errorLimit": limit}})
        open_doc(c, text)
        diags = c.diagnostics(URI, version=1)
        assert len([d for d in diags if d["severity"] == 1]) == shown, (limit, len(diags))
        assert (diags[-1]["severity"] == 3) == (limit != 0), diags[-1]
        shutdown(c)


def test_unused_variable_is_tagged_unnecessary():
    c, _ = start()
    open_doc(c, '#[version = "0.0.5"]\ndef @main() {\n  let %unused = 1;\n  2\n}\n')
    diags = c.diagnostics(URI)
    w = [d for d in diags if d["code"] == "W0002"]
    assert w and w[0]["tags"] == [1] and w[0]["severity"] == 2, diags
    shutdown(c)


def test_hover():
    text, marks = cursors(MODEL)
    c, _ = start()
    open_doc(c, text)
    c.diagnostics(URI)

    def hover(mark):
        r = c.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": pos(marks, mark)})
        return r["result"]

    h = hover("x")
    assert h["contents"]["value"] == "```relay\n%x: Tensor[(1, 784), float32]\n```", h
    h = hover("op")["contents"]["value"]
    assert h.startswith("```relay\nnn.dense(data, weight)\n```") and "units" in h, h
    h = hover("call")["contents"]["value"]
    assert "@dense: fn (Tensor[(1, 784), float32], Tensor[(128, 784), float32]) -> Tensor[(1, 128), float32]" in h, h
    assert "A dense layer." in h, h
    h = hover("use")
    assert h["contents"]["value"] == "```relay\nTensor[(1, 128), float32]\n```", h
    shutdown(c)


def test_positions_count_utf16_code_units():
    # An emoji outside the BMP is 2 UTF-16 code units and 4 UTF-8 bytes.
    text, marks = cursors('#[version = "0.0.5"]\ndef @main(%x: int32) { /* \U0001F600 */ <|x|>%x }\n')
    c, _ = start()
    open_doc(c, text)
    c.diagnostics(URI)
    r = c.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": pos(marks, "x")})
    assert r["result"]["range"]["start"] == pos(marks, "x"), r
    shutdown(c)
    # The same in UTF-8 columns when negotiated.
    c, _ = start({"capabilities": {"general": {"positionEncodings": ["utf-8"]}}})
    open_doc(c, text)
    c.diagnostics(URI)
    line, _ = marks["x"]
    col8 = len(text.split("\n")[line].split("%x }")[0].encode())
    r = c.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": {"line": line, "character": col8}})
    assert r["result"]["range"]["start"] == {"line": line, "character": col8}, r
    shutdown(c)


def server_text(c):
    return c.request("relay/debug/documentText", {"textDocument": {"uri": URI}})["result"]["text"]


def edit(c, version, start, end, new_text):
    c.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": version},
                                        "contentChanges": [{"range": {"start": start, "end": end}, "text": new_text}]})


def test_line_endings_and_positions_past_a_line():
    # LSP: "\r\n" and a lone "\r" end lines, and a character past a line's end is its end
    # (before the terminator), in either encoding
    for params in (None, {"capabilities": {"general": {"positionEncodings": ["utf-8"]}}}):
        crlf = '#[version = "0.0.5"]\r\ndef @f(%x: float32) -> float32 {\r\n  %x\r\n}\r\n'
        c, _ = start(params)
        open_doc(c, crlf)
        edit(c, 2, {"line": 2, "character": 100}, {"line": 2, "character": 100}, "Y")
        crlf = crlf.replace("  %x\r\n", "  %xY\r\n")
        assert server_text(c) == crlf
        # joining two lines takes the whole "\r\n"
        edit(c, 3, {"line": 1, "character": 33}, {"line": 2, "character": 0}, "")
        crlf = crlf.replace("{\r\n  %xY", "{  %xY")
        assert server_text(c) == crlf
        shutdown(c)
    cr = '#[version = "0.0.5"]\rdef @f(%x: float32) -> float32 {\r  let %yy = add(%x, %x);\r  add(%yy, %x)\r}\r'
    c, _ = start()
    open_doc(c, cr)
    r = c.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": {"line": 3, "character": 7}})
    assert r["result"]["range"] == {"start": {"line": 3, "character": 6}, "end": {"line": 3, "character": 9}}, r
    edit(c, 2, {"line": 3, "character": 2}, {"line": 3, "character": 5}, "multiply")
    assert server_text(c) == cr.replace("  add(%yy", "  multiply(%yy")
    shutdown(c)


def test_out_of_range_positions():
    text, marks = cursors('#[version = "0.0.5"]\ndef @f(%x: float32) {\n  add(<|x|>%x, %x)\n}\n')
    c, _ = start()
    open_doc(c, text)
    line, col = marks["x"]

    def hover(character, line=line):
        return c.request("textDocument/hover", {"textDocument": {"uri": URI},
                                                "position": {"line": line, "character": character}})
    # a character of 2^32 + col must not wrap around to col: it is the line's end
    assert hover(2 ** 32 + col)["result"] != hover(col)["result"]
    assert hover(2 ** 32 + col)["result"] == hover(10 ** 6)["result"]
    assert "result" in hover(2 ** 63)  # past int64: as far as any
    for bad in (hover(-1), hover(0, line=-1)):
        assert bad["error"]["code"] == -32602 and "negative position" in bad["error"]["message"], bad
    r = c.request("completionItem/resolve", None)
    assert r["error"]["code"] == -32602, r
    shutdown(c)


def test_formatting_is_relay_fmt():
    text = '#[version = "0.0.5"]\ndef @main(%x: int32)  {   add(%x,1) }\n'
    c, _ = start()
    open_doc(c, text)
    r = c.request("textDocument/formatting", {"textDocument": {"uri": URI}, "options": {"tabSize": 2,
                                                                                         "insertSpaces": True}})
    edits = r["result"]
    fmt = subprocess.run([RELAY, "fmt", "-"], input=text.encode(), stdout=subprocess.PIPE).stdout.decode()
    assert len(edits) == 1 and edits[0]["newText"] == fmt, (edits, fmt)
    assert edits[0]["range"]["start"] == {"line": 0, "character": 0}
    shutdown(c)


def test_document_symbols_and_typed_ir():
    text, _ = cursors(MODEL)
    c, _ = start()
    open_doc(c, text)
    r = c.request("textDocument/documentSymbol", {"textDocument": {"uri": URI}})
    names = [(s["name"], s["kind"]) for s in r["result"]]
    assert names == [("@dense", 12), ("@main", 12)], r
    r = c.request("relay/typedIR", {"textDocument": {"uri": URI}})
    assert r["result"]["text"].startswith("@dense: fn (Tensor[(1, 784), float32]"), r
    shutdown(c)


def test_a_request_overtaken_by_an_edit_or_cancelled():
    text, marks = cursors(MODEL)
    c, _ = start()
    open_doc(c, text)
    c.diagnostics(URI)
    rid, hover = c.request_msg("textDocument/hover", {"textDocument": {"uri": URI}, "position": pos(marks, "x")})
    change = c.notify_msg("textDocument/didChange", {"textDocument": {"uri": URI, "version": 2},
                                                      "contentChanges": [{"text": text + "\n"}]})
    c.send(hover, change)
    r = c.wait_response(rid)
    assert r["error"]["code"] == -32801, r
    rid, hover = c.request_msg("textDocument/hover", {"textDocument": {"uri": URI}, "position": pos(marks, "x")})
    c.send(hover, c.notify_msg("$/cancelRequest", {"id": rid}))
    r = c.wait_response(rid)
    assert r["error"]["code"] == -32800, r
    shutdown(c)


def test_requests_after_shutdown_and_exit_codes():
    c, _ = start()
    assert c.request("shutdown")["result"] is None
    r = c.request("textDocument/documentSymbol", {"textDocument": {"uri": URI}})
    assert r["error"]["code"] == -32600, r
    c.notify("exit")
    assert c.close() == 0
    c, _ = start()
    c.notify("exit")
    assert c.close() == 1


def main(argv):
    global RELAY
    RELAY = os.path.abspath(argv[1])
    return run_tests(globals(), argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
