#!/usr/bin/python3
"""Protocol tests for the editing features of `relay lsp`: completion (+ resolve),
signature help, semantic tokens (full and delta), inlay hints, quick fixes, range
formatting and work-done progress. Each test drives the server as a subprocess with
fixtures (`<|name|>` cursor marks) and asserts exact answers.

Usage: test_editing.py RELAY_BINARY [TEST_NAME...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsp_client  # noqa: E402
from lsp_client import cursors, initialize, pos, run_tests, shutdown  # noqa: E402

RELAY = None
URI = "file:///tmp/lsp-test/edit.relay"

GOOD = """#[version = "0.0.5"]
/// A dense layer.
def @dense(%x: Tensor[(1, 784), float32], %w: Tensor[(128, 784), float32]) -> Tensor[(1, 128), float32] {
  nn.dense(%x, %w, units=128)
}

def @main(%data: Tensor[(1, 3, 8, 8), float32], %k: Tensor[(4, 3, 3, 3), float32]) {
  %0 = nn.conv2d(%data, %k, padding=[1, 1]);
  let %inner = fn (%y: float32) {
    %1 = add(%y, 1f);
    %1
  };
  %2 = nn.relu(%0);
  (%2, %inner(1f))
}
"""


def start(capabilities=None):
    return initialize(RELAY, {"capabilities": capabilities or {}, "processId": None})


def open_doc(c, text, uri=URI, version=1):
    lsp_client.open_doc(c, text, uri, version)


def change(c, text, version, uri=URI):
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                        "contentChanges": [{"text": text}]})


def rng(l1, c1, l2, c2):
    return {"start": {"line": l1, "character": c1}, "end": {"line": l2, "character": c2}}


def complete(c, marks, name):
    r = c.request("textDocument/completion", {"textDocument": {"uri": URI}, "position": pos(marks, name)})
    assert "result" in r, r
    return r["result"]["items"]


def by_label(items):
    return {i["label"]: i for i in items}


def apply_edits(text, edits):
    """Applies LSP TextEdits (ASCII text: UTF-16 columns are bytes) from the last to the first."""
    lines = text.split("\n")
    starts = [0]
    for l in lines[:-1]:
        starts.append(starts[-1] + len(l) + 1)

    def off(p):
        return starts[p["line"]] + p["character"]

    for e in sorted(edits, key=lambda e: off(e["range"]["start"]), reverse=True):
        text = text[:off(e["range"]["start"])] + e["newText"] + text[off(e["range"]["end"]):]
    return text


# ---- capabilities ------------------------------------------------------------------

def test_capabilities():
    c, result = start()
    caps = result["capabilities"]
    assert caps["completionProvider"] == {"triggerCharacters": ["%", "@", ".", "(", ",", "="],
                                          "resolveProvider": True}, caps
    assert caps["signatureHelpProvider"] == {"triggerCharacters": ["(", ","]}, caps
    legend = caps["semanticTokensProvider"]["legend"]
    assert legend["tokenTypes"] == ["parameter", "variable", "function", "operator", "enumMember", "type",
                                    "property", "number", "string", "comment", "keyword", "macro"], legend
    assert legend["tokenModifiers"] == ["declaration", "defaultLibrary", "deprecated"], legend
    assert caps["semanticTokensProvider"]["full"] == {"delta": True}, caps
    assert caps["inlayHintProvider"] is True
    assert caps["codeActionProvider"] == {"codeActionKinds": ["quickfix"]}, caps
    assert caps["documentRangeFormattingProvider"] is True
    shutdown(c)


# ---- completion --------------------------------------------------------------------

TYPING = GOOD.replace("  %2 = nn.relu(%0);\n  (%2, %inner(1f))\n", "  %2 = nn.relu(<|c|>%\n")


def test_completion_of_locals_while_typing():
    c, _ = start()
    open_doc(c, GOOD)
    assert c.diagnostics(URI, version=1) == []
    text, marks = cursors(TYPING)
    marks["c"] = (marks["c"][0], marks["c"][1] + 1)  # after the `%`
    change(c, text, 2)
    items = complete(c, marks, "c")
    labels = by_label(items)
    # Exactly the binders in scope: not %y/%1 (inside the closure), not %x/%w (@dense),
    # not %2 (being bound).
    assert set(labels) == {"%data", "%k", "%0", "%inner"}, sorted(labels)
    assert labels["%data"]["detail"] == "Tensor[(1, 3, 8, 8), float32]", labels["%data"]
    assert labels["%0"]["detail"] == "Tensor[(1, 4, 8, 8), float32]", labels["%0"]
    assert labels["%inner"]["detail"] == "fn (float32) -> float32", labels["%inner"]
    assert all(i["kind"] == 6 for i in items), items
    line, col = marks["c"]
    assert labels["%k"]["textEdit"] == {"range": rng(line, col - 1, line, col), "newText": "%k"}, labels["%k"]
    shutdown(c)


def test_completion_inside_a_closure_sees_its_parameter():
    text, marks = cursors(GOOD.replace("%1 = add(%y, 1f);", "%1 = add(%y, 1f);\n    <|c|>"))
    c, _ = start()
    open_doc(c, text)
    items = complete(c, marks, "c")
    labels = by_label(items)
    # %inner is in scope in its own value (local recursion).
    for name in ["%data", "%k", "%0", "%inner", "%y", "%1", "@dense", "@main", "nn.conv2d", "let", "Tensor"]:
        assert name in labels, name
    assert "%2" not in labels and "%x" not in labels and "%w" not in labels, sorted(labels)[:20]
    assert labels["%y"]["detail"] == "float32" and labels["%y"]["kind"] == 6
    assert labels["@dense"]["kind"] == 3
    assert labels["@dense"]["detail"] == \
        "fn (Tensor[(1, 784), float32], Tensor[(128, 784), float32]) -> Tensor[(1, 128), float32]"
    assert labels["let"]["kind"] == 14
    ops = [i for i in items if i["kind"] == 24]
    assert len(ops) == 304, len(ops)
    shutdown(c)


def test_operator_snippets():
    text, marks = cursors(GOOD.replace("  %2 = nn.relu(%0);", "  %2 = nn.con<|c|>"))
    c, _ = start()
    open_doc(c, text)
    items = complete(c, marks, "c")
    labels = by_label(items)
    assert all(l.startswith("nn.") for l in labels), sorted(labels)
    conv = labels["nn.conv2d"]
    line, col = marks["c"]
    assert conv["textEdit"] == {"range": rng(line, col - 6, line, col),
                                "newText": "nn.conv2d(${1:data}, ${2:weight})"}, conv
    assert conv["insertTextFormat"] == 2 and conv["kind"] == 24 and "tags" not in conv, conv
    assert labels["nn.dense"]["textEdit"]["newText"] == "nn.dense(${1:data}, ${2:weight}, units=${3})"
    # Resolve fills the documentation: the op's doc and attrs schema.
    r = c.request("completionItem/resolve", conv)["result"]
    doc = r["documentation"]["value"]
    assert doc.startswith("```relay\nnn.conv2d(data, weight)\n```") and "strides" in doc and "Conv2DAttrs" in doc, doc
    shutdown(c)


def test_unsupported_operators_are_marked():
    # memory.alloc_tensor exists only inside TVM's compiler: never supported here.
    text, marks = cursors(GOOD.replace("  %2 = nn.relu(%0);", "  %2 = memory.all<|c|>"))
    c, _ = start()
    open_doc(c, text)
    items = by_label(complete(c, marks, "c"))
    q = items["memory.alloc_tensor"]
    assert q["tags"] == [1] and q["detail"].endswith("(not supported yet)"), q
    # A supported operator (qnn.conv2d is, since issue 17) carries no such tag.
    text, marks = cursors(GOOD.replace("  %2 = nn.relu(%0);", "  %2 = qnn.con<|c|>"))
    change(c, text, 2)
    q = by_label(complete(c, marks, "c"))["qnn.conv2d"]
    assert "tags" not in q and "not supported" not in q.get("detail", ""), q
    shutdown(c)


def test_attribute_completion_in_an_operator_call():
    text, marks = cursors(GOOD.replace("  %2 = nn.relu(%0);", "  %2 = nn.conv2d(%data, %k, padding=[1, 1], <|c|>"))
    c, _ = start()
    open_doc(c, text)
    items = complete(c, marks, "c")
    labels = by_label(items)
    attrs = [i["label"] for i in items if i["kind"] == 10]
    assert attrs == ["strides", "dilation", "groups", "channels", "kernel_size", "data_layout", "kernel_layout",
                     "out_layout", "out_dtype"], attrs
    s = labels["strides"]
    assert s["detail"] == "IndexArray = [1, 1]" and s["textEdit"]["newText"] == "strides=", s
    assert "%data" in labels  # a positional argument may come too
    shutdown(c)


def test_dtype_completion():
    text, marks = cursors(GOOD.replace("%y: float32", "%y: Tensor[(1, 3), <|t|>"))
    c, _ = start()
    open_doc(c, text)
    expected = ["float32", "float16", "float64", "bfloat16", "int8", "int16", "int32", "int64", "uint8", "uint16",
                "uint32", "uint64", "bool"]
    assert [i["label"] for i in complete(c, marks, "t")] == expected
    text, marks = cursors(GOOD.replace("  %2 = nn.relu(%0);", '  %2 = zeros(shape=[1], dtype="fl<|d|>'))
    change(c, text, 2)
    items = complete(c, marks, "d")
    assert [i["label"] for i in items] == expected
    line, col = marks["d"]
    assert items[0]["textEdit"]["range"] == rng(line, col - 2, line, col), items[0]
    shutdown(c)


def test_global_completion_and_resolve():
    text, marks = cursors(GOOD.replace("  %2 = nn.relu(%0);", "  %2 = @<|g|>"))
    c, _ = start()
    open_doc(c, text)
    items = complete(c, marks, "g")
    assert [i["label"] for i in items] == ["@dense", "@main"], items
    r = c.request("completionItem/resolve", items[0])["result"]
    assert r["documentation"]["value"] == ("```relay\n@dense: fn (Tensor[(1, 784), float32], Tensor[(128, 784), "
                                           "float32]) -> Tensor[(1, 128), float32]\n```\n\nA dense layer."), r
    shutdown(c)


def test_tuple_field_completion():
    # after `%t.` (a trigger character): the tuple's fields by index with their types,
    # replacing only what follows the dot; nested (`%t.1.`) and not for a tensor
    text, marks = cursors('#[version = "0.0.5"]\ndef @f(%x: float32, %v: Tensor[(2), int8]) {\n'
                          '  let %t = (%x, (%v, %x));\n  let %a = %t.<|a|>0;\n  %t.1.<|b|>0\n}\n'
                          'def @g(%v: Tensor[(2), int8]) {\n  %v.<|c|>0\n}\n')
    c, _ = start()
    open_doc(c, text)
    items = complete(c, marks, "a")
    assert [(i["label"], i["detail"], i["kind"]) for i in items] == [
        ("0", "float32", 5), ("1", "(Tensor[(2), int8], float32)", 5)], items
    line, col = marks["a"]
    assert items[0]["textEdit"] == {"range": rng(line, col, line, col), "newText": "0"}, items[0]
    assert [(i["label"], i["detail"]) for i in complete(c, marks, "b")] == [("0", "Tensor[(2), int8]"),
                                                                            ("1", "float32")]
    assert complete(c, marks, "c") == []
    shutdown(c)


def test_constructor_completion():
    text, marks = cursors('#[version = "0.0.5"]\ntype Opt[A] {\n  Some(A),\n  None2,\n}\n\n'
                          'def @main() {\n  <|c|>\n}\n')
    c, _ = start()
    open_doc(c, text)
    labels = by_label(complete(c, marks, "c"))
    assert labels["Some"]["kind"] == 20 and labels["Some"]["detail"] == "Some(A) : Opt", labels["Some"]
    assert labels["None2"]["detail"] == "None2 : Opt", labels["None2"]
    shutdown(c)


# ---- signature help ------------------------------------------------------------------

def test_signature_help():
    text, marks = cursors(GOOD.replace("  %2 = nn.relu(%0);",
                                       "  %2 = nn.conv2d(%data, <|a|>%k, padding=<|b|>"))
    c, _ = start()
    open_doc(c, text)

    def sig(mark):
        return c.request("textDocument/signatureHelp", {"textDocument": {"uri": URI},
                                                        "position": pos(marks, mark)})["result"]

    s = sig("a")
    label = s["signatures"][0]["label"]
    assert label == ('nn.conv2d(data, weight, strides=[1, 1], padding=[0, 0], dilation=[1, 1], groups=1, '
                     'channels=None, kernel_size=None, data_layout="NCHW", kernel_layout="OIHW", out_layout="", '
                     'out_dtype="")'), label
    assert s["activeParameter"] == 1, s
    params = s["signatures"][0]["parameters"]
    assert [label[p["label"][0]:p["label"][1]] for p in params][:4] == ["data", "weight", "strides=[1, 1]",
                                                                        "padding=[0, 0]"]
    s = sig("b")
    assert s["activeParameter"] == 3, s  # padding
    shutdown(c)


def test_signature_help_for_a_global():
    text, marks = cursors(GOOD.replace("  %2 = nn.relu(%0);", "  %2 = @dense(%data, <|g|>"))
    c, _ = start()
    open_doc(c, text)
    s = c.request("textDocument/signatureHelp", {"textDocument": {"uri": URI}, "position": pos(marks, "g")})["result"]
    assert s["signatures"][0]["label"] == ("@dense(%x: Tensor[(1, 784), float32], %w: Tensor[(128, 784), float32]) "
                                           "-> Tensor[(1, 128), float32]"), s
    assert s["activeParameter"] == 1
    assert s["signatures"][0]["documentation"]["value"] == "A dense layer."
    # Outside a call: nothing.
    s = c.request("textDocument/signatureHelp", {"textDocument": {"uri": URI},
                                                 "position": {"line": 1, "character": 0}})["result"]
    assert s is None, s
    shutdown(c)


# ---- semantic tokens -------------------------------------------------------------------

TYPES = ["parameter", "variable", "function", "operator", "enumMember", "type", "property", "number", "string",
         "comment", "keyword", "macro"]

SMALL = """#[version = "0.0.5"]
def @f(%x: Tensor[(2, 2), float32]) {
  // sum
  let %y = add(%x, 1f);
  nn.softmax(%y, axis=1)
}
"""


def decode(data):
    out = []
    line = col = 0
    for i in range(0, len(data), 5):
        dl, dc, length, t, mods = data[i:i + 5]
        line += dl
        col = col + dc if dl == 0 else dc
        out.append((line, col, length, TYPES[t], mods))
    return out


def test_semantic_tokens_full_and_delta():
    c, _ = start()
    open_doc(c, SMALL)
    r = c.request("textDocument/semanticTokens/full", {"textDocument": {"uri": URI}})["result"]
    toks = decode(r["data"])
    assert toks == [
        (0, 0, 20, "macro", 0),
        (1, 0, 3, "keyword", 0),
        (1, 4, 2, "function", 1),
        (1, 7, 2, "parameter", 1),
        (1, 11, 6, "type", 0),
        (1, 19, 1, "number", 0),
        (1, 22, 1, "number", 0),
        (1, 26, 7, "type", 0),
        (2, 2, 6, "comment", 0),
        (3, 2, 3, "keyword", 0),
        (3, 6, 2, "variable", 1),
        (3, 11, 3, "operator", 2),
        (3, 15, 2, "parameter", 0),
        (3, 19, 2, "number", 0),
        (4, 2, 10, "operator", 2),
        (4, 13, 2, "variable", 0),
        (4, 17, 4, "property", 0),
        (4, 22, 1, "number", 0),
    ], toks
    first = r["resultId"]
    # Rename %y to %yy in its two places: the delta edits the previous result.
    change(c, SMALL.replace("%y", "%yy"), 2)
    d = c.request("textDocument/semanticTokens/full/delta", {"textDocument": {"uri": URI},
                                                             "previousResultId": first})["result"]
    assert d["resultId"] != first and "edits" in d, d
    data = list(r["data"])
    for e in d["edits"]:
        data[e["start"]:e["start"] + e["deleteCount"]] = e.get("data", [])
    full = c.request("textDocument/semanticTokens/full", {"textDocument": {"uri": URI}})["result"]
    assert data == full["data"], (data, full["data"])
    # The edit is the minimal span: from the %yy binder's length to the %yy reference's length.
    assert d["edits"] == [{"start": 52, "deleteCount": 30, "data": full["data"][52:82]}], d["edits"]
    # An unknown previous result gets a full answer.
    d = c.request("textDocument/semanticTokens/full/delta", {"textDocument": {"uri": URI},
                                                             "previousResultId": "nope"})["result"]
    assert "data" in d and decode(d["data"]) == decode(full["data"]), d
    shutdown(c)


# ---- inlay hints ------------------------------------------------------------------------

def test_inlay_hints():
    text = GOOD.replace("fn (%y: float32)", "fn (%y: float32, %z)").replace("add(%y, 1f)", "add(%y, %z)").replace(
        "%inner(1f)", "%inner(1f, 2f)")
    c, _ = start()
    open_doc(c, text)
    r = c.request("textDocument/inlayHint", {"textDocument": {"uri": URI}, "range": rng(0, 0, 20, 0)})["result"]
    got = [(h["position"]["line"], h["position"]["character"], h["label"], h["kind"]) for h in r]
    assert got == [
        (7, 4, ": Tensor[(1, 4, 8, 8), float32]", 1),
        (8, 12, ": fn (float32, float32) -> float32", 1),
        (8, 34, ": float32", 1),
        (9, 6, ": float32", 1),
        (12, 4, ": Tensor[(1, 4, 8, 8), float32]", 1),
    ], got
    # Only the requested range.
    r = c.request("textDocument/inlayHint", {"textDocument": {"uri": URI}, "range": rng(12, 0, 13, 0)})["result"]
    assert [(h["position"]["line"], h["label"]) for h in r] == [(12, ": Tensor[(1, 4, 8, 8), float32]")], r
    shutdown(c)


# ---- code actions -----------------------------------------------------------------------

def test_quick_fix_for_a_misspelt_name():
    text = GOOD.replace("nn.conv2d(%data,", "nn.conv2d(%dta,")
    c, _ = start()
    open_doc(c, text)
    diags = c.diagnostics(URI)
    bad = [d for d in diags if "dta" in d["message"]]
    assert len(bad) == 1, diags
    r = c.request("textDocument/codeAction", {"textDocument": {"uri": URI}, "range": bad[0]["range"],
                                              "context": {"diagnostics": [bad[0]]}})["result"]
    assert len(r) == 1, r
    a = r[0]
    assert a["kind"] == "quickfix" and a["isPreferred"] is True and a["diagnostics"] == [bad[0]], a
    assert a["title"] == "a local variable with a similar name exists: `%data`", a["title"]
    edits = a["edit"]["changes"][URI]
    assert edits == [{"range": bad[0]["range"], "newText": "%data"}], edits
    fixed = apply_edits(text, edits)
    change(c, fixed, 2)
    rest = c.diagnostics(URI, version=2)
    assert not [d for d in rest if "dta" in d["message"]], rest
    # Other kinds only: nothing.
    r = c.request("textDocument/codeAction", {"textDocument": {"uri": URI}, "range": bad[0]["range"],
                                              "context": {"diagnostics": [], "only": ["refactor"]}})["result"]
    assert r == [], r
    shutdown(c)


def test_quick_fix_annotates_a_callees_result():
    # A call sees only its callee's annotations (E0072); the callee's body was inferred,
    # so the fix writes that type as its annotation.
    text = ('#[version = "0.0.5"]\n'
            'def @f(%x: Tensor[(2, 3), float32]) {\n  nn.relu(%x)\n}\n'
            'def @main(%y: Tensor[(2, 3), float32]) {\n  add(@f(%y), %y)\n}\n')
    c, _ = start()
    open_doc(c, text)
    diags = c.diagnostics(URI)
    bad = [d for d in diags if d.get("code") == "E0072"]
    assert len(bad) == 1, diags
    r = c.request("textDocument/codeAction", {"textDocument": {"uri": URI}, "range": bad[0]["range"],
                                              "context": {"diagnostics": [bad[0]]}})["result"]
    assert r and r[0]["isPreferred"] is True, r
    assert r[0]["title"] == "annotate the result of `@f` with its inferred type `Tensor[(2, 3), float32]`", r[0]
    fixed = apply_edits(text, r[0]["edit"]["changes"][URI])
    assert "def @f(%x: Tensor[(2, 3), float32]) -> Tensor[(2, 3), float32] {" in fixed, fixed
    change(c, fixed, 2)
    assert c.diagnostics(URI, version=2) == []
    shutdown(c)


# ---- range formatting -------------------------------------------------------------------

def test_range_formatting():
    text = '#[version = "0.0.5"]\ndef @f(%x: int32) {\n  %x\n}\n\ndef @main(%x: int32)  {   add(%x,1) }\n'
    c, _ = start()
    open_doc(c, text)

    def fmt(l1, l2):
        return c.request("textDocument/rangeFormatting", {"textDocument": {"uri": URI}, "range": rng(l1, 0, l2, 0),
                                                          "options": {"tabSize": 2, "insertSpaces": True}})["result"]

    assert fmt(0, 3) == [], "the first definition is formatted already"
    edits = fmt(5, 5)
    assert edits == [{"range": rng(5, 0, 6, 0), "newText": "def @main(%x: int32) {\n  add(%x, 1)\n}\n"}], edits
    shutdown(c)


# ---- work-done progress -------------------------------------------------------------------

def test_work_done_progress_around_a_long_check():
    # Long enough that a release build's check passes the server's ~200 ms threshold on a
    # fast, quiet machine too (8000 definitions once did not).
    defs = ["#[version = \"0.0.5\"]"]
    for i in range(24000):
        body = "\n".join("  %%%d = add(%s, %%x);" % (j, "%x" if j == 0 else "%%%d" % (j - 1)) for j in range(10))
        defs.append("def @f%d(%%x: Tensor[(2, 2), float32]) {\n%s\n  %%9\n}" % (i, body))
    text = "\n\n".join(defs) + "\n"
    c, _ = start({"window": {"workDoneProgress": True}})
    # The server asks for a token once initialized, and uses it only after our answer
    # (LSP 3.17): here the answer comes before the long check starts.
    create = c.wait_notification("window/workDoneProgress/create", timeout=60)
    token = create["params"]["token"]
    assert not [m for m in c.notifications if m.get("method") == "$/progress"]
    c.send({"jsonrpc": "2.0", "id": create["id"], "result": None})
    open_doc(c, text)
    begin = c.wait_notification("$/progress", lambda m: m["params"]["value"]["kind"] == "begin", timeout=60)
    end = c.wait_notification("$/progress", lambda m: m["params"]["value"]["kind"] == "end", timeout=60)
    assert begin["params"]["token"] == token == end["params"]["token"]
    assert begin["params"]["value"]["title"] == "Checking", begin
    assert c.diagnostics(URI, timeout=60) == []
    # A token is used once: after `end` the server asks for a new one.
    again = c.wait_notification("window/workDoneProgress/create",
                                lambda m: m["params"]["token"] != token, timeout=60)
    assert again["id"] != create["id"]
    shutdown(c)
    # A client that never answers `create` gets no progress (and the check still runs).
    c, _ = start({"window": {"workDoneProgress": True}})
    c.wait_notification("window/workDoneProgress/create", timeout=60)
    open_doc(c, text)
    assert c.diagnostics(URI, timeout=60) == []
    assert not [m for m in c.notifications if m.get("method") == "$/progress"]
    shutdown(c)
    # Without the client capability: no progress.
    c, _ = start()
    open_doc(c, text)
    c.diagnostics(URI, timeout=60)
    assert not [m for m in c.notifications if m.get("method") in ("$/progress", "window/workDoneProgress/create")]
    shutdown(c)


# ---- robustness ----------------------------------------------------------------------------

def test_every_position_of_broken_texts_answers():
    """Completion, signature help, tokens and hints answer (never an error) at every
    position of texts cut anywhere, as while typing."""
    c, _ = start()
    version = 1
    for cut in list(range(0, len(GOOD), 37)) + [len(GOOD)]:
        piece = GOOD[:cut]
        if version == 1:
            open_doc(c, piece)
        else:
            change(c, piece, version)
        version += 1
        lines = piece.split("\n")
        for line in range(len(lines)):
            for col in range(0, len(lines[line]) + 1, 3):
                p = {"textDocument": {"uri": URI}, "position": {"line": line, "character": col}}
                assert "result" in c.request("textDocument/completion", p), (cut, line, col)
                assert "result" in c.request("textDocument/signatureHelp", p), (cut, line, col)
        for m in ["textDocument/semanticTokens/full", "textDocument/inlayHint", "textDocument/codeAction"]:
            r = c.request(m, {"textDocument": {"uri": URI}, "range": rng(0, 0, 99, 0),
                              "context": {"diagnostics": []}})
            assert "result" in r, (m, cut, r)
    shutdown(c)


def main(argv):
    global RELAY
    RELAY = os.path.abspath(argv[1])
    return run_tests(globals(), argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
