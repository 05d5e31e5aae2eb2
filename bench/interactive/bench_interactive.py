#!/usr/bin/python3
"""Start-up latency of the interactive front ends (not a test: timings depend on the
machine; see bench/README.md).

* `relay repl`: from spawning the process on a pseudo-terminal to the first `relay>`
  prompt on it (the REPL only prompts on a terminal).
* the Jupyter kernel: through jupyter_client, from `KernelManager.start_kernel()` (which
  writes the connection file and spawns `relay kernel -f ...`) to the first
  `execute_result` of `1 + 1` on iopub, with the client started and the kernel's
  readiness confirmed by `kernel_info` on the way, as a notebook front end does. The
  kernelspec is installed with `relay jupyter --install` into a private Jupyter tree.
  For comparison, the kernel alone: spawned directly on a connection file, with a
  client that connects once the shell port listens, to its first execute_reply.

Each is the median (and min/max) of --runs fresh starts. Targets: REPL under 50 ms,
kernel under 500 ms; --check makes a missed target exit with status 1.

Usage: bench_interactive.py RELAY_BINARY [--runs N] [--check]   (Debian's /usr/bin/python3)
"""
import argparse
import os
import pty
import select
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "kernel"))
from kernel_support import have_jupyter_client, install_kernelspec, isolated_jupyter  # noqa: E402

REPL_TARGET_MS = 50.0
KERNEL_TARGET_MS = 500.0


def repl_first_prompt(relay, state_dir, timeout=10.0):
    """Seconds from spawning `relay repl` on a pty to the first prompt on it."""
    master, slave = pty.openpty()
    env = dict(os.environ, XDG_STATE_HOME=state_dir, TERM="xterm")
    t0 = time.perf_counter()
    proc = subprocess.Popen([relay, "repl"], stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    seen = b""
    try:
        while b"relay>" not in seen:
            left = timeout - (time.perf_counter() - t0)
            if left <= 0:
                raise RuntimeError("no prompt after %.0f s; output: %r" % (timeout, seen))
            ready, _, _ = select.select([master], [], [], left)
            if ready:
                try:
                    chunk = os.read(master, 4096)
                except OSError:  # EIO: the child closed the terminal
                    raise RuntimeError("relay repl exited before prompting; output: %r" % seen)
                seen += chunk
        elapsed = time.perf_counter() - t0
        os.write(master, b":quit\n")
        proc.wait(timeout=timeout)
        return elapsed
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)


def kernel_first_result(timeout=30.0):
    """Seconds from KernelManager.start_kernel() to the first execute_result, and the
    part of it until kernel_info was answered."""
    from jupyter_client.manager import KernelManager
    km = KernelManager(kernel_name="relay")
    t0 = time.perf_counter()
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=timeout)
        ready = time.perf_counter() - t0
        msg_id = kc.execute("1 + 1")
        while True:
            m = kc.get_iopub_msg(timeout=timeout)
            if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "execute_result":
                assert m["content"]["data"]["text/plain"].startswith("2"), m["content"]
                return time.perf_counter() - t0, ready
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def kernel_alone(relay, root, timeout=30.0):
    """Seconds from spawning `relay kernel -f FILE` to the reply of a first `1 + 1`, with
    a client that connects as soon as the shell port accepts connections: the kernel's
    own share of the start-up, without jupyter_client's launcher and its ZeroMQ
    reconnection intervals."""
    import socket
    from jupyter_client import BlockingKernelClient
    from jupyter_client.connect import write_connection_file
    path, info = write_connection_file(os.path.join(root, "bench-connection.json"),
                                       key=os.urandom(16).hex().encode())
    t0 = time.perf_counter()
    proc = subprocess.Popen([relay, "kernel", "-f", path], stdout=subprocess.DEVNULL)
    kc = None
    try:
        while True:
            with socket.socket() as s:
                if s.connect_ex((info["ip"], info["shell_port"])) == 0:
                    break
            if proc.poll() is not None or time.perf_counter() - t0 > timeout:
                raise RuntimeError("the kernel did not listen")
            time.sleep(0.0005)
        kc = BlockingKernelClient()
        kc.load_connection_file(path)
        kc.start_channels()
        msg_id = kc.execute("1 + 1")
        while kc.get_shell_msg(timeout=timeout)["parent_header"].get("msg_id") != msg_id:
            pass
        return time.perf_counter() - t0
    finally:
        if kc is not None:
            kc.shutdown()
            kc.stop_channels()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def summary(label, samples_s, target_ms):
    ms = sorted(s * 1000 for s in samples_s)
    med = statistics.median(ms)
    verdict = "PASS" if med < target_ms else "FAIL"
    print("%-44s median %7.1f ms  (min %6.1f, max %6.1f; %d runs)  target < %.0f ms  %s"
          % (label, med, ms[0], ms[-1], len(ms), target_ms, verdict))
    return verdict == "PASS"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("relay")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = ap.parse_args()
    relay = os.path.abspath(args.relay)
    root = isolated_jupyter()
    ok = True
    try:
        state = os.path.join(root, "state")
        os.makedirs(state)
        repl_first_prompt(relay, state)  # warm the page cache; not counted
        ok &= summary("relay repl: start -> first prompt",
                      [repl_first_prompt(relay, state) for _ in range(args.runs)], REPL_TARGET_MS)
        if not have_jupyter_client():
            print("kernel: skipped (jupyter_client is not installed for %s)" % sys.executable)
        else:
            install_kernelspec(relay, root)
            kernel_first_result()  # warm-up, not counted
            runs = [kernel_first_result() for _ in range(args.runs)]
            ok &= summary("kernel: start -> first execute_result", [r[0] for r in runs], KERNEL_TARGET_MS)
            ms = sorted(r[1] * 1000 for r in runs)
            print("%-44s median %7.1f ms  (min %6.1f, max %6.1f)"
                  % ("  of which start -> kernel_info answered", statistics.median(ms), ms[0], ms[-1]))
            ms = sorted(kernel_alone(relay, root) * 1000 for _ in range(args.runs))
            print("%-44s median %7.1f ms  (min %6.1f, max %6.1f)"
                  % ("kernel alone: spawn -> first execute_reply", statistics.median(ms), ms[0], ms[-1]))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
