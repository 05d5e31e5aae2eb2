"""The cost of debugging through the real adapter (issue 12 §5): `relay dap` driven by
tests/dap/dap_client.py, which validates every message against the DAP schema.

    /usr/bin/python3 bench/debugger/bench_dap.py [RELAY] [--runs N] [--pauses N]

1. fib(25) (bench/debugger/fib25.relay), `--runs` times each, interleaved:
   * `relay run --jit=off FILE`: the whole process, spawn to exit (start-up, parsing,
     checking and printing included; nothing is subtracted). `--jit=off` (when the
     binary has the option) because the adapter interprets: the baseline is the same
     evaluator. `relay run FILE` with the JIT at its default is timed too, not a target;
   * `relay dap` with no breakpoint: from the arrival of configurationDone's response
     (the adapter starts the run right after sending it) to the arrival of `exited`;
   * the same with a conditional breakpoint that is never true (`less(%n, 0)`) on the
     recursive branch, which the run passes 121,392 times; it must be verified and never
     stop the program.
   The program's printed result must be the same every way. For scale, `relay run`
   of a program that returns 0 is timed too (its start-up floor; not a target).
2. Pause latency: an endless tail-recursive loop (bench/debugger/spin.relay) gets
   `pause` `--pauses` times (after one untimed warm-up), with `continue` and 20 to 50 ms
   of running in between; each is timed from just before the request is written to the
   arrival of the `stopped` event (reason `pause`). Reported as p50, p99 (nearest rank)
   and max against the 100 ms target.

Arrival times are taken when the client's reader thread hands a message over, before
it is parsed and validated. Targets: dap/run at most 1.3x with no breakpoint and 3x with
the conditional one (medians), pause p99 under 100 ms. A miss prints MISS; the exit
status is 0 unless something is wrong (a stop that should not happen, different results).
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "dap"))
from dap_client import DapClient, DapSchema  # noqa: E402

FIB = os.path.join(HERE, "fib25.relay")
SPIN = os.path.join(HERE, "spin.relay")
NEVER = "less(%n, 0)"
TIMEOUT = 120.0


class TimedClient(DapClient):
    """A DapClient that notes when each event and response arrived (monotonic seconds):
    events in their "_arrived" key, responses in response_times[request_seq]."""

    def __init__(self, *args, **kwargs):
        self.response_times = {}
        super().__init__(*args, **kwargs)

    def _accept(self, body):
        t = time.monotonic()
        events = len(self.all_events)
        super()._accept(body)
        try:
            msg = json.loads(body)
        except ValueError:
            return  # the base class has reported it
        with self._cond:
            if len(self.all_events) > events:
                self.all_events[-1]["_arrived"] = t  # the same dict wait_event returns
            if isinstance(msg, dict) and msg.get("type") == "response":
                self.response_times[msg.get("request_seq")] = t


def fail(message):
    sys.exit("bench_dap.py: " + message)


def breakpoint_line():
    with open(FIB, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if "add(@fib(" in line:
                return number
    fail("no `add(@fib(` line in " + FIB)


def jit_flags(relay):
    """`--jit=off` when this `relay run` has a JIT: the adapter only interprets, so the
    baseline is the interpreter (the JIT's default, `auto`, is timed on the side)."""
    p = subprocess.run([relay, "run", "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return ["--jit=off"] if b"--jit=" in p.stdout else []


def relay_run(relay, flags=(), program=FIB):
    """Seconds from spawn to exit of `relay run PROGRAM`, and its stdout."""
    t = time.monotonic()
    p = subprocess.run([relay, "run", *flags, program], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    elapsed = time.monotonic() - t
    if p.returncode != 0:
        fail("relay run failed: " + p.stderr.decode())
    return elapsed, p.stdout.decode()


def dap_run(relay, schema, condition):
    """Seconds from configurationDone's response to `exited` under `relay dap`, and the
    program's stdout. condition: None for no breakpoint."""
    with TimedClient(relay, schema=schema) as c:
        c.initialize()
        launch = c.send_request("launch", {"program": FIB})
        c.wait_event("initialized", timeout=TIMEOUT)
        if condition is not None:
            line = breakpoint_line()
            bps = c.set_breakpoints(FIB, [line], conditions=[condition])
            if not bps[0].get("verified") or bps[0].get("line") != line:
                fail("the breakpoint at line %d if `%s` is not verified there: %r" % (line, condition, bps[0]))
        c.request("setExceptionBreakpoints", {"filters": []})
        done = c.send_request("configurationDone")
        c.wait_response(done, TIMEOUT)
        started = c.response_times[done]
        exited = c.wait_event("exited", timeout=TIMEOUT)
        elapsed = exited["_arrived"] - started
        if not c.wait_response(launch, TIMEOUT)["success"]:
            fail("launch failed")
        if exited["body"]["exitCode"] != 0:
            fail("the program exited with %r" % exited["body"]["exitCode"])
        stops = c.pending_events("stopped")
        if stops:
            fail("the program stopped (%r) with `%s`, which is never true" % (stops[0]["body"], condition))
        c.wait_event("terminated", timeout=TIMEOUT)
        out = c.output("stdout")
        c.disconnect()
    return elapsed, out


def pause_latencies(relay, schema, pauses):
    """Seconds from writing `pause` to the `stopped` event, `pauses` times."""
    out = []
    with TimedClient(relay, schema=schema) as c:
        c.start(SPIN, timeout=TIMEOUT)
        time.sleep(0.2)
        for i in range(pauses + 1):  # the first is a warm-up (schema validators are built then)
            t = time.monotonic()
            c.send_request("pause", {"threadId": 1})
            stopped = c.wait_event("stopped", lambda e: e["body"]["reason"] == "pause", TIMEOUT)
            if i > 0:
                out.append(stopped["_arrived"] - t)
            c.continue_()
            time.sleep(random.uniform(0.02, 0.05))
        c.request("terminate")
        c.wait_end(TIMEOUT)
        c.disconnect()
    return out


def nearest_rank(values, p):
    s = sorted(values)
    return s[max(0, min(len(s) - 1, int(-(-p * len(s) // 100)) - 1))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("relay", nargs="?", default=os.path.join(ROOT, "build", "release", "relay"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--pauses", type=int, default=20)
    args = ap.parse_args()
    relay = os.path.abspath(args.relay)
    random.seed(1)
    schema = DapSchema()
    print("bench_dap.py: %s, %d interleaved runs, %d pauses; load average %s"
          % (relay, args.runs, args.pauses, " ".join(open("/proc/loadavg").read().split()[:3])))

    flags = jit_flags(relay)
    configs = [("relay run %s(whole process: start-up, load, run, print)" % "".join(f + " " for f in flags),
                lambda: relay_run(relay, flags)),
               ("relay dap, no breakpoint (configurationDone -> exited)", lambda: dap_run(relay, schema, None)),
               ("relay dap, `%s` never true (configurationDone -> exited)" % NEVER,
                lambda: dap_run(relay, schema, NEVER))]
    if flags:  # not a target: `relay run` as a user types it
        configs.append(("relay run, JIT at its default (not a target)", lambda: relay_run(relay)))
    # Not a target: what `relay run` costs without the run (start-up, prelude, printing).
    with tempfile.TemporaryDirectory() as tmp:
        trivial = os.path.join(tmp, "zero.relay")
        with open(trivial, "w", encoding="utf-8") as f:
            f.write('#[version = "0.0.5"]\ndef @main() -> int32 { 0 }\n')
        floor = sorted(relay_run(relay, flags, trivial)[0] for _ in range(max(3, args.runs)))
    times = [[] for _ in configs]
    expected = None
    for r in range(-1, args.runs):  # r == -1: untimed warm-up (page cache, schema)
        for k in range(len(configs)):
            k = (k + r + 1) % len(configs)
            elapsed, out = configs[k][1]()
            expected = out if expected is None else expected
            if out != expected:
                fail("%s printed %r, another way printed %r" % (configs[k][0], out, expected))
            if r >= 0:
                times[k].append(elapsed)
    print("\nfib(25) = %s" % expected.strip())
    print("  %-76s %9s %9s %8s" % ("", "min ms", "median ms", "vs run"))
    base = statistics.median(times[0])
    for (label, _), ts in zip(configs, times):
        print("  %-76s %9.1f %9.1f %7.2fx" % (label, min(ts) * 1e3, statistics.median(ts) * 1e3,
                                               statistics.median(ts) / base))
    for k, target in ((1, 1.3), (2, 3.0)):
        ratio = statistics.median(times[k]) / base
        print("  target %s <= %.1fx: %.2fx (of minima %.2fx) %s"
              % ("no breakpoint" if k == 1 else "conditional breakpoint", target, ratio,
                 min(times[k]) / min(times[0]), "PASS" if ratio <= target else "MISS"))
    print("  %-76s %9.1f %9.1f" % ("relay run %sof `def @main() -> int32 { 0 }` (start-up; not a target)"
                                     % "".join(f + " " for f in flags),
                                     floor[0] * 1e3, statistics.median(floor) * 1e3))
    print("  (relay run is timed as a process; the dap times exclude the adapter's start-up and"
          " the program's loading, which happen before configurationDone; nothing is subtracted)")

    lat = [t * 1e3 for t in pause_latencies(relay, schema, args.pauses)]
    p99 = nearest_rank(lat, 99)
    print("\npause latency over %d pauses of an endless loop: p50 %.2f ms, p99 %.2f ms, max %.2f ms"
          % (len(lat), nearest_rank(lat, 50), p99, max(lat)))
    print("  target p99 < 100 ms: %s" % ("PASS" if p99 < 100 else "MISS"))
    print("load average at the end: %s" % " ".join(open("/proc/loadavg").read().split()[:3]))


if __name__ == "__main__":
    main()
