#!/usr/bin/python3
"""`relay repl` on a terminal (a pseudo-terminal here): the prompt, multi-line input with
the continuation prompt, Tab completion, Ctrl-C interrupting an evaluation with the
session intact, Ctrl-C discarding a half-typed input, history saved to the state
directory and read back by the next session, and Ctrl-D leaving with status 0.

Usage: test_repl_terminal.py RELAY_BINARY
"""
import os
import pty
import re
import select
import sys
import tempfile
import time

ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x01|\x02")


class Terminal:
    def __init__(self, relay, state_dir):
        env = dict(os.environ, XDG_STATE_HOME=state_dir, TERM="xterm", NO_COLOR="1")
        env.pop("INSIDE_EMACS", None)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(relay, [relay, "repl"], env)
        self.out = b""

    def read_until(self, pattern, timeout=20):
        """Reads until `pattern` (bytes regex) matches the output since the last match."""
        deadline = time.time() + timeout
        while True:
            clean = ANSI.sub(b"", self.out)
            m = re.search(pattern, clean)
            if m:
                self.out = b""
                return clean[: m.end()].decode("utf-8", "replace")
            left = deadline - time.time()
            if left <= 0:
                raise AssertionError("timed out waiting for %r; output so far:\n%s" % (pattern, clean.decode("utf-8", "replace")))
            r, _, _ = select.select([self.fd], [], [], left)
            if r:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    data = b""
                if not data:
                    raise AssertionError("the REPL exited; output:\n%s" % clean.decode("utf-8", "replace"))
                self.out += data

    def send(self, data):
        # libedit prints the prompt, then puts the terminal in raw mode, flushing what was
        # typed before: a person never types within that millisecond, a test must wait.
        time.sleep(0.15)
        os.write(self.fd, data.encode() if isinstance(data, str) else data)

    def wait_exit(self, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            try:
                r, _, _ = select.select([self.fd], [], [], 0.1)
                if r:
                    os.read(self.fd, 65536)
            except OSError:
                pass
        raise AssertionError("the REPL did not exit")


def check(cond, what):
    if not cond:
        raise AssertionError(what)
    print("ok -", what)


def check_echo_colour(relay):
    """The echo of a definition or binding shows its Relay pieces in the tree-sitter
    grammar's colours with --color=always (the theme of ide/highlight.cpp: `fn` magenta,
    globals blue, `Tensor`/dtypes yellow, numbers and static shapes green) and is plain with --color=never;
    without the escapes both are the same text."""
    import subprocess
    script = ('def @f(%x: Tensor[(3), float32]) { add(%x, 1f) }\n'
              'def @g(%y: Tensor[(3), float32]) { @f(%y) }\n'
              'def @f(%x: Tensor[(3), float32]) { sum(%x) }\n'
              'let %w = ones(shape=[3], dtype="float32");\n')
    def run(color):
        return subprocess.run([relay, "repl", "--color=" + color], input=script.encode(),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60).stdout
    plain, coloured = run("never"), run("always")
    check(b"\x1b" not in plain and b"defined @f: fn (Tensor[(3), float32]) -> Tensor[(3), float32]" in plain,
          "--color=never: the echo is plain")
    check(b"defined \x1b[34m@f\x1b[0m: \x1b[35mfn\x1b[0m (\x1b[33mTensor\x1b[0m[\x1b[32m(3)\x1b[0m, "
          b"\x1b[33mfloat32\x1b[0m]) -> " in coloured, "--color=always: the defined signature is coloured")
    check(b"re-checked \x1b[34m@g\x1b[0m: " in coloured, "--color=always: a re-checked caller is coloured")
    check(b"%w: \x1b[33mTensor\x1b[0m[\x1b[32m(3)" in coloured, "--color=always: a binding's type is coloured")
    check(ANSI.sub(b"", coloured) == plain, "without the escapes the coloured echo is the plain one")


def main():
    relay = os.path.abspath(sys.argv[1])
    check_echo_colour(relay)
    with tempfile.TemporaryDirectory() as state:
        t = Terminal(relay, state)
        t.read_until(rb"relay> ")
        check(True, "the first prompt appears")

        t.send("def @loop(%i: int32, %n: int32) -> int32 {\r")
        t.read_until(rb"\.\.\.> ")
        t.send("if (%i >= %n) { %i } else { @loop(%i + 1, %n) }\r")
        t.read_until(rb"\.\.\.> ")
        t.send("}\r")
        out = t.read_until(rb"relay> ")
        check("defined @loop" in out, "a definition typed over three lines is defined")

        t.send("let %weights = ones(shape=[2], dtype=\"float32\");\r")
        out = t.read_until(rb"relay> ")
        check("%weights: Tensor[(2), float32]" in out, "a binding reports its type")

        t.send("add(%wei\t")
        t.read_until(rb"ghts")  # libedit redraws the line, so look for the completed tail
        t.send(", 1f)\r")
        out = t.read_until(rb"relay> ")
        check("[2. 2.]" in out, "Tab completes a binding's name in an expression")

        t.send("@loop(0, 2000000000)\r")
        time.sleep(0.5)
        start = time.time()
        t.send(b"\x03")
        out = t.read_until(rb"relay> ")
        took = time.time() - start
        check("E0101" in out and "interrupted" in out, "Ctrl-C interrupts a running evaluation")
        check(took < 2.0, "the prompt is back %.0f ms after Ctrl-C" % (took * 1000))

        t.send("%weights\r")
        out = t.read_until(rb"relay> ")
        check("[1. 1.]" in out, "the session keeps its bindings after an interrupt")

        t.send("add(1f,\r")
        t.read_until(rb"\.\.\.> ")
        t.send(b"\x03")
        t.read_until(rb"relay> ")
        t.send("3f\r")
        out = t.read_until(rb"relay> ")
        check("3.0" in out and "add" not in out.split("3f", 1)[-1], "Ctrl-C discards a half-typed input")

        t.send(b"\x04")
        code = t.wait_exit()
        check(code == 0, "Ctrl-D leaves with status 0")

        history = os.path.join(state, "relay", "history")
        check(os.path.exists(history), "history is saved in $XDG_STATE_HOME/relay/history")
        with open(history, "rb") as f:
            saved = f.read()
        check(b"weights" in saved, "the history holds the inputs")

        t = Terminal(relay, state)
        t.read_until(rb"relay> ")
        t.send(b"\x1b[A")  # up arrow: the previous session's last input
        t.read_until(rb"3f")
        t.send("\r")
        out = t.read_until(rb"relay> ")
        check("3.0" in out, "the next session recalls the history with the up arrow")
        t.send(":quit\r")
        check(t.wait_exit() == 0, ":quit leaves with status 0")
    print("all passed")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print("FAIL:", e)
        sys.exit(1)
