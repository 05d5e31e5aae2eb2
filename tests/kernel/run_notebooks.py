#!/usr/bin/python3
"""Executes the example notebooks with the Relay kernel, as CI does, and checks that no
cell errored and that each notebook showed what it is there to show.

Each notebook runs through `jupyter nbconvert --to notebook --execute` (nbconvert's own
command line, with Debian's Python) into a temporary directory, against the kernelspec
that `relay jupyter --install` writes into a private Jupyter tree. nbconvert fails on
the first cell that errors; the executed copy is checked again cell by cell so that a
kernel which reports an error only as an output (not in its reply) is caught too. The
executed copy's text outputs are then compared with the committed notebook's
(notebook_outputs.py: numbers within a relative tolerance of 1e-5, everything else
exactly, `:time` timings skipped), so committed outputs that no longer hold fail with a
diff; `--update` writes the executed outputs back into the committed notebooks instead.

With `--to html`, each notebook is instead exported with `jupyter nbconvert --to html
--execute`, as a user publishing it would: the export parses every output (SVG with
lxml), so an output that does not fit in HTML (an SVG with an XML declaration) fails
it. The committed notebooks' stored pictures are checked too, since exporting them
without `--execute` parses those.

Usage: run_notebooks.py RELAY_BINARY NOTEBOOK_DIR [--to notebook|html | --update]
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
from notebook_outputs import compare  # noqa: E402

# What each notebook must show besides running cleanly (output MIME types that must
# appear somewhere in it); notebooks not listed need only run cleanly.
EXPECTED_MIME = {
    "mlp_walkthrough.ipynb": {"image/svg+xml", "image/png", "text/html"},
    "adt_prelude_tour.ipynb": {"text/html"},
}


# What each kind of output in EXPECTED_MIME must contain in the exported HTML: the
# picture inlined as an <svg> element, a value's table. (Debian's nbconvert 6.5 passes
# SVG through lxml's clean_html, which keeps the <svg> element but drops the shapes in
# it: the picture is blank in its export, whatever the kernel sends.)
# The PNG beside each SVG is not looked for: nbconvert's HTML shows one of a bundle's
# types, and it prefers SVG.
HTML_EVIDENCE = {"image/svg+xml": "<svg", "text/html": "<table"}


def html_outputs(html, mime):
    """The exported outputs of type `mime`: the text from each `data-mime-type` marker
    of the template to the next."""
    pieces = html.split('data-mime-type="')[1:]
    return [p for p in pieces if p.startswith(mime + '"')]


def text(value):
    return value if isinstance(value, str) else "".join(value)


def svg_problems(nb, what):
    """Pictures that are not a bare <svg> element, which HTML export cannot inline."""
    problems = []
    for i, cell in enumerate(c for c in nb["cells"] if c["cell_type"] == "code"):
        for out in cell.get("outputs", []):
            svg = out.get("data", {}).get("image/svg+xml")
            if svg is not None and not text(svg).startswith("<svg"):
                problems.append("%s code cell %d: image/svg+xml does not start with <svg: %r"
                                % (what, i, text(svg)[:80]))
    return problems


UPDATE = False


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
    problems += svg_problems(nb, "executed")
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
    if argv[3:] not in ([], ["--to", "notebook"], ["--to", "html"], ["--update"]):
        print(__doc__)
        return 2
    to = argv[4] if argv[3:4] == ["--to"] else "notebook"
    global UPDATE
    UPDATE = argv[3:] == ["--update"]
    root = isolated_jupyter()
    try:
        return run(relay, notebook_dir, root, to)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def check_html(notebook, html_path):
    """The stored notebook's pictures, and what the HTML export of its run shows."""
    with open(notebook) as f:
        problems = svg_problems(json.load(f), "committed")
    with open(html_path) as f:
        html = f.read()
    for mime in sorted(EXPECTED_MIME.get(os.path.basename(notebook), set()) & set(HTML_EVIDENCE)):
        if not any(HTML_EVIDENCE[mime] in out for out in html_outputs(html, mime)):
            problems.append("the HTML has no %s output with %s" % (mime, HTML_EVIDENCE[mime]))
    return problems


def run(relay, notebook_dir, root, to):
    install_kernelspec(relay, root)
    out_dir = os.path.join(root, "executed")
    notebooks = sorted(glob.glob(os.path.join(notebook_dir, "*.ipynb")))
    assert len(notebooks) >= 2, "expected at least two notebooks in %s" % notebook_dir
    failed = 0
    for nb in notebooks:
        name = os.path.basename(nb)
        r = subprocess.run([sys.executable, "-m", "nbconvert", "--to", to, "--execute",
                            "--ExecutePreprocessor.timeout=120", "--output-dir", out_dir, nb],
                           capture_output=True, text=True)
        if r.returncode != 0:
            failed += 1
            print("FAIL %s: nbconvert --to %s exited with %d\n%s" % (name, to, r.returncode, r.stderr[-4000:]))
            continue
        if to == "html":
            problems = check_html(nb, os.path.join(out_dir, os.path.splitext(name)[0] + ".html"))
            if problems:
                failed += 1
                print("FAIL %s (html)\n  %s" % (name, "\n  ".join(problems)))
            else:
                print("ok   %s (exported to HTML)" % name)
            continue
        executed = os.path.join(out_dir, name)
        cells, problems = check(executed)
        with open(nb) as f:
            committed = json.load(f)
        with open(executed) as f:
            fresh = json.load(f)
        if UPDATE and not problems:
            shutil.copyfile(executed, nb)
            print("updated %s" % nb)
        else:
            problems += compare(committed, fresh)
        if problems:
            failed += 1
            print("FAIL %s\n  %s" % (name, "\n  ".join(problems)))
        else:
            print("ok   %s (%d code cells)" % (name, cells))
    print("%d passed, %d failed" % (len(notebooks) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
