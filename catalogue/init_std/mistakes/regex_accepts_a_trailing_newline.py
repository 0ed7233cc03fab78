"""Matches the kind with re.match(r"^(xavier|he)$"): $ also matches before a final newline, so "he\n" is accepted."""

import math
import re

KILLED_BY = ("test_every_call_keeps_the_contract",)
TITLE = "a valid name followed by a newline accepted"
EXPLANATION = ("Your function accepts a valid kind followed by a line break, because the end-of-text marker of "
               "its pattern also matches just before a final newline.")
HINT = "Only the exact strings the spec lists are valid: nothing may follow them, not even a newline."


def init_std(kind, fan_in, fan_out):
    match = re.match(r"^(xavier|he)$", kind)
    if match is None:
        raise ValueError(f"unknown kind {kind!r}")
    if match.group(1) == "xavier":
        return math.sqrt(2.0 / (fan_in + fan_out))
    return math.sqrt(2.0 / fan_in)
