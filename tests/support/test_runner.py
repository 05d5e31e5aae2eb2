"""The runner of the Python protocol tests (tests/lsp, tests/dap, tests/kernel): runs every
test_* function of a module, or those named on the command line, and prints the closing
line CTest logs and CI reads: `N passed, M failed`.
"""
import time
import traceback


def run_tests(namespace, argv, sort=True, timed=False):
    """Runs every test_* function of `namespace` (a module's globals) — by name when
    `sort`, else in definition order — or those named in argv[2:]; returns the exit status."""
    names = argv[2:]
    tests = [(n, f) for n, f in namespace.items() if n.startswith("test_") and callable(f)]
    if sort:
        tests.sort(key=lambda t: t[0])
    selected = [(n, f) for n, f in tests if not names or n in names]
    failed = 0
    for name, f in selected:
        start = time.monotonic()
        try:
            f()
            print(("ok   %s (%.2f s)" % (name, time.monotonic() - start)) if timed else "ok   " + name, flush=True)
        except Exception:
            failed += 1
            print("FAIL " + name, flush=True)
            traceback.print_exc()
    print("%d passed, %d failed" % (len(selected) - failed, failed))
    return 1 if failed else 0
