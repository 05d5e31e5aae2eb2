#!/usr/bin/python3
"""The allocator policy (interpreter/runtime/allocator_tuning.h) against glibc's defaults,
in the same run: each model through `relay run --random-inputs 1 --bench N`, compiled
(--jit=eager) and interpreted (--jit=off), once as `relay` sets it and once with glibc's
defaults (GLIBC_TUNABLES names a malloc tunable at its default value, which makes
tune_allocator leave the thresholds alone). Rounds alternate the two; each row is the best
median of R rounds, and the ratio is defaults / policy (above 1: the policy is faster).

    /usr/bin/python3 bench/interpreter/allocator_policy.py build/release/relay [--runs N] [--rounds R] [--models a,b]

A benchmark, never a test: it exits 0 whatever the numbers, 1 only when a run fails.
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULTS = "glibc.malloc.tcache_count=7"  # glibc's own default: the policy steps aside


def median_ms(relay, model, jit, runs, tunables):
    env = dict(os.environ)
    env.pop("GLIBC_TUNABLES", None)
    if tunables:
        env["GLIBC_TUNABLES"] = tunables
    path = os.path.join(ROOT, "tests", "models", model + ".relay")
    r = subprocess.run([relay, "run", path, "--random-inputs", "1", "--jit=" + jit, "--bench", str(runs),
                        "--threads", "2"], env=env, capture_output=True, text=True)
    m = re.search(r"median ([0-9.]+) ms", r.stderr + r.stdout)
    if r.returncode != 0 or not m:
        sys.exit("%s (%s) failed:\n%s" % (model, jit, r.stderr[-2000:]))
    return float(m.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("relay")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--models", default="quantized_cnn,lstm,mobilenet,resnet18")
    a = ap.parse_args()
    print("%-14s %-12s %12s %12s %8s" % ("model", "mode", "policy ms", "glibc ms", "ratio"))
    for model in a.models.split(","):
        for jit in ("eager", "off"):
            runs = a.runs if model in ("quantized_cnn", "lstm", "mlp") else max(3, a.runs // 20)
            best = {"policy": float("inf"), "glibc": float("inf")}
            for _ in range(a.rounds):
                best["policy"] = min(best["policy"], median_ms(a.relay, model, jit, runs, None))
                best["glibc"] = min(best["glibc"], median_ms(a.relay, model, jit, runs, DEFAULTS))
            print("%-14s %-12s %12.3f %12.3f %7.2fx" % (model, "compiled" if jit == "eager" else "interpreted",
                                                      best["policy"], best["glibc"], best["glibc"] / best["policy"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
