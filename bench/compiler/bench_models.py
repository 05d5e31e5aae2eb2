#!/usr/bin/python3
"""Whole models on the compile path against the interpreter and PyTorch eager, on the same
weights and inputs, in one run (issue 13's report; issue 14 sets the targets).

Models: the MLP (tests/models/mlp.relay), an LSTM of 10 steps x 128 hidden (TVM's
testing/lstm.py cell, generated here by tests/models/generate.py's model_lstm(10, 128)) and
ResNet-18 at batch 1 (tests/models/resnet18.relay). For each, seeded numpy values for every
parameter (uniform in [-1, 1); variances in [0.5, 1.5); weights scaled by sqrt(3 / fan_in)
so that activations stay near unit size, as tests/compiler/models_compiled_test.cpp does)
are written as .npy files and given to every peer:

* `relay run --arg NAME=FILE ... --bench N` with `--jit=off` (the interpreter) and
  `--jit=eager` (compiled before the first run), `--threads T`;
* PyTorch eager (bench/compiler/torch_peer.py: the same ops in the same order, under
  torch.no_grad, torch.set_num_threads(T)), N runs after a warm-up;

at T = 1 and 2. The compile time comes from `--jit-report`, the time to first result is a
fresh `relay run --jit=...` process's wall time. The results are compared (compiled and
PyTorch against the interpreter, largest |a - b| / (1 + |b|)).

    /usr/bin/python3 bench/compiler/bench_models.py build/release/relay [--runs N] [--models mlp,lstm,resnet18]

Timings are min / median of N runs, in milliseconds. A benchmark, never a test: it exits 0
whatever the numbers, 1 only when a run fails. PyTorch comes from Debian's python3-torch
(scripts/setup.sh installs it); without it the PyTorch column says so.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "models"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

BENCH = re.compile(r"bench: (\d+) runs after a warm-up, min ([\d.]+) ms, median ([\d.]+) ms")
COMPILED = re.compile(r"compiled in ([\d.]+) ms")
GROUPS = re.compile(r"(\d+) fused groups: (\d+) native, (\d+) with a native epilogue, (\d+) on reference kernels")
PARAM = re.compile(r"%(\w+): Tensor\[\(([\d, ]*)\), (\w+)\]")
LSTM_STEPS, LSTM_HIDDEN = 10, 128


def model_text(name):
    if name == "lstm":
        import generate  # tests/models/generate.py
        generate.MODELS["lstm_bench"] = lambda: generate.model_lstm(LSTM_STEPS, LSTM_HIDDEN)
        return generate.build("lstm_bench")[0]
    with open(os.path.join(ROOT, "tests", "models", name + ".relay")) as f:
        return f.read()


def parameters(text):
    """@main's parameters in order: (name, shape, dtype)."""
    header = text[text.index("def @main("):text.index("{")]
    header = re.sub(r"/\*.*?\*/", "", header)
    out, seen = [], set()
    for name, dims, dtype in PARAM.findall(header):
        if name not in seen:
            seen.add(name)
            out.append((name, tuple(int(d) for d in dims.replace(" ", "").split(",") if d), dtype))
    return out


def make_inputs(params, directory):
    rng = np.random.default_rng(0)
    arrays = {}
    for i, (name, shape, dtype) in enumerate(params):
        a = rng.uniform(-1.0, 1.0, shape)
        if "var" in name:
            a = 1.0 + 0.5 * a
        elif i > 0 and len(shape) >= 2:
            a = a * np.sqrt(3.0 / np.prod(shape[1:]))
        arrays[name] = a.astype(dtype)
        np.save(os.path.join(directory, name + ".npy"), arrays[name])
    return arrays


def relay_run(relay, model, args, jit, threads, runs, out):
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads))
    cmd = [relay, "run", model, "--jit=" + jit, "--threads", str(threads), "--bench", str(runs), "--jit-report",
           "--out", out] + args
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd[:8]), p.stderr[-2000:]))
    m = BENCH.search(p.stderr)
    c = COMPILED.search(p.stderr)
    g = GROUPS.search(p.stderr)
    return {"min": float(m.group(2)), "median": float(m.group(3)), "compile_ms": float(c.group(1)) if c else None,
            "groups": g.groups() if g else None, "result": np.load(out)}


def first_result(relay, model, args, jit, threads):
    """Wall time of a fresh process to its result (load, check, compile, run)."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads))
    t = time.perf_counter()
    subprocess.run([relay, "run", model, "--jit=" + jit, "--threads", str(threads)] + args, capture_output=True,
                   check=True, env=env)
    return (time.perf_counter() - t) * 1e3


def torch_forward(name, text, arrays):
    try:
        import torch
        import torch_peer
    except ImportError:
        return None
    params = {k: torch.from_numpy(v) for k, v in arrays.items()}
    if name == "lstm":
        return torch_peer.lstm_forward(params, LSTM_STEPS, LSTM_HIDDEN)
    return torch_peer.graph_forward(text, params)


def time_torch(forward, threads, runs):
    import torch
    torch.set_num_threads(threads)
    with torch.no_grad():
        result = forward().numpy()
        ms = []
        for _ in range(runs):
            t = time.perf_counter()
            forward()
            ms.append((time.perf_counter() - t) * 1e3)
    ms.sort()
    return {"min": ms[0], "median": ms[len(ms) // 2], "result": result}


def rel_diff(a, b):
    return float(np.max(np.abs(a.astype(np.float64) - b) / (1 + np.abs(b.astype(np.float64)))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("relay")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--models", default="mlp,lstm,resnet18")
    a = ap.parse_args()
    print("machine: %s, %d cores; load %.2f" % (cpu_name(), os.cpu_count(), os.getloadavg()[0]))
    print("| model, threads | interpreter | compiled | vs interpreter | torch eager | vs torch | compile | "
          "first result off / eager | groups native / epilogue / reference | compiled, torch vs interpreter |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        prepared = []
        for name in a.models.split(","):
            text = model_text(name)
            directory = os.path.join(tmp, name)
            os.mkdir(directory)
            model = os.path.join(directory, name + ".relay")
            with open(model, "w") as f:
                f.write(text)
            arrays = make_inputs(parameters(text), directory)
            args = []
            for p in arrays:
                args += ["--arg", "%s=%s" % (p, os.path.join(directory, p + ".npy"))]
            prepared.append((name, text, model, arrays, args, torch_forward(name, text, arrays)))
        for threads in (1, 2):
            for name, text, model, arrays, args, forward in prepared:
                off = relay_run(a.relay, model, args, "off", threads, a.runs, os.path.join(tmp, "off.npy"))
                eager = relay_run(a.relay, model, args, "eager", threads, a.runs, os.path.join(tmp, "eager.npy"))
                f_off = first_result(a.relay, model, args, "off", threads)
                f_eager = first_result(a.relay, model, args, "eager", threads)
                torch = time_torch(forward, threads, a.runs) if forward else None
                g = eager["groups"]
                print("| %s, %d | %.2f / %.2f | %.2f / %.2f | %.2fx | %s | %s | %s | %.0f / %.0f ms | %s | %.1e, %s |" % (
                    name, threads, off["min"], off["median"], eager["min"], eager["median"],
                    off["min"] / eager["min"],
                    "%.2f / %.2f" % (torch["min"], torch["median"]) if torch else "no torch",
                    "%.2fx" % (torch["min"] / eager["min"]) if torch else "-",
                    "%.0f ms" % eager["compile_ms"] if eager["compile_ms"] is not None else "-",
                    f_off, f_eager, " / ".join(g[1:]) if g else "not compiled",
                    rel_diff(eager["result"], off["result"]),
                    "%.1e" % rel_diff(torch["result"], off["result"]) if torch else "-"), flush=True)
    return 0


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
