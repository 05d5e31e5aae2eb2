"""Issue 14's targets for bench_models.py's rows: target(model, threads, row) gives
(what the target is, "yes" / "no" / "-") from the row's measured numbers (ms, min of runs).

* resnet18 (batch 1), 1 and 2 threads: <= 0.65x PyTorch eager and <= 0.9x
  optimize_for_inference, first result (compile included) < 2 s;
* mobilenet, inception_v3, densenet121, dcgan at 1 thread: ahead of PyTorch eager;
* mlp: <= 10 us per forward pass; lstm: <= 0.5x PyTorch eager.
Other rows (resnet18_b8, 2 threads of the "ahead" models) have no target.
"""


def verdict(ok):
    return "-" if ok is None else ("yes" if ok else "no")


def ratio_ok(relay, peer, limit):
    return None if peer is None else relay <= limit * peer


def target(model, threads, row):
    relay, eager, ofi = row["relay"], row.get("eager"), row.get("ofi")
    if model == "resnet18":
        checks = [ratio_ok(relay, eager, 0.65), ratio_ok(relay, ofi, 0.9), row["first_ms"] < 2000]
        ok = None if None in checks[:2] else all(checks)
        return "<=0.65x eager, <=0.9x ofi, first < 2 s", verdict(ok)
    if model in ("mobilenet", "inception_v3", "densenet121", "dcgan") and threads == 1:
        return "< eager", verdict(ratio_ok(relay, eager, 1.0))
    if model == "mlp":
        return "<= 10 us", verdict(relay <= 0.010)
    if model == "lstm":
        return "<= 0.5x eager", verdict(ratio_ok(relay, eager, 0.5))
    return "none", "-"
