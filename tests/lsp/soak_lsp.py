#!/usr/bin/python3
"""Soak test for `relay lsp`: N random incremental edits (insertions and deletions at
random positions, with multi-byte UTF-8 and characters outside the BMP, whose UTF-16
length is 2) sent in random batches, with malformed and truncated messages interleaved.
The server must never crash, and its copy of the document must stay identical to the
client's (checked through the `relay/debug/documentText` request every so often and at
the end).

Usage: soak_lsp.py RELAY_BINARY [EDITS] [SEED]
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import LspClient  # noqa: E402

URI = "file:///tmp/lsp-soak/model.relay"
START = """#[version = "0.0.5"]
/// Ünïcödé doc: \u00e9\u4e2d\U0001F600
def @main(%x: Tensor[(1, 4), float32], %w: Tensor[(3, 4), float32]) {
  %0 = nn.dense(%x, %w, units=3); // comment \u4e2d\u6587
  nn.relu(%0)
}
"""
PIECES = ["a", "%", "(", ")", "{", "}", "\n", " ", "add(", "1f", "\u00e9", "\u4e2d", "\U0001F600", "\U0001F680x",
          "def @f() { 1 }\n", "/*", "*/", "let %y = ", ";", "\"", "\u0301"]


def utf16_pos(text, index):
    """(line, UTF-16 column) of Python string index `index`."""
    line = text.count("\n", 0, index)
    start = text.rfind("\n", 0, index) + 1
    return {"line": line, "character": len(text[start:index].encode("utf-16-le")) // 2}


def main(argv):
    relay = argv[1]
    edits = int(argv[2]) if len(argv) > 2 else 10000
    rng = random.Random(int(argv[3]) if len(argv) > 3 else 1)
    c = LspClient(relay)
    assert "result" in c.request("initialize", {"capabilities": {}})
    c.notify("initialized", {})
    text = START
    version = 1
    c.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "relay", "version": 1,
                                                         "text": text}})
    done = 0
    checks = 0
    while done < edits:
        batch = []
        for _ in range(rng.randint(1, 20)):
            if done >= edits:
                break
            # Python indices are code points; never split a character (the client would
            # not either).
            a = rng.randint(0, len(text))
            if rng.random() < 0.4 and text:
                b = min(len(text), a + rng.randint(1, 8))
                new = ""
            else:
                b = a
                new = rng.choice(PIECES)
            if len(text) > 4000 and not new:
                b = min(len(text), a + 40)
            rng_change = {"range": {"start": utf16_pos(text, a), "end": utf16_pos(text, b)}, "text": new}
            text = text[:a] + new + text[b:]
            version += 1
            batch.append(c.notify_msg("textDocument/didChange", {"textDocument": {"uri": URI, "version": version},
                                                                 "contentChanges": [rng_change]}))
            done += 1
        frames = [c.frame(m) for m in batch]
        if rng.random() < 0.05:
            frames.insert(rng.randint(0, len(frames)), rng.choice([
                c.frame(b"{\"jsonrpc\": \"2.0\", \"method\": "),  # truncated JSON
                b"Content-Length: 12x\r\n\r\n",                    # bad header
                c.frame(b"[1, 2, 3]"),                              # not a message
                c.frame({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"bogus": True}}),
            ]))
        c.send_raw(b"".join(frames))
        if rng.random() < 0.05 or done >= edits:
            r = c.request("relay/debug/documentText", {"textDocument": {"uri": URI}}, timeout=60)
            assert r["result"]["text"] == text, "server text diverged after %d edits" % done
            checks += 1
    r = c.request("shutdown", timeout=60)
    assert r["result"] is None
    c.notify("exit")
    assert c.close() == 0
    print("soak: %d edits, %d text checks, server text identical, clean exit" % (edits, checks))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
