"""Matches the kind with re.match(r"^(xavier|he)$"): $ also matches before a final newline, so "he\n" is accepted."""

import math
import re

KILLED_BY = ("test_every_call_keeps_the_contract",)


def init_std(kind, fan_in, fan_out):
    match = re.match(r"^(xavier|he)$", kind)
    if match is None:
        raise ValueError(f"unknown kind {kind!r}")
    if match.group(1) == "xavier":
        return math.sqrt(2.0 / (fan_in + fan_out))
    return math.sqrt(2.0 / fan_in)
