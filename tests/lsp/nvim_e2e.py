#!/usr/bin/python3
"""Runs nvim_e2e.lua in headless Neovim against `relay lsp` and checks what the client
received: the diagnostic of a type error, a hover and a completion. Usage: nvim_e2e.py RELAY_BINARY NVIM_BINARY"""
import os
import subprocess
import sys
import tempfile

TEXT = """#[version = "0.0.5"]
def @main(%x: Tensor[(2, 3), float32], %y: Tensor[(3, 2), float32]) {
  add(%x, %y)
}
"""


def main(argv):
    relay, nvim = os.path.abspath(argv[1]), argv[2]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "model.relay")
        with open(path, "w") as f:
            f.write(TEXT)
        env = dict(os.environ, RELAY_BIN=relay, RELAY_FILE=path, HOME=d, XDG_STATE_HOME=d, XDG_DATA_HOME=d)
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nvim_e2e.lua")
        p = subprocess.run([nvim, "--headless", "--clean", "-n", "-i", "NONE", "-c", "luafile " + script],
                           env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    out = p.stdout.decode()
    print(out)
    lines = out.splitlines()
    expected = [
        "diagnostics: 1",
        # the broadcast failure of add: (2, 3) against (3, 2)
        lambda l: l.startswith("E00") and " 2:2 " in l,
        "encoding: utf-16",
        "hover: ```relay|add(lhs, rhs)|```",
        "completion: %x Tensor[(2, 3), float32] | %y Tensor[(3, 2), float32]",
    ]
    ok = p.returncode == 0 and len(lines) >= len(expected)
    for want, got in zip(expected, lines):
        if callable(want):
            ok = ok and want(got)
        else:
            ok = ok and got.startswith(want)
    if not ok:
        print("unexpected output (exit %d); stderr:\n%s" % (p.returncode, p.stderr.decode()))
        return 1
    print("neovim e2e: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
