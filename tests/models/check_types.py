#!/usr/bin/python3
"""Checks the global signatures that `relay check --emit=types` infers for a model.

Usage: check_types.py [--ty-comments] RELAY_BINARY FILE.relay EXPECTED.types.txt

Runs `RELAY_BINARY check --emit=types FILE.relay` and compares its standard output with
EXPECTED.types.txt byte for byte (one line `@name: TYPE` per global, as TVM prints types).
On a mismatch it prints a unified diff (expected first), and on a non-zero exit status the
status and the command's standard error. Exit status 0 means the output matched and the
command succeeded; 1 means it did not.

--ty-comments is reserved for also comparing the `/* ty=... */` comment on every binding
with the checker's types; it is accepted and, for now, verifies nothing else.
"""

import argparse
import difflib
import subprocess
import sys

TIMEOUT_S = 120


def read_text(path):
    with open(path, "r", encoding="utf-8", newline="") as f:
        return f.read()


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ty-comments", action="store_true",
                        help="reserved: verifies nothing else for now")
    parser.add_argument("relay_binary")
    parser.add_argument("program", metavar="FILE.relay")
    parser.add_argument("expected", metavar="EXPECTED.types.txt")
    args = parser.parse_args(argv)

    expected = read_text(args.expected)
    command = [args.relay_binary, "check", "--emit=types", args.program]
    try:
        proc = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        print("FAIL: %s timed out after %d s" % (" ".join(command), TIMEOUT_S))
        return 1
    actual = proc.stdout.decode("utf-8", errors="replace")

    ok = True
    if proc.returncode != 0:
        ok = False
        print("FAIL: %s exited with status %d" % (" ".join(command), proc.returncode))
        stderr = proc.stderr.decode("utf-8", errors="replace")
        if stderr:
            print("--- stderr ---")
            sys.stdout.write(stderr if stderr.endswith("\n") else stderr + "\n")
    if actual != expected:
        ok = False
        print("FAIL: inferred types differ from %s" % args.expected)
        diff = difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                    args.expected, "relay check --emit=types")
        for line in diff:
            if not line.endswith("\n"):
                line += "\n\\ No newline at end of file\n"
            sys.stdout.write(line)
    if ok:
        print("ok: %s" % args.program)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
