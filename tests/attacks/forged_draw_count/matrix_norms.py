"""A wrong solution (the theoretical norm, no matrix at all) whose draw log claims a draw of
2**1000 by 2**1000 values (red team). The grader's own arithmetic on that count (a float of it)
overflowed, and every check that read the log was withheld as the grader's failure, on every run,
instead of failed."""
import math


def matrix_gradient_norms(depth, dim, weight_std, rng):
    rng._kit_log.append({"method": "uniform", "args": [], "kwargs": {"__dict__": []},
                         "shape": [2 ** 1000, 2 ** 1000], "dtype": "<f8"})
    return [float(math.sqrt(dim))] * (depth + 1)
