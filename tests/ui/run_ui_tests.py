#!/usr/bin/python3
"""Golden ("UI") tests for `relay check` and `relay run`: see tests/ui/README.md.

Usage: run_ui_tests.py RELAY_BINARY SOURCE_DIR [FILTER...]

Every tests/ui/**/*.relay file is a case. It is checked with

    relay check --color=never [FLAGS] tests/ui/AREA/NAME.relay

run from SOURCE_DIR (so paths in the output are stable), and compared with

    NAME.stderr   what the command writes to stderr (always present, may be empty)
    NAME.stdout   what it writes to stdout (present only when non-empty)

The case's first lines are directives (ordinary `//` comments, so they are part of the
checked text):

    // exit: N              the expected exit status (required)
    // flags: --error-format=json   extra arguments placed before the path (optional)
    // command: run         run `relay run` instead of `relay check` (optional)
    // command: repl        pipe the case into `relay repl` as a script; its transcript
                            (stdout and stderr interleaved) is NAME.stdout
    // interrupt-after: S   send SIGINT S seconds after starting (optional; `run` cases)
    // env: NAME=VALUE      an environment variable for the command (optional, repeatable)

With RELAY_BLESS=1 the expected files are rewritten from the actual output, and the
`// exit:` line is updated (or inserted at the top, after which the case is run again).
Besides comparing outputs, the runner checks that every diagnostic code declared in
lang/base/diagnostic_kinds.def appears in at least one expected output.

The last line printed is always `N passed, M failed`; the exit status is non-zero when
anything failed.
"""

import difflib
import os
import re
import signal
import subprocess
import sys
import time

DIRECTIVE_RE = re.compile(r"^//\s*(exit|flags|command|interrupt-after|env)\s*:\s*(.*?)\s*$")
CODE_RE = re.compile(r'^\s*DIAG\(\s*\w+\s*,\s*"([EW]\d{4})"', re.M)
TIMEOUT_S = 60
INTERRUPT_REPEAT_S = 0.25


def read_bytes(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def write_bytes(path, data):
    with open(path, "wb") as f:
        f.write(data)


def parse_directives(data):
    """Returns (exit_code or None, [flags], {directive: line_index}, options) from the
    leading comment lines of a case; options holds `command` and `interrupt-after`."""
    exit_code = None
    flags = []
    options = {"command": "check", "interrupt-after": None, "env": {}}
    where = {}
    lines = data.split(b"\n")
    for i, raw in enumerate(lines):
        try:
            line = raw.decode("utf-8").rstrip("\r")
        except UnicodeDecodeError:
            break
        if not line.startswith("//"):
            break
        m = DIRECTIVE_RE.match(line)
        if not m:
            continue  # an ordinary comment among the directives
        key, value = m.group(1), m.group(2)
        where[key] = i
        if key == "exit":
            try:
                exit_code = int(value)
            except ValueError:
                exit_code = None
        elif key == "flags":
            flags.extend(value.split())
        elif key == "command":
            options["command"] = value
        elif key == "env":
            name, _, val = value.partition("=")
            options["env"][name] = val
        else:
            options["interrupt-after"] = float(value)
    return exit_code, flags, where, options


def run_case(relay, source_dir, rel_path, flags, options):
    env = dict(os.environ)
    env.pop("RELAY_BLESS", None)
    env["NO_COLOR"] = "1"
    env.update(options["env"])
    if options["command"] == "repl":
        # A REPL script: the case is standard input, and the transcript (results and
        # diagnostics, interleaved as a user sees them) is the expected stdout.
        cmd = [relay, "repl", "--color=never"] + flags
        with open(os.path.join(source_dir, rel_path), "rb") as stdin:
            p = subprocess.Popen(cmd, cwd=source_dir, stdin=stdin, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, env=env)
    else:
        cmd = [relay, options["command"], "--color=never"] + flags + [rel_path]
        # A case that is interrupted starts with SIGINT ignored: relay installs its handler
        # only once the program is loaded and checked, which can take longer than the
        # delay on a slow or loaded machine (under the sanitizers), and a signal before it
        # would end the process as a crash. Ignored, an early one is lost instead, and the
        # signal is sent again until the run stops (the cases never end by themselves).
        interrupted = options["interrupt-after"] is not None
        p = subprocess.Popen(cmd, cwd=source_dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                             preexec_fn=(lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if interrupted else None)
    try:
        if options["interrupt-after"] is not None:
            out, err = interrupt_until_done(p, options["interrupt-after"])
        else:
            out, err = p.communicate(timeout=TIMEOUT_S)
        err = err or b""
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        return None, b"", b"timed out after %d s\n" % TIMEOUT_S
    # 130 is an interrupted run; a crash (signal) or another status is never blessed.
    if p.returncode < 0 or (p.returncode > 2 and p.returncode != 130):
        return None, out, err + b"\ncrashed: exit status %d\n" % p.returncode
    return p.returncode, out, err


def interrupt_until_done(p, first_after):
    """Sends p SIGINT after first_after seconds, then every INTERRUPT_REPEAT_S seconds
    until it exits (TimeoutExpired after TIMEOUT_S); its stdout and stderr."""
    deadline = time.monotonic() + TIMEOUT_S
    wait = first_after
    while True:
        try:
            return p.communicate(timeout=wait)
        except subprocess.TimeoutExpired:
            if time.monotonic() > deadline:
                raise
            p.send_signal(signal.SIGINT)
            wait = INTERRUPT_REPEAT_S


def show(data):
    return data.decode("utf-8", errors="backslashreplace").splitlines(keepends=True)


def diff(expected, actual, name):
    lines = difflib.unified_diff(show(expected or b""), show(actual), "expected " + name,
                                 "actual " + name)
    out = []
    for line in lines:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def bless_exit(case_path, data, where, code):
    lines = data.split(b"\n")
    text = ("// exit: %d" % code).encode()
    if "exit" in where:
        lines[where["exit"]] = text
        write_bytes(case_path, b"\n".join(lines))
        return False
    write_bytes(case_path, text + b"\n" + data)
    return True  # lines moved: run again


def main(argv):
    if len(argv) < 3:
        sys.stderr.write("usage: run_ui_tests.py RELAY_BINARY SOURCE_DIR [FILTER...]\n")
        return 2
    relay = os.path.abspath(argv[1])
    source_dir = os.path.abspath(argv[2])
    filters = argv[3:]
    bless = os.environ.get("RELAY_BLESS") == "1"
    ui_dir = os.path.join(source_dir, "tests", "ui")

    cases = []
    for root, _, files in os.walk(ui_dir):
        for f in files:
            if f.endswith(".relay"):
                rel = os.path.relpath(os.path.join(root, f), source_dir).replace(os.sep, "/")
                if not filters or any(flt in rel for flt in filters):
                    cases.append(rel)
    cases.sort()

    passed = failed = 0
    for rel in cases:
        case_path = os.path.join(source_dir, rel)
        base = case_path[: -len(".relay")]
        problems = []
        for _attempt in range(2):
            data = read_bytes(case_path)
            exit_code, flags, where, options = parse_directives(data)
            code, out, err = run_case(relay, source_dir, rel, flags, options)
            if bless and code is not None and code != exit_code:
                if bless_exit(case_path, data, where, code):
                    continue
                exit_code = code
            break
        exp_err = read_bytes(base + ".stderr")
        exp_out = read_bytes(base + ".stdout")
        if bless and code is not None:
            if exp_err != err:
                write_bytes(base + ".stderr", err)
            if out:
                if exp_out != out:
                    write_bytes(base + ".stdout", out)
            elif exp_out is not None:
                os.remove(base + ".stdout")
            exp_err, exp_out = err, (out or None)
        if code is None:
            problems.append("the command timed out\n")
        if exit_code is None:
            problems.append("no `// exit: N` directive on the first lines (bless with RELAY_BLESS=1)\n")
        elif code is not None and code != exit_code:
            problems.append("exit status %s, expected %d\n" % (code, exit_code))
        if code is not None and code < 0:
            problems.append("killed by signal %d\n" % -code)
        if exp_err is None:
            problems.append("missing %s.stderr (bless with RELAY_BLESS=1)\n" % os.path.basename(base))
        if (exp_err or b"") != err:
            problems.append(diff(exp_err, err, "stderr"))
        if (exp_out or b"") != out:
            problems.append(diff(exp_out, out, "stdout"))
        if problems:
            failed += 1
            sys.stdout.write("FAIL %s\n" % rel)
            cmd = "relay %s --color=never %s%s" % (options["command"], "".join(f + " " for f in flags), rel)
            sys.stdout.write("  command: %s\n" % cmd)
            for p in problems:
                sys.stdout.write(p)
        else:
            passed += 1
            if os.environ.get("RELAY_UI_VERBOSE"):
                sys.stdout.write("ok   %s\n" % rel)

    # Every diagnostic code must be exercised by some expected output.
    if not filters:
        kinds = read_bytes(os.path.join(source_dir, "lang", "base", "diagnostic_kinds.def"))
        codes = CODE_RE.findall(kinds.decode("utf-8")) if kinds else []
        seen = set()
        for root, _, files in os.walk(ui_dir):
            for f in files:
                if f.endswith(".stderr") or f.endswith(".stdout"):
                    text = read_bytes(os.path.join(root, f)).decode("utf-8", errors="replace")
                    seen.update(re.findall(r"\b[EW]\d{4}\b", text))
        missing = [c for c in codes if c not in seen]
        if not codes:
            failed += 1
            sys.stdout.write("FAIL coverage: no codes found in lang/base/diagnostic_kinds.def\n")
        elif missing:
            failed += 1
            sys.stdout.write("FAIL coverage: no expected output contains %s\n" % ", ".join(missing))
        else:
            passed += 1

    sys.stdout.write("%d passed, %d failed\n" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
