#!/usr/bin/python3
"""The Neovim plugin (editors/nvim) in headless Neovim: file type detection, the
tree-sitter parser registration, highlight captures at known positions, and `relay lsp`
attached with diagnostics. Usage: nvim_plugin_e2e.py RELAY_BINARY NVIM_BINARY"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# A type error (the body is a tensor, the declared result a scalar) for one diagnostic.
TEXT = """#[version = "0.0.5"]
/// Doc.
def @main(%x: Tensor[(2, 3), float32]) -> float32 {
  %0 = nn.relu(%x);
  add(%0, 1f)
}
"""
# (row, col) -> a capture that must cover it (0-based, as Neovim counts).
EXPECTED = {
    (0, 12): "string",
    (1, 0): "comment.documentation",
    (2, 0): "keyword",
    (2, 4): "function",
    (2, 10): "variable.parameter",
    (2, 14): "type.builtin",
    (2, 29): "type.builtin",
    (3, 2): "variable",
    (3, 7): "function.call",
    (4, 10): "number.float",
}


def main(argv):
    relay, nvim = os.path.abspath(argv[1]), argv[2]
    plugin = os.path.join(ROOT, "editors", "nvim")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "model.relay")
        with open(path, "w") as f:
            f.write(TEXT)
        positions = ";".join("%d:%d" % rc for rc in EXPECTED)
        env = dict(os.environ, RELAY_FILE=path, RELAY_POSITIONS=positions, HOME=d,
                   XDG_STATE_HOME=d, XDG_DATA_HOME=d, XDG_CACHE_HOME=d)
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nvim_plugin_e2e.lua")
        setup = "lua vim.g.relay_lsp_cmd = { %r, 'lsp' }" % relay
        p = subprocess.run([nvim, "--headless", "--clean", "-n", "-i", "NONE",
                            "--cmd", "set rtp^=" + plugin, "--cmd", setup, "-c", "luafile " + script],
                           env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=150)
    out = p.stdout.decode()
    print(out)
    lines = out.splitlines()
    problems = []
    for want in ["filetype: relay", "highlighter: true", "root: source_file error=false",
                 "lsp clients: relay", "diagnostics: 1"]:
        if want not in lines:
            problems.append("missing line: " + want)
    for (row, col), name in EXPECTED.items():
        got = [l for l in lines if l.startswith("captures %d:%d " % (row, col))]
        names = got[0].split(" ", 2)[2].split(",") if got else []
        if name not in names:
            problems.append("at %d:%d expected capture @%s, got %s" % (row, col, name, names))
    if p.returncode != 0 or problems:
        print("\n".join(problems))
        print("exit %d; stderr:\n%s" % (p.returncode, p.stderr.decode()))
        return 1
    print("neovim plugin e2e: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
