"""What the grading process inherits from whoever started it, made fit to grade with.

A daemon, a CI runner's shell or a scheduler can hand the grader settings that are the host's,
not the students': a low soft limit on open files, processes, file size, memory or CPU time (every
worker started for a student needs some, and a worker that cannot start cost a correct student
every check; the shared arena is a file of 16 MiB; OpenBLAS stops the grader when it cannot map
its threads' memory), SIGCHLD
ignored (bubblewrap then never learns that its child exited, and hangs), or a closed stdout.
Each is undone here, once, before anything is graded; hard limits and everything else are left
as they are.
"""

from __future__ import annotations

import os
import signal
import sys

from .streams import Diagnostics, fit_standard_streams

try:
    import resource
except ImportError:  # Windows
    resource = None

# Soft limits a shell may lower (ulimit -n, -u, -f, -v, -d, -t) that the grader needs room under: each
# worker's own are set apart (sandbox.Limits), and a host's hard limit stays as it is.
RAISED_LIMITS = ("RLIMIT_NOFILE", "RLIMIT_NPROC", "RLIMIT_FSIZE", "RLIMIT_AS", "RLIMIT_DATA", "RLIMIT_CPU")


# The kit's dependencies, by the names they are imported as (pyproject.toml's [project]
# dependencies; a test holds the two together). The kit imports most of them only when needed.
DEPENDENCIES = ("numpy", "pytest", "pytest_jsonreport", "jinja2", "rich", "yaml", "hypothesis")


def missing_dependency() -> str | None:
    """The first dependency this Python cannot import, found without importing any (or None)."""
    import importlib.util

    for name in DEPENDENCIES:
        try:
            if importlib.util.find_spec(name) is None:
                return name
        except (ImportError, ValueError):  # a broken install, or one blocked in sys.modules
            return name
    return None


def fit_process() -> None:
    """Idempotent; grade.py calls it before numpy loads (OpenBLAS starts its threads under the limits
    it finds then), and :func:`autograder.cli.main` again for callers from Python."""
    _open_missing_streams()
    fit_standard_streams()
    if not isinstance(sys.stderr, Diagnostics):
        sys.stderr = Diagnostics(sys.stderr)
    raise_soft_limits()
    if hasattr(signal, "SIGCHLD") and signal.getsignal(signal.SIGCHLD) == signal.SIG_IGN:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # ignored is inherited by bwrap, which then hangs


def raise_soft_limits() -> None:
    """Each soft limit of :data:`RAISED_LIMITS` up to its hard limit, as any user may."""
    if resource is None:
        return
    for name in RAISED_LIMITS:
        kind = getattr(resource, name, None)
        if kind is None:
            continue
        soft, hard = resource.getrlimit(kind)
        if soft != hard and (hard == resource.RLIM_INFINITY or soft < hard) and soft != resource.RLIM_INFINITY:
            try:
                resource.setrlimit(kind, (hard, hard))
            except (ValueError, OSError):
                pass  # macOS refuses an unlimited RLIMIT_NOFILE: keep what we have


def _open_missing_streams() -> None:
    """A closed stdout or stderr (``1>&-``) becomes /dev/null: the files the run writes are what count."""
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))
        if getattr(sys, f"__{name}__") is None:  # pytest's faulthandler needs the original stderr
            setattr(sys, f"__{name}__", getattr(sys, name))
