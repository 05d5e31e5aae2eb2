"""The layering as a build fact: every `#include "dir/..."` of the project's sources must
point at the same layer or one the including layer may use (docs/architecture.md). An
upward include (the interpreter reaching into the compiler, the language core into a
front end) fails this test with the file and line.

    /usr/bin/python3 tests/layering/check_layers.py [REPO_ROOT]
"""
import os
import re
import sys

# What each layer may include besides itself. Front ends (cli) may use everything.
ALLOWED = {
    "lang": set(),
    "protocol": set(),
    "interpreter": {"lang"},
    "ide": {"lang"},
    "debugger": {"lang", "interpreter", "ide"},
    "compiler": {"lang", "interpreter"},
    "importer": {"lang"},
    "repl": {"lang", "interpreter", "ide"},
    "lsp": {"lang", "ide", "protocol"},
    "dap": {"lang", "interpreter", "ide", "debugger", "protocol"},
    "jupyter-kernel": {"lang", "interpreter", "ide", "debugger", "repl", "dap", "protocol", "compiler"},
    "cli": None,  # the top: anything
}
# The interpreter reaches the compiler only through its own seam (interpreter/eval/tier.h).
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(path):
    top = path.split("/", 1)[0]
    return top if top in ALLOWED else None


def main(root):
    problems = []
    checked = 0
    for layer in ALLOWED:
        base = os.path.join(root, layer)
        for dirpath, _, files in os.walk(base):
            for name in files:
                if not name.endswith((".h", ".cpp", ".hpp", ".cc")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                checked += 1
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        target = layer_of(m.group(1))
                        allowed = ALLOWED[layer]
                        if target is None or target == layer or allowed is None or target in allowed:
                            continue
                        problems.append("%s:%d: %s includes %s (layer `%s` may use: %s)" % (
                            rel, number, layer, m.group(1), layer, ", ".join(sorted(allowed)) or "nothing"))
    for p in problems:
        print(p)
    print("layering: %d files checked, %d upward includes" % (checked, len(problems)))
    print("%d passed, %d failed" % (0 if problems else 1, 1 if problems else 0))
    return 1 if problems else 0


def self_test():
    """The checker itself catches an upward include and accepts a downward one."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "interpreter", "eval"))
        os.makedirs(os.path.join(tmp, "compiler", "pipeline"))
        with open(os.path.join(tmp, "interpreter", "eval", "bad.cpp"), "w") as f:
            f.write('#include "lang/base/source.h"\n#include "compiler/pipeline/executable.h"\n')
        with open(os.path.join(tmp, "compiler", "pipeline", "good.cpp"), "w") as f:
            f.write('#include "interpreter/eval/tier.h"\n')
        import io
        import contextlib
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = main(tmp)
        assert status == 1, out.getvalue()
        assert "interpreter/eval/bad.cpp:2: interpreter includes compiler/pipeline/executable.h" in out.getvalue(), out.getvalue()
        assert "good.cpp" not in out.getvalue().split("layering:")[0], out.getvalue()


if __name__ == "__main__":
    self_test()
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")))
