"""Shared by the kernel tests, the notebook runner and bench/interactive: a private
Jupyter environment in a temporary directory, the kernelspec installed into it by
`relay jupyter --install`, and a helper that runs one cell and collects what it
published.

Everything Jupyter-related is imported lazily, after `isolated_jupyter()` has pointed
JUPYTER_PATH and friends at the temporary directory, so no user or system kernelspec,
config or runtime file takes part.
"""
import os
import subprocess
import tempfile
import time
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from test_runner import run_tests as _run_tests  # noqa: E402

SKIP = 77  # CTest's SKIP_RETURN_CODE for these tests


def have_jupyter_client():
    try:
        import jupyter_client  # noqa: F401
        return True
    except ImportError:
        return False


def isolated_jupyter(root=None):
    """Points every Jupyter directory at a fresh temporary tree; returns its root."""
    root = root or tempfile.mkdtemp(prefix="relay-jupyter-")
    for var, sub in (("JUPYTER_DATA_DIR", "data"), ("JUPYTER_CONFIG_DIR", "config"),
                     ("JUPYTER_RUNTIME_DIR", "runtime"), ("IPYTHONDIR", "ipython")):
        os.makedirs(os.path.join(root, sub), exist_ok=True)
        os.environ[var] = os.path.join(root, sub)
    os.environ["JUPYTER_PATH"] = os.path.join(root, "prefix", "share", "jupyter")
    os.environ.pop("JUPYTER_CONFIG_PATH", None)
    return root


def install_kernelspec(relay, root):
    """`relay jupyter --install --prefix ROOT/prefix`, which JUPYTER_PATH points at;
    returns the kernelspec directory."""
    prefix = os.path.join(root, "prefix")
    r = subprocess.run([relay, "jupyter", "--install", "--prefix", prefix], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    spec = os.path.join(prefix, "share", "jupyter", "kernels", "relay")
    assert spec in r.stdout, r.stdout
    return spec


def kernelspec_for_fuzzing(name, relay):
    """The fuzzers' set-up: False (after saying so) when jupyter_client is missing, else
    True with the kernelspec installed into a private Jupyter tree."""
    if not have_jupyter_client():
        print("%s: jupyter_client is not installed; skipped" % name)
        return False
    install_kernelspec(relay, isolated_jupyter())
    return True


def start_kernel(startup_timeout=30):
    """A KernelManager and a ready BlockingKernelClient for the kernelspec `relay`.

    While it waits, jupyter_client repeats its kernel_info request every second that
    goes unanswered (a sanitizer build starts slower than that); the kernel answers the
    repeats after the reply it waited for. They are read here, so that a test's first
    shell message is the reply to its own request."""
    import queue
    from jupyter_client.manager import start_new_kernel
    km, kc = start_new_kernel(kernel_name="relay", startup_timeout=startup_timeout)
    try:
        while True:
            kc.get_shell_msg(timeout=0.5)
    except queue.Empty:
        pass
    return km, kc


def shell_reply(kc, msg_id, timeout=10):
    """The shell reply to request `msg_id`, skipping replies to other requests."""
    deadline = time.monotonic() + timeout
    while True:
        r = kc.get_shell_msg(timeout=max(0.1, deadline - time.monotonic()))
        if r["parent_header"].get("msg_id") == msg_id:
            return r


class Cell:
    """What one execute_request produced: the reply's content and the iopub messages
    (msg_type, content, header) it caused, in order, without status messages."""

    def __init__(self, reply, messages):
        self.reply = reply
        self.messages = messages

    def of_type(self, msg_type):
        return [c for t, c, _ in self.messages if t == msg_type]

    def one(self, msg_type):
        found = self.of_type(msg_type)
        assert len(found) == 1, (msg_type, self.messages)
        return found[0]

    def stdout(self):
        return "".join(c["text"] for c in self.of_type("stream") if c["name"] == "stdout")

    def __repr__(self):
        return "Cell(reply=%r, messages=%r)" % (self.reply, self.messages)


def collect(kc, msg_id, timeout=30):
    """The iopub messages of request `msg_id` up to its `idle` status, then its reply."""
    messages = []
    deadline = time.monotonic() + timeout
    while True:
        m = kc.get_iopub_msg(timeout=max(0.1, deadline - time.monotonic()))
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        t, c = m["msg_type"], m["content"]
        if t == "status":
            if c["execution_state"] == "idle":
                break
            continue
        messages.append((t, c, m["header"]))
    return Cell(shell_reply(kc, msg_id, max(0.1, deadline - time.monotonic()))["content"], messages)


def execute(kc, code, timeout=30, **kwargs):
    return collect(kc, kc.execute(code, **kwargs), timeout)


def run_tests(namespace, argv):
    """tests/support/test_runner.py's runner in definition order, timed."""
    return _run_tests(namespace, argv, sort=False, timed=True)
