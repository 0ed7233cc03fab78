"""Giving freed memory back to the system in a long-lived grading process.

A pool process grades shard after shard. What one student's checks allocate is freed when the
student is done, but glibc keeps the freed pages in its heaps, and their fragments grow with
every student: a process that grades a few hundred students held 100 to 200 MiB, most of it
free. Trimming after each student keeps its resident memory what one student needs.
"""

from __future__ import annotations

import ctypes
import functools


@functools.lru_cache(maxsize=1)
def _trim():
    """glibc's ``malloc_trim``, or None where the C library has none (musl, macOS, Windows)."""
    try:
        return ctypes.CDLL(None).malloc_trim  # the C library this Python runs on
    except (OSError, AttributeError, TypeError):  # no such function, or no CDLL(None) (Windows)
        return None


def give_back() -> None:
    """Return the free pages of the C heaps to the system, where the C library can."""
    trim = _trim()
    if trim is not None:
        trim(0)
