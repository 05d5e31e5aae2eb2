#!/usr/bin/python3
"""Whole models on the compile path against the interpreter and PyTorch eager, in one run
(issue 13's report; issue 14 sets the targets): for each model, `relay run --bench` with
`--jit=off` (the interpreter) and `--jit=eager` (compiled before the first run), at 1 and
2 threads, the compile time from `--jit-report`, the time to first result of a fresh
process, and the PyTorch eager peer from bench/interpreter/peers.py for the models it has.

    /usr/bin/python3 bench/compiler/bench_models.py build/release/relay [--runs N] [--models mlp,lstm,...]

Timings are min/median of N runs after a warm-up, in milliseconds. A benchmark, never a
test: it exits 0 whatever the numbers, and 1 only when a run fails or the compiled
result differs from the interpreter's.
"""
import argparse
import os
import re
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BENCH = re.compile(r"bench: (\d+) runs after a warm-up, min ([\d.]+) ms, median ([\d.]+) ms")
COMPILED = re.compile(r"compiled in ([\d.]+) ms")
GROUPS = re.compile(r"(\d+) fused groups: (\d+) native, (\d+) with a native epilogue, (\d+) on reference kernels")


def run(relay, model, jit, threads, runs):
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads))
    cmd = [relay, "run", model, "--random-inputs", "0", "--jit=" + jit, "--threads", str(threads),
           "--bench", str(runs), "--jit-report"]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), p.stderr[-2000:]))
    m = BENCH.search(p.stderr)
    out = {"min": float(m.group(2)), "median": float(m.group(3)), "result": p.stdout}
    c = COMPILED.search(p.stderr)
    out["compile_ms"] = float(c.group(1)) if c else None
    g = GROUPS.search(p.stderr)
    out["groups"] = g.groups() if g else None
    return out


def first_result(relay, model, jit):
    """Wall time of a fresh process to its printed result (load, check, compile, run)."""
    t = time.perf_counter()
    subprocess.run([relay, "run", model, "--random-inputs", "0", "--jit=" + jit], capture_output=True, check=True)
    return (time.perf_counter() - t) * 1e3


def torch_peers(threads, runs):
    p = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "bench", "interpreter", "peers.py"), str(threads), str(runs)],
                       capture_output=True, text=True)
    peers = {}
    for line in p.stdout.splitlines():
        name, _, value = line.partition(" ")
        if name.endswith("_torch"):
            peers[name[:-6]] = float(value)
    return peers


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("relay")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--models", default="mlp,lstm,dqn,resnet18")
    a = ap.parse_args()
    print("machine: %s, %d cores; load %.2f" % (cpu_name(), os.cpu_count(), os.getloadavg()[0]))
    failed = False
    for threads in (1, 2):
        peers = torch_peers(threads, a.runs)
        print("\n%d thread%s     interpreter ms      compiled ms     ratio   compile   first result (off / eager)   torch eager ms   groups (native, epilogue, reference)"
              % (threads, "" if threads == 1 else "s"))
        for name in a.models.split(","):
            model = os.path.join(ROOT, "tests", "models", name + ".relay")
            off = run(a.relay, model, "off", threads, a.runs)
            eager = run(a.relay, model, "eager", threads, a.runs)
            if off["result"] != eager["result"]:
                # Printed to numpy's 8 digits: a difference there is worth a look, not a failure
                # of the benchmark's timing; the tests hold the tolerance.
                print("  note: %s prints differently compiled and interpreted" % name)
            f_off, f_eager = first_result(a.relay, model, "off"), first_result(a.relay, model, "eager")
            torch = peers.get(name)
            g = eager["groups"]
            print("  %-10s %8.2f / %-8.2f %8.2f / %-8.2f %5.2fx  %7s   %8.0f / %-8.0f        %14s   %s" % (
                name, off["min"], off["median"], eager["min"], eager["median"], off["min"] / eager["min"],
                "%.0f ms" % eager["compile_ms"] if eager["compile_ms"] is not None else "-",
                f_off, f_eager, "%.2f" % torch if torch else "-", ", ".join(g[1:]) if g else "not compiled"))
    return 1 if failed else 0


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


if __name__ == "__main__":
    sys.exit(main())
