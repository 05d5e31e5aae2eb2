"""What the protocol fuzzers share (tests/dap/fuzz_dap.py, tests/lsp/fuzz_lsp.py,
tests/kernel/fuzz_kernel.py): their command line, the loop over seeds with its report,
and the check of a process's stderr for sanitizer reports."""
import argparse
import time

SANITIZER_MARKS = ("AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer", "runtime error:")


def sanitizer_report(stderr_text):
    """The tail of `stderr_text` when it holds a sanitizer report, else None."""
    if any(mark in stderr_text for mark in SANITIZER_MARKS):
        return "a sanitizer report on stderr:\n" + stderr_text[-4000:]
    return None


def arguments(description, seeds, steps, timeout=None):
    """The fuzzers' command line: RELAY --seeds A:B --steps N [--timeout S] --verbose."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("relay")
    ap.add_argument("--seeds", default=seeds, help="A:B, the seeds A to B-1 (one session each)")
    ap.add_argument("--steps", type=int, default=steps, help="requests or messages per session")
    if timeout is not None:
        ap.add_argument("--timeout", type=float, default=timeout, help="seconds an answer may take")
    ap.add_argument("--verbose", action="store_true", help="a line for every session")
    return ap


def run_seeds(name, seeds, run_one, verbose=False):
    """Runs run_one(seed) -> (label, problem or None) for each seed of "A:B"; prints each
    problem (and, verbose, each success); returns the exit status (1 if any failed)."""
    lo, hi = (int(x) for x in seeds.split(":"))
    failures, started = 0, time.monotonic()
    for seed in range(lo, hi):
        label, problem = run_one(seed)
        if problem:
            failures += 1
            print("seed %d (%s): FAILED\n%s\n" % (seed, label, problem), flush=True)
        elif verbose:
            print("seed %d (%s): fine" % (seed, label), flush=True)
    print("%s: %d of %d sessions failed (%.1f s)" % (name, failures, hi - lo, time.monotonic() - started))
    return 1 if failures else 0
