"""PyTorch's best CPU path as a peer: torch.jit.optimize_for_inference (PyTorch 1.13) on the
same translation torch_peer.py runs eagerly.

The translated model becomes an nn.Module whose weights are its buffers (every @main
parameter except the inputs, the `data*` ones), traced in eval mode with the inputs, then
frozen (weights become constants, so batch norm folds into the preceding convolution) and
optimize_for_inference'd (oneDNN layouts, fused ReLU). Returns a forward of no arguments
like torch_peer's, or raises: the bench reports the failure instead of a time.
"""
import torch


def is_input(name):
    return name.startswith("data")


class Translated(torch.nn.Module):
    def __init__(self, run, params):
        super().__init__()
        self.run = run
        self.inputs = [k for k in params if is_input(k)]
        self.weights = [k for k in params if not is_input(k)]
        for k in self.weights:
            self.register_buffer("w_" + k, params[k])

    def forward(self, *xs):
        env = {k: getattr(self, "w_" + k) for k in self.weights}
        env.update(zip(self.inputs, xs))
        return self.run(env)


def optimized_forward(run, params):
    """run: torch_peer.compile_graph(...) or lstm_run(...); params: name -> tensor."""
    module = Translated(run, params).eval()
    xs = tuple(params[k] for k in module.inputs)
    with torch.no_grad():
        traced = torch.jit.trace(module, xs, check_trace=False)
        optimized = torch.jit.optimize_for_inference(torch.jit.freeze(traced))
        optimized(*xs)  # the first calls specialise the graph; the bench warms up as well
    return lambda: optimized(*xs)
