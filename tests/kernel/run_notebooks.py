#!/usr/bin/python3
"""Executes the example notebooks with the Relay kernel, as CI does, and checks that no
cell errored and that each notebook showed what it is there to show.

Each notebook runs through `jupyter nbconvert --to notebook --execute` (nbconvert's own
command line, with Debian's Python) into a temporary directory, against the kernelspec
that `relay jupyter --install` writes into a private Jupyter tree. nbconvert fails on
the first cell that errors; the executed copy is checked again cell by cell so that a
kernel which reports an error only as an output (not in its reply) is caught too.

Usage: run_notebooks.py RELAY_BINARY NOTEBOOK_DIR
Exit status 77 (skipped) when nbconvert is not installed.
"""
import glob
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_support import SKIP, install_kernelspec, isolated_jupyter  # noqa: E402

# What each notebook must show besides running cleanly (output MIME types that must
# appear somewhere in it); notebooks not listed need only run cleanly.
EXPECTED_MIME = {
    "mlp_walkthrough.ipynb": {"image/svg+xml", "text/html"},
    "adt_prelude_tour.ipynb": {"text/html"},
}


def text(value):
    return value if isinstance(value, str) else "".join(value)


def check(path):
    with open(path) as f:
        nb = json.load(f)
    assert nb["metadata"]["kernelspec"]["name"] == "relay", nb["metadata"]
    problems = []
    seen_mime = set()
    code_cells = [c for c in nb["cells"] if c["cell_type"] == "code"]
    for i, cell in enumerate(code_cells):
        if cell.get("execution_count") is None:
            problems.append("code cell %d was not executed" % i)
        for out in cell["outputs"]:
            if out["output_type"] == "error":
                problems.append("code cell %d errored: %s: %s\n%s" % (
                    i, out["ename"], out["evalue"], "\n".join(out["traceback"])))
            if out["output_type"] == "stream" and out["name"] == "stderr":
                problems.append("code cell %d wrote to stderr: %s" % (i, text(out["text"])))
            seen_mime.update(out.get("data", {}))
    missing = EXPECTED_MIME.get(os.path.basename(path), set()) - seen_mime
    if missing:
        problems.append("no output of type %s" % ", ".join(sorted(missing)))
    return len(code_cells), problems


def main(argv):
    try:
        import nbconvert  # noqa: F401
    except ImportError:
        print("skipped: nbconvert is not installed for %s" % sys.executable)
        return SKIP
    relay, notebook_dir = os.path.abspath(argv[1]), argv[2]
    root = isolated_jupyter()
    try:
        return run(relay, notebook_dir, root)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def run(relay, notebook_dir, root):
    install_kernelspec(relay, root)
    out_dir = os.path.join(root, "executed")
    notebooks = sorted(glob.glob(os.path.join(notebook_dir, "*.ipynb")))
    assert len(notebooks) >= 2, "expected at least two notebooks in %s" % notebook_dir
    failed = 0
    for nb in notebooks:
        name = os.path.basename(nb)
        r = subprocess.run([sys.executable, "-m", "nbconvert", "--to", "notebook", "--execute",
                            "--ExecutePreprocessor.timeout=120", "--output-dir", out_dir, nb],
                           capture_output=True, text=True)
        if r.returncode != 0:
            failed += 1
            print("FAIL %s: nbconvert exited with %d\n%s" % (name, r.returncode, r.stderr[-4000:]))
            continue
        cells, problems = check(os.path.join(out_dir, name))
        if problems:
            failed += 1
            print("FAIL %s\n  %s" % (name, "\n  ".join(problems)))
        else:
            print("ok   %s (%d code cells)" % (name, cells))
    print("%d passed, %d failed" % (len(notebooks) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
