"""Option values the command line accepts, each refused when parsed if it cannot work.

Bounds come from what the worker and the graders need, so an impossible setting is the
operator's one-sentence error, never a class of students scored 0.
"""

from __future__ import annotations

import argparse
import math

# A trivial call must fit in the per-call CPU budget on a slow machine; the largest keeps the
# deadlines representable.
MIN_CALL_SECONDS, MAX_CALL_SECONDS = 0.5, 3600.0
# numpy with OpenBLAS needs about 160 MiB of address space to start, and the graders' largest
# inputs a little more; above a TiB the limit means nothing.
MIN_MEMORY_MB, MAX_MEMORY_MB = 256, 1 << 20


def call_seconds(text: str) -> float:
    value = float(text)
    if not (math.isfinite(value) and MIN_CALL_SECONDS <= value <= MAX_CALL_SECONDS):
        raise argparse.ArgumentTypeError(
            f"must be a number of seconds from {MIN_CALL_SECONDS:g} to {MAX_CALL_SECONDS:g}, not {text}")
    return value


def memory_mb(text: str) -> int:
    value = int(text)
    if not MIN_MEMORY_MB <= value <= MAX_MEMORY_MB:
        raise argparse.ArgumentTypeError(f"must be from {MIN_MEMORY_MB} to {MAX_MEMORY_MB} MiB, not {text}")
    return value


def at_least_one(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text}")
    return value


def seed(text: str) -> int:
    value = int(text)
    if not 0 <= value < 2**63:
        raise argparse.ArgumentTypeError(f"must be a whole number from 0 to 2**63 - 1, not {text}")
    return value


def percent(text: str) -> float:
    value = float(text)
    if not (math.isfinite(value) and 0 <= value <= 100):
        raise argparse.ArgumentTypeError(f"must be a percentage from 0 to 100, not {text}")
    return value
