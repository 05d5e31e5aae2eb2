#!/usr/bin/python3
"""Protocol tests for the navigation and structure features of `relay lsp`: definition,
typeDefinition, references, documentHighlight, prepareRename/rename, documentSymbol,
workspace/symbol, foldingRange and selectionRange. Each test asserts exact locations.

Usage: test_navigation.py RELAY_BINARY [TEST_NAME...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsp_client  # noqa: E402
from lsp_client import cursors, initialize, pos, run_tests, shutdown  # noqa: E402

RELAY = None
URI = "file:///tmp/lsp-test/nav.relay"
PRELUDE_URI = "relay-prelude:///prelude.relay"

# Line numbers (0-based) are noted on the right for reading the expectations.
MODEL = """#[version = "0.0.5"]
#[import = "prelude"]
/// A shape.
/// Two kinds.
type <|ty|>Shape[A] {
  <|circ|>Circle(A),
  Square,
}

/* a block
   comment */
def @<|area|>area(%<|s|>s: Shape[int32]) -> int32 {
  match (%s) {
    Circle(%r) => %<|r|>r,
    Square => 1,
  }
}

def @main(%x: int32) -> int32 {
  let %y = @area(<|ccall|>Circle(%x));
  let %l = <|cons|>Cons(%y, Nil);
  add(%<|y|>y, @<|hd|>hd(%l))
}
"""
#  4: type Shape[A] {          11: def @area(%s: Shape[int32]) -> int32 {
#  5:   Circle(A),             12:   match (%s) {
#  6:   Square,                13:     Circle(%r) => %r,
#  7: }                        18: def @main(%x: int32) -> int32 {
#                              19:   let %y = @area(Circle(%x));
#                              20:   let %l = Cons(%y, Nil);
#                              21:   add(%y, @hd(%l))


def start(params=None):
    return initialize(RELAY, params)


def open_doc(c, text, uri=URI, version=1):
    lsp_client.open_doc(c, text, uri, version)


def rng(l1, c1, l2, c2):
    return {"start": {"line": l1, "character": c1}, "end": {"line": l2, "character": c2}}


def loc(l1, c1, l2, c2, uri=URI):
    return {"uri": uri, "range": rng(l1, c1, l2, c2)}


def at(c, method, marks, name, uri=URI, **extra):
    params = {"textDocument": {"uri": uri}, "position": pos(marks, name)}
    params.update(extra)
    return c.request(method, params)


def session(text=MODEL):
    text, marks = cursors(text)
    c, _ = start()
    open_doc(c, text)
    assert c.diagnostics(URI) == []
    return c, marks


# ---- tests ---------------------------------------------------------------------------

def test_capabilities():
    c, result = start()
    caps = result["capabilities"]
    for k in ["definitionProvider", "typeDefinitionProvider", "referencesProvider", "documentHighlightProvider",
              "workspaceSymbolProvider", "foldingRangeProvider", "selectionRangeProvider", "documentSymbolProvider"]:
        assert caps[k] is True, (k, caps)
    assert caps["renameProvider"] == {"prepareProvider": True}, caps
    shutdown(c)


def test_definition_in_the_prelude():
    c, m = session()
    r = at(c, "textDocument/definition", m, "hd")
    assert r["result"] == loc(42, 4, 42, 7, PRELUDE_URI), r
    r = at(c, "textDocument/definition", m, "cons")
    assert r["result"] == loc(7, 2, 7, 6, PRELUDE_URI), r
    # The virtual document's text, where those ranges point.
    prelude = c.request("relay/preludeText", {})["result"]
    assert prelude["uri"] == PRELUDE_URI
    lines = prelude["text"].split("\n")
    assert lines[42][4:7] == "@hd", lines[42]
    assert lines[7][2:6] == "Cons", lines[7]
    shutdown(c)


# What each request answers is tested in process by the fixture
# tests/ide/cases/shapes_navigation.relay (same text, goldens with the covered text); here
# only how the answers become LSP JSON.

def test_navigation_answers_as_lsp_json():
    c, m = session()
    assert at(c, "textDocument/definition", m, "r")["result"] == loc(13, 11, 13, 13)
    r = c.request("textDocument/definition", {"textDocument": {"uri": URI}, "position": {"line": 18, "character": 1}})
    assert r["result"] is None, r  # nothing on a keyword
    assert at(c, "textDocument/typeDefinition", m, "s")["result"] == loc(4, 5, 4, 10)
    assert at(c, "textDocument/typeDefinition", m, "y")["result"] is None  # int32 is no ADT
    r = at(c, "textDocument/references", m, "y", context={"includeDeclaration": True})
    assert r["result"] == [loc(19, 6, 19, 8), loc(20, 16, 20, 18), loc(21, 6, 21, 8)], r
    r = at(c, "textDocument/references", m, "y", context={"includeDeclaration": False})
    assert r["result"] == [loc(20, 16, 20, 18), loc(21, 6, 21, 8)], r
    r = at(c, "textDocument/documentHighlight", m, "s")  # kind 3 writes, 2 reads
    assert r["result"] == [{"range": rng(11, 10, 11, 12), "kind": 3}, {"range": rng(12, 9, 12, 11), "kind": 2}], r
    r = at(c, "textDocument/prepareRename", m, "y")
    assert r["result"] == {"range": rng(21, 6, 21, 8), "placeholder": "%y"}, r
    r = at(c, "textDocument/rename", m, "area", newName="@surface")
    assert r["result"] == {"changes": {URI: [{"range": rng(11, 4, 11, 9), "newText": "@surface"},
                                             {"range": rng(19, 11, 19, 16), "newText": "@surface"}]}}, r
    shutdown(c)


def test_rename_refusals():
    c, m = session()
    cases = [
        ("y", "%x", -32602, "a local variable named `%x` already exists in this definition"),
        ("y", "@z", -32602, "a local variable's name starts with `%`, so `@z` is not a valid new name"),
        ("y", "%1z", -32602, "`%1z` is not a valid name: names are letters, digits and `_`, not starting with a digit"),
        ("area", "main", -32602, "a global function named `@main` already exists"),
        ("area", "@map", -32602, "a global function named `@map` already exists"),  # the prelude's
        ("circ", "circle", -32602, "a constructor name must start with an uppercase letter, so `circle` is not valid"),
        ("circ", "Cons", -32602, "a constructor named `Cons` already exists"),
        ("ty", "Option", -32602, "a type named `Option` already exists"),
        ("hd", "@head", -32803, "`@hd` is defined in the prelude and cannot be renamed here"),
    ]
    for name, new, code, message in cases:
        r = at(c, "textDocument/rename", m, name, newName=new)
        assert r.get("error") == {"code": code, "message": message}, (name, new, r)
    r = at(c, "textDocument/prepareRename", m, "hd")
    assert r["error"] == {"code": -32803, "message": "`@hd` is defined in the prelude and cannot be renamed here"}, r
    # Nothing renameable at a keyword: null.
    r = c.request("textDocument/prepareRename", {"textDocument": {"uri": URI}, "position": {"line": 18, "character": 1}})
    assert r["result"] is None, r
    shutdown(c)


def test_graph_bindings_are_not_renamed():
    c, m = session('#[version = "0.0.5"]\ndef @main(%x: int32) {\n  %0 = add(%x, 1);\n  <|g|>%0\n}\n')
    r = at(c, "textDocument/prepareRename", m, "g")
    assert r["error"]["code"] == -32803, r
    assert "numbered" in r["error"]["message"], r
    r = at(c, "textDocument/references", m, "g", context={"includeDeclaration": True})
    assert r["result"] == [loc(2, 2, 2, 4), loc(3, 2, 3, 4)], r
    shutdown(c)


def test_multibyte_text_before_the_cursor():
    # `é` is 1 UTF-16 unit (2 bytes), the emoji 2 units (4 bytes): columns count UTF-16.
    text = ('#[version = "0.0.5"]\n'
            'def @main(%x: int32) {\n'
            '  /* é \U0001F600 */ let %v = %x; /* \U0001F600 */ <|v|>%v\n'
            '}\n')
    c, m = session(text)
    assert m["v"] == (2, 35), m
    r = at(c, "textDocument/definition", m, "v")
    assert r["result"] == loc(2, 17, 2, 19), r
    r = at(c, "textDocument/rename", m, "v", newName="w")
    assert r["result"] == {"changes": {URI: [{"range": rng(2, 17, 2, 19), "newText": "%w"},
                                             {"range": rng(2, 35, 2, 37), "newText": "%w"}]}}, r
    shutdown(c)
    # The same with UTF-8 positions negotiated: byte columns.
    c, _ = start({"capabilities": {"general": {"positionEncodings": ["utf-8"]}}})
    open_doc(c, cursors(text)[0])
    r = c.request("textDocument/definition", {"textDocument": {"uri": URI}, "position": {"line": 2, "character": 40}})
    assert r["result"] == loc(2, 20, 2, 22), r
    shutdown(c)


def test_document_symbols_are_hierarchical():
    c, m = session()
    r = c.request("textDocument/documentSymbol", {"textDocument": {"uri": URI}})
    assert r["result"] == [
        {"name": "Shape", "detail": "[A]", "kind": 10, "range": rng(4, 0, 7, 1), "selectionRange": rng(4, 5, 4, 10),
         "children": [
             {"name": "Circle", "detail": "(A)", "kind": 22, "range": rng(5, 2, 5, 11),
              "selectionRange": rng(5, 2, 5, 8), "children": []},
             {"name": "Square", "kind": 22, "range": rng(6, 2, 6, 8), "selectionRange": rng(6, 2, 6, 8),
              "children": []}]},
        {"name": "@area", "detail": "fn (Shape[int32]) -> int32", "kind": 12, "range": rng(11, 0, 16, 1),
         "selectionRange": rng(11, 4, 11, 9),
         "children": [{"name": "%s", "detail": "Shape[int32]", "kind": 13, "range": rng(11, 10, 11, 26),
                       "selectionRange": rng(11, 10, 11, 12), "children": []}]},
        {"name": "@main", "detail": "fn (int32) -> int32", "kind": 12, "range": rng(18, 0, 22, 1),
         "selectionRange": rng(18, 4, 18, 9),
         "children": [{"name": "%x", "detail": "int32", "kind": 13, "range": rng(18, 10, 18, 19),
                       "selectionRange": rng(18, 10, 18, 12), "children": []}]},
    ], r
    shutdown(c)


def test_workspace_symbols_over_open_documents():
    text, _ = cursors(MODEL)
    c, _ = start()
    open_doc(c, text)
    other = "file:///tmp/lsp-test/other.relay"
    open_doc(c, '#[version = "0.0.5"]\ndef @square_root(%x: float32) {\n  sqrt(%x)\n}\n', uri=other)
    r = c.request("workspace/symbol", {"query": "SQ"})
    got = sorted((s["name"], s["kind"], s["location"]["uri"], s.get("containerName")) for s in r["result"])
    assert got == [("@square_root", 12, other, None), ("Square", 22, URI, "Shape")], r
    # Subsequence: `mn` matches @main only.
    r = c.request("workspace/symbol", {"query": "mn"})
    assert [(s["name"], s["location"]) for s in r["result"]] == [("@main", loc(18, 4, 18, 9))], r
    r = c.request("workspace/symbol", {"query": ""})
    assert len(r["result"]) == 6, r  # Shape, Circle, Square, @area, @main, @square_root
    shutdown(c)


def test_folding_ranges():
    c, m = session()
    r = c.request("textDocument/foldingRange", {"textDocument": {"uri": URI}})
    assert r["result"] == [
        {"startLine": 2, "endLine": 3, "kind": "comment"},   # the `///` run
        {"startLine": 4, "endLine": 6, "kind": "region"},    # type Shape (its `}` stays visible)
        {"startLine": 9, "endLine": 10, "kind": "comment"},  # the block comment
        {"startLine": 11, "endLine": 15, "kind": "region"},  # @area
        {"startLine": 12, "endLine": 14, "kind": "region"},  # its match
        {"startLine": 18, "endLine": 21, "kind": "region"},  # @main
    ], r
    shutdown(c)


def test_folding_the_metadata_section():
    text = ('#[version = "0.0.5"]\ndef @main() {\n  meta[relay.Constant][0]\n}\n\n#[metadata]\n{\n  "root": 1,\n'
            '  "nodes": [\n    {"type_key": ""},\n    {"type_key": "Map", "keys": ["relay.Constant"], "data": [2]},\n'
            '    {"type_key": "Array", "data": [3]},\n    {"type_key": "relay.Constant", "attrs": {"_checked_type_": "0",'
            ' "data": "0", "span": "0", "virtual_device_": "0"}}\n  ],\n  "b64ndarrays": [],\n'
            '  "attrs": {"tvm_version": "0.14.0"}\n}\n')
    c, _ = start()
    open_doc(c, text)
    r = c.request("textDocument/foldingRange", {"textDocument": {"uri": URI}})
    assert {"startLine": 5, "endLine": 15, "kind": "region"} in r["result"], r
    assert {"startLine": 1, "endLine": 2, "kind": "region"} in r["result"], r
    shutdown(c)


def test_selection_ranges_grow_outwards():
    c, m = session()
    r = c.request("textDocument/selectionRange", {"textDocument": {"uri": URI}, "positions": [pos(m, "r"), pos(m, "y")]})
    chains = []
    for node in r["result"]:
        chain = []
        while node:
            chain.append(node["range"])
            node = node.get("parent")
        chains.append(chain)
    whole = rng(0, 0, 23, 0)
    assert chains[0] == [rng(13, 18, 13, 20),   # %r
                         rng(13, 4, 13, 20),    # the clause
                         rng(12, 2, 15, 3),     # the match
                         rng(11, 0, 16, 1),     # @area
                         whole], chains[0]
    assert chains[1] == [rng(21, 6, 21, 8),     # %y
                         rng(21, 2, 21, 18),    # add(%y, @hd(%l))
                         rng(19, 2, 21, 18),    # the block
                         rng(18, 0, 22, 1),     # @main
                         whole], chains[1]
    shutdown(c)


def main(argv):
    global RELAY
    RELAY = os.path.abspath(argv[1])
    return run_tests(globals(), argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
