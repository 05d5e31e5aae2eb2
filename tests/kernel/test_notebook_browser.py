#!/usr/bin/python3
"""The Relay kernel end to end in a real front end: Debian's classic Jupyter Notebook
(`jupyter-notebook`), driven in headless Chromium by puppeteer-core
(tests/kernel/browser/notebook_e2e.js).

This script owns the processes: it installs the kernelspec into a private Jupyter tree
(every JUPYTER_* directory and HOME point into a temporary directory), writes the
notebooks, starts the Notebook server on 127.0.0.1 with no token on a free port, runs the
browser script, and stops the server (and, through it, the kernels) by PID. The browser
script starts and stops Chromium by PID itself.

Two notebooks: one created here and run in the browser (its outputs are trusted, as in a
user's own session), and the committed example mlp_walkthrough.ipynb opened as it is
(untrusted: executed elsewhere), where the `:viz` graph must show as its PNG.

Usage: test_notebook_browser.py RELAY_BINARY SOURCE_DIR ARTIFACT_DIR
Screenshots go to ARTIFACT_DIR. Exit status 77 (skipped) when Chromium or the classic
Notebook is not installed; npm dependencies are installed (npm ci) when missing.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_support import SKIP, install_kernelspec, isolated_jupyter  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
BROWSER_DIR = os.path.join(HERE, "browser")
CHROMIUM = "/usr/bin/chromium"

# The notebook run in the browser: one cell per thing the browser script checks
# (notebook_e2e.js finds cells by their first line).
LONG_LINE = ("let %e = add(ones(shape=[2, 3], dtype=\"float32\"), ones(shape=[2, 3], dtype=\"float32\")) "
             "* ones(shape=[2, 3], dtype=\"float32\") + ones(shape=[4, 5], dtype=\"float32\") "
             "+ zeros(shape=[2, 3], dtype=\"float32\") + zeros(shape=[2, 3], dtype=\"float32\");")
CELLS = [
    "/// Doubles a vector.\ndef @twice(%x: Tensor[(3), float32]) -> Tensor[(3), float32] {\n"
    "  add(%x, %x) // the sum\n}",
    "@twice(ones(shape=[3], dtype=\"float32\"))",
    ":viz twice",
    "(Cons(1, Cons(2, Nil)), 2.5f, (1, 2))",
    "sum(ones(shape=[4], dtype=\"float32\"))",
    LONG_LINE,
]


def notebook_json(cells):
    return {
        "nbformat": 4, "nbformat_minor": 5,
        "metadata": {"kernelspec": {"name": "relay", "display_name": "Relay", "language": "relay"},
                     "language_info": {"name": "relay"}},
        "cells": [{"cell_type": "code", "id": "c%d" % i, "metadata": {}, "execution_count": None,
                   "outputs": [], "source": src} for i, src in enumerate(cells)],
    }


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url, proc, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("the Notebook server exited with %d" % proc.returncode)
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("the Notebook server did not answer at %s" % url)


def stop(proc, name):
    """Stops `proc` by its PID: SIGTERM (the Notebook server then shuts its kernels down),
    then SIGKILL."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        if proc.poll() is not None:
            return
        os.kill(proc.pid, sig)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            print("%s (pid %d) did not stop on signal %d" % (name, proc.pid, sig))


def kernels_of(runtime_dir):
    """PIDs of the kernels started with a connection file in `runtime_dir` (this test's
    private directory, so no one else's)."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % entry, "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if b"kernel" in argv and any(a.startswith(runtime_dir.encode() + b"/") for a in argv):
            pids.append(int(entry))
    return pids


def stop_kernels(runtime_dir):
    """Kernels the server left running (it shuts them down on SIGTERM): SIGKILL by PID."""
    for pid in kernels_of(runtime_dir):
        print("a kernel (pid %d) outlived the server: killing it" % pid)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def ensure_node_modules():
    if os.path.isdir(os.path.join(BROWSER_DIR, "node_modules", "puppeteer-core")):
        return
    print("npm ci in %s" % BROWSER_DIR)
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=BROWSER_DIR, check=True)


def main(argv):
    if len(argv) != 4:
        print(__doc__)
        return 2
    relay, source_dir, artifacts = os.path.abspath(argv[1]), argv[2], os.path.abspath(argv[3])
    if not os.access(CHROMIUM, os.X_OK):
        print("skipped: %s is not installed (Debian package chromium)" % CHROMIUM)
        return SKIP
    try:
        import notebook  # noqa: F401
    except ImportError:
        print("skipped: the classic Notebook is not installed (Debian package jupyter-notebook)")
        return SKIP
    if shutil.which("node") is None:
        print("FAIL: node is not installed (scripts/setup.sh installs it)")
        return 1
    ensure_node_modules()
    os.makedirs(artifacts, exist_ok=True)
    root = isolated_jupyter()
    os.environ["HOME"] = os.path.join(root, "home")  # nothing of the user's own Jupyter
    os.makedirs(os.environ["HOME"], exist_ok=True)
    server = None
    try:
        install_kernelspec(relay, root)
        work = os.path.join(root, "notebooks")
        os.makedirs(work)
        with open(os.path.join(work, "e2e.ipynb"), "w") as f:
            json.dump(notebook_json(CELLS), f, indent=1)
        shutil.copy(os.path.join(source_dir, "examples", "notebooks", "mlp_walkthrough.ipynb"),
                    os.path.join(work, "untrusted.ipynb"))
        port = free_port()
        base = "http://127.0.0.1:%d" % port
        log = open(os.path.join(artifacts, "notebook-server.log"), "w")
        server = subprocess.Popen(
            [sys.executable, "-m", "notebook", "--no-browser", "--ip=127.0.0.1", "--port=%d" % port,
             "--port-retries=0", "--NotebookApp.token=", "--NotebookApp.password=",
             "--NotebookApp.open_browser=False", "--notebook-dir=%s" % work]
            # CI containers run as root, which the Notebook refuses unless told.
            + (["--allow-root"] if os.geteuid() == 0 else []),
            stdout=log, stderr=subprocess.STDOUT)
        wait_http(base + "/api/status", server)
        r = subprocess.run(["node", os.path.join(BROWSER_DIR, "notebook_e2e.js"), base, artifacts, CHROMIUM],
                           cwd=BROWSER_DIR, timeout=150)
        print("screenshots and the server log: %s" % artifacts)
        return r.returncode
    finally:
        if server is not None:
            stop(server, "the Notebook server")
        stop_kernels(os.environ["JUPYTER_RUNTIME_DIR"])
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
