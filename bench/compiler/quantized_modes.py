#!/usr/bin/python3
"""Each quantized model's call three ways in the same run, each the best median of R rounds
of `relay run MODEL --random-inputs 1 --bench N --threads 2`:

  compiled     --jit=eager: qnn.conv2d, qnn.dense and qnn.batch_matmul through oneDNN's
               int8 kernels, the requantize/add/mul epilogues and the unary operators'
               tables canonicalised into native kernels
  no VNNI      --jit=eager with ONEDNN_MAX_CPU_ISA=AVX2: oneDNN's int8 products could
               saturate there, so the convolutions and dense layers decline to their
               reference kernels; the epilogues stay native (what a processor without
               VNNI gets)
  interpreted  --jit=off: every operator on its reference kernel (the peer)

and the interpreted / compiled ratio. The first also prints the --jit-report's summary.

    /usr/bin/python3 bench/compiler/quantized_modes.py build/release/relay [--runs N] [--rounds R] [--model NAME ...]

A benchmark, never a test: it exits 0 whatever the numbers, 1 only when a run fails.
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(relay, model, jit, runs, env_extra, report=False):
    env = dict(os.environ)
    env.pop("ONEDNN_MAX_CPU_ISA", None)
    env.update(env_extra)
    path = os.path.join(ROOT, "tests", "models", model + ".relay")
    cmd = [relay, "run", path, "--random-inputs", "1", "--jit=" + jit, "--bench", str(runs), "--threads", "2"]
    r = subprocess.run(cmd + (["--jit-report"] if report else []), env=env, capture_output=True, text=True)
    m = re.search(r"median ([0-9.]+) ms", r.stderr + r.stdout)
    if r.returncode != 0 or not m:
        sys.exit("%s (%s) failed:\n%s" % (model, jit, r.stderr[-2000:]))
    summary = re.search(r"\d+ fused groups: [^\n]*", r.stderr)
    return float(m.group(1)), summary.group(0) if summary else ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("relay")
    ap.add_argument("--runs", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--model", nargs="+", default=["quantized_cnn", "quantized_attention"])
    a = ap.parse_args()
    modes = [("compiled", "eager", {}), ("no VNNI", "eager", {"ONEDNN_MAX_CPU_ISA": "AVX2"}),
             ("interpreted", "off", {})]
    print("%-20s %-12s %10s %14s" % ("model", "mode", "median ms", "interp/this"))
    for model in a.model:
        best = {name: float("inf") for name, _, _ in modes}
        for round_ in range(a.rounds):
            for name, jit, env in modes:
                ms, summary = run(a.relay, model, jit, a.runs, env, report=jit == "eager")
                best[name] = min(best[name], ms)
                if summary and round_ == 0:
                    print("%-20s %-12s %s" % (model, name, summary))
        for name, _, _ in modes:
            print("%-20s %-12s %10.3f %13.2fx" % (model, name, best[name], best["interpreted"] / best[name]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
