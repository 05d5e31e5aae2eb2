#!/usr/bin/env python3
"""The GPU benchmarks of issue 15, run on a machine with an NVIDIA GPU and PyTorch (CUDA):
`relay run --device=cuda` against PyTorch on the same GPU, in the same run.

  bench_gpu.py RELAY [--cases mlp,resnet18_b1,...] [--runs N] [--no-compile] [--no-tune]
               [--profile CASES] [--deadline SECONDS] [--out DIR]

RELAY is the command that runs the relay binary (several words where the binary comes with
its own loader and libraries: scripts/gpu-check.sh packs it so). For every case:

* the same Relay text and the same seeded inputs (bench/compiler/bench_models.py's
  make_inputs) go to `relay run --device=cuda --bench N` and to PyTorch's translation of the
  model (bench/compiler/torch_peer.py) on the GPU: eager, and `torch.compile` unless
  --no-compile;
* relay's result must match PyTorch's within a relative 1e-3 (TF32 is off in PyTorch, so
  both compute in float32; relay folds products in another order); float16 cases within
  their roundings (`agrees`);
* relay runs twice: with the tile rules, and with `--tune-tiles` (every product's and
  convolution's tiles timed on the GPU first, the fastest taken: compiler/pipeline/
  tile_tuner.h; the choices shared by the cases through one cache file, and their lines
  printed) unless --no-tune; PyTorch runs with cudnn.benchmark, its own measured choice;
* times: relay's min and median wall time per call from its --bench (a call ends with its
  result on the host), PyTorch's the same way (each call synchronised, the result copied to
  the host), so both include the launches and the result's download.

Cases: the MLP; ResNet-18 and MobileNet at batch 1 and 32, and ResNet-18 in float16 (its
convolutions on the tensor cores); nn.dense at batch 1 and at a large square shape,
nn.batch_matmul (float32, and float16: the `_f16` cases); a mean squared error over 16M
elements (one output: a reduction split over blocks) and a softmax over 32 rows of 32000 (a
block per row). Targets (issue 15): ahead of eager at batch 1,
within 1.5x of it at batch 32. The table is printed last; `--out DIR` also gets it as
bench-gpu.txt.

The --profile cases (ResNet-18 at batch 1 and 32 by default) are also profiled kernel by
kernel: relay's `--profile` (each launch timed, the heaviest with their TFLOP/s or
GB/s) beside torch.profiler's heaviest CUDA kernels of PyTorch eager, printed after the
case and written to DIR/profile-CASE.txt: where relay's time goes, and which algorithms
cuDNN took for the same layers.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench", "compiler"))
sys.path.insert(0, os.path.join(ROOT, "tests", "models"))

import bench_models  # noqa: E402  (parameters, make_inputs, BENCH)

MATRIX_CASES = {
    # name: Relay text of @main
    "dense_b1": ("%x: Tensor[(1, 4096), float32], %w: Tensor[(4096, 4096), float32]", "nn.dense(%x, %w, units=4096)"),
    "dense_4096": ("%x: Tensor[(4096, 4096), float32], %w: Tensor[(4096, 4096), float32]", "nn.dense(%x, %w, units=4096)"),
    "batch_matmul_16x512": ("%a: Tensor[(16, 512, 512), float32], %b: Tensor[(16, 512, 512), float32]",
                            "nn.batch_matmul(%a, %b, transpose_b=True)"),
}
# the same products in float16 (relay sums in float32 and rounds once; PyTorch's cuBLAS
# half GEMM accumulates as it chooses)
for _name in list(MATRIX_CASES):
    _params, _body = MATRIX_CASES[_name]
    MATRIX_CASES[_name + "_f16"] = (_params.replace("float32", "float16"), _body)
# Single kernels that are not products: a mean squared error over 16M elements (a
# reduction of one output, split over blocks) and a softmax over 32 rows of a 32000-word
# vocabulary (a block per row); PyTorch's peer of each.
KERNEL_CASES = {
    "mse_16M": ("%a: Tensor[(4096, 4096), float32], %b: Tensor[(4096, 4096), float32]",
                "mean(multiply(subtract(%a, %b), subtract(%a, %b)))",
                lambda a, b: torch_module().mean((a - b) * (a - b))),
    "softmax_32x32000": ("%x: Tensor[(32, 32000), float32]", "nn.softmax(%x)",
                         lambda x: torch_module().softmax(x, -1)),
}


def torch_module():
    import torch
    return torch
# the targets first (the models at batch 1 and 32), so that a run cut short by the
# device's time limit still measures them
DEFAULT_CASES = ("mlp,resnet18_b1,mobilenet_b1,resnet18_b32,mobilenet_b32,dense_b1,batch_matmul_16x512,dense_4096,"
                 "mse_16M,softmax_32x32000,dense_b1_f16,batch_matmul_16x512_f16,dense_4096_f16,resnet18_f16_b1,"
                 "resnet18_f16_b32")
# A model case's name: MODEL[_f16]_bBATCH (the model of tests/models at that batch; `_f16`:
# every float32 of its text float16, so its convolutions run on the tensor cores)


def case_text(name):
    if name in MATRIX_CASES or name in KERNEL_CASES:
        params, body = MATRIX_CASES[name] if name in MATRIX_CASES else KERNEL_CASES[name][:2]
        return '#[version = "0.0.5"]\ndef @main(%s) {\n  %s\n}\n' % (params, body)
    model, _, batch = name.partition("_b")
    half = model.endswith("_f16")
    model = model[:-len("_f16")] if half else model
    with open(os.path.join(ROOT, "tests", "models", model + ".relay")) as f:
        text = f.read()
    if batch and batch != "1":
        head = "%data: Tensor[(1, 3, 224, 224), float32]"
        result = ") -> Tensor[(1, 1000), float32] {"
        assert head in text and result in text, name
        text = text.replace(head, "%%data: Tensor[(%s, 3, 224, 224), float32]" % batch, 1)
        text = text.replace(result, ") -> Tensor[(%s, 1000), float32] {" % batch, 1)
    if half:
        text = text.replace("float32", "float16")
    return text


def agrees(name, diff, dtype):
    """Whether relay's result is PyTorch's: 1e-3 of the scale in float32; a float16 product
    two of its roundings (2^-9); a float16 model, whose every layer rounds to float16 in
    its own order on each side, 2^-5."""
    if dtype != np.float16:
        return diff <= 1e-3
    return diff <= (2.0 ** -9 if name in MATRIX_CASES else 2.0 ** -5)


def relay_run(relay, path, arrays, directory, runs, tile_cache, flags=()):
    """relay run --device=cuda --bench RUNS on the case, its inputs from `directory`; with
    tile_cache, --tune-tiles keeping its choices there. The finished process."""
    cmd = shlex.split(relay) + ["run", path, "--device=cuda", "--jit-report", "--bench", str(runs)] + list(flags)
    env = dict(os.environ)
    if tile_cache:
        cmd.append("--tune-tiles")
        env["RELAY_TILE_CACHE"] = tile_cache
    for k in arrays:
        cmd += ["--arg", "%s=%s" % (k, os.path.join(directory, k + ".npy"))]
    return subprocess.run(cmd, capture_output=True, text=True, env=env)


def relay_gpu(relay, path, arrays, directory, runs, tile_cache=None):
    """The case's times, result and report lines from relay (or why it failed)."""
    out = os.path.join(directory, "relay-out.npy")
    p = relay_run(relay, path, arrays, directory, runs, tile_cache, ["--out", out])
    if p.returncode != 0:
        return "relay failed (%d): %s" % (p.returncode, p.stderr.strip()[-600:])
    m = bench_models.BENCH.search(p.stderr)
    if not m:
        return "no bench line in relay's output: " + p.stderr[-400:]
    report = [line.strip() for line in p.stderr.splitlines()
              if "on the GPU" in line or "GPU:" in line or line.strip().startswith("tile ")]
    return {"min": float(m.group(2)), "median": float(m.group(3)), "result": np.load(out), "report": report}


PROFILE_ROW = re.compile(r"^\s*[CG]PU profile:|^\s+\d+\.\d{3} ms ")


def relay_profile(relay, path, arrays, directory, tile_cache):
    """relay's --profile of the case (its kernels timed one by one over 3 calls, the
    heaviest listed with their rates), with the tuned tiles when tile_cache has them."""
    p = relay_run(relay, path, arrays, directory, 3, tile_cache, ["--profile"])
    if p.returncode != 0:
        return ["relay --profile failed (%d): %s" % (p.returncode, p.stderr.strip()[-600:])]
    return [line.rstrip() for line in p.stderr.splitlines() if PROFILE_ROW.search(line)]


def torch_profile(run, params, rows=15):
    """PyTorch eager's heaviest CUDA kernels over 3 calls (torch.profiler: cuDNN's and
    cuBLAS's kernel names say which algorithms they took), beside relay's profile."""
    import torch
    from torch.profiler import ProfilerActivity, profile
    with torch.no_grad():
        for _ in range(2):
            run(params)
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(3):
                run(params)
            torch.cuda.synchronize()
    averages = prof.key_averages()
    # the column's name changed across PyTorch versions (cuda -> device)
    for key in ("self_device_time_total", "self_cuda_time_total", "cuda_time_total"):
        try:
            return averages.table(sort_by=key, row_limit=rows).splitlines()
        except (AttributeError, KeyError, ValueError):
            continue
    return ["torch.profiler: no CUDA time column"]


def torch_times(forward, runs):
    import torch
    with torch.no_grad():
        result = forward().cpu().numpy()  # warm-up (cuDNN's algorithm choice, compilation)
        forward().cpu()
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            forward().cpu()  # the copy to the host synchronises, as relay's result does
            times.append((time.perf_counter() - t) * 1e3)
    times.sort()
    return {"min": times[0], "median": times[len(times) // 2], "result": result}


def torch_forward(name, text, arrays):
    """PyTorch's translation of the case and its parameters on the GPU: run(params)."""
    import torch
    import torch_peer
    params = {k: torch.from_numpy(v).cuda() for k, v in arrays.items()}
    if name in MATRIX_CASES:
        keys = list(arrays)
        a, b = params[keys[0]], params[keys[1]]
        run = (lambda p: torch.matmul(a, b.transpose(-1, -2)))
    elif name in KERNEL_CASES:
        peer = KERNEL_CASES[name][2]
        run = (lambda p: peer(*[p[k] for k in arrays]))
    else:
        run = torch_peer.compile_graph(text)
    return run, params


def torch_peers(name, text, arrays, runs, compile_too):
    import torch
    run, params = torch_forward(name, text, arrays)
    eager = torch_times(lambda: run(params), runs)
    compiled = "-"
    if compile_too:
        try:
            fn = torch.compile(lambda: run(params))
            compiled = torch_times(fn, runs)
        except Exception as e:  # reported in the table
            compiled = "torch.compile failed: %s" % str(e).splitlines()[0][:60]
    return eager, compiled


def rel_diff(got, want):
    return float(np.max(np.abs(got.astype(np.float64) - want) / (np.abs(want).max() + 1e-30)))


def render_table(rows, gpu, torch_version, runs):
    """The summary table of the cases measured so far."""
    def t(x):
        return "%.3f / %.3f" % (x["min"], x["median"]) if isinstance(x, dict) else x

    lines = ["GPU: %s; PyTorch %s (TF32 off); times in ms, min / median of %d calls, each to its result on the host"
             % (gpu, torch_version, runs),
             "relay: the tile rules; tuned: relay --tune-tiles (tiles timed on this GPU); vs: median over median",
             "%-22s %-20s %-20s %-20s %-20s %-9s %-9s %-9s %s" % (
                 "case", "relay --device=cuda", "relay tuned", "torch eager", "torch.compile", "vs eager",
                 "tuned/eag", "tuned/comp", "rel. diff")]

    def ratio(a, b):
        return "%.2fx" % (a["median"] / b["median"]) if isinstance(a, dict) and isinstance(b, dict) else "-"

    for name, r, tuned, eager, compiled, diff in rows:
        if isinstance(r, str) and not isinstance(tuned, dict):
            lines.append("%-22s %s" % (name, r[:120]))
            continue
        lines.append("%-22s %-20s %-20s %-20s %-20s %-9s %-9s %-9s %s" % (
            name, t(r)[:20], t(tuned)[:20], t(eager), t(compiled)[:20], ratio(r, eager), ratio(tuned, eager),
            ratio(tuned, compiled), diff))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("relay", help="the command that runs relay (quoted when it is several words)")
    ap.add_argument("--cases", default=DEFAULT_CASES)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--no-compile", action="store_true")
    ap.add_argument("--no-tune", action="store_true", help="skip relay's --tune-tiles runs")
    ap.add_argument("--profile", default="resnet18_b1,resnet18_b32",
                    help="cases also profiled kernel by kernel, relay (--profile) beside PyTorch eager "
                         "(torch.profiler); empty: none")
    ap.add_argument("--deadline", type=float, default=None,
                    help="seconds this run may take: cases not begun by then are listed as skipped (a device "
                         "lent for a few minutes still gets the table)")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    # float16 products accumulate in float32, as relay's do
    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
    torch.backends.cudnn.benchmark = True
    gpu = torch.cuda.get_device_name(0)
    rows, failures = [], 0
    tile_cache = None if args.no_tune else os.path.join(args.out or tempfile.mkdtemp(), "gpu-tiles.tsv")
    started = time.perf_counter()
    for name in args.cases.split(","):
        if args.deadline is not None and time.perf_counter() - started > args.deadline:
            print("%s: skipped, the run's %.0f s ran out" % (name, args.deadline), flush=True)
            rows.append((name, "skipped: the run's %.0f s ran out" % args.deadline, "-", "-", "-", ""))
            continue
        with tempfile.TemporaryDirectory() as d:
            text = case_text(name)
            path = os.path.join(d, name + ".relay")
            with open(path, "w") as f:
                f.write(text)
            arrays = bench_models.make_inputs(bench_models.parameters(text), d)
            t0 = time.perf_counter()
            r = relay_gpu(args.relay, path, arrays, d, args.runs)
            tuned = relay_gpu(args.relay, path, arrays, d, args.runs, tile_cache) if tile_cache else "-"
            eager, compiled = torch_peers(name, text, arrays, args.runs, not args.no_compile)
            diffs = []
            for label, run in (("rules", r), ("tuned", tuned)):
                if run == "-":
                    continue
                if isinstance(run, str):
                    failures += 1
                    diffs.append("%s failed" % label)
                    print("%s (%s): %s" % (name, label, run), flush=True)
                    continue
                diff = rel_diff(run["result"], eager["result"])
                ok = agrees(name, diff, run["result"].dtype)
                failures += not ok
                diffs.append("%.1e%s" % (diff, "" if ok else " MISMATCH (%s)" % label))
                print("%s %s (%.0f s): relay %.3f ms, eager %.3f ms, torch.compile %s; %s" % (
                    name, label, time.perf_counter() - t0, run["median"], eager["median"],
                    "%.3f ms" % compiled["median"] if isinstance(compiled, dict) else compiled,
                    "; ".join(run["report"])), flush=True)
            rows.append((name, r, tuned, eager, compiled, " ".join(diffs)))
            if args.out:  # the table so far: a run cut short still leaves the cases it measured
                with open(os.path.join(args.out, "bench-gpu.txt"), "w") as f:
                    f.write(render_table(rows, gpu, torch.__version__, args.runs) + "\n")
            if name in args.profile.split(","):
                report = ["profile of %s: relay --profile%s" % (name, " (tuned tiles)" if tile_cache else "")]
                report += relay_profile(args.relay, path, arrays, d, tile_cache)
                report.append("profile of %s: PyTorch eager (torch.profiler)" % name)
                try:
                    run, params = torch_forward(name, text, arrays)
                    report += torch_profile(run, params)
                except Exception as e:  # the profile is information; the benchmark goes on
                    report.append("torch.profiler failed: %s" % str(e).splitlines()[0][:200])
                print("\n".join(report), flush=True)
                if args.out:
                    with open(os.path.join(args.out, "profile-%s.txt" % name), "w") as f:
                        f.write("\n".join(report) + "\n")

    table = render_table(rows, gpu, torch.__version__, args.runs)
    print(table)
    if args.out:
        with open(os.path.join(args.out, "bench-gpu.txt"), "w") as f:
            f.write(table + "\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
