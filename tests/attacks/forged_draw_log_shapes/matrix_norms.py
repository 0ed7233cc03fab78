"""A wrong solution (one matrix for every layer) whose draw log says a draw no rng could make.

The log is the one the worker records, reached through the recording generator's closure; its
last entry is rewritten to rng.normal(loc=<dim + 1 zeros>, scale, size=(dim, dim)): loc does not
fit size. Every check that only reads the log would accept it, and replaying it raised in the
grader, which then withheld the points as its own failure ("not your fault") on every run.
"""
import numpy as np


def _log_of(rng):
    recorder = type(rng).normal
    cells = dict(zip(recorder.__code__.co_freevars, recorder.__closure__ or ()))
    return cells["log"].cell_contents if "log" in cells else None


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    weights = rng.normal(0.0, weight_std, size=(dim, dim)) if depth else None
    for _ in range(depth):
        g = weights @ g
        norms.append(float(np.linalg.norm(g)))
    for _ in range(max(depth - 1, 0)):
        rng.normal(0.0, weight_std, size=(dim, dim))
    log = _log_of(rng)
    if log and depth:
        import codec  # the worker's own module: what the log entries are encoded with
        log[-1] = {"method": "normal", "args": codec.encode([]),
                   "kwargs": codec.encode({"loc": np.zeros(dim + 1), "scale": float(weight_std), "size": [dim, dim]}),
                   "shape": [dim, dim], "dtype": "<f8"}
    return norms
