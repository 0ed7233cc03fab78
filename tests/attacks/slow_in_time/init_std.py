"""Correct, but every call takes just under the per-call timeout (the suite grades with 1 s).

Without a time budget per exercise this one file would keep the grader busy for minutes; with
one, the checks left when the budget is spent fail at once.
"""
import math
import time


def init_std(kind, fan_in, fan_out):
    time.sleep(0.9)
    if kind == "xavier":
        return math.sqrt(2.0 / (fan_in + fan_out))
    if kind == "he":
        return math.sqrt(2.0 / fan_in)
    raise ValueError(f"unknown kind {kind!r}")
