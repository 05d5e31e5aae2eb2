"""`relay run` on a model with numpy parameters, for the numeric model checks
(quantized_cnn_check.py, detection_head_check.py)."""
import os
import subprocess
import tempfile

import numpy as np


def run_model(relay, model, params, timeout=300):
    """The result of `relay run MODEL --arg NAME=FILE.npy ...` as an array, or None with a
    message (the exit status and stderr) when relay fails."""
    with tempfile.TemporaryDirectory() as tmp:
        args = []
        for name, value in params.items():
            path = os.path.join(tmp, name + ".npy")
            np.save(path, value)
            args += ["--arg", "%s=%s" % (name, path)]
        out = os.path.join(tmp, "out.npy")
        proc = subprocess.run([relay, "run", model, "--out", out] + args, capture_output=True, text=True,
                              timeout=timeout)
        if proc.returncode != 0:
            return None, "relay run failed (%d):\n%s%s" % (proc.returncode, proc.stdout, proc.stderr)
        return np.load(out), ""
